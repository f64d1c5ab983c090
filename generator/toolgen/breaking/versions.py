"""Versions: which bump two declared versions make, and whether it is enough for the findings.

A version is read as its first three numbers (`1`, `1.2`, `1.2.3`, `1.2.3rc1` and PEP 440's
other suffixes): major, minor, patch. Below 1.0.0 a bump counts one step more, as Cargo reads
0.x versions: 0.1.0 -> 0.2.0 is enough for a breaking change, 0.1.0 -> 0.1.1 for an addition.
"""

from __future__ import annotations

import re
import tomllib
from typing import Any

from toolgen.breaking.report import BUMPS

_NUMBERS = re.compile(r"(?:\d+!)?(\d+)(?:\.(\d+))?(?:\.(\d+))?")


def numbers(version: str) -> tuple[int, int, int] | None:
    match = _NUMBERS.match(version.strip().lstrip("vV"))
    if match is None:
        return None
    return (int(match[1]), int(match[2] or 0), int(match[3] or 0))


def declared_bump(before: str, after: str) -> str | None:
    """none, patch, minor, major, or "down" (the version went down); None when one is no version."""
    old, new = numbers(before), numbers(after)
    if old is None or new is None:
        return None
    if new < old:
        return "down"
    for level, (a, b) in zip(("major", "minor", "patch"), zip(old, new, strict=True), strict=True):
        if b > a:
            return level
    return "none"


def enough(before: str, declared: str, needed: str) -> bool:
    """Whether the declared bump covers the needed one (see the module's note on 0.x)."""
    if declared == "down":
        return needed == "none"
    old = numbers(before)
    rank = BUMPS.index(declared)
    if old is not None and old[0] == 0 and declared in ("minor", "patch"):
        rank += 1
    return rank >= BUMPS.index(needed)


def pyproject_version(text: str, generated: bool = False) -> tuple[str, int] | None:
    """`[tool.toolgen] version` of a pyproject.toml's text and the line it is on, or None.
    `generated`: a generated distribution's pyproject, whose `[project] version` it is."""
    try:
        data: dict[str, Any] = tomllib.loads(text)
    except tomllib.TOMLDecodeError:
        return None
    table = data.get("project") if generated else data.get("tool", {}).get("toolgen")
    if not isinstance(table, dict) or not isinstance(table.get("version"), str):
        return None
    return table["version"], _line_of_version(text, "[project]" if generated else "[tool.toolgen]")


def _line_of_version(text: str, header: str) -> int:
    inside = False
    for number, line in enumerate(text.splitlines(), 1):
        stripped = line.strip()
        if stripped.startswith("["):
            inside = stripped.split("#", 1)[0].strip() == header
        elif inside and re.match(r"version\s*=", stripped):
            return number
    return 1


def least(before: str, needed: str) -> str:
    """The smallest version after `before` that makes the needed bump ("" when none is needed)."""
    old = numbers(before)
    if old is None or needed == "none":
        return ""
    major, minor, patch = old
    if major == 0:  # one step less below 1.0.0
        needed = {"major": "minor", "minor": "patch"}.get(needed, needed)
    if needed == "major":
        return f"{major + 1}.0.0"
    return f"{major}.{minor + 1}.0" if needed == "minor" else f"{major}.{minor}.{patch + 1}"
