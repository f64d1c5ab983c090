"""A user's journeys, run as the user runs them: fresh virtual environments, commands run
from folders outside the checkout, with nothing of it on the import path."""

from __future__ import annotations

import importlib.util
import os
import re
import shutil
import subprocess
import sys
import tomllib
from collections.abc import Mapping, Sequence
from pathlib import Path

from tests.support.generation import REPO, SESSION, once

# A pip install resolves and builds from the registry: minutes on a busy two-core machine.
INSTALL_TIMEOUT_S = 900


def clean_environment(venv: Path | None = None, **extra: str) -> dict[str, str]:
    """This process's environment without what points into the checkout or its venv
    (PYTHONPATH, VIRTUAL_ENV); `venv`'s bin folder first on PATH."""
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "VIRTUAL_ENV")}
    env.update(extra)
    if venv is not None:
        env["PATH"] = f"{venv / 'bin'}{os.pathsep}{env.get('PATH', '')}"
    return env


def fresh_venv(folder: Path, *requirements: str) -> Path:
    """A new virtual environment at `folder` with `requirements` installed by its pip.

    Made without pip's own bootstrap (`ensurepip` installs and compiles pip anew in every
    venv: about 4 s of CPU), then given the session's copy of this interpreter's pip through a
    `.pth` file, and a `pip` command: `python -m pip` and `pip` work in it as in any venv."""
    subprocess.run([sys.executable, "-m", "venv", "--without-pip", str(folder)], check=True)
    site = next((folder / "lib").glob("python3*/site-packages"))
    (site / "session-pip.pth").write_text(f"{shared_pip()}\n", "utf-8")
    command = folder / "bin" / "pip"
    command.write_text(
        f"#!{folder / 'bin' / 'python'}\n"
        "import sys\n\nfrom pip._internal.cli.main import main\n\nsys.exit(main())\n",
        "utf-8",
    )
    command.chmod(0o755)
    if requirements:
        pip(folder, "install", *requirements)
    return folder


def shared_pip() -> Path:
    """A folder holding this interpreter's pip alone (the package and its metadata), copied
    once per session: what fresh_venv puts on its venvs' path."""

    def make(folder: Path) -> None:
        spec = importlib.util.find_spec("pip")
        assert spec and spec.origin, "the interpreter running the tests has no pip"
        package = Path(spec.origin).parent
        (metadata,) = package.parent.glob("pip-*.dist-info")
        for source in (package, metadata):
            shutil.copytree(source, folder / source.name)

    return once("pip", make)


def wheelhouse() -> Path:
    """Every distribution the journeys install, downloaded from the registry once per session
    by one resolution of `installed_requirements` (the requirements, not the projects: pip
    would build each project's metadata in an environment of its own first)."""

    def make(folder: Path) -> None:
        download = [sys.executable, "-m", "pip", "--disable-pip-version-check", "-q", "download"]
        done = subprocess.run(
            [*download, "-d", str(folder), *installed_requirements(shared_clone())],
            env=clean_environment(),
            capture_output=True,
            text=True,
            timeout=INSTALL_TIMEOUT_S,
        )
        assert done.returncode == 0, f"pip download failed:\n{done.stdout}{done.stderr}"

    return once("wheelhouse", make)


def installed_requirements(clone: Path) -> list[str]:
    """What the journeys install, as requirements: toolgen's dependencies and build backend,
    the built-in library's dependencies and those of its extra `all` (a generated package's
    extras are the same), pre-commit and build."""
    toolgen = tomllib.loads((clone / "pyproject.toml").read_text("utf-8"))
    builtin = tomllib.loads((clone / "generated" / "pyproject.toml").read_text("utf-8"))
    extras = builtin["project"]["optional-dependencies"]
    wanted = [*toolgen["project"]["dependencies"], *builtin["project"]["dependencies"]]
    for requirement in extras["all"]:  # `all` names the project's other extras
        itself = re.fullmatch(rf"{builtin['project']['name']}\[(.*)\]", requirement)
        if itself:
            wanted += [r for name in itself.group(1).split(",") for r in extras[name.strip()]]
        else:
            wanted.append(requirement)
    backend = toolgen["build-system"]["requires"]
    # hatchling's editable builds (`pip install -e`) ask for `editables` too
    return [*wanted, *backend, "editables", "pre-commit", "build"]


def from_wheelhouse() -> dict[str, str]:
    """pip's settings that install from the session's wheelhouse alone (settings a user's
    machine may have too: an offline cache of wheels). The journeys' pip commands run as
    written; what changes is where pip finds distributions: the wheelhouse, resolved against
    the registry once for the session, not the registry again in each command (a resolution
    there is seconds of CPU: large index pages parsed, every wheel downloaded anew)."""
    return {"PIP_NO_INDEX": "1", "PIP_FIND_LINKS": str(wheelhouse())}


def pip(venv: Path, *args: str) -> subprocess.CompletedProcess[str]:
    """`venv`'s pip run with `args`, from the session's wheelhouse; it must succeed."""
    done = subprocess.run(
        [str(venv / "bin" / "python"), "-m", "pip", "--disable-pip-version-check", "-q", *args],
        env=clean_environment(venv, **from_wheelhouse()),
        capture_output=True,
        text=True,
        timeout=INSTALL_TIMEOUT_S,
    )
    assert done.returncode == 0, f"pip {' '.join(args)} failed:\n{done.stdout}{done.stderr}"
    return done


def outside(
    venv: Path,
    argv: Sequence[str],
    cwd: Path,
    env: Mapping[str, str] | None = None,
    code: int = 0,
) -> subprocess.CompletedProcess[str]:
    """`argv` run from `cwd` with `venv`'s commands first on PATH; its exit code must be `code`."""
    done = subprocess.run(
        list(argv),
        cwd=cwd,
        env=clean_environment(venv, **(env or {})),
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert done.returncode == code, f"{argv} exited {done.returncode}:\n{done.stdout}{done.stderr}"
    return done


def toolgen_on_path(bin_dir: Path) -> dict[str, str]:
    """An environment whose `toolgen` command runs this checkout's toolgen (as `toolgen` does
    once installed), for commands a journey documents."""
    bin_dir.mkdir(parents=True, exist_ok=True)
    shim = bin_dir / "toolgen"
    shim.write_text(f'#!/bin/sh\nexec "{sys.executable}" -m toolgen "$@"\n', "utf-8")
    shim.chmod(0o755)
    return {"PATH": f"{bin_dir}{os.pathsep}{os.environ.get('PATH', '')}"}


# Who commits in a journey's git repositories (a machine may have no git identity).
GIT_IDENTITY = {
    "GIT_AUTHOR_NAME": "t",
    "GIT_AUTHOR_EMAIL": "t@example.com",
    "GIT_COMMITTER_NAME": "t",
    "GIT_COMMITTER_EMAIL": "t@example.com",
}
# The placeholder the docs use for toolgen's repository.
TOOLGEN_URL = "https://github.com/OWNER/toolgen"


def toolgen_clone(folder: Path) -> Path:
    """A clone of this checkout's committed HEAD, as branch `main` (what the docs install)."""
    subprocess.run(["git", "clone", "-q", str(REPO), str(folder)], check=True)
    subprocess.run(["git", "checkout", "-q", "-B", "main"], cwd=folder, check=True)
    return folder


def shared_clone() -> Path:
    """toolgen_clone, made once per test session: the journeys that install toolgen from its
    repository name the same one, so pre-commit's environment of its hooks is shared too."""

    def make(folder: Path) -> None:
        toolgen_clone(folder / "toolgen")

    return once("toolgen-clone", make) / "toolgen"


# pre-commit's store, shared by the session's journeys as a user's is by their projects: the
# environment of toolgen's hooks is made once for a repository and rev, by the first to run them.
PRE_COMMIT_HOME = SESSION / "pre-commit-home"


GETTING_STARTED = (REPO / "docs" / "getting-started.md").read_text("utf-8")


def journey(number: int) -> str:
    """The `sh` blocks of docs/getting-started.md's section `## <number>. ...`, joined."""
    match = re.search(rf"^## {number}\. .*?$(.*?)(?=^## |\Z)", GETTING_STARTED, re.M | re.S)
    assert match, f"docs/getting-started.md has no section '## {number}.'"
    blocks = re.findall(r"^```sh\n(.*?)^```$", match.group(1), re.M | re.S)
    assert blocks, f"section {number} has no sh block"
    return "".join(blocks)


def filled(script: str, clone: Path) -> str:
    """The placeholders filled in: pip's git URL wants a host (file://localhost), git's not."""
    script = script.replace(f"git+{TOOLGEN_URL}", f"git+file://localhost{clone}")
    return script.replace(TOOLGEN_URL, str(clone))


def run_script(script: str, cwd: Path) -> str:
    """`script` run under bash from `cwd`, as a user pastes it; its stdout. It must succeed."""
    env = clean_environment(
        None, **GIT_IDENTITY, PRE_COMMIT_HOME=str(PRE_COMMIT_HOME), **from_wheelhouse()
    )
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


def journey_four() -> tuple[Path, str]:
    """docs/getting-started.md's fourth journey (the built-in library installed in another
    project), run as written once per test session: (its folder, which holds the
    `builtin-venv` it made; what it printed). Its test and the tests of that venv share it."""

    def make(folder: Path) -> None:
        printed = run_script(filled(journey(4), shared_clone()), folder)
        (folder / "printed.txt").write_text(printed, "utf-8")

    folder = once("journey-four", make)
    return folder, (folder / "printed.txt").read_text("utf-8")
