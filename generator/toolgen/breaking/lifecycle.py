"""A tool's and a parameter's place in their life: stability, deprecation, sunset.

Read from the raw spec entries (so that any spec the loader reads can be compared):
a tool is deprecated by `deprecated: {reason, replacement?}` or `stability: deprecated`,
and may name its last day in `sunset: YYYY-MM-DD`; a parameter by `deprecated: true`
with `x-sunset`, and a renamed one keeps its old name until the `sunset` of its
`x-renamed-from`. The sunset is the last day the thing is taken: removing it is allowed
from the day after.
"""

from __future__ import annotations

from collections.abc import Mapping
from datetime import date
from typing import Any

# `stability` may only rise; a deprecated tool is still a stable one (on its way out).
RANKS = {"experimental": 0, "beta": 1, "stable": 2, "deprecated": 2}


def stability(entry: Mapping[str, Any]) -> str:
    if entry.get("deprecated") is not None and entry.get("deprecated") is not False:
        return "deprecated"
    value = entry.get("stability")
    return value if isinstance(value, str) else "stable"


def experimental(entry: Mapping[str, Any]) -> bool:
    return stability(entry) == "experimental"


def fell(before: Mapping[str, Any], after: Mapping[str, Any]) -> bool:
    """Whether the stability went down (stable -> experimental)."""
    old, new = RANKS.get(stability(before)), RANKS.get(stability(after))
    return old is not None and new is not None and new < old


def deprecated(entry: Mapping[str, Any]) -> bool:
    return stability(entry) == "deprecated"


def sunset(entry: Mapping[str, Any]) -> str | None:
    value = entry.get("sunset")
    return value if isinstance(value, str) else None


def replacement(entry: Mapping[str, Any]) -> str | None:
    declared = entry.get("deprecated")
    value = declared.get("replacement") if isinstance(declared, dict) else None
    return value if isinstance(value, str) else None


def day(text: str | None) -> date | None:
    if text is None:
        return None
    try:
        return date.fromisoformat(text)
    except ValueError:
        return None


def past(sunset_text: str | None, today: date) -> bool:
    """Whether the sunset is over: today is after it (the sunset is the last day)."""
    last = day(sunset_text)
    return last is not None and today > last


def until(sunset_text: str | None) -> str:
    """ "its sunset (2026-06-30)", or why there is none, for a message."""
    if sunset_text is None:
        return "it has no sunset"
    return (
        f"its sunset ({sunset_text})"
        if day(sunset_text)
        else f"its sunset {sunset_text!r} is no date"
    )


def early(sunset_text: str | None) -> str:
    """How a removal came too early: "before its sunset (D)", "without a sunset", ..."""
    if sunset_text is None:
        return "without a sunset"
    if day(sunset_text) is None:
        return f"with a sunset that is no date ({sunset_text!r})"
    return f"before its sunset ({sunset_text})"
