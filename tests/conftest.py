"""Shared helpers: generate packages in process, import them in isolation."""

from __future__ import annotations

import importlib
import os
import sys
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from types import ModuleType

import pytest

from toolgen.config import BuildOptions
from toolgen.pipeline import build
from toolgen.write import apply, plan

REPO = Path(__file__).resolve().parents[1]
# Tests never read or fill the user's cache; subprocesses inherit this.
os.environ.setdefault("TOOLGEN_CACHE_DIR", tempfile.mkdtemp(prefix="toolgen-test-cache-"))
UPDATE_GOLDEN = bool(os.environ.get("TOOLGEN_UPDATE_GOLDEN"))


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


@contextmanager
def imported(out: Path, package: str) -> Iterator[ModuleType]:
    """Import a generated package from `out`, then forget it (so names can be reused)."""
    sys.path.insert(0, str(out))
    try:
        importlib.invalidate_caches()
        yield importlib.import_module(package)
    finally:
        sys.path.remove(str(out))
        for name in [m for m in sys.modules if m == package or m.startswith(package + ".")]:
            del sys.modules[name]


@pytest.fixture
def write_specs(tmp_path: Path):  # type: ignore[no-untyped-def]
    """Write {relative path: text} under tmp_path/specs and return that folder."""

    def write(files: dict[str, str]) -> Path:
        root = tmp_path / "specs"
        for relative, text in files.items():
            path = root / relative
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_text(text, "utf-8")
        return root

    return write
