"""Paths of the repository and its test data; generate packages in process, import them in isolation."""

from __future__ import annotations

import atexit
import fcntl
import importlib
import os
import re
import shutil
import sys
import tempfile
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from types import ModuleType

from toolgen.config import BuildOptions
from toolgen.pipeline import build
from toolgen.write import apply, plan

REPO = Path(__file__).resolve().parents[2]
# Tests never read or fill the user's cache; subprocesses inherit this.
os.environ.setdefault("TOOLGEN_CACHE_DIR", tempfile.mkdtemp(prefix="toolgen-test-cache-"))
# A folder of this test session, shared by its xdist workers (they inherit the environment):
# what is deterministic and costly is made there once (`once`). The process that made it
# removes it at its exit.
if "TOOLGEN_TEST_SESSION" not in os.environ:
    os.environ["TOOLGEN_TEST_SESSION"] = tempfile.mkdtemp(prefix="toolgen-test-session-")
    atexit.register(shutil.rmtree, os.environ["TOOLGEN_TEST_SESSION"], True)
SESSION = Path(os.environ["TOOLGEN_TEST_SESSION"])
UPDATE_GOLDEN = bool(os.environ.get("TOOLGEN_UPDATE_GOLDEN"))
# The corpus of real tool definitions: a checkout named `shared` beside the repository, or
# TOOLGEN_CORPUS. Tests that need it skip with this reason when it is absent.
CORPUS = Path(os.environ.get("TOOLGEN_CORPUS") or REPO.parent / "shared" / "corpus")
NO_CORPUS = f"no corpus at {CORPUS} (set TOOLGEN_CORPUS to run the corpus tests)"

CASES = REPO / "tests" / "golden" / "cases"
# Verbatim copies of toolgen's runtime in a generated package: tested once (tests/unit/runtime/test_runtime.py),
# not pinned by every golden case; so are the digests of them that the package checks on import.
RUNTIME_COPIES = re.compile(r"[^/]+/(_runtime|testing/_support)/")
_DIGEST = re.compile(rb'^(_RUNTIME_SHA256|_SUPPORT_SHA256) = "[0-9a-f]{64}"$', re.M)


def generate(specs: Path, out: Path, package: str) -> dict[str, str]:
    """Run the pipeline and write the output; fails the test on diagnostics with errors."""
    options = BuildOptions(package=package)
    result = build(specs, options)
    assert result.ok, "\n".join(d.text() for d in result.diagnostics)
    out.mkdir(parents=True, exist_ok=True)
    apply(out, plan(out, result.files, options))
    return result.files


def tree(root: Path) -> dict[str, bytes]:
    """Every file under root, by relative path (the byte-for-byte snapshot of a directory)."""
    return {
        p.relative_to(root).as_posix(): p.read_bytes()
        for p in sorted(root.rglob("*"))
        if p.is_file() and "__pycache__" not in p.parts
    }


def golden_tree(root: Path) -> dict[str, bytes]:
    """tree(root) as a golden case pins it: without the runtime copies, their digests masked."""
    return {
        path: _DIGEST.sub(rb'\1 = "<sha256 of the runtime sources>"', data)
        for path, data in tree(root).items()
        if not RUNTIME_COPIES.match(path)
    }


def write_golden(root: Path, expected: Path) -> None:
    """Replace `expected` with golden_tree(root)."""
    shutil.rmtree(expected, ignore_errors=True)
    for path, data in golden_tree(root).items():
        (expected / path).parent.mkdir(parents=True, exist_ok=True)
        (expected / path).write_bytes(data)


_case_outputs: dict[str, Path] = {}


def case_output(case: str) -> Path:
    """A golden case's output, generated once per session: what tests/golden/cases/<case>/expected
    pins, plus the runtime. Tests that import or type-check a case use this."""
    if case not in _case_outputs:
        out = Path(tempfile.mkdtemp(prefix=f"toolgen-case-{case}-"))
        atexit.register(shutil.rmtree, out, True)
        generate(CASES / case / "specs", out, case)
        _case_outputs[case] = out
    return _case_outputs[case]


def once(name: str, make: Callable[[Path], None]) -> Path:
    """The folder `name` of this test session, filled by `make(folder)` once: the first
    process to ask makes it under a lock, the others (xdist's workers) wait and reuse it.
    For what is deterministic and costly, such as a package of hundreds of tools."""
    folder = SESSION / name
    folder.mkdir(exist_ok=True)
    with open(folder / ".lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        if not (folder / ".made").exists():
            make(folder)
            (folder / ".made").touch()
    return folder


@contextmanager
def imported(out: Path, package: str) -> Iterator[ModuleType]:
    """Import a generated package from `out`, then forget what this import added (so names
    can be reused). A package imported before is left as it was: forgetting it would make a
    later import of it load a second copy, apart from the modules other tests hold."""
    before = set(sys.modules)
    sys.path.insert(0, str(out))
    try:
        importlib.invalidate_caches()
        yield importlib.import_module(package)
    finally:
        sys.path.remove(str(out))
        for name in [m for m in sys.modules if m == package or m.startswith(package + ".")]:
            if name not in before:
                del sys.modules[name]
