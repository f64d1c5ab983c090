"""Compare a rendered file map with the output directory, and write it.

Only files that changed are written, each atomically (temp file + rename) after all
of them were staged. Orphans are removed only when they carry toolgen's header (or, for the
runtime's verbatim copies, its first line: constants.RUNTIME_MARKER).
Nothing is ever written outside the output directory.
"""

from __future__ import annotations

import difflib
import os
from dataclasses import dataclass, field
from pathlib import Path

from toolgen.config import BuildOptions
from toolgen.constants import GENERATED_MARK, RUNTIME_MARKER

MARKERS = (GENERATED_MARK.encode(), RUNTIME_MARKER.encode())


@dataclass
class Plan:
    changed: dict[str, str] = field(default_factory=dict)  # stale on disk
    missing: dict[str, str] = field(default_factory=dict)  # not on disk
    orphans: list[str] = field(default_factory=list)  # ours on disk, no longer generated

    @property
    def clean(self) -> bool:
        return not (self.changed or self.missing or self.orphans)


def _inside(out: Path, relative: str) -> Path:
    target = (out / relative).resolve()
    if not target.is_relative_to(out.resolve()):
        raise ValueError(f"refusing to write outside the output directory: {relative}")
    return target


def is_generated(path: Path) -> bool:
    try:
        with path.open("rb") as handle:
            head = handle.read(512)
    except OSError:
        return False
    return any(marker in head for marker in MARKERS)


def plan(out: Path, files: dict[str, str], options: BuildOptions) -> Plan:
    result = Plan()
    for relative, text in files.items():
        target = _inside(out, relative)
        try:
            current = target.read_bytes().decode("utf-8")
        except (OSError, UnicodeDecodeError):
            result.missing[relative] = text
            continue
        if current != text:
            result.changed[relative] = text
    package_dir = out / options.package
    candidates = [out / "pyproject.toml", *(package_dir.rglob("*") if package_dir.is_dir() else [])]
    for path in sorted(candidates):
        relative = path.relative_to(out).as_posix()
        if path.is_file() and not path.is_symlink() and relative not in files and is_generated(path):
            result.orphans.append(relative)
    return result


def apply(out: Path, result: Plan) -> None:
    staged: list[tuple[Path, Path]] = []
    try:
        for relative, text in {**result.missing, **result.changed}.items():
            target = _inside(out, relative)
            target.parent.mkdir(parents=True, exist_ok=True)
            tmp = target.with_name(f".{target.name}.toolgen-tmp")
            tmp.write_bytes(text.encode("utf-8"))
            staged.append((tmp, target))
    except BaseException:
        for tmp, _ in staged:
            tmp.unlink(missing_ok=True)
        raise
    for tmp, target in staged:
        os.replace(tmp, target)
    for relative in result.orphans:
        _inside(out, relative).unlink()
    for relative in result.orphans:  # folders emptied by orphan removal
        parent = _inside(out, relative).parent
        while parent != out.resolve() and parent.is_dir() and not any(parent.iterdir()):
            parent.rmdir()
            parent = parent.parent


def diff(out: Path, result: Plan) -> str:
    chunks: list[str] = []
    for relative, text in sorted({**result.changed, **result.missing}.items()):
        target = out / relative
        current = target.read_text("utf-8") if relative in result.changed else ""
        chunks.extend(difflib.unified_diff(current.splitlines(True), text.splitlines(True),
                                           f"a/{relative}", f"b/{relative}"))
    for relative in result.orphans:
        chunks.extend(difflib.unified_diff((out / relative).read_text("utf-8").splitlines(True), [],
                                           f"a/{relative}", "/dev/null"))
    return "".join(chunks)
