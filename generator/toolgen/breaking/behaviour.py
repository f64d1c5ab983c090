"""BEHAVIOR: what a host relies on besides the schemas: deadlines, flags, declared errors,
rate limits, approval and annotations. Read from the raw entries; a generated package
(the previous side) has only the annotations."""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from typing import Any

NO_APPROVAL = "requires_approval"
DAY_S = 24 * 3600.0  # how long an approval record may be resumed when the spec says nothing


@dataclass(frozen=True)
class Issue:
    rule: str
    key: str  # the spec key it is about (where both sides wrote it)
    message: str


def _number(value: Any) -> float | None:
    return float(value) if isinstance(value, (int, float)) and not isinstance(value, bool) else None


def _names(value: Any) -> set[str]:
    if isinstance(value, dict):
        return {k for k in value if isinstance(k, str)}
    return {v for v in value if isinstance(v, str)} if isinstance(value, list) else set()


def _rate(value: Any) -> float | None:
    """Calls per second a `rate_limit` allows."""
    if not isinstance(value, dict):
        return None
    calls, per = _number(value.get("calls")), _number(value.get("per_s"))
    return calls / per if calls is not None and per else None


def _listed(names: set[str]) -> str:
    return ", ".join(sorted(names))


def behaviour(
    before: Mapping[str, Any], after: Mapping[str, Any], complete: bool
) -> Iterator[Issue]:
    """`complete`: both sides have every key (else only the annotations are compared)."""
    if complete:
        yield from _timeout(before, after)
        yield from _expiry(before, after)
        yield from _flags(before, after)
        removed = _names(before.get("errors")) - _names(after.get("errors"))
        if removed:
            yield Issue(
                "TOOL_ERROR_NO_DELETE",
                "errors",
                f"declared error(s) {_listed(removed)} removed: hosts that "
                "handle them by kind no longer get them",
            )
        old, new = _rate(before.get("rate_limit")), _rate(after.get("rate_limit"))
        if new is not None and (old is None or new < old):
            was = f"{old:g}" if old is not None else "no limit"
            yield Issue(
                "TOOL_RATE_LIMIT_NO_TIGHTEN",
                "rate_limit",
                f"rate limit {was} -> {new:g} calls per second: calls that ran now fail or wait",
            )
    yield from _annotations(before.get("annotations"), after.get("annotations"))


def _timeout(before: Mapping[str, Any], after: Mapping[str, Any]) -> Iterator[Issue]:
    old, new = _number(before.get("timeout_s")), _number(after.get("timeout_s"))
    if new is not None and (old is None or new < old):
        was = f"{old:g} s" if old is not None else "none"
        yield Issue(
            "TOOL_TIMEOUT_NO_DECREASE",
            "timeout_s",
            f"timeout_s {was} -> {new:g} s: calls that finished in time may now time out",
        )


def _expiry(before: Mapping[str, Any], after: Mapping[str, Any]) -> Iterator[Issue]:
    old, new = _expires(before.get("approval")), _expires(after.get("approval"))
    if new < old:
        yield Issue(
            "TOOL_APPROVAL_EXPIRY_NO_SHORTEN",
            "approval",
            f"approval records expire after {old:g} s -> {new:g} s: a record a host keeps "
            "to resume may expire before the user decides",
        )


def _expires(value: Any) -> float:
    found = _number(value.get("expires_s")) if isinstance(value, dict) else None
    return DAY_S if found is None else found


def _flags(before: Mapping[str, Any], after: Mapping[str, Any]) -> Iterator[Issue]:
    old, new = _names(before.get("flags")), _names(after.get("flags"))
    if NO_APPROVAL in new - old:
        yield Issue(
            "TOOL_NO_NEW_APPROVAL",
            "flags",
            "now requires_approval: calls that ran at once wait for a person",
        )
    added, removed = new - old - {NO_APPROVAL}, old - new
    if added or removed:
        parts = [f"removed {_listed(removed)}"] * bool(removed) + [
            f"added {_listed(added)}"
        ] * bool(added)
        yield Issue("TOOL_SAME_FLAGS", "flags", f"flags {'; '.join(parts)}: hosts rely on them")


def _annotations(before: Any, after: Any) -> Iterator[Issue]:
    old = before if isinstance(before, dict) else {}
    new = after if isinstance(after, dict) else {}
    if old.get("destructive") is False and new.get("destructive") is not False:
        now = "true" if new.get("destructive") is True else "not said (MCP reads it as destructive)"
        yield Issue(
            "TOOL_ANNOTATION_NO_DESTRUCTIVE",
            "annotations",
            f"destructive: false -> {now}: clients that ran "
            "it without asking may now ask, or refuse",
        )
    others = sorted(
        k for k in set(old) | set(new) if k != "destructive" and old.get(k) != new.get(k)
    )
    if others:
        changes = ", ".join(f"{k}: {_shown(old.get(k))} -> {_shown(new.get(k))}" for k in others)
        yield Issue("TOOL_SAME_ANNOTATIONS", "annotations", f"annotations changed: {changes}")


def _shown(value: Any) -> str:
    return (
        "absent"
        if value is None
        else str(value).lower()
        if isinstance(value, bool)
        else repr(value)
    )
