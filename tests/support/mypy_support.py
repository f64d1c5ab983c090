"""`mypy --strict` for the tests that type-check generated code, from a warm cache.

Most of a mypy run over a generated package goes to what its runtime imports (pydantic, the
MCP SDK, uvicorn, ...), the same in every run: about 8 s of CPU a run, against 2 s for the
package itself. The session's first call fills a cache with it (`once`: a package generated
from a golden case's specs under a name no test uses, checked); each call then starts from a
copy of that cache of its own (no two processes write one cache), so it analyses afresh what
it checks and what the cache lacks. mypy re-analyses any cached module whose source or
options differ.
"""

from __future__ import annotations

import shutil
import subprocess
import sys
import tempfile
from collections.abc import Mapping
from pathlib import Path

from tests.support.generation import CASES, generate, once

WARM_UP = "mypy_warm_up"  # the package that fills the cache: no test checks one of that name


def mypy(
    *args: str, env: Mapping[str, str], cwd: Path | None = None
) -> subprocess.CompletedProcess[str]:
    """`python -m mypy --strict <args>` run in `env` (and `cwd`), from a copy of the warm cache."""
    warm = once("mypy-cache", _warm_up) / "cache"
    cache = Path(tempfile.mkdtemp(prefix="toolgen-mypy-cache-"))
    try:
        shutil.copytree(warm, cache, dirs_exist_ok=True)
        return subprocess.run(
            [sys.executable, "-m", "mypy", "--strict", "--cache-dir", str(cache), *args],
            capture_output=True,
            text=True,
            env=dict(env),
            cwd=cwd,
            check=False,
        )
    finally:
        shutil.rmtree(cache, ignore_errors=True)


def _warm_up(folder: Path) -> None:
    generate(CASES / "weather" / "specs", folder / "out", WARM_UP)
    done = subprocess.run(
        [sys.executable, "-m", "mypy", "--strict", "--cache-dir", str(folder / "cache")]
        + ["-p", WARM_UP],
        capture_output=True,
        text=True,
        env={"MYPYPATH": str(folder / "out"), "PATH": ""},
        cwd=folder,
        check=False,
    )
    assert done.returncode == 0, done.stdout + done.stderr
