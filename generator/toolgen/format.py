"""Format generated Python with the pinned black, in process.

toolgen's templates emit black's layout (render/layout.py, render/literals.py): a file
whose every line is within the line length, or is a long line black cannot shorten (a
lone string, a docstring line), is already what black would write and skips black.
Tests hold that claim: every generated file must be unchanged by black.

For the rest (long annotations, the copied runtime, user template overrides) black is
deterministic but costs milliseconds per file (about 12 ms per pass over a 100-line
tool module, two passes when the input is not already black-stable), so:
- results are cached by content: unchanged input costs one hash and one read. The
  cache lives in the user's cache folder (TOOLGEN_CACHE_DIR overrides;
  TOOLGEN_NO_CACHE=1 disables it);
- cache misses are spread over worker processes when there are many of them
  (TOOLGEN_JOBS sets how many; 1 formats in this process). Output is the same bytes
  whatever the number of workers: each file is formatted on its own.
"""

from __future__ import annotations

import hashlib
import multiprocessing
import os
import re
import sys
from collections.abc import Sequence
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

import black
from black.mode import Mode, TargetVersion

from toolgen.cache import cache_root, write_entry
from toolgen.constants import LINE_LENGTH
from toolgen.render.layout import width

MODE = Mode(target_versions={TargetVersion.PY311}, line_length=LINE_LENGTH)
BLACK_VERSION: str = getattr(black, "__version__")  # not re-exported for type checkers
# Below this many cache misses a pool costs more than it saves (fork + result transfer).
PARALLEL_MIN = 24


# A long line black leaves as it is: one string (maybe after `key=` or a dict display's
# `"key": `, maybe with a trailing comma), or a one-line docstring. After `NAME = `, a
# string is left as it is only when it would not fit in parentheses on a line of its own.
_STRING = r"""(?:"(?:[^"\\]|\\.)*"|'(?:[^'\\]|\\.)*')"""
_LONG_BUT_STABLE = re.compile(rf"""\s*(?:[A-Za-z_]\w*=|{_STRING}: )?{_STRING},?|\s*\"\"\".*\"\"\"""")
_ASSIGNED_STRING = re.compile(rf"""(\s*)[A-Za-z_]\w* = ({_STRING})""")
TRIPLE = '"""'


def in_black_layout(source: str) -> bool:
    """True when a module rendered from toolgen's templates needs no black pass."""
    in_docstring = False
    for line in source.split("\n"):
        stripped = line.strip()
        if in_docstring:
            in_docstring = stripped != TRIPLE  # lines inside a docstring are left as they are
            continue
        if stripped.startswith(TRIPLE) and not (len(stripped) > 3 and stripped.endswith(TRIPLE)):
            in_docstring = True
            continue
        if width(line) > MODE.line_length and not _stays_long(line):
            return False
    return True


def _stays_long(line: str) -> bool:
    assigned = _ASSIGNED_STRING.fullmatch(line)
    if assigned is not None:  # black wraps the string in parentheses when that makes it fit
        return len(assigned.group(1)) + 4 + width(assigned.group(2)) > MODE.line_length
    return _LONG_BUT_STABLE.fullmatch(line) is not None


def cache_dir() -> Path | None:
    root = cache_root()
    return root / f"black-{BLACK_VERSION}" if root is not None else None


def _entry(source: str, cache: Path | None) -> Path | None:
    if cache is None:
        return None
    key = hashlib.sha256(f"{MODE!r}\0{source}".encode()).hexdigest()
    return cache / key[:2] / key


def _lookup(entry: Path | None) -> str | None:
    if entry is None:
        return None
    try:
        return entry.read_text("utf-8")
    except OSError:
        return None


def _store(entry: Path | None, formatted: str) -> None:
    if entry is not None:
        write_entry(entry, formatted)


def _format_and_store(job: tuple[str, Path | None]) -> str:
    source, entry = job
    formatted = black.format_str(source, mode=MODE)
    _store(entry, formatted)
    return formatted


def format_python(source: str, cache: Path | None) -> str:
    entry = _entry(source, cache)
    hit = _lookup(entry)
    return hit if hit is not None else _format_and_store((source, entry))


def jobs() -> int:
    """Worker processes for formatting: TOOLGEN_JOBS, else the CPUs this process may use."""
    configured = os.environ.get("TOOLGEN_JOBS", "").strip()
    if configured.isdigit() and int(configured) > 0:
        return int(configured)
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:  # not Linux
        return os.cpu_count() or 1


def _format_many(batch: Sequence[tuple[str, Path | None]]) -> list[str]:
    workers = min(jobs(), len(batch) // (PARALLEL_MIN // 2) or 1)
    if len(batch) < PARALLEL_MIN or workers < 2:
        return [_format_and_store(job) for job in batch]
    # fork shares the imported black with the workers; elsewhere they import it anew.
    method = "fork" if sys.platform == "linux" else "spawn"
    with ProcessPoolExecutor(workers, mp_context=multiprocessing.get_context(method)) as pool:
        return list(pool.map(_format_and_store, batch, chunksize=max(1, len(batch) // (workers * 8))))


def format_files(files: dict[str, str], laid_out: frozenset[str] = frozenset()) -> dict[str, str]:
    """Formatted files. `laid_out` names the files rendered in black's layout: they skip
    black when `in_black_layout` agrees."""
    cache = cache_dir()
    out: dict[str, str] = {}
    misses: dict[str, tuple[str, Path | None]] = {}
    for path, text in files.items():
        if not path.endswith(".py") or (path in laid_out and in_black_layout(text)):
            out[path] = text
            continue
        entry = _entry(text, cache)
        hit = _lookup(entry)
        if hit is None:
            misses[path] = (text, entry)
        else:
            out[path] = hit
    out.update(zip(misses, _format_many(list(misses.values()))))
    return {path: out[path] for path in files}
