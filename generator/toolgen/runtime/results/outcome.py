# Part of toolgen's runtime, copied verbatim into generated packages (edit toolgen, not a copy).
"""How what an implementation did becomes a call's result (result.py holds the values): a
returned value checked as exactly as arguments are (`finish`), an exception as a declared
failure or an `internal` one (`failure`), a deadline passed (`timed_out`), a rate limit
(`rate_limited`); secret values kept out of every text a model reads."""

from __future__ import annotations

import json
from typing import Any

from pydantic import ValidationError

from ..errors import ToolArgumentsError, ToolError
from ..secrets import redact, secret_values
from ..types import is_json_type
from ..validation.validate import as_sent
from .content import block_kind
from .result import ToolFailure, ToolInfo, ToolResult, ok


def raised_as(exc: BaseException, cls: type[BaseException]) -> bool:
    """`exc` is a `cls` of this runtime, or of another generated package's copy of it."""
    return isinstance(exc, cls) or any(c.__name__ == cls.__name__ for c in type(exc).__mro__)


def guidance(metadata: object) -> tuple[str | None, str | None]:
    """An Output's `metadata` as the text a model reads: text as it is, JSON data as JSON
    (never a Python repr); else (None, why it is refused)."""
    if isinstance(metadata, str):
        return metadata, None
    try:
        return (
            json.dumps(metadata, ensure_ascii=False, allow_nan=False, separators=(",", ":")),
            None,
        )
    except (TypeError, ValueError, RecursionError) as exc:
        return None, f"Output.metadata is text or JSON data (a dict, a list): {exc}"


def tool_error_kind(exc: BaseException) -> str | None:
    """The kind of a ToolError raised by an implementation (of any generated package's runtime);
    None for the runtime's own errors (a ToolCallError of a call the tool made, ...)."""
    kind = getattr(exc, "kind", None)
    declared = getattr(exc, "declared", True) is True
    return kind if isinstance(kind, str) and declared and raised_as(exc, ToolError) else None


def finish(
    info: ToolInfo,
    outcome: Any,
    duration_s: float = 0.0,
    args: Any = None,
    extra: tuple[Any, ...] = (),
) -> ToolResult:
    """The outcome as the result `returns` declares, checked as exactly as arguments are.
    `duration_s`: how long the call took (ToolResult.duration_s); `args` and `extra`: the
    call's arguments and injected values, whose secrets guidance text must not quote."""
    metadata, content, refused = None, (), None
    kind = type(outcome)
    if kind is not dict and kind is not info.result and kind.__name__ == "Output":
        # Of any generated package's runtime.
        outcome, metadata, content = outcome.value, outcome.metadata, tuple(outcome.content)
        if metadata is not None:
            metadata, refused = guidance(metadata)
            if metadata is not None:
                metadata = redact(metadata, hidden_values(args, extra))
        if refused is None and content:
            refused = _undeclared(info, content)
        if refused is not None:
            return ToolResult(
                info.name,
                failure=ToolFailure("invalid_result", "the tool produced an invalid result"),
                exception=ValueError(refused),
                duration_s=duration_s,
            )
    problem: Exception
    try:
        if kind is info.result or (kind is not dict and isinstance(outcome, info.result)):
            value = outcome
        else:
            value = info.result.__pydantic_validator__.validate_python(outcome)
        check = getattr(info.result, "__exact__", None)
        if check is None or check.is_valid(as_sent(value)):
            if metadata is None and not info.flags and not content:
                return ok(info.name, value, duration_s)  # most calls
            terminal = "terminal" in info.flags
            return ToolResult(
                info.name,
                value,
                duration_s=duration_s,
                metadata=metadata,
                terminal=terminal,
                content=content,
            )
        issues = check.issues(as_sent(value))
        problem = ValueError(
            "the result does not match the tool's returns:\n" + "\n".join(i.line() for i in issues)
        )
    except ValidationError as exc:
        problem = exc
    return ToolResult(
        info.name,
        failure=ToolFailure("invalid_result", "the tool produced an invalid result"),
        exception=problem,
        duration_s=duration_s,
    )


def _undeclared(info: ToolInfo, content: tuple[Any, ...]) -> str | None:
    """Why the content a run returned breaks its spec (something that is no block, or a block
    of a kind the spec's `content` does not declare), else None."""
    declared: frozenset[str] = getattr(info, "content", frozenset())
    for i, block in enumerate(content):
        kind = block_kind(block)
        if kind is None:
            return f"content[{i}] is a {type(block).__name__}, not a content block"
        if kind not in declared:
            allowed = ", ".join(sorted(declared)) or "none"
            return f"content[{i}] is {kind} content; the spec's `content` declares {allowed}"
    return None


def failure(
    info: ToolInfo,
    exc: BaseException,
    args: Any = None,
    extra: tuple[Any, ...] = (),
    duration_s: float = 0.0,
) -> ToolResult:
    """What an implementation raised, as the model may read it: a declared kind with its
    message (secret values redacted), anything else as `internal` with no internals."""
    if isinstance(exc, ToolArgumentsError) and exc.tool == info.name:
        # An implementation that reads its own arguments further (a function's own types:
        # `2026-02-30` has a date's shape, not a day) refuses them as the boundary does.
        message = redact(str(exc), hidden_values(args, extra))
        refused = ToolFailure("invalid_arguments", message)
        return ToolResult(info.name, failure=refused, exception=exc, duration_s=duration_s)
    kind = tool_error_kind(exc)
    if kind is not None and kind in info.errors:
        # An implementation's text may quote what it was given: no secret reaches the model.
        hidden = hidden_values(args, extra)
        message = redact(str(exc), hidden)
        retryable = kind in getattr(info, "retryable_errors", frozenset())
        partial = getattr(exc, "partial_data", None)
        if partial is not None and hidden:
            partial = redact_json(partial, hidden)
        failed = ToolFailure(kind, message, retryable, partial)
        return ToolResult(info.name, failure=failed, exception=exc, duration_s=duration_s)
    return ToolResult(
        info.name,
        failure=ToolFailure("internal", f"tool '{info.name}' failed unexpectedly", flagged(info)),
        exception=exc,
        duration_s=duration_s,
    )


def hidden_values(args: Any, extra: tuple[Any, ...]) -> set[str]:
    """What text for the model must not hold: the call's x-secret values, every injected one."""
    hidden = secret_values(args)
    for injected in extra:
        hidden |= secret_values(injected, everything=True)
    return hidden


def redact_json(value: Any, hidden: set[str]) -> Any:
    """`value` (JSON) with every secret value in its strings replaced."""
    if isinstance(value, str):
        return redact(value, hidden)
    if isinstance(value, dict):
        return {k: redact_json(v, hidden) for k, v in value.items()}
    if isinstance(value, list):
        return [redact_json(v, hidden) for v in value]
    if is_json_type(value, "number") and str(value) in hidden:
        return redact(str(value), hidden)
    return value


def timed_out(
    info: ToolInfo, seconds: float, exc: BaseException, duration_s: float = 0.0
) -> ToolResult:
    """The deadline passed: whether calling again is safe is the tool's `idempotent` flag."""
    safe = "idempotent" in info.flags or flagged(info)
    advice = (
        "it is idempotent: calling it again is safe"
        if safe
        else "it may have had effects before it was stopped: check before calling it again"
    )
    message = f"tool '{info.name}' did not finish within {seconds:g} s; {advice}"
    failed = ToolFailure("timeout", message, safe)
    return ToolResult(info.name, failure=failed, exception=exc, duration_s=duration_s)


def rate_limited(info: ToolInfo, calls: int, per_s: float, delay: float) -> ToolResult:
    message = (
        f"tool '{info.name}' takes at most {calls} call{'s' if calls != 1 else ''} in "
        f"{per_s:g} s; call it again in {delay:.2g} s"
    )
    return ToolResult(info.name, failure=ToolFailure("rate_limited", message, True))


def flagged(info: ToolInfo) -> bool:
    """The spec says the tool may be called again after a failure its `errors` do not declare
    (an unexpected exception, a timeout): flag `retryable`. A declared kind says for itself."""
    return "retryable" in info.flags
