# Part of toolgen's runtime, copied verbatim into generated packages (edit toolgen, not a copy).
"""What the spec says about a tool, and the outcome of one call of it.

`ToolInfo` is what a generated tool module declares; `ToolResult` is what the registry answers
for one call: ok with a value, or failed with a `ToolFailure` a model can act on (or waiting
for the host: `suspended`). outcome.py turns what an implementation did (returned, raised,
ran out of time) into that result.
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Generic, TypeVar

from pydantic import BaseModel
from pydantic_core import to_json

from ..validation import deprecation
from ..validation.deprecation import DeprecatedParameter, Deprecation, OnWarning, Rename
from ..validation.payload import LIMITS, Limits
from ..validation.validate import OnCoerce, as_sent, validate
from .content import Block

if TYPE_CHECKING:
    from ..validation.repair import Repair
    from .control import Suspension

T = TypeVar("T")


@dataclass(frozen=True)
class ToolInfo:
    """What the spec says about one tool, as the generated module declares it."""

    name: str
    description: str
    arguments: type[BaseModel]
    result: type[BaseModel]
    injected: type[BaseModel] | None = None
    provider_name: str = ""
    category: str | None = None
    kind: str | None = None
    stability: str = "stable"
    version: str | None = None
    timeout_s: float | None = None
    flags: frozenset[str] = frozenset()
    errors: frozenset[str] = frozenset()
    secrets: frozenset[str] = frozenset()
    retryable_errors: frozenset[str] = frozenset()  # the declared kinds marked `retryable: true`
    retry: tuple[int, float, float | None] = (1, 0.0, None)  # spec `retry`: attempts, backoff, cap
    rate_limit: tuple[int, float, bool] | None = None  # spec `rate_limit`: calls, per_s, wait
    cache: tuple[float, int] | None = None  # spec `cache`: ttl_s, max_entries
    approval_expires_s: float | None = None  # spec `approval: {expires_s}`: records' lifetime
    content: frozenset[str] = frozenset()  # spec `content`: the kinds of blocks it may return
    scopes: frozenset[str] = frozenset()  # spec `auth: {scopes}`: what a caller's token holds
    deprecation: Deprecation | None = None  # spec `deprecated` and `sunset`
    renames: tuple[Rename, ...] = ()  # `x-renamed-from` (the Arguments class's `__renames__`)
    deprecated_parameters: tuple[DeprecatedParameter, ...] = ()  # `deprecated: true` at the root
    namespace: str | None = (
        None  # spec `namespace` where it is not the category (None: the category)
    )
    defer: bool = False  # spec `defer`: found through tool search, not shown up front
    task: str | None = None  # spec `task`: forbidden | optional | required (MCP's taskSupport)
    repair: frozenset[str] = frozenset()  # `x-repair`: the repairs of malformed text allowed
    # The arguments of the spec's examples of a valid call (those without `error`), in order.
    examples: tuple[dict[str, Any], ...] = ()
    # Spec `guards`: the names of the host's input guards and output guards (calls/guards.py).
    guards: tuple[tuple[str, ...], tuple[str, ...]] = ((), ())

    def validate_arguments(
        self,
        arguments: Any,
        *,
        limits: Limits = LIMITS,
        on_coerce: OnCoerce | None = None,
        on_warning: OnWarning | None = None,
    ) -> BaseModel:
        """The typed arguments of a call (a dict or JSON text), or ToolArgumentsError.
        `on_warning` gets the host's warnings (an old parameter name, a deprecated parameter
        sent); without it they are logged (deprecation.py)."""
        if limits is LIMITS and on_coerce is None and on_warning is None:
            value = validate(self.arguments, self.name, arguments, self.secrets)  # (no keywords)
        else:
            value = validate(
                self.arguments,
                self.name,
                arguments,
                self.secrets,
                limits=limits,
                on_coerce=on_coerce,
                on_warning=on_warning,
            )
        if self.deprecated_parameters:
            for note in deprecation.parameter_warnings(
                self.name, value, self.deprecated_parameters
            ):
                deprecation.tell(note, on_warning)
        return value

    def plain_validator(self) -> Callable[[Any], BaseModel]:
        """`validate_arguments` with no keywords, as one call with nothing in between where
        the tool has no deprecated parameters (for callers that keep it, as the facade does)."""
        if self.deprecated_parameters:
            return self.validate_arguments
        if self.secrets:
            return functools.partial(validate, self.arguments, self.name, secrets=self.secrets)
        return functools.partial(validate, self.arguments, self.name)


def package_of(info: Any) -> str:
    """The generated package a tool comes from (its `Arguments` class is in `<package>.tools.`),
    or "" for a tool of no generated package."""
    module = getattr(getattr(info, "arguments", None), "__module__", "") or ""
    return module.rpartition(".tools.")[0]


@dataclass(frozen=True)
class ToolFailure:
    """Why a call failed, for the model: `message` never holds a secret value (x-secret
    arguments and every injected value are redacted from a ToolError's text)."""

    # "unknown_tool", "invalid_arguments", a declared error kind, "timeout", "rate_limited",
    # "rejected" (the user did not approve it), "suspended" (waiting for the host),
    # "unavailable" (the state store its policies need did not answer: not run, retryable),
    # "refused" (an input guard said no: not run), "withheld" (an output guard kept the result
    # from the model: the tool ran), "invalid_result" or "internal"
    kind: str
    message: str
    # Calling again as it was may succeed: a declared kind marked `retryable: true`; a timeout
    # of a tool flagged `idempotent` or `retryable`; an internal failure of one flagged
    # `retryable`. With a spec `retry`, the registry itself calls again (ToolResult.attempts).
    retryable: bool = False
    partial_data: Any = None  # what the tool got done before it failed (ToolError.partial_data)


@dataclass(frozen=True)
class Output(Generic[T]):
    """What `run` may return instead of the bare result: the result, guidance for the model
    (`metadata`: how to read it, what to do next), and content blocks (content.py) of the
    kinds the spec's `content` declares, in order. `metadata` given as JSON data (a dict, a
    list) reaches the model as JSON text; data that is not JSON fails the call
    (`invalid_result`, the exception saying why)."""

    value: T
    metadata: str | dict[str, Any] | list[Any] | None = None
    content: Sequence[Block] = ()


@dataclass(frozen=True, init=False, repr=False)
class ToolResult:
    """The outcome of one call: ok with a value, or failed with a message a model can act on."""

    tool: str
    value: BaseModel | None = None
    failure: ToolFailure | None = None
    # For the host's logs.
    exception: BaseException | None = field(default=None, repr=False, compare=False)
    attempts: int = 1  # calls of `run` made for it (more than one after retries)
    duration_s: float = 0.0  # from validated arguments to result, waits and retries included
    metadata: str | None = None  # guidance for the model (Output.metadata), sent with the result
    terminal: bool = False  # an ok result of a tool flagged `terminal`: the agent's turn may end
    # For the host: a deprecated tool was called, a parameter by its old name, a deprecated one;
    # the arguments' text was repaired (one line saying how, beside `repairs`).
    warnings: tuple[str, ...] = ()
    content: tuple[Block, ...] = ()  # blocks for the model to see (Output.content), in order
    # For the host: what was read past in the arguments' text to run the call (`x-repair`).
    repairs: tuple[Repair, ...] = ()
    # A call waiting for the host (an approval, the user's answer): store it, then
    # `Registry.resume` it. The failure (kind "suspended") is what a model reads meanwhile.
    suspended: Suspension | None = field(default=None, repr=False)
    # For the host: what each guard of the call did (calls/guards.py's GuardNote records).
    guards: tuple[Any, ...] = ()

    def __init__(
        self,
        tool: str,
        value: BaseModel | None = None,
        failure: ToolFailure | None = None,
        exception: BaseException | None = None,
        attempts: int = 1,
        duration_s: float = 0.0,
        metadata: str | None = None,
        terminal: bool = False,
        warnings: tuple[str, ...] = (),
        suspended: Suspension | None = None,
        content: tuple[Block, ...] = (),
        repairs: tuple[Repair, ...] = (),
        guards: tuple[Any, ...] = (),
    ) -> None:
        # A frozen dataclass would set all its fields through object.__setattr__ (a microsecond
        # on every call); only what differs from the class's defaults is stored, directly.
        fields = self.__dict__
        fields["tool"] = tool
        if value is not None:
            fields["value"] = value
        if failure is not None:
            fields["failure"] = failure
        if exception is not None:
            fields["exception"] = exception
        if attempts != 1:
            fields["attempts"] = attempts
        if duration_s:
            fields["duration_s"] = duration_s
        if metadata is not None:
            fields["metadata"] = metadata
        if terminal:
            fields["terminal"] = terminal
        if warnings:
            fields["warnings"] = warnings
        if suspended is not None:
            fields["suspended"] = suspended
        if content:
            fields["content"] = content
        if repairs:
            fields["repairs"] = repairs
        if guards:
            fields["guards"] = guards

    def __repr__(self) -> str:
        """The fields that differ from their defaults (not the exception or the record)."""
        shown = [f"{k}={v!r}" for k, v in vars(self).items() if k not in ("exception", "suspended")]
        return f"ToolResult({', '.join(shown)})"

    @property
    def ok(self) -> bool:
        return self.failure is None

    def to_dict(self) -> dict[str, Any]:
        if self.failure is not None:
            error: dict[str, Any] = {"kind": self.failure.kind, "message": self.failure.message}
            if self.failure.partial_data is not None:
                error["partial_data"] = self.failure.partial_data
            return {"ok": False, "error": error}
        out = {"ok": True, "result": self.data()}
        if self.metadata is not None:
            out["metadata"] = self.metadata
        if self.content:
            out["content"] = [block.as_json() for block in self.content]
        return out

    def data(self) -> Any:
        """The result as JSON data, as `returns` describes it: optional keys not set stay absent."""
        assert self.value is not None
        return as_sent(self.value)

    def text(self) -> str:
        """What a model should read back: the result as JSON, or the failure's message (each
        followed by the guidance or the partial data, when there is some)."""
        if self.failure is not None:
            if self.failure.partial_data is None:
                return self.failure.message
            partial = to_json(self.failure.partial_data).decode()
            return f"{self.failure.message}\nDone before the failure: {partial}"
        parts = [to_json(self.data()).decode()]
        parts += [block.shown() for block in self.content]  # where text cannot carry them
        if self.metadata is not None:
            parts.append(self.metadata)
        return "\n\n".join(parts)


_new = object.__new__


def ok(tool: str, value: BaseModel, duration_s: float) -> ToolResult:
    """An ok result, nothing but its value and duration, as `ToolResult(tool, value,
    duration_s=duration_s)` makes it: the fields set directly (the runtime built and checked
    them), for a third of the cost of a keyword call of `__init__`."""
    made: ToolResult = _new(ToolResult)
    fields = made.__dict__
    fields["tool"] = tool
    fields["value"] = value
    if duration_s:
        fields["duration_s"] = duration_s
    return made
