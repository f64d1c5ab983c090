# Part of toolgen's runtime, copied verbatim into generated packages (edit toolgen, not a copy).
"""Deprecations a spec declares: of a tool, of a parameter, and parameters renamed.

- `Deprecation(reason, replacement, sunset)`: the tool's `deprecated` and `sunset`. Each call's
  result carries a warning for the host (`ToolResult.warnings`); past the sunset too (a tool
  goes when the spec removes it, not on a date).
- `DeprecatedParameter(name, field, sunset)`: a property of the root of `parameters` marked
  `deprecated: true` (and `x-sunset`): a call that sends it is run, with a warning.
- `Rename(old, new, sunset)`: `x-renamed-from` on the property `new`. A call that sends `old`
  is taken as sending `new`, with a warning, until the sunset (the day included); after it,
  `old` is an unknown key whose message names `new`. Sending both is an issue (send only `new`).
  The validator reads renames (the Arguments class's `__renames__`) only once strict
  validation has failed: a call by the new names costs nothing more.

Dates are YYYY-MM-DD strings, compared with `today()`: the date in UTC. Tests replace it:
`monkeypatch.setattr(<package>._runtime.deprecation, "today", lambda: "2031-01-01")`.
Warnings go to the caller's `on_warning`, else to this module's `logging` logger (WARNING).
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any

from ..errors import ArgumentIssue, quote
from .translate import format_path

__all__ = ["DeprecatedParameter", "Deprecation", "Rename", "today"]

OnWarning = Callable[[str], None]
# The logger's name is public (docs/errors.md): `<package>._runtime.deprecation`, as the module was
# named before the runtime had subpackages.
_log = logging.getLogger(__name__.rsplit(".", 2)[0] + ".deprecation")


@dataclass(frozen=True)
class Deprecation:
    """A deprecated tool: why, the tool to use instead, and its last day (YYYY-MM-DD)."""

    reason: str
    replacement: str | None = None
    sunset: str | None = None


@dataclass(frozen=True)
class DeprecatedParameter:
    """A property of the root of `parameters` marked `deprecated: true`: its wire name, the
    Arguments field that holds it, and its `x-sunset`."""

    name: str
    field: str
    sunset: str | None = None


@dataclass(frozen=True)
class Rename:
    """`x-renamed-from`: the old name a call may still send for `new`, until `sunset`."""

    old: str
    new: str
    sunset: str | None = None


def today() -> str:
    """Today's date in UTC, YYYY-MM-DD: what sunsets are compared with."""
    return datetime.now(UTC).date().isoformat()


def passed(sunset: str | None) -> bool:
    """The sunset was before today (on its own day, the old name is still taken)."""
    return sunset is not None and today() > sunset


def tell(text: str, on_warning: OnWarning | None) -> None:
    if on_warning is not None:
        on_warning(text)
    else:
        _log.warning("%s", text)


# -- renamed parameters: the validator's part, after strict validation failed -------------------


def renamed(
    tool: str, data: dict[str, Any], renames: tuple[Rename, ...]
) -> tuple[dict[str, Any], list[ArgumentIssue], list[str]]:
    """`data` with every old name sent moved to its new name: (the data, an issue per old name
    that cannot be taken (past its sunset, or sent beside the new name), a warning per old name
    taken). `data` itself is never changed."""
    out = data
    problems: list[ArgumentIssue] = []
    notes: list[str] = []
    for rename in renames:
        if rename.old not in data:
            continue
        if out is data:
            out = dict(data)
        value = out.pop(rename.old)
        if rename.new in data:
            problems.append(_both(rename))
        elif passed(rename.sunset):
            out[rename.new] = value  # validated as the new name: one issue says it all
            problems.append(_retired(rename))
        else:
            out[rename.new] = value
            notes.append(rename_warning(tool, rename))
    return out, problems, notes


def rename_warning(tool: str, rename: Rename) -> str:
    until = (
        f"accepted until {rename.sunset} (sunset)" if rename.sunset else "still accepted, for now"
    )
    return (
        f"tool '{tool}': parameter '{rename.old}' was renamed to '{rename.new}'; "
        f"the old name is {until}"
    )


def _retired(rename: Rename) -> ArgumentIssue:
    return ArgumentIssue(
        format_path((rename.old,)),
        "unknown_key",
        f"unknown key: {quote(rename.old)} was renamed to {quote(rename.new)}; the old name "
        f"was accepted until {rename.sunset}",
        suggestion=f"send {quote(rename.new)}",
        location=(rename.old,),
    )


def _both(rename: Rename) -> ArgumentIssue:
    return ArgumentIssue(
        format_path((rename.old,)),
        "unknown_key",
        f"unknown key: {quote(rename.old)} is the old name of {quote(rename.new)}, which is "
        "also given",
        suggestion=f"send only {quote(rename.new)}",
        location=(rename.old,),
    )


# -- deprecated parameters and tools: warnings once a call was validated ------------------------


def parameter_warnings(
    tool: str, arguments: Any, parameters: tuple[DeprecatedParameter, ...]
) -> list[str]:
    """A warning per deprecated parameter the validated `arguments` hold (sent, and not null)."""
    given = arguments.model_fields_set
    return [
        f"tool '{tool}': parameter '{p.name}' is deprecated{_sunset(p.sunset)}"
        for p in parameters
        if p.field in given and getattr(arguments, p.field, None) is not None
    ]


def tool_warning(info: Any) -> str:
    """The warning every call of a deprecated tool carries (`stability: deprecated`)."""
    version = getattr(info, "version", None)
    since = f" (version {version})" if version else ""
    deprecation: Deprecation | None = getattr(info, "deprecation", None)
    if deprecation is None:
        return f"tool '{info.name}'{since} is deprecated: its spec says it will be removed"
    text = f"tool '{info.name}'{since} is deprecated: {deprecation.reason.strip().rstrip('.')}"
    if deprecation.replacement:
        text += f"; use '{deprecation.replacement}' instead"
    return text + _sunset(deprecation.sunset)


def _sunset(sunset: str | None) -> str:
    if sunset is None:
        return ""
    if passed(sunset):
        return f"; its sunset ({sunset}) has passed: it may be removed at any time"
    return f" (sunset {sunset})"
