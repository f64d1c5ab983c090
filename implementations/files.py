"""File tools, confined to one workspace root: no `..`, absolute paths or symlinks lead out."""

from __future__ import annotations

import os
import stat
from dataclasses import dataclass
from pathlib import Path
from typing import Literal

from toolgen_builtin import ToolError
from toolgen_builtin.tools.list_directory import (
    ListDirectoryArguments,
    ListDirectoryResult,
    ListDirectoryResultEntry,
    ListDirectoryTool,
)
from toolgen_builtin.tools.read_file import ReadFileArguments, ReadFileResult, ReadFileTool
from toolgen_builtin.tools.write_file import WriteFileArguments, WriteFileResult, WriteFileTool

EntryType = Literal["file", "directory", "symlink", "other"]


@dataclass(frozen=True)
class Workspace:
    """The folder the file tools may touch, and their size limit."""

    root: Path
    max_read_bytes: int = 2_000_000

    def resolve(self, relative: str) -> Path:
        """The real path for `relative`, or ToolError('outside_root'). Symlinks are resolved first."""
        root = self.root.resolve()
        if "\x00" in relative or os.path.isabs(relative):
            raise ToolError("outside_root", f"{relative!r} is not a path relative to the workspace root")
        target = (root / relative).resolve()
        if not target.is_relative_to(root):
            raise ToolError("outside_root", f"{relative!r} leads outside the workspace root")
        return target


class ReadFile(ReadFileTool):
    def __init__(self, workspace: Workspace) -> None:
        self.workspace = workspace

    def run(self, arguments: ReadFileArguments) -> ReadFileResult:
        target = self.workspace.resolve(arguments.path)
        try:
            info = target.stat()
        except FileNotFoundError:
            raise ToolError("not_found", f"{arguments.path} does not exist") from None
        if not stat.S_ISREG(info.st_mode):
            raise ToolError("not_a_file", f"{arguments.path} is not a regular file")
        if info.st_size > self.workspace.max_read_bytes:
            raise ToolError("too_large", f"{arguments.path} has {info.st_size} bytes; the limit is "
                            f"{self.workspace.max_read_bytes}")
        try:
            lines = target.read_text("utf-8").splitlines()
        except UnicodeDecodeError:
            raise ToolError("not_text", f"{arguments.path} is not UTF-8 text") from None
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
        if not target.exists():
            raise ToolError("not_found", f"{arguments.path} does not exist")
        if not target.is_dir():
            raise ToolError("not_a_directory", f"{arguments.path} is not a directory")
        entries = []
        for child in sorted(target.iterdir(), key=lambda p: p.name):
            if child.name.startswith(".") and not arguments.include_hidden:
                continue
            mode = child.lstat().st_mode
            kind: EntryType = (
                "symlink" if stat.S_ISLNK(mode) else "directory" if stat.S_ISDIR(mode)
                else "file" if stat.S_ISREG(mode) else "other"
            )
            size = child.lstat().st_size if kind == "file" else None
            entries.append(ListDirectoryResultEntry(name=child.name, type=kind, size=size))
        return ListDirectoryResult(path=arguments.path, entries=entries)


class WriteFile(WriteFileTool):
    def __init__(self, workspace: Workspace) -> None:
        self.workspace = workspace

    def run(self, arguments: WriteFileArguments) -> WriteFileResult:
        target = self.workspace.resolve(arguments.path)
        existed = target.exists()
        if existed and not target.is_file():
            raise ToolError("not_a_file", f"{arguments.path} is not a regular file")
        if existed and not arguments.overwrite:
            raise ToolError("exists", f"{arguments.path} exists; pass overwrite: true to replace it")
        target.parent.mkdir(parents=True, exist_ok=True)
        data = arguments.content.encode("utf-8")
        tmp = target.with_name(f".{target.name}.tmp")
        tmp.write_bytes(data)
        os.replace(tmp, target)
        return WriteFileResult(path=arguments.path, bytes_written=len(data), created=not existed)
