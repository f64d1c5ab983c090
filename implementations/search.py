"""glob_files: a bounded, confined walk matched against a glob pattern.

Our own walker rather than pathlib.glob: it never follows directory symlinks, never
reports a symlink that resolves outside the root, starts at the pattern's literal prefix,
prunes hidden directories nobody asked for, and stops after a bounded number of entries.
"""

from __future__ import annotations

import os
import re
from functools import lru_cache

from toolgen_builtin import ToolError
from toolgen_builtin.tools.glob_files import GlobFilesArguments, GlobFilesResult, GlobFilesTool

from .files import Workspace, os_errors

_WILDCARDS = frozenset("*?[")


def _segment_regex(segment: str, include_hidden: bool) -> str:
    """One path segment of a glob as a regex; `*` and `?` never cross "/"."""
    out = [] if include_hidden or segment.startswith(".") else [r"(?!\.)"]
    i = 0
    while i < len(segment):
        char = segment[i]
        if char == "*":
            out.append("[^/]*")
        elif char == "?":
            out.append("[^/]")
        elif char == "[":
            close = segment.find("]", i + 2 if segment[i + 1 : i + 2] in ("!", "]") else i + 1)
            if close < 0:
                out.append(re.escape(char))
            else:
                body = segment[i + 1 : close]
                negate = body.startswith("!")
                body = body[1:] if negate else body
                body = body.replace("\\", "\\\\").replace("^", "\\^")
                out.append(f"[{'^/' if negate else ''}{body}]")
                i = close
        else:
            out.append(re.escape(char))
        i += 1
    return "".join(out)


@lru_cache(maxsize=256)
def compile_glob(pattern: str, include_hidden: bool) -> re.Pattern[str]:
    """A glob over "/"-separated relative paths, as one anchored regex (`**` = any directories)."""
    parts: list[str] = []
    segments = pattern.split("/")
    for index, segment in enumerate(segments):
        last = index == len(segments) - 1
        if segment == "**":
            hidden = "" if include_hidden else r"(?!\.)"
            parts.append(f"(?:{hidden}[^/]+/)*" if not last else f"(?:{hidden}[^/]+(?:/|$))*")
        else:
            parts.append(_segment_regex(segment, include_hidden) + ("" if last else "/"))
    return re.compile("".join(parts) + r"\Z")


class GlobFiles(GlobFilesTool):
    def __init__(self, workspace: Workspace) -> None:
        self.workspace = workspace

    def run(self, arguments: GlobFilesArguments) -> GlobFilesResult:
        pattern = re.sub("/+", "/", arguments.pattern.replace("\\", "/"))
        if pattern.startswith("/") or ".." in pattern.split("/"):
            raise ToolError("outside_root", f"the pattern {arguments.pattern!r} must be relative and "
                            "must not contain '..'")
        segments = [s for s in pattern.split("/") if s not in ("", ".")] or [""]
        pattern = "/".join(segments)
        base = self.workspace.resolve(arguments.path)
        with os_errors(arguments.path):
            if not base.is_dir():
                if not base.exists():
                    raise ToolError("not_found", f"{arguments.path} does not exist")
                raise ToolError("not_a_directory", f"{arguments.path} is not a directory")
        # Walk from the literal prefix of the pattern ("src/pkg" of "src/pkg/**/*.py").
        literal = []
        for segment in segments[:-1]:
            if _WILDCARDS.intersection(segment) or segment == "**":
                break
            literal.append(segment)
        start = self.workspace.resolve(os.path.join(arguments.path, *literal)) if literal else base
        if not start.is_dir():
            return GlobFilesResult(matches=[], truncated=False)
        recursive = "**" in segments
        max_depth = len(segments) - len(literal)  # directory levels below `start` a match can have
        walk_hidden = arguments.include_hidden or any(s.startswith(".") for s in segments)
        try:
            regex = compile_glob(pattern, arguments.include_hidden)
        except re.error as exc:
            raise ToolError("invalid_pattern", f"the pattern {arguments.pattern!r} is not a valid glob: {exc}") from None
        root = self.workspace.root.resolve()
        prefix = "/".join(literal) + "/" if literal else ""  # `start` relative to `base`
        base_prefix = "" if base == root else self.workspace.relative(base) + "/"

        matches: list[str] = []
        scanned = 0
        truncated = False
        with os_errors(arguments.path):
            for directory, dirnames, filenames in os.walk(start, onerror=None, followlinks=False):
                rel_dir = os.path.relpath(directory, start)
                depth = 0 if rel_dir == "." else rel_dir.count(os.sep) + 1
                rel_dir = "" if rel_dir == "." else rel_dir.replace(os.sep, "/") + "/"
                scanned += len(dirnames) + len(filenames)
                if scanned > self.workspace.max_scan_entries:
                    truncated = True
                    break
                if not walk_hidden:
                    dirnames[:] = [d for d in dirnames if not d.startswith(".")]
                dirnames.sort()
                for name, is_dir in [*((d, True) for d in dirnames), *((f, False) for f in filenames)]:
                    relative = f"{prefix}{rel_dir}{name}"
                    if not regex.match(relative):
                        continue
                    full = os.path.join(directory, name)
                    if os.path.islink(full) and not os.path.realpath(full).startswith(str(root) + os.sep):
                        continue  # a symlink pointing out: not ours to show
                    matches.append(base_prefix + relative + ("/" if is_dir else ""))
                if not recursive and depth + 1 >= max_depth:
                    dirnames[:] = []
        matches.sort()
        if len(matches) > arguments.max_results:
            matches, truncated = matches[: arguments.max_results], True
        return GlobFilesResult(matches=matches, truncated=truncated)
