"""glob_files: a bounded, confined walk matched against a glob pattern.

Our own walker and matcher (implementations/globbing.py) rather than pathlib.glob or
fnmatch: matching never backtracks, every directory is listed at most once whatever the
pattern, directory symlinks are never followed, a symlink that resolves outside the root is
never reported, the walk starts at the pattern's literal prefix and only enters directories
the pattern can still match below. Its work is bounded: entries looked at
(`Workspace.max_scan_entries`), depth (`max_scan_depth`) and time (`max_scan_seconds`, and
never more than half the tool's declared timeout); reaching a bound is a declared error
(too_many_entries, too_deep), and so is a pattern past the size limits (pattern_too_complex).
"""

from __future__ import annotations

import os
import re
import time
from pathlib import Path

from toolgen_builtin import ToolError
from toolgen_builtin.tools.glob_files import GlobFilesArguments, GlobFilesResult, GlobFilesTool

from .files import Workspace, os_errors
from .globbing import Glob, PatternError, check_pattern, compile_glob

_WILDCARDS = frozenset("*?[")
_CLOCK_EVERY = 256  # entries between two looks at the clock


class GlobFiles(GlobFilesTool):
    def __init__(self, workspace: Workspace) -> None:
        self.workspace = workspace

    def run(self, arguments: GlobFilesArguments) -> GlobFilesResult:
        pattern = re.sub("/+", "/", arguments.pattern.replace("\\", "/"))
        if pattern.startswith("/") or ".." in pattern.split("/"):
            raise ToolError(
                "outside_root",
                f"the pattern {arguments.pattern!r} must be relative and must not contain '..'",
            )
        segments = [s for s in pattern.split("/") if s not in ("", ".")] or [""]
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
        try:
            check_pattern(segments)  # the whole pattern, its literal prefix included
            glob = compile_glob(segments[len(literal) :])
        except PatternError as exc:
            raise ToolError(exc.kind, f"the pattern {arguments.pattern!r}: {exc}") from None
        start = self.workspace.resolve(os.path.join(arguments.path, *literal)) if literal else base
        if not start.is_dir():
            return GlobFilesResult(matches=[], truncated=False)
        root = self.workspace.root.resolve()
        prefix = "/".join(literal) + "/" if literal else ""  # `start` relative to `base`
        base_prefix = "" if base == root else self.workspace.relative(base) + "/"
        with os_errors(arguments.path):
            found = self._walk(start, glob, arguments.include_hidden, root)
        matches = sorted(base_prefix + prefix + relative for relative in found)
        truncated = len(matches) > arguments.max_results
        return GlobFilesResult(matches=matches[: arguments.max_results], truncated=truncated)

    def _budget_s(self) -> float:
        declared = self.info.timeout_s
        return min(self.workspace.max_scan_seconds, declared / 2 if declared else float("inf"))

    def _walk(self, start: Path, glob: Glob, include_hidden: bool, root: Path) -> list[str]:
        """Paths under `start` (relative to it, directories ending with "/") that the pattern matches."""
        limits = self.workspace
        budget = self._budget_s()
        deadline = time.monotonic() + budget
        inside = str(root) + os.sep
        found: list[str] = []
        scanned = 0
        # (directory, its path relative to `start` with a trailing "/", pattern states there, depth)
        pending: list[tuple[str, str, frozenset[int], int]] = [(str(start), "", glob.start(), 0)]
        while pending:
            directory, relative, states, depth = pending.pop()
            try:
                with os.scandir(directory) as listing:
                    entries = list(listing)
            except OSError:
                if not relative:
                    raise  # the start directory itself: an io_error
                continue  # a subdirectory we may not list is skipped, as os.walk does
            for entry in entries:
                scanned += 1
                if scanned > limits.max_scan_entries:
                    raise ToolError(
                        "too_many_entries",
                        f"the search looked at more than {limits.max_scan_entries} "
                        "directory entries; search from a deeper path or use a more specific "
                        "pattern (fewer '**')",
                    )
                if scanned % _CLOCK_EVERY == 0 and time.monotonic() > deadline:
                    raise ToolError(
                        "too_many_entries",
                        f"the search looked at {scanned} directory entries in "
                        f"{budget:g} s and stopped; search from a deeper path or use a more "
                        "specific pattern (fewer '**')",
                    )
                after = glob.step(states, entry.name, include_hidden)
                if not after:
                    continue
                try:
                    is_dir = (
                        entry.is_dir()
                    )  # a symlink to a directory counts as one, but is not entered
                    is_link = entry.is_symlink()
                except OSError:
                    continue
                if is_link and not os.path.realpath(entry.path).startswith(inside):
                    continue  # a symlink pointing out: not ours to show
                path = relative + entry.name
                if glob.final in after:
                    found.append(path + "/" if is_dir else path)
                if is_dir and not is_link and any(s < glob.final for s in after):
                    if depth + 1 > limits.max_scan_depth:
                        raise ToolError(
                            "too_deep",
                            f"{path} is nested more than {limits.max_scan_depth} "
                            "directories below the search start; search from a deeper path",
                        )
                    pending.append((entry.path, path + "/", after, depth + 1))
        return found
