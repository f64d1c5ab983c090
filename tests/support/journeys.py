"""A user's journeys, run as the user runs them: fresh virtual environments, commands run
from folders outside the checkout, with nothing of it on the import path."""

from __future__ import annotations

import os
import subprocess
import sys
from collections.abc import Mapping, Sequence
from pathlib import Path

from tests.support.generation import REPO

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
    """A new virtual environment at `folder` with `requirements` installed by its own pip."""
    subprocess.run([sys.executable, "-m", "venv", str(folder)], check=True)
    if requirements:
        pip(folder, "install", *requirements)
    return folder


def pip(venv: Path, *args: str) -> subprocess.CompletedProcess[str]:
    done = subprocess.run(
        [str(venv / "bin" / "python"), "-m", "pip", "--disable-pip-version-check", "-q", *args],
        env=clean_environment(venv),
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
