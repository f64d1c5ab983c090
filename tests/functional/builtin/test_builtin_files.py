"""The built-in file tools stay inside their workspace root, within their size limits."""

from __future__ import annotations

import os
import stat
from pathlib import Path
from typing import Any

import pytest

from implementations import EditHistory, Workspace, registry
from tests.support.builtin_support import check_examples, within

SECRET = "top secret\n"


@pytest.fixture
def root(tmp_path: Path) -> Path:
    root = tmp_path / "root"
    root.mkdir()
    (root / "notes.txt").write_text("a\nb\nc\n")
    (tmp_path / "secret.txt").write_text(SECRET)
    return root


@pytest.fixture
def r(root: Path) -> Any:
    return registry(root)


def kind(result: Any) -> str | None:
    return None if result.failure is None else result.failure.kind


# Every file tool, called on `path`, with whatever else it needs.
CALLS = {
    "read_file": lambda p: {"path": p},
    "write_file": lambda p: {"path": p, "content": "x", "overwrite": True},
    "append_file": lambda p: {"path": p, "content": "x"},
    "edit_file": lambda p: {"path": p, "old_text": "top", "new_text": "x"},
    "insert_lines": lambda p: {"path": p, "after_line": 0, "text": "x"},
    "undo_edit": lambda p: {"path": p},
    "list_directory": lambda p: {"path": p},
    "glob_files": lambda p: {"path": p, "pattern": "*"},
}


@pytest.mark.parametrize("tool", sorted(CALLS))
@pytest.mark.parametrize(
    "path", ["../secret.txt", "/etc/passwd", "sub/../../secret.txt", "notes.txt\x00x", "..", "/"]
)
def test_paths_that_leave_the_root_are_refused(
    r: Any, tmp_path: Path, tool: str, path: str
) -> None:
    result = r.call(tool, CALLS[tool](path))
    assert kind(result) == "outside_root", result.text()
    assert "top secret" not in result.text()
    assert (tmp_path / "secret.txt").read_text() == SECRET


@pytest.mark.parametrize("tool", sorted(CALLS))
def test_symlinks_inside_the_root_pointing_out_are_refused(
    root: Path, r: Any, tmp_path: Path, tool: str
) -> None:
    os.symlink(tmp_path / "secret.txt", root / "link.txt")
    os.symlink(tmp_path, root / "linkdir")
    target = "linkdir" if tool in ("list_directory", "glob_files") else "link.txt"
    assert kind(r.call(tool, CALLS[tool](target))) == "outside_root"
    assert kind(r.call(tool, CALLS[tool]("linkdir/secret.txt"))) == "outside_root"
    assert (tmp_path / "secret.txt").read_text() == SECRET


def test_symlinks_that_stay_inside_work_and_loops_are_declared_errors(root: Path, r: Any) -> None:
    os.symlink("notes.txt", root / "alias.txt")
    assert r.call("read_file", {"path": "alias.txt"}).to_dict()["result"]["total_lines"] == 3
    os.symlink("loop2", root / "loop1")
    os.symlink("loop1", root / "loop2")
    for tool in sorted(CALLS):
        assert kind(r.call(tool, CALLS[tool]("loop1"))) == "outside_root", tool


def test_fifos_and_devices_are_never_opened(root: Path, r: Any) -> None:
    os.mkfifo(root / "pipe")  # opening a FIFO for reading would block until a writer comes
    for tool in ("read_file", "write_file", "append_file", "edit_file", "insert_lines"):
        result = within(5, lambda: r.call(tool, CALLS[tool]("pipe")))
        assert kind(result) == "not_a_file", (tool, result.text())
    os.symlink("/dev/zero", root / "zero")  # endless: a read without a check never returns
    assert kind(within(5, lambda: r.call("read_file", {"path": "zero"}))) == "outside_root"
    try:
        os.mknod(root / "null", stat.S_IFCHR | 0o666, os.makedev(1, 3))
    except (PermissionError, OSError):
        return  # no CAP_MKNOD here; the FIFO above covers special files in the root
    for tool in ("read_file", "write_file", "append_file"):
        assert kind(r.call(tool, CALLS[tool]("null"))) == "not_a_file", tool


def test_read_range_list_and_write(root: Path, r: Any) -> None:
    read = r.call("read_file", {"path": "notes.txt", "start_line": 2, "end_line": 2})
    assert read.to_dict()["result"] == {
        "path": "notes.txt",
        "type": "text",
        "content": "2\tb",
        "start_line": 2,
        "end_line": 2,
        "total_lines": 3,
    }
    written = r.call("write_file", {"path": "d/new.txt", "content": "hi"})
    assert written.to_dict()["result"] == {"path": "d/new.txt", "bytes_written": 2, "created": True}
    assert kind(r.call("write_file", {"path": "d/new.txt", "content": "again"})) == "exists"
    assert (
        kind(r.call("write_file", {"path": "d", "content": "x", "overwrite": True})) == "not_a_file"
    )
    listing = r.call("list_directory", {}).to_dict()["result"]["entries"]
    assert [(e["name"], e["type"]) for e in listing] == [("d", "directory"), ("notes.txt", "file")]
    assert kind(r.call("list_directory", {"path": "notes.txt"})) == "not_a_directory"
    assert kind(r.call("list_directory", {"path": "nope"})) == "not_found"


def test_read_counts_lines_as_editors_do(root: Path, r: Any) -> None:
    (root / "crlf.txt").write_bytes(b"one\r\ntwo\x0cstill two\r\n")
    result = r.call("read_file", {"path": "crlf.txt"}).to_dict()["result"]
    assert result["content"] == "1\tone\n2\ttwo\x0cstill two" and result["total_lines"] == 2


def test_overwrite_keeps_the_mode_and_never_follows_a_planted_temporary(
    root: Path, r: Any, tmp_path: Path
) -> None:
    (root / "run.sh").write_text("old")
    (root / "run.sh").chmod(0o755)
    os.symlink(
        tmp_path / "secret.txt", root / ".run.sh.tmp"
    )  # where a naive writer puts its temporary
    assert r.call("write_file", {"path": "run.sh", "content": "new", "overwrite": True}).ok
    assert (root / "run.sh").read_text() == "new" and stat.S_IMODE(
        (root / "run.sh").stat().st_mode
    ) == 0o755
    assert (tmp_path / "secret.txt").read_text() == SECRET
    assert not [p for p in os.listdir(root) if p.endswith(".toolgen-tmp")]


def test_size_limits_on_read_and_write(root: Path, tmp_path: Path) -> None:
    small = registry(Workspace(root, max_read_bytes=100, max_write_bytes=10))
    (root / "big.txt").write_bytes(b"x" * 101)
    (root / "bin.dat").write_bytes(b"\xff\xfe\x00")
    assert kind(small.call("read_file", {"path": "big.txt"})) == "too_large"
    assert kind(small.call("read_file", {"path": "bin.dat"})) == "not_text"
    assert kind(small.call("write_file", {"path": "w.txt", "content": "x" * 11})) == "too_large"
    assert (
        kind(small.call("write_file", {"path": "w.txt", "content": "é" * 6})) == "too_large"
    )  # 12 bytes
    assert not (root / "w.txt").exists()
    assert small.call("append_file", {"path": "a.txt", "content": "x" * 8}).ok
    assert kind(small.call("append_file", {"path": "a.txt", "content": "yyy"})) == "too_large"
    assert (root / "a.txt").read_text() == "x" * 8
    assert (
        kind(small.call("edit_file", {"path": "a.txt", "old_text": "x" * 8, "new_text": "z" * 11}))
        == "too_large"
    )
    assert (
        kind(small.call("edit_file", {"path": "big.txt", "old_text": "x", "new_text": ""}))
        == "too_large"
    )
    assert (root / "a.txt").read_text() == "x" * 8
    # the default limit
    (root / "huge.txt").write_bytes(b"x" * 2_000_001)
    assert kind(registry(root).call("read_file", {"path": "huge.txt"})) == "too_large"


def test_append(root: Path, r: Any) -> None:
    first = r.call("append_file", {"path": "logs/run.md", "content": "one\n"}).to_dict()["result"]
    assert first == {"path": "logs/run.md", "bytes_appended": 4, "size": 4, "created": True}
    second = r.call("append_file", {"path": "logs/run.md", "content": "två\n"}).to_dict()["result"]
    assert second == {"path": "logs/run.md", "bytes_appended": 5, "size": 9, "created": False}
    assert (root / "logs" / "run.md").read_text() == "one\ntvå\n"
    assert (
        kind(r.call("append_file", {"path": "absent.md", "content": "x", "create": False}))
        == "not_found"
    )
    assert kind(r.call("append_file", {"path": "logs", "content": "x"})) == "not_a_file"


def test_edit_replaces_exactly_one_occurrence(root: Path, r: Any) -> None:
    source = root / "app.py"
    source.write_text("def old(x):\n    return x\n\nprint(old(1))\nprint(old(2))\n")
    source.chmod(0o640)
    ok = r.call(
        "edit_file", {"path": "app.py", "old_text": "def old(x):", "new_text": "def new(x):"}
    )
    assert ok.to_dict()["result"] == {
        "path": "app.py",
        "replacements": 1,
        "first_line": 1,
        "bytes_written": len(source.read_bytes()),
    }
    assert (
        source.read_text().startswith("def new(x):\n")
        and stat.S_IMODE(source.stat().st_mode) == 0o640
    )
    ambiguous = r.call(
        "edit_file", {"path": "app.py", "old_text": "print(old(", "new_text": "print(new("}
    )
    assert kind(ambiguous) == "ambiguous" and "lines 4, 5" in ambiguous.text()
    assert "print(old(1))" in source.read_text()  # unchanged
    everywhere = r.call(
        "edit_file", {"path": "app.py", "old_text": "old(", "new_text": "new(", "replace_all": True}
    )
    assert everywhere.to_dict()["result"]["replacements"] == 2 and "old" not in source.read_text()
    missing = r.call("edit_file", {"path": "app.py", "old_text": "1\treturn x", "new_text": ""})
    assert kind(missing) == "no_match" and "line-number prefixes" in missing.text()
    assert (
        kind(r.call("edit_file", {"path": "absent.py", "old_text": "a", "new_text": "b"}))
        == "not_found"
    )


def test_edit_edge_cases(root: Path, r: Any) -> None:
    (root / "a.txt").write_text("aaa")
    assert (
        kind(r.call("edit_file", {"path": "a.txt", "old_text": "aa", "new_text": "b"}))
        == "ambiguous"
    )  # overlapping
    (root / "crlf.txt").write_bytes(b"one\r\ntwo\r\n")
    crlf = r.call("edit_file", {"path": "crlf.txt", "old_text": "one\ntwo", "new_text": "x"})
    assert kind(crlf) == "no_match" and "CRLF" in crlf.text()
    assert r.call("edit_file", {"path": "crlf.txt", "old_text": "one\r\ntwo", "new_text": "x"}).ok
    assert (root / "crlf.txt").read_bytes() == b"x\r\n"
    (root / "bin.dat").write_bytes(b"\xff\xfe")
    assert (
        kind(r.call("edit_file", {"path": "bin.dat", "old_text": "a", "new_text": "b"}))
        == "not_text"
    )
    many = root / "many.txt"
    many.write_text("x\n" * 200)
    assert (
        "and more"
        in r.call("edit_file", {"path": "many.txt", "old_text": "x", "new_text": "y"}).text()
    )


@pytest.fixture
def tree_root(root: Path, tmp_path: Path) -> Path:
    for relative in [
        "src/a.py",
        "src/pkg/b.py",
        "src/pkg/deep/c.py",
        "src/pkg/deep/d.txt",
        ".github/ci.yml",
        "src/.hidden/e.py",
        "docs/index.md",
        "README.md",
    ]:
        (root / relative).parent.mkdir(parents=True, exist_ok=True)
        (root / relative).write_text("x")
    (tmp_path / "outside").mkdir()
    (tmp_path / "outside" / "z.py").write_text("x")
    os.symlink(tmp_path / "outside", root / "src" / "out")  # a directory link leading out
    os.symlink(tmp_path / "outside" / "z.py", root / "src" / "out.py")  # a file link leading out
    os.symlink("pkg", root / "src" / "alias")  # a directory link staying inside
    return root


def glob(r: Any, **arguments: Any) -> Any:
    result = r.call("glob_files", arguments)
    assert result.ok, result.text()
    return result.to_dict()["result"]


def test_glob_patterns(tree_root: Path, r: Any) -> None:
    assert glob(r, pattern="**/*.py")["matches"] == [
        "src/a.py",
        "src/pkg/b.py",
        "src/pkg/deep/c.py",
    ]
    assert glob(r, pattern="src/*")["matches"] == ["src/a.py", "src/alias/", "src/pkg/"]
    assert glob(r, pattern="src/**")["matches"] == [
        "src/a.py",
        "src/alias/",
        "src/pkg/",
        "src/pkg/b.py",
        "src/pkg/deep/",
        "src/pkg/deep/c.py",
        "src/pkg/deep/d.txt",
    ]
    assert glob(r, pattern="*.py", path="src/pkg")["matches"] == ["src/pkg/b.py"]
    assert glob(r, pattern="**/[cd].*")["matches"] == ["src/pkg/deep/c.py", "src/pkg/deep/d.txt"]
    assert glob(r, pattern="**/[!c].py")["matches"] == ["src/a.py", "src/pkg/b.py"]
    assert glob(r, pattern="src/pkg/deep/?.txt")["matches"] == ["src/pkg/deep/d.txt"]
    assert glob(r, pattern="nothing/*.py")["matches"] == []
    assert glob(r, pattern="./src//./*.py")["matches"] == ["src/a.py"]


def test_glob_hidden_entries_only_when_asked(tree_root: Path, r: Any) -> None:
    assert ".github/ci.yml" not in glob(r, pattern="**/*")["matches"]
    assert glob(r, pattern=".github/*")["matches"] == [".github/ci.yml"]
    hidden = glob(r, pattern="**/*.py", include_hidden=True)["matches"]
    assert "src/.hidden/e.py" in hidden


def test_glob_stays_inside_and_is_bounded(tree_root: Path, r: Any) -> None:
    everything = glob(r, pattern="**/*", include_hidden=True)["matches"]
    assert not [m for m in everything if "z.py" in m or m.startswith("src/out")]
    assert "src/alias/b.py" not in everything  # directory links are not followed
    limited = glob(r, pattern="**/*", max_results=2)
    assert limited == {"matches": ["README.md", "docs/"], "truncated": True}
    for pattern in ("../*", "/etc/*", "src/../../*"):
        assert kind(r.call("glob_files", {"pattern": pattern})) == "outside_root", pattern
    assert kind(r.call("glob_files", {"pattern": "*", "path": "README.md"})) == "not_a_directory"
    assert kind(r.call("glob_files", {"pattern": "*", "path": "absent"})) == "not_found"
    assert kind(r.call("glob_files", {"pattern": "[z-a]"})) == "invalid_pattern"
    scan_limited = registry(Workspace(tree_root, max_scan_entries=3))
    assert kind(scan_limited.call("glob_files", {"pattern": "**/*"})) == "too_many_entries"


def test_examples(root: Path) -> None:
    (root / "README.md").write_text("".join(f"line {i}\n" for i in range(12)))
    (root / "src").mkdir()
    (root / "src" / "app.py").write_text("def old_name(x):\n    return x\n")
    assert (
        check_examples("files", registry(root)) == 8
    )  # undo_edit's reverts insert_lines' (they run in file order)


def insert(r: Any, path: str, after_line: int, text: str) -> dict[str, Any]:
    result = r.call("insert_lines", {"path": path, "after_line": after_line, "text": text})
    assert result.ok, result.text()
    value: dict[str, Any] = result.to_dict()["result"]
    return value


def test_insert_lines_at_the_start_in_the_middle_and_at_the_end(root: Path, r: Any) -> None:
    source = root / "notes.txt"  # "a\nb\nc\n"
    source.chmod(0o640)
    assert insert(r, "notes.txt", 0, "start") == {
        "path": "notes.txt",
        "first_line": 1,
        "lines_inserted": 1,
        "total_lines": 4,
        "bytes_written": 12,
    }
    assert insert(r, "notes.txt", 2, "x1\n  x2\n")["first_line"] == 3
    assert insert(r, "notes.txt", 6, "end\n\n")["total_lines"] == 8
    assert source.read_text() == "start\na\nx1\n  x2\nb\nc\nend\n\n"
    assert stat.S_IMODE(source.stat().st_mode) == 0o640
    read = r.call("read_file", {"path": "notes.txt", "start_line": 3, "end_line": 4}).to_dict()[
        "result"
    ]
    assert read["content"] == "3\tx1\n4\t  x2"  # first_line is what read_file numbers it


def test_insert_lines_keeps_the_files_line_endings(root: Path, r: Any) -> None:
    (root / "last.txt").write_text("one\ntwo")  # no newline at the end: still none after
    assert insert(r, "last.txt", 2, "three\n")["total_lines"] == 3
    assert (root / "last.txt").read_text() == "one\ntwo\nthree"
    (root / "crlf.txt").write_bytes(b"one\r\ntwo\r\n")
    assert insert(r, "crlf.txt", 1, "x\ny")["lines_inserted"] == 2
    assert (root / "crlf.txt").read_bytes() == b"one\r\nx\r\ny\r\ntwo\r\n"
    (root / "empty.txt").write_text("")
    assert insert(r, "empty.txt", 0, "\n")["total_lines"] == 1  # an empty line
    assert (root / "empty.txt").read_text() == "\n"


def test_insert_lines_errors_change_nothing(root: Path, r: Any) -> None:
    beyond = r.call("insert_lines", {"path": "notes.txt", "after_line": 4, "text": "x"})
    assert kind(beyond) == "line_out_of_range" and "has 3 lines" in beyond.text()
    assert (
        kind(r.call("insert_lines", {"path": "absent.txt", "after_line": 0, "text": "x"}))
        == "not_found"
    )
    assert kind(r.call("insert_lines", {"path": ".", "after_line": 0, "text": "x"})) == "not_a_file"
    (root / "bin.dat").write_bytes(b"\xff\xfe")
    assert (
        kind(r.call("insert_lines", {"path": "bin.dat", "after_line": 0, "text": "x"}))
        == "not_text"
    )
    small = registry(Workspace(root, max_write_bytes=8))
    assert (
        kind(small.call("insert_lines", {"path": "notes.txt", "after_line": 0, "text": "xyz"}))
        == "too_large"
    )
    assert (root / "notes.txt").read_text() == "a\nb\nc\n"
    invalid = r.call("insert_lines", {"path": "notes.txt", "after_line": -1, "text": "x"})
    assert (
        invalid.failure is not None and "after_line" in invalid.text()
    )  # refused by the spec's minimum


def undo(r: Any, path: str) -> dict[str, Any]:
    result = r.call("undo_edit", {"path": path})
    assert result.ok, result.text()
    value: dict[str, Any] = result.to_dict()["result"]
    return value


def test_undo_reverts_edits_inserts_and_overwrites_last_first(root: Path, r: Any) -> None:
    source = root / "notes.txt"
    source.chmod(0o600)
    assert r.call("edit_file", {"path": "notes.txt", "old_text": "b", "new_text": "B"}).ok
    insert(r, "notes.txt", 0, "top")
    assert r.call(
        "write_file", {"path": "notes.txt", "content": "replaced\n", "overwrite": True}
    ).ok
    assert undo(r, "notes.txt") == {
        "path": "notes.txt",
        "undone": "write_file",
        "bytes_written": 10,
        "remaining": 2,
    }
    assert source.read_text() == "top\na\nB\nc\n"
    assert undo(r, "notes.txt")["undone"] == "insert_lines" and source.read_text() == "a\nB\nc\n"
    assert undo(r, "notes.txt") == {
        "path": "notes.txt",
        "undone": "edit_file",
        "bytes_written": 6,
        "remaining": 0,
    }
    assert source.read_text() == "a\nb\nc\n" and stat.S_IMODE(source.stat().st_mode) == 0o600
    again = r.call("undo_edit", {"path": "notes.txt"})
    assert kind(again) == "nothing_to_undo" and "each only once" in again.text()
    assert not [p for p in os.listdir(root) if p.endswith(".toolgen-tmp")]


def test_undo_refuses_when_the_file_changed_since(root: Path, r: Any) -> None:
    assert r.call("edit_file", {"path": "notes.txt", "old_text": "a", "new_text": "A"}).ok
    assert r.call("append_file", {"path": "notes.txt", "content": "d\n"}).ok  # not remembered
    changed = r.call("undo_edit", {"path": "notes.txt"})
    assert kind(changed) == "changed_since" and "edit_file" in changed.text()
    assert (root / "notes.txt").read_text() == "A\nb\nc\nd\n"  # the append is kept
    (root / "notes.txt").write_text("A\nb\nc\n")  # back to what the edit left, by another program
    assert (
        undo(r, "notes.txt")["undone"] == "edit_file"
        and (root / "notes.txt").read_text() == "a\nb\nc\n"
    )
    assert r.call("edit_file", {"path": "notes.txt", "old_text": "a", "new_text": "A"}).ok
    (root / "notes.txt").unlink()
    assert kind(r.call("undo_edit", {"path": "notes.txt"})) == "changed_since"
    assert not (root / "notes.txt").exists()


def test_undo_knows_files_by_what_they_are_not_by_how_they_are_named(root: Path, r: Any) -> None:
    os.symlink("notes.txt", root / "alias.txt")
    assert r.call("edit_file", {"path": "alias.txt", "old_text": "a", "new_text": "A"}).ok
    assert undo(r, "./notes.txt")["undone"] == "edit_file"
    assert kind(r.call("undo_edit", {"path": "absent.txt"})) == "nothing_to_undo"
    assert r.call(
        "write_file", {"path": "new.txt", "content": "x"}
    ).ok  # a created file is never deleted
    assert kind(r.call("undo_edit", {"path": "new.txt"})) == "nothing_to_undo"
    assert (
        kind(registry(root).call("undo_edit", {"path": "notes.txt"})) == "nothing_to_undo"
    )  # another workspace


def test_undo_history_is_bounded(root: Path) -> None:
    two = registry(Workspace(root, max_undo_steps=2))
    for letter in "abc":
        assert two.call(
            "edit_file", {"path": "notes.txt", "old_text": letter, "new_text": letter.upper()}
        ).ok
    assert undo(two, "notes.txt")["remaining"] == 1
    assert undo(two, "notes.txt")["remaining"] == 0
    assert (root / "notes.txt").read_text() == "A\nb\nc\n"  # the first edit was dropped
    off = registry(Workspace(root, max_undo_steps=0))
    assert off.call("edit_file", {"path": "notes.txt", "old_text": "A", "new_text": "a"}).ok
    assert kind(off.call("undo_edit", {"path": "notes.txt"})) == "nothing_to_undo"


def test_the_history_drops_the_oldest_changes_of_all_files_past_its_byte_budget() -> None:
    overhead = EditHistory.ENTRY_OVERHEAD
    history = EditHistory(max_steps=10, max_bytes=3 * overhead + 250)
    a, b = Path("/w/a"), Path("/w/b")
    history.record(a, "edit_file", b"1" * 100, b"a1")
    history.record(b, "edit_file", b"2" * 100, b"b1")
    history.record(a, "insert_lines", b"3" * 50, b"a2")
    assert len(history) == 3 and history.kept_bytes == 3 * overhead + 250
    history.record(b, "write_file", b"", b"b2")  # one more: the oldest of all (a's first) goes
    assert len(history) == 3 and history.kept_bytes == 3 * overhead + 150
    last_of_a = history.last(a)
    assert last_of_a is not None and last_of_a.before == b"3" * 50
    assert history.pop(a, last_of_a) == 0 and history.last(a) is None
    history.record(a, "edit_file", b"x" * (4 * overhead), b"")  # larger than the budget: not kept
    assert history.last(a) is None and len(history) == 2
    history.forget(b)
    assert len(history) == 0 and history.kept_bytes == 0
