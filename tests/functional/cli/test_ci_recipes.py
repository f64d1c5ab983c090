"""docs/breaking.md's CI recipes, run as written in a temporary git repository.

The GitHub Actions workflow: its two `uses:` steps are what a clone of the project and a fresh
venv stand for; every `run:` step runs under bash as written, with the placeholders a user
fills in (toolgen's repository URL, `${{ github.base_ref }}`) filled in with a local clone of
toolgen and `main`. The pre-commit configuration: written to `.pre-commit-config.yaml` as
shown, the URL pointing at the clone, and run for real by pre-commit from PyPI. One venv;
the clone and pre-commit's store are the session's (tests/docs/test_getting_started.py
installs the same hooks from the same clone). pip, the workflow's and pre-commit's, installs
from the session's wheelhouse (`from_wheelhouse` in tests/support/journeys.py).
"""

from __future__ import annotations

import re
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
import yaml

from tests.support.generation import REPO
from tests.support.journeys import (
    GIT_IDENTITY,
    PRE_COMMIT_HOME,
    TOOLGEN_URL,
    clean_environment,
    fresh_venv,
    from_wheelhouse,
    shared_clone,
)

DOC = (REPO / "docs" / "breaking.md").read_text("utf-8")
URL = TOOLGEN_URL
SPECS = REPO / "tests" / "golden" / "cases" / "weather" / "specs"


def recipe(heading: str) -> Any:
    """The YAML block under `### heading` in docs/breaking.md, parsed."""
    section = DOC.split(f"### {heading}\n", 1)[1]
    block = re.search(r"^```yaml\n(.*?)^```$", section, re.M | re.S)
    assert block, f"docs/breaking.md has no YAML block under '### {heading}'"
    return yaml.safe_load(block.group(1))


def sh(command: list[str], cwd: Path, venv: Path | None = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        command,
        cwd=cwd,
        env=clean_environment(
            venv, **GIT_IDENTITY, PRE_COMMIT_HOME=str(PRE_COMMIT_HOME), **from_wheelhouse()
        ),
        capture_output=True,
        text=True,
        timeout=900,
    )


def ok(command: list[str], cwd: Path, venv: Path | None = None) -> str:
    done = sh(command, cwd, venv)
    assert done.returncode == 0, f"{command}:\n{done.stdout}{done.stderr}"
    return done.stdout


@pytest.fixture(scope="module")
def world(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path, Path]:
    """(a clone of toolgen whose `main` is this HEAD, the project's upstream repository, a venv
    with pre-commit)."""
    root = tmp_path_factory.mktemp("ci")
    toolgen = shared_clone()
    upstream = root / "upstream"
    shutil.copytree(SPECS, upstream / "specs")
    (upstream / "pyproject.toml").write_text(
        '[tool.toolgen]\nspecs = "specs"\nout = "out"\npackage = "weather"\n', "utf-8"
    )
    ok([sys.executable, "-m", "toolgen", "generate"], upstream)
    ok(["git", "init", "-q", "-b", "main"], upstream)
    ok(["git", "add", "."], upstream)
    ok(["git", "commit", "-q", "-m", "weather tools"], upstream)
    return toolgen, upstream, fresh_venv(root / "venv", "pre-commit")


def change(project: Path, old: str, new: str, message: str) -> None:
    """A spec edited, the package regenerated, both committed (what a pull request holds)."""
    spec = project / "specs" / "get_weather.yaml"
    text = spec.read_text("utf-8")
    assert old in text
    spec.write_text(text.replace(old, new), "utf-8")
    ok([sys.executable, "-m", "toolgen", "generate"], project)
    ok(["git", "commit", "-q", "-am", message], project)


def test_the_github_workflow_runs_as_written(
    world: tuple[Path, Path, Path], tmp_path: Path
) -> None:
    toolgen, upstream, venv = world
    (job,) = recipe("GitHub Actions")["jobs"].values()
    uses = [step["uses"] for step in job["steps"] if "uses" in step]
    assert uses == ["actions/checkout@v4", "actions/setup-python@v5"]  # what the test stands in for
    checkout = next(step for step in job["steps"] if step.get("uses") == "actions/checkout@v4")
    assert checkout["with"]["fetch-depth"] == 0, "--against reads the base branch through git"
    project = tmp_path / "project"  # the checkout of a pull request, with origin/main fetched
    ok(["git", "clone", "-q", str(upstream), str(project)], tmp_path)
    ok(["git", "checkout", "-q", "-b", "feature"], project)
    change(
        project,
        "    days: {",
        "    hours: {type: integer, description: Hours}\n    days: {",
        "hours",
    )
    runs = [step["run"] for step in job["steps"] if "run" in step]
    assert any(URL in run for run in runs), "the install step no longer names toolgen's repository"
    outputs = []
    for run in runs:
        # file://localhost/...: pip's URL check wants a host (git takes either form)
        command = run.replace(URL, f"file://localhost{toolgen}")
        command = command.replace("${{ github.base_ref }}", "main")
        outputs.append(ok(["bash", "-euc", command], project, venv))
    assert any("::notice" in out and "PARAM_ADDED" in out for out in outputs), outputs
    ok(["git", "checkout", "-q", "-b", "breaks", "main"], project)
    change(
        project,
        "    days: {type: integer, minimum: 1, maximum: 14, description: Number of forecast days}\n",
        "",
        "no days",
    )
    breaking = runs[-1].replace("${{ github.base_ref }}", "main")
    done = sh(["bash", "-euc", breaking], project, venv)
    assert done.returncode == 1 and "::error" in done.stdout and "PARAM_NO_DELETE" in done.stdout


def test_the_pre_commit_configuration_runs_as_written(
    world: tuple[Path, Path, Path], tmp_path: Path
) -> None:
    toolgen, upstream, venv = world
    config = recipe("pre-commit")
    (repo,) = config["repos"]
    assert repo["repo"] == URL
    repo["repo"] = str(toolgen)  # the URL a user puts there: here, the clone
    assert ok(["git", "rev-parse", repo["rev"]], toolgen)  # the documented rev exists
    project = tmp_path / "project"
    ok(["git", "clone", "-q", str(upstream), str(project)], tmp_path)
    (project / ".pre-commit-config.yaml").write_text(yaml.safe_dump(config), "utf-8")
    ok(["git", "add", ".pre-commit-config.yaml"], project)
    ok(["git", "commit", "-q", "-m", "pre-commit"], project)
    clean = ok(["pre-commit", "run", "--all-files"], project, venv)
    for hook in ("toolgen lint", "toolgen check", "toolgen breaking"):
        assert re.search(rf"^{hook}\.+Passed$", clean, re.M), clean
    change(
        project,
        "    days: {type: integer, minimum: 1, maximum: 14, description: Number of forecast days}\n",
        "",
        "no days",
    )
    done = sh(["pre-commit", "run", "--all-files"], project, venv)
    assert done.returncode == 1 and "PARAM_NO_DELETE" in done.stdout, done.stdout + done.stderr
    assert re.search(r"^toolgen breaking\.+Failed$", done.stdout, re.M)
    assert re.search(r"^toolgen check\.+Passed$", done.stdout, re.M)
