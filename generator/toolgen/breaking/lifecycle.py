"""A tool's and a parameter's place in their life: stability, deprecation, sunset.

A tool's are read from its ToolSpec (a tool is deprecated by `deprecated: {reason,
replacement?}` or `stability: deprecated`, and names its last day in `sunset: YYYY-MM-DD`);
a parameter is deprecated by `deprecated: true` with `x-sunset`, and a renamed one keeps its
old name until the `sunset` of its `x-renamed-from`. The sunset is the last day the thing is
taken: removing it is allowed from the day after.
"""

from __future__ import annotations

from datetime import date

from toolgen.spec.model import ToolSpec

# `stability` may only rise; a deprecated tool is still a stable one (on its way out).
RANKS = {"experimental": 0, "beta": 1, "stable": 2, "deprecated": 2}


def experimental(spec: ToolSpec) -> bool:
    return spec.stability == "experimental"


def fell(before: ToolSpec, after: ToolSpec) -> bool:
    """Whether the stability went down (stable -> experimental)."""
    old, new = RANKS.get(before.stability), RANKS.get(after.stability)
    return old is not None and new is not None and new < old


def deprecated(spec: ToolSpec) -> bool:
    return spec.stability == "deprecated"


def sunset(spec: ToolSpec) -> str | None:
    return spec.deprecation.sunset if spec.deprecation is not None else None


def replacement(spec: ToolSpec) -> str | None:
    return spec.deprecation.replacement if spec.deprecation is not None else None


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
