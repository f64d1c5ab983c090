"""Format generated Python with the pinned black, in process.

black is deterministic but costs milliseconds per file, so results are cached by
content: unchanged input costs one hash. The cache lives in the user's cache folder
(TOOLGEN_CACHE_DIR overrides; TOOLGEN_NO_CACHE=1 disables it).
"""

from __future__ import annotations

import hashlib
import os
from pathlib import Path

import black

MODE = black.Mode(target_versions={black.TargetVersion.PY311}, line_length=100)


def cache_dir() -> Path | None:
    if os.environ.get("TOOLGEN_NO_CACHE"):
        return None
    base = os.environ.get("TOOLGEN_CACHE_DIR") or os.path.join(
        os.environ.get("XDG_CACHE_HOME") or os.path.expanduser("~/.cache"), "toolgen"
    )
    return Path(base) / f"black-{black.__version__}"


def format_python(source: str, cache: Path | None) -> str:
    key = hashlib.sha256(f"{MODE!r}\0{source}".encode()).hexdigest()
    entry = cache / key[:2] / key if cache else None
    if entry is not None:
        try:
            return entry.read_text("utf-8")
        except OSError:
            pass
    formatted = black.format_str(source, mode=MODE)
    if entry is not None:
        try:
            entry.parent.mkdir(parents=True, exist_ok=True)
            tmp = entry.with_suffix(f".{os.getpid()}.tmp")
            tmp.write_text(formatted, "utf-8")
            os.replace(tmp, entry)
        except OSError:
            pass  # a read-only cache only costs speed
    return formatted


def format_files(files: dict[str, str]) -> dict[str, str]:
    cache = cache_dir()
    return {path: format_python(text, cache) if path.endswith(".py") else text for path, text in files.items()}
