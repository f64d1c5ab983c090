"""docs/getting-started.md, run as written: every `sh` block of a journey, in order, under bash
in an empty folder, with nothing of this checkout on the import path.

The page's placeholders are filled in as a user would: toolgen's repository URL with a clone
of this checkout whose `main` is its HEAD (what the page installs and clones). Journeys 1 to 3
run in one folder (each goes on from the last); journey 4 in another.
"""

from __future__ import annotations

import json
import re
import subprocess
from pathlib import Path

import pytest

from tests.support.generation import REPO
from tests.support.journeys import GIT_IDENTITY, TOOLGEN_URL, clean_environment, toolgen_clone

PAGE = (REPO / "docs" / "getting-started.md").read_text("utf-8")


def journey(number: int) -> str:
    """The `sh` blocks of the section `## <number>. ...`, joined."""
    match = re.search(rf"^## {number}\. .*?$(.*?)(?=^## |\Z)", PAGE, re.M | re.S)
    assert match, f"docs/getting-started.md has no section '## {number}.'"
    blocks = re.findall(r"^```sh\n(.*?)^```$", match.group(1), re.M | re.S)
    assert blocks, f"section {number} has no sh block"
    return "".join(blocks)


def filled(script: str, clone: Path) -> str:
    """The placeholders filled in: pip's git URL wants a host (file://localhost), git's not."""
    script = script.replace(f"git+{TOOLGEN_URL}", f"git+file://localhost{clone}")
    return script.replace(TOOLGEN_URL, str(clone))


@pytest.fixture(scope="module")
def clone(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return toolgen_clone(tmp_path_factory.mktemp("toolgen-clone") / "toolgen")


def run(script: str, cwd: Path) -> str:
    env = clean_environment(None, **GIT_IDENTITY, PRE_COMMIT_HOME=str(cwd / ".pre-commit-home"))
    done = subprocess.run(
        ["bash", "-euo", "pipefail", "-c", script],
        cwd=cwd,
        env=env,
        capture_output=True,
        text=True,
        timeout=1500,
    )
    assert done.returncode == 0, (
        f"{script}\n--- exited {done.returncode}:\n{done.stdout}{done.stderr}"
    )
    return done.stdout


def test_journeys_one_to_three_your_tools_served_and_checked_in_ci(
    clone: Path, tmp_path: Path
) -> None:
    installed = run(filled(journey(1), clone), tmp_path)
    assert installed.splitlines()[-1] == "toolgen, version 0.1.0"  # after what pip says
    tools = run(filled(journey(2), clone), tmp_path)
    assert json.loads(tools[tools.index("{") : tools.rindex("}") + 1]) == {
        "ok": True,
        "result": {"temperature": 21.5},
    }, tools
    assert tools.splitlines()[-1] == "21.5", "the client in its own venv did not print 21.5"
    assert "up to date" in tools
    ci = run(filled(journey(3), clone), tmp_path)
    for hook in ("toolgen lint", "toolgen check", "toolgen breaking"):
        assert re.search(rf"^{hook}\.+Passed$", ci, re.M), ci


def test_journey_four_the_builtin_library_in_another_project(clone: Path, tmp_path: Path) -> None:
    out = run(filled(journey(4), clone), tmp_path).splitlines()[-2:]  # after what pip says
    assert out[0] == "notes.txt"
    assert out[1].startswith("Tool 'run_shell' is off on this host: set TOOLGEN_ENABLE_PROCESSES=1")
