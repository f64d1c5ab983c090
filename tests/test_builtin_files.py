"""The built-in file tools stay inside their workspace root."""

from __future__ import annotations

import os
import sys
from pathlib import Path

import pytest

from conftest import REPO

sys.path[:0] = [str(REPO / "generated"), str(REPO)]
from implementations import registry  # noqa: E402


@pytest.fixture
def tools(tmp_path: Path):  # type: ignore[no-untyped-def]
    root = tmp_path / "root"
    root.mkdir()
    (root / "notes.txt").write_text("a\nb\nc\n")
    (tmp_path / "secret.txt").write_text("top secret\n")
    return root, registry(root)


@pytest.mark.parametrize("path", ["../secret.txt", "/etc/passwd", "sub/../../secret.txt", "notes.txt\x00x"])
def test_paths_that_leave_the_root_are_refused(tools, path: str) -> None:  # type: ignore[no-untyped-def]
    _, r = tools
    result = r.call("read_file", {"path": path})
    assert result.failure is not None and result.failure.kind == "outside_root"
    assert "top secret" not in result.text()


def test_symlinks_pointing_out_are_refused(tools, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    root, r = tools
    os.symlink(tmp_path / "secret.txt", root / "link.txt")
    assert r.call("read_file", {"path": "link.txt"}).failure.kind == "outside_root"
    assert r.call("write_file", {"path": "link.txt", "content": "x", "overwrite": True}).failure.kind == "outside_root"
    assert (tmp_path / "secret.txt").read_text() == "top secret\n"


def test_read_range_list_and_write(tools) -> None:  # type: ignore[no-untyped-def]
    root, r = tools
    read = r.call("read_file", {"path": "notes.txt", "start_line": 2, "end_line": 2})
    assert read.to_dict()["result"] == {"path": "notes.txt", "content": "2\tb", "start_line": 2, "end_line": 2, "total_lines": 3}
    written = r.call("write_file", {"path": "d/new.txt", "content": "hi"})
    assert written.to_dict()["result"] == {"path": "d/new.txt", "bytes_written": 2, "created": True}
    assert r.call("write_file", {"path": "d/new.txt", "content": "again"}).failure.kind == "exists"
    listing = r.call("list_directory", {}).to_dict()["result"]["entries"]
    assert [(e["name"], e["type"]) for e in listing] == [("d", "directory"), ("notes.txt", "file")]


def test_oversized_and_binary_files_are_refused(tools) -> None:  # type: ignore[no-untyped-def]
    root, r = tools
    (root / "big.txt").write_bytes(b"x" * 2_000_001)
    (root / "bin.dat").write_bytes(b"\xff\xfe\x00")
    assert r.call("read_file", {"path": "big.txt"}).failure.kind == "too_large"
    assert r.call("read_file", {"path": "bin.dat"}).failure.kind == "not_text"
