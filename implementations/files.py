"""File tools, confined to one workspace root.

Confinement is checked on the path the model sends: absolute paths, `..` that climbs out,
and symlinks that resolve outside the root are refused (`outside_root`). Files are opened
with O_NOFOLLOW | O_NONBLOCK and checked with fstat, so a FIFO, a device or a symlink
swapped in after the check is never read or written (`not_a_file`), and nothing blocks.
Sizes are bounded on read and write. What this does not defend against: another process
with write access to the workspace swapping a *directory* for a symlink between the check
and the use (the process tools, when enabled, can do that, and can read anything anyway).
"""

from __future__ import annotations

import errno
import os
import stat
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Literal

from toolgen_builtin import ToolError
from toolgen_builtin.tools.append_file import AppendFileArguments, AppendFileResult, AppendFileTool
from toolgen_builtin.tools.edit_file import EditFileArguments, EditFileResult, EditFileTool
from toolgen_builtin.tools.list_directory import (
    ListDirectoryArguments,
    ListDirectoryResult,
    ListDirectoryResultEntry,
    ListDirectoryTool,
)
from toolgen_builtin.tools.read_file import ReadFileArguments, ReadFileResult, ReadFileTool
from toolgen_builtin.tools.write_file import WriteFileArguments, WriteFileResult, WriteFileTool

EntryType = Literal["file", "directory", "symlink", "other"]
_OPEN_FLAGS = os.O_NOFOLLOW | os.O_NONBLOCK | os.O_CLOEXEC
_AMBIGUOUS_LINES_SHOWN = 10


@dataclass(frozen=True)
class Workspace:
    """The folder the file tools may touch, and their limits."""

    root: Path
    max_read_bytes: int = 2_000_000  # read_file, edit_file (and data tools reading a file)
    max_write_bytes: int = 2_000_000  # the size a write, an append or an edit may leave a file at
    max_scan_entries: int = 100_000  # directory entries glob_files may look at (else too_many_entries)
    max_scan_depth: int = 64  # directories below its start glob_files may enter (else too_deep)
    max_scan_seconds: float = 5.0  # glob_files' time budget (at most half its declared timeout_s)

    def __post_init__(self) -> None:
        object.__setattr__(self, "root", Path(self.root))  # a str is fine too

    def resolve(self, relative: str) -> Path:
        """The real path for `relative`, or ToolError('outside_root'). Symlinks are resolved first."""
        root = self.root.resolve()
        if "\x00" in relative or os.path.isabs(relative):
            raise ToolError("outside_root", f"{relative!r} is not a path relative to the workspace root")
        try:
            target = (root / relative).resolve()
        except (RuntimeError, OSError) as exc:  # a symlink loop (RuntimeError in 3.11), a name too long
            raise ToolError("outside_root", f"{relative!r} cannot be resolved: {exc}") from None
        if not target.is_relative_to(root):
            raise ToolError("outside_root", f"{relative!r} leads outside the workspace root")
        return target

    def relative(self, path: Path) -> str:
        """`path` (resolved, inside the root) as the workspace-relative string a model sends back."""
        return path.relative_to(self.root.resolve()).as_posix() or "."

    def read_bytes(self, relative: str, limit: int | None = None) -> bytes:
        """The content of a regular file, at most `limit` bytes (else too_large); not_found, not_a_file."""
        limit = self.max_read_bytes if limit is None else limit
        target = self.resolve(relative)
        with os_errors(relative):
            fd = open_regular(target, relative, os.O_RDONLY)
            with os.fdopen(fd, "rb") as handle:
                size = os.fstat(handle.fileno()).st_size
                if size > limit:
                    raise ToolError("too_large", f"{relative} has {size} bytes; the limit is {limit}")
                data = handle.read(limit + 1)  # the file may have grown since fstat
        if len(data) > limit:
            raise ToolError("too_large", f"{relative} has more than {limit} bytes")
        return data

    def read_text(self, relative: str) -> str:
        try:
            return self.read_bytes(relative).decode("utf-8")
        except UnicodeDecodeError:
            raise ToolError("not_text", f"{relative} is not UTF-8 text") from None


@contextmanager
def os_errors(relative: str, missing: str = "not_found") -> Iterator[None]:
    """OSError -> the declared kinds: missing -> `missing`, a special file or a symlink -> ..."""
    try:
        yield
    except FileNotFoundError:
        raise ToolError(missing, f"{relative} does not exist") from None
    except IsADirectoryError:
        raise ToolError("not_a_file", f"{relative} is a directory") from None
    except OSError as exc:
        if exc.errno == errno.ELOOP:  # O_NOFOLLOW met a symlink swapped in after the check
            raise ToolError("outside_root", f"{relative} changed into a symlink; refused") from None
        if exc.errno == errno.ENXIO:  # a FIFO without a reader, a socket
            raise ToolError("not_a_file", f"{relative} is a special file") from None
        raise ToolError("io_error", f"{relative}: {exc.strerror or exc}") from None


def open_regular(target: Path, relative: str, flags: int, mode: int = 0o644) -> int:
    """A descriptor for a regular file, never following a symlink nor blocking on a FIFO or device.

    The lstat check keeps special files from being opened at all (opening some devices has
    effects); the fstat check catches a file swapped in between the two.
    """
    try:
        before = os.lstat(target)
    except FileNotFoundError:
        if not flags & os.O_CREAT:
            raise
    else:
        if not stat.S_ISREG(before.st_mode):
            raise ToolError("not_a_file", f"{relative} is not a regular file")
    fd = os.open(target, flags | _OPEN_FLAGS, mode)
    if not stat.S_ISREG(os.fstat(fd).st_mode):
        os.close(fd)
        raise ToolError("not_a_file", f"{relative} is not a regular file")
    return fd


def replace_atomically(target: Path, data: bytes, mode: int = 0o644) -> None:
    """Write `data` to a new file beside `target`, then rename it over `target`.

    mkstemp creates the file with O_EXCL, so a planted symlink with the temporary name is
    never followed; rename replaces the directory entry, so a symlink at `target` is
    replaced, not followed.
    """
    fd, tmp = tempfile.mkstemp(dir=target.parent, prefix=f".{target.name}.", suffix=".toolgen-tmp")
    try:
        with os.fdopen(fd, "wb") as handle:
            handle.write(data)
            os.fchmod(handle.fileno(), mode)
        os.replace(tmp, target)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise


def _lines(text: str) -> list[str]:
    """Lines as editors count them: split on "\\n", a trailing "\\r" dropped, no empty last line."""
    lines = text.split("\n")
    if lines and lines[-1] == "":
        lines.pop()
    return [line[:-1] if line.endswith("\r") else line for line in lines]


class ReadFile(ReadFileTool):
    def __init__(self, workspace: Workspace) -> None:
        self.workspace = workspace

    def run(self, arguments: ReadFileArguments) -> ReadFileResult:
        lines = _lines(self.workspace.read_text(arguments.path))
        start = arguments.start_line
        end = len(lines) if arguments.end_line is None else min(arguments.end_line, len(lines))
        selected = lines[start - 1 : end]
        content = "\n".join(f"{number}\t{line}" for number, line in enumerate(selected, start))
        return ReadFileResult(path=arguments.path, content=content, start_line=start,
                              end_line=max(end, start - 1), total_lines=len(lines))


class ListDirectory(ListDirectoryTool):
    def __init__(self, workspace: Workspace) -> None:
        self.workspace = workspace

    def run(self, arguments: ListDirectoryArguments) -> ListDirectoryResult:
        target = self.workspace.resolve(arguments.path)
        entries = []
        with os_errors(arguments.path):
            if not target.is_dir():
                if not target.exists():
                    raise ToolError("not_found", f"{arguments.path} does not exist")
                raise ToolError("not_a_directory", f"{arguments.path} is not a directory")
            for child in sorted(target.iterdir(), key=lambda p: p.name):
                if child.name.startswith(".") and not arguments.include_hidden:
                    continue
                info = child.lstat()
                kind: EntryType = (
                    "symlink" if stat.S_ISLNK(info.st_mode) else "directory" if stat.S_ISDIR(info.st_mode)
                    else "file" if stat.S_ISREG(info.st_mode) else "other"
                )
                size = info.st_size if kind == "file" else None
                entries.append(ListDirectoryResultEntry(name=child.name, type=kind, size=size))
        return ListDirectoryResult(path=arguments.path, entries=entries)


class WriteFile(WriteFileTool):
    def __init__(self, workspace: Workspace) -> None:
        self.workspace = workspace

    def run(self, arguments: WriteFileArguments) -> WriteFileResult:
        data = arguments.content.encode("utf-8")
        if len(data) > self.workspace.max_write_bytes:
            raise ToolError("too_large", f"the content has {len(data)} bytes; the limit is "
                            f"{self.workspace.max_write_bytes}")
        target = self.workspace.resolve(arguments.path)
        if target == self.workspace.root.resolve():
            raise ToolError("not_a_file", f"{arguments.path} is the workspace root, a directory")
        with os_errors(arguments.path, missing="io_error"):
            try:
                before = os.lstat(target)
            except FileNotFoundError:
                before = None
            if before is not None and not stat.S_ISREG(before.st_mode):
                raise ToolError("not_a_file", f"{arguments.path} is not a regular file")
            if before is not None and not arguments.overwrite:
                raise ToolError("exists", f"{arguments.path} exists; pass overwrite: true to replace it")
            target.parent.mkdir(parents=True, exist_ok=True)
            mode = stat.S_IMODE(before.st_mode) if before is not None else 0o644
            replace_atomically(target, data, mode)
        return WriteFileResult(path=arguments.path, bytes_written=len(data), created=before is None)


class AppendFile(AppendFileTool):
    def __init__(self, workspace: Workspace) -> None:
        self.workspace = workspace

    def run(self, arguments: AppendFileArguments) -> AppendFileResult:
        data = arguments.content.encode("utf-8")
        limit = self.workspace.max_write_bytes
        target = self.workspace.resolve(arguments.path)
        with os_errors(arguments.path):
            created = not os.path.lexists(target)
            if created and not arguments.create:
                raise ToolError("not_found", f"{arguments.path} does not exist (create is false)")
            if created:
                target.parent.mkdir(parents=True, exist_ok=True)
            flags = os.O_WRONLY | os.O_APPEND | (os.O_CREAT if arguments.create else 0)
            fd = open_regular(target, arguments.path, flags)
            with os.fdopen(fd, "wb") as handle:
                size = os.fstat(handle.fileno()).st_size
                if size + len(data) > limit:
                    raise ToolError("too_large", f"{arguments.path} would grow to {size + len(data)} bytes; "
                                    f"the limit is {limit}")
                handle.write(data)
                handle.flush()
                size = os.fstat(handle.fileno()).st_size
        return AppendFileResult(path=arguments.path, bytes_appended=len(data), size=size, created=created)


class EditFile(EditFileTool):
    def __init__(self, workspace: Workspace) -> None:
        self.workspace = workspace

    def run(self, arguments: EditFileArguments) -> EditFileResult:
        path, old = arguments.path, arguments.old_text
        text = self.workspace.read_text(path)
        first = text.find(old)
        if first < 0:
            hint = ""
            if "\r\n" in text and "\n" in old and "\r\n" not in old:
                hint = " (the file has CRLF line endings; old_text has LF only)"
            raise ToolError("no_match", f"old_text does not occur in {path}{hint}; read the file again "
                            "and copy the text exactly, without line-number prefixes")
        if not arguments.replace_all:
            starts = self._occurrences(text, old, first)
            if len(starts) > 1:
                lines = sorted({text.count("\n", 0, i) + 1 for i in starts})
                shown = ", ".join(map(str, lines[:_AMBIGUOUS_LINES_SHOWN]))
                more = " and more" if len(lines) > _AMBIGUOUS_LINES_SHOWN else ""
                raise ToolError("ambiguous", f"old_text occurs {len(starts)}{'+' if more else ''} times in "
                                f"{path} (starting on lines {shown}{more}); add surrounding lines to make it "
                                "unique, or set replace_all: true")
        count = text.count(old) if arguments.replace_all else 1
        updated = text.replace(old, arguments.new_text) if arguments.replace_all else (
            text[:first] + arguments.new_text + text[first + len(old):]
        )
        data = updated.encode("utf-8")
        if len(data) > self.workspace.max_write_bytes:
            raise ToolError("too_large", f"the edited file would have {len(data)} bytes; the limit is "
                            f"{self.workspace.max_write_bytes}")
        target = self.workspace.resolve(path)
        with os_errors(path):
            mode = stat.S_IMODE(os.lstat(target).st_mode)
            replace_atomically(target, data, mode)
        return EditFileResult(path=path, replacements=count, first_line=text.count("\n", 0, first) + 1,
                              bytes_written=len(data))

    @staticmethod
    def _occurrences(text: str, old: str, first: int) -> list[int]:
        """Start offsets of old_text, overlapping ones included, up to enough to report."""
        starts = [first]
        while len(starts) <= _AMBIGUOUS_LINES_SHOWN * 10:
            found = text.find(old, starts[-1] + 1)
            if found < 0:
                break
            starts.append(found)
        return starts
