# Part of toolgen's runtime, copied verbatim into generated packages (edit toolgen, not a copy).
"""Which calls take the fast path, and what it reads of their tool, looked up once.

Most calls are of a tool that declares nothing around its run: no approval, cache, rate
limit, deprecation or renamed parameters, no streaming, no x-secret or injected values, in a
registry without hooks or a concurrency limit. For each such tool the registry makes a `Plan`
when its tools are set (registry.py): the implementation's `run`, the validators and what its
result needs, so that a call does no lookup, no allocation but its result's, and no
generator step (dispatch.py: `call` and `acall`). Anything else a call meets (refused
arguments, a failure to retry, a suspension, an invalid result) goes to the general path
with what the call has so far, so both paths answer alike (a property test holds them to it).

A plan holds the implementation's `run` as it was when the registry was made (a registry is
a value: replace a tool with `add(..., replace=True)`).
"""

from __future__ import annotations

import inspect
from collections.abc import Callable, Mapping
from time import perf_counter
from typing import Any

from pydantic import ValidationError

from ..results.outcome import finish
from ..results.result import ToolInfo, ToolResult, ok


class Plan:
    """What a call of one tool without policies reads, looked up once."""

    __slots__ = (
        "awaits",
        "bare",
        "check",
        "impl",
        "info",
        "model",
        "name",
        "result",
        "run",
        "timeout",
    )

    def __init__(self, info: ToolInfo, impl: Any, timeout_s: float | None) -> None:
        self.info = info
        self.name = info.name
        self.impl = impl
        self.run: Callable[..., Any] = impl.run
        self.model = info.arguments  # the Arguments class: validate() is its one owner
        self.result = info.result
        self.check: Callable[[Any], Any] = info.result.__pydantic_validator__.validate_python
        # An ok result is only its value and duration: no flag to read (`terminal`), no exact
        # check of the result beyond its class (finish() does the rest).
        self.bare = not info.flags and getattr(info.result, "__exact__", None) is None
        self.awaits = inspect.iscoroutinefunction(self.run)  # `acall` awaits it in its task
        self.timeout = info.timeout_s if info.timeout_s is not None else timeout_s


def plans(
    infos: Mapping[str, ToolInfo | None], tools: Mapping[str, Any], timeout_s: float | None
) -> tuple[dict[str, Plan], dict[str, Plan]]:
    """The plans of `call` (a sync `run` without a deadline: run in the caller's thread) and of
    `acall` (an async `run`, its deadline kept in the task), by canonical name. `infos`: each
    tool's info when its arguments are one `validate` call of this runtime, else None."""
    sync: dict[str, Plan] = {}
    awaited: dict[str, Plan] = {}
    for name, info in infos.items():
        if info is None or needs_policy(info) or info.injected is not None or info.secrets:
            continue
        plan = Plan(info, tools[name], timeout_s)
        if plan.awaits:
            awaited[name] = plan
        elif plan.timeout is None:
            sync[name] = plan
    return sync, awaited


def by_alias(plans: dict[str, Plan], aliases: Mapping[str, str]) -> dict[str, Plan]:
    """`plans`, found by each tool's provider-safe name too (what a provider's call names)."""
    return {**plans, **{alias: plans[n] for alias, n in aliases.items() if n in plans}}


def finished(plan: Plan, outcome: Any, started: float, args: Any) -> ToolResult:
    """The result of a run that returned `outcome` (not an awaitable)."""
    if plan.bare:
        kind = type(outcome)
        if kind is dict:
            try:
                value = plan.check(outcome)
            except ValidationError:
                pass  # finish() says why, as for any call
            else:
                return ok(plan.name, value, perf_counter() - started)
        elif kind is plan.result:
            return ok(plan.name, outcome, perf_counter() - started)
    return finish(plan.info, outcome, perf_counter() - started, args, ())


def needs_policy(info: ToolInfo) -> bool:
    """Whether a call of this tool needs more than a run: a declared policy, or a warning."""
    return bool(
        getattr(info, "rate_limit", None) is not None
        or getattr(info, "cache", None) is not None
        or "requires_approval" in info.flags
        or "streaming" in info.flags
        or info.stability == "deprecated"
        or warns(info)
    )


def warns(info: ToolInfo) -> bool:
    """Whether a call's arguments may carry warnings: renamed or deprecated parameters."""
    return bool(getattr(info, "renames", ()) or getattr(info, "deprecated_parameters", ()))
