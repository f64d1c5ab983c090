"""BEHAVIOR: what a host relies on besides the schemas: deadlines, flags, declared errors,
rate limits, approval, guards and annotations. Read from each side's ToolSpec; a generated package
(the previous side) has only the annotations."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass

from toolgen.runtime.calls.registry import DAY as DAY_S  # a record's life, unless declared
from toolgen.spec.model import Annotations, RateLimit, ToolSpec

NO_APPROVAL = "requires_approval"


@dataclass(frozen=True)
class Issue:
    rule: str
    key: str  # the spec key it is about (where both sides wrote it)
    message: str


def _rate(limit: RateLimit | None) -> float | None:
    """Calls per second a `rate_limit` allows."""
    return limit.calls / limit.per_s if limit is not None and limit.per_s else None


def _listed(names: set[str]) -> str:
    return ", ".join(sorted(names))


def behaviour(before: ToolSpec, after: ToolSpec, complete: bool) -> Iterator[Issue]:
    """`complete`: both sides have every key (else only the annotations are compared)."""
    if complete:
        yield from _timeout(before, after)
        yield from _expiry(before, after)
        yield from _task(before, after)
        yield from _flags(before, after)
        guards = _guards(after) - _guards(before)
        if guards:
            yield Issue(
                "TOOL_NO_NEW_GUARD",
                "guards",
                f"guard(s) {_listed(guards)} added: a host's registry refuses to be made until "
                "it registers them",
            )
        removed = {e.kind for e in before.errors} - {e.kind for e in after.errors}
        if removed:
            yield Issue(
                "TOOL_ERROR_NO_DELETE",
                "errors",
                f"declared error(s) {_listed(removed)} removed: hosts that "
                "handle them by kind no longer get them",
            )
        old, new = _rate(before.rate_limit), _rate(after.rate_limit)
        if new is not None and (old is None or new < old):
            was = f"{old:g}" if old is not None else "no limit"
            yield Issue(
                "TOOL_RATE_LIMIT_NO_TIGHTEN",
                "rate_limit",
                f"rate limit {was} -> {new:g} calls per second: calls that ran now fail or wait",
            )
    yield from _annotations(before.annotations, after.annotations)


def _guards(spec: ToolSpec) -> set[str]:
    return {*spec.guards.input, *spec.guards.output}


def _timeout(before: ToolSpec, after: ToolSpec) -> Iterator[Issue]:
    old, new = before.timeout_s, after.timeout_s
    if new is not None and (old is None or new < old):
        was = f"{old:g} s" if old is not None else "none"
        yield Issue(
            "TOOL_TIMEOUT_NO_DECREASE",
            "timeout_s",
            f"timeout_s {was} -> {new:g} s: calls that finished in time may now time out",
        )


def _expiry(before: ToolSpec, after: ToolSpec) -> Iterator[Issue]:
    old, new = _expires(before), _expires(after)
    if new < old:
        yield Issue(
            "TOOL_APPROVAL_EXPIRY_NO_SHORTEN",
            "approval",
            f"approval records expire after {old:g} s -> {new:g} s: a record a host keeps "
            "to resume may expire before the user decides",
        )


def _task(before: ToolSpec, after: ToolSpec) -> Iterator[Issue]:
    """A way of calling the tool (plainly, as a task) that was allowed and is refused now
    (absent allows both)."""
    for way, refused_by in (("plain calls", "required"), ("calls as a task", "forbidden")):
        if after.task == refused_by and before.task != refused_by:
            was = before.task or "not declared"
            yield Issue(
                "TOOL_TASK_SUPPORT_NO_NARROW",
                "task",
                f"task {was} -> {after.task}: {way} are now refused (-32601)",
            )


def _expires(spec: ToolSpec) -> float:
    return DAY_S if spec.approval_expires_s is None else spec.approval_expires_s


def _flags(before: ToolSpec, after: ToolSpec) -> Iterator[Issue]:
    old, new = set(before.flags), set(after.flags)
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


def _annotations(before: Annotations, after: Annotations) -> Iterator[Issue]:
    old, new = dict(before.declared()), dict(after.declared())
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


def _shown(value: bool | None) -> str:
    return "absent" if value is None else str(value).lower()
