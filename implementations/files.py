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
import hashlib
import os
import re
import stat
import tempfile
import threading
from collections import OrderedDict, deque
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Literal, NamedTuple

from toolgen_builtin import Image, Output, ToolError
from toolgen_builtin._runtime.results.content import LIMITS, sniff
from toolgen_builtin.tools.append_file import AppendFileArguments, AppendFileResult, AppendFileTool
from toolgen_builtin.tools.edit_file import EditFileArguments, EditFileResult, EditFileTool
from toolgen_builtin.tools.insert_lines import (
    InsertLinesArguments,
    InsertLinesResult,
    InsertLinesTool,
)
from toolgen_builtin.tools.list_directory import (
    ListDirectoryArguments,
    ListDirectoryResult,
    ListDirectoryResultEntry,
    ListDirectoryTool,
)
from toolgen_builtin.tools.read_file import ReadFileArguments, ReadFileResult, ReadFileTool
from toolgen_builtin.tools.undo_edit import UndoEditArguments, UndoEditResult, UndoEditTool
from toolgen_builtin.tools.write_file import WriteFileArguments, WriteFileResult, WriteFileTool

from .documents import read_pdf

EntryType = Literal["file", "directory", "symlink", "other"]
Editor = Literal["edit_file", "insert_lines", "write_file"]
_OPEN_FLAGS = os.O_NOFOLLOW | os.O_NONBLOCK | os.O_CLOEXEC
_AMBIGUOUS_LINES_SHOWN = 10
_BARE_LF = re.compile(r"(?<!\r)\n")


class Change(NamedTuple):
    """One remembered change of a file: what it held before, and a digest of what it held after."""

    tool: Editor
    before: bytes
    after_digest: bytes  # sha256 of the content the change left

    @property
    def cost(self) -> int:
        return len(self.before) + EditHistory.ENTRY_OVERHEAD


class EditHistory:
    """The last changes of each file, for undo_edit; bounded per file and in bytes overall.

    A change is kept as the file's whole previous content plus a digest of the new one: undo
    restores the previous content only while the file still holds exactly what the change
    left. Past `max_bytes` (previous contents, plus a fixed overhead per change, so that
    changes of empty files are bounded too), the oldest changes of all files are dropped first.
    """

    ENTRY_OVERHEAD = 256

    def __init__(self, max_steps: int, max_bytes: int) -> None:
        self.max_steps = max_steps
        self.max_bytes = max_bytes
        self._lock = threading.Lock()
        self._changes: dict[Path, deque[tuple[int, Change]]] = {}  # per file, oldest first
        self._order: OrderedDict[int, Path] = (
            OrderedDict()
        )  # every kept change by serial, oldest first
        self._serial = 0
        self._bytes = 0

    def record(self, target: Path, tool: Editor, before: bytes, after: bytes) -> None:
        """Remember that `tool` changed `target` from `before` to `after`."""
        change = Change(tool, before, hashlib.sha256(after).digest())
        with self._lock:
            if self.max_steps <= 0 or change.cost > self.max_bytes:
                self._drop(target)  # the chain of changes is broken: older ones cannot be undone
                return
            self._serial += 1
            self._changes.setdefault(target, deque()).append((self._serial, change))
            self._order[self._serial] = target
            self._bytes += change.cost
            if len(self._changes[target]) > self.max_steps:
                self._drop_oldest(target)
            while self._bytes > self.max_bytes:
                self._drop_oldest(self._order[next(iter(self._order))])

    def forget(self, target: Path) -> None:
        """Drop every change of `target` (it was changed in a way that cannot be undone)."""
        with self._lock:
            self._drop(target)

    def last(self, target: Path) -> Change | None:
        with self._lock:
            steps = self._changes.get(target)
            return steps[-1][1] if steps else None

    def pop(self, target: Path, change: Change) -> int:
        """Remove `change` (the last of `target`) once undone; how many changes of `target` remain."""
        with self._lock:
            steps = self._changes.get(target)
            if steps and steps[-1][1] is change:
                serial, _ = steps.pop()
                del self._order[serial]
                self._bytes -= change.cost
            if not steps:
                self._changes.pop(target, None)
                return 0
            return len(steps)

    def __len__(self) -> int:
        """How many changes are kept, all files together."""
        return len(self._order)

    @property
    def kept_bytes(self) -> int:
        return self._bytes

    def _drop_oldest(self, target: Path) -> None:
        steps = self._changes[target]
        serial, change = steps.popleft()
        del self._order[serial]
        self._bytes -= change.cost
        if not steps:
            del self._changes[target]

    def _drop(self, target: Path) -> None:
        for serial, change in self._changes.pop(target, ()):
            del self._order[serial]
            self._bytes -= change.cost


@dataclass(frozen=True)
class Workspace:
    """The folder the file tools may touch, and their limits.

    A workspace also remembers the last changes of its files for undo_edit (`edits`, in
    memory): share one Workspace between the tools of a session, so undo sees their changes.
    """

    root: Path
    max_read_bytes: int = 2_000_000  # read_file, edit_file (and data tools reading a file)
    max_write_bytes: int = 2_000_000  # the size a write, an append or an edit may leave a file at
    max_scan_entries: int = (
        100_000  # directory entries glob_files may look at (else too_many_entries)
    )
    max_scan_depth: int = 64  # directories below its start glob_files may enter (else too_deep)
    max_scan_seconds: float = 5.0  # glob_files' time budget (at most half its declared timeout_s)
    max_undo_steps: int = 10  # changes undo_edit can revert, per file (0: none are remembered)
    max_undo_bytes: int = 20_000_000  # previous contents kept for undo_edit, all files together
    edits: EditHistory = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "root", Path(self.root))  # a str is fine too
        object.__setattr__(self, "edits", EditHistory(self.max_undo_steps, self.max_undo_bytes))

    def resolve(self, relative: str) -> Path:
        """The real path for `relative`, or ToolError('outside_root'). Symlinks are resolved first."""
        root = self.root.resolve()
        if "\x00" in relative or os.path.isabs(relative):
            raise ToolError(
                "outside_root", f"{relative!r} is not a path relative to the workspace root"
            )
        try:
            target = (root / relative).resolve()
        except (
            RuntimeError,
            OSError,
        ) as exc:  # a symlink loop (RuntimeError in 3.11), a name too long
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
                    raise ToolError(
                        "too_large", f"{relative} has {size} bytes; the limit is {limit}"
                    )
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

    def run(self, arguments: ReadFileArguments) -> ReadFileResult | Output[ReadFileResult]:
        data = self.workspace.read_bytes(arguments.path)
        found = sniff(data)
        if found == "application/pdf":
            return self._pdf(arguments, data)
        if found in Image.types:
            return self._image(arguments, data)
        try:
            text = data.decode("utf-8")
        except UnicodeDecodeError:
            raise ToolError(
                "not_text",
                f"{arguments.path} is neither UTF-8 text, an image of a kind models "
                "see (PNG, JPEG, GIF, WebP) nor a PDF",
            ) from None
        lines = _lines(text)
        start = arguments.start_line
        end = len(lines) if arguments.end_line is None else min(arguments.end_line, len(lines))
        selected = lines[start - 1 : end]
        content = "\n".join(f"{number}\t{line}" for number, line in enumerate(selected, start))
        return ReadFileResult(
            path=arguments.path,
            type="text",
            content=content,
            start_line=start,
            end_line=max(end, start - 1),
            total_lines=len(lines),
        )

    def _image(self, arguments: ReadFileArguments, data: bytes) -> Output[ReadFileResult]:
        if len(data) > LIMITS["image"]:
            raise ToolError(
                "too_large",
                f"{arguments.path} has {len(data):,} bytes; an image sent to a model "
                f"is at most {LIMITS['image']:,}",
            )
        image = Image.of(data)
        about = f"An image ({image.mime_type}, {len(data):,} bytes), shown after this result."
        result = ReadFileResult(
            path=arguments.path,
            type="image",
            content=about,
            start_line=1,
            end_line=0,
            total_lines=0,
        )
        return Output(result, content=[image])

    def _pdf(self, arguments: ReadFileArguments, data: bytes) -> Output[ReadFileResult]:
        pages = read_pdf(
            data,
            arguments.path,
            arguments.start_line,
            arguments.end_line,
            arguments.max_images_per_page,
        )
        shown = f"pages {pages.first} to {pages.last}" if pages.last >= pages.first else "no page"
        about = f"A PDF of {pages.total} page(s); {shown} follow, each page's text then its images."
        if pages.images_left_out:
            about += (
                f" {pages.images_left_out} image(s) were left out (over max_images_per_page, or of a kind "
                "that cannot be sent)."
            )
        result = ReadFileResult(
            path=arguments.path,
            type="pdf",
            content=about,
            start_line=pages.first,
            end_line=pages.last,
            total_lines=pages.total,
        )
        return Output(result, content=pages.blocks)


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
                    "symlink"
                    if stat.S_ISLNK(info.st_mode)
                    else "directory"
                    if stat.S_ISDIR(info.st_mode)
                    else "file"
                    if stat.S_ISREG(info.st_mode)
                    else "other"
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
            raise ToolError(
                "too_large",
                f"the content has {len(data)} bytes; the limit is {self.workspace.max_write_bytes}",
            )
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
                raise ToolError(
                    "exists", f"{arguments.path} exists; pass overwrite: true to replace it"
                )
            target.parent.mkdir(parents=True, exist_ok=True)
            mode = stat.S_IMODE(before.st_mode) if before is not None else 0o644
            previous = self._previous(target, arguments.path) if before is not None else None
            replace_atomically(target, data, mode)
        if previous is None:
            self.workspace.edits.forget(target)  # a new file, or one whose old content was not kept
        else:
            self.workspace.edits.record(target, "write_file", previous, data)
        return WriteFileResult(path=arguments.path, bytes_written=len(data), created=before is None)

    def _previous(self, target: Path, relative: str) -> bytes | None:
        """The content write_file is about to replace, for undo_edit; None when it is not kept."""
        limit = min(self.workspace.max_read_bytes, self.workspace.max_undo_bytes)
        if self.workspace.max_undo_steps <= 0:
            return None
        try:
            fd = open_regular(target, relative, os.O_RDONLY)
            with os.fdopen(fd, "rb") as handle:
                data = handle.read(limit + 1)
        except (OSError, ToolError):  # unreadable (a write-only file): replaced, but not undoable
            return None
        return data if len(data) <= limit else None


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
                    raise ToolError(
                        "too_large",
                        f"{arguments.path} would grow to {size + len(data)} bytes; "
                        f"the limit is {limit}",
                    )
                handle.write(data)
                handle.flush()
                size = os.fstat(handle.fileno()).st_size
        return AppendFileResult(
            path=arguments.path, bytes_appended=len(data), size=size, created=created
        )


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
            raise ToolError(
                "no_match",
                f"old_text does not occur in {path}{hint}; read the file again "
                "and copy the text exactly, without line-number prefixes",
            )
        if not arguments.replace_all:
            starts = self._occurrences(text, old, first)
            if len(starts) > 1:
                lines = sorted({text.count("\n", 0, i) + 1 for i in starts})
                shown = ", ".join(map(str, lines[:_AMBIGUOUS_LINES_SHOWN]))
                more = " and more" if len(lines) > _AMBIGUOUS_LINES_SHOWN else ""
                raise ToolError(
                    "ambiguous",
                    f"old_text occurs {len(starts)}{'+' if more else ''} times in "
                    f"{path} (starting on lines {shown}{more}); add surrounding lines to make it "
                    "unique, or set replace_all: true",
                )
        count = text.count(old) if arguments.replace_all else 1
        updated = (
            text.replace(old, arguments.new_text)
            if arguments.replace_all
            else (text[:first] + arguments.new_text + text[first + len(old) :])
        )
        data = updated.encode("utf-8")
        if len(data) > self.workspace.max_write_bytes:
            raise ToolError(
                "too_large",
                f"the edited file would have {len(data)} bytes; the limit is "
                f"{self.workspace.max_write_bytes}",
            )
        target = self.workspace.resolve(path)
        with os_errors(path):
            mode = stat.S_IMODE(os.lstat(target).st_mode)
            replace_atomically(target, data, mode)
        self.workspace.edits.record(target, "edit_file", text.encode("utf-8"), data)
        return EditFileResult(
            path=path,
            replacements=count,
            first_line=text.count("\n", 0, first) + 1,
            bytes_written=len(data),
        )

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


def _line_end(text: str, line: int) -> int:
    """The offset just after line `line` (1-based; 0: the start), as _lines counts lines."""
    offset = 0
    for _ in range(line):
        found = text.find("\n", offset)
        if found < 0:
            return len(text)  # the last line, without a final newline
        offset = found + 1
    return offset


class InsertLines(InsertLinesTool):
    def __init__(self, workspace: Workspace) -> None:
        self.workspace = workspace

    def run(self, arguments: InsertLinesArguments) -> InsertLinesResult:
        path, after = arguments.path, arguments.after_line
        text = self.workspace.read_text(path)
        total = len(_lines(text))
        if after > total:
            raise ToolError(
                "line_out_of_range",
                f"{path} has {total} lines; after_line must be 0 to {total} "
                f"({total} adds the text at the end)",
            )
        first_break = text.find("\n")
        eol = "\r\n" if first_break > 0 and text[first_break - 1] == "\r" else "\n"
        block = arguments.text
        if eol == "\r\n":
            block = _BARE_LF.sub("\r\n", block)
        if not block.endswith("\n"):
            block += eol
        inserted = len(_lines(block))
        offset = _line_end(text, after)
        if offset == len(text) and text and not text.endswith("\n"):
            # After a last line without a newline: end that line, and leave none at the end, as before.
            block = eol + block.removesuffix("\r\n" if block.endswith("\r\n") else "\n")
        updated = text[:offset] + block + text[offset:]
        data = updated.encode("utf-8")
        if len(data) > self.workspace.max_write_bytes:
            raise ToolError(
                "too_large",
                f"the file would have {len(data)} bytes; the limit is "
                f"{self.workspace.max_write_bytes}",
            )
        target = self.workspace.resolve(path)
        with os_errors(path):
            mode = stat.S_IMODE(os.lstat(target).st_mode)
            replace_atomically(target, data, mode)
        self.workspace.edits.record(target, "insert_lines", text.encode("utf-8"), data)
        return InsertLinesResult(
            path=path,
            first_line=after + 1,
            lines_inserted=inserted,
            total_lines=len(_lines(updated)),
            bytes_written=len(data),
        )


class UndoEdit(UndoEditTool):
    def __init__(self, workspace: Workspace) -> None:
        self.workspace = workspace

    def run(self, arguments: UndoEditArguments) -> UndoEditResult:
        path = arguments.path
        target = self.workspace.resolve(path)
        change = self.workspace.edits.last(target)
        if change is None:
            raise ToolError(
                "nothing_to_undo",
                f"no change of {path} is remembered: undo_edit reverts the changes "
                "edit_file, insert_lines and write_file made in this session, and each only once",
            )
        try:
            current = self.workspace.read_bytes(
                path, limit=max(self.workspace.max_read_bytes, self.workspace.max_write_bytes)
            )
        except ToolError as exc:
            if exc.kind == "not_found":
                raise ToolError(
                    "changed_since",
                    f"{path} was removed after {change.tool} changed it; nothing was restored",
                ) from None
            if exc.kind != "too_large":
                raise
            current = None
        if current is None or hashlib.sha256(current).digest() != change.after_digest:
            raise ToolError(
                "changed_since",
                f"{path} changed after {change.tool} changed it (another tool or "
                "program wrote to it); undoing would lose that change, so nothing was restored. "
                "Read the file and edit it instead",
            )
        with os_errors(path, missing="changed_since"):
            mode = stat.S_IMODE(os.lstat(target).st_mode)
            replace_atomically(target, change.before, mode)
        remaining = self.workspace.edits.pop(target, change)
        return UndoEditResult(
            path=path, undone=change.tool, bytes_written=len(change.before), remaining=remaining
        )
