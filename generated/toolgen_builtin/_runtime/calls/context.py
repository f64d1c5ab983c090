# Part of toolgen's runtime, copied verbatim into generated packages (edit toolgen, not a copy).
"""What an implementation may learn of the call it runs: `RunContext`.

An implementation asks for it by giving its `run` a parameter named `ctx` (or one annotated
`RunContext`), optional (`ctx: RunContext | None = None`) so that it still overrides the
generated interface's `run`. The registry looks for that parameter once, when its tools are
set (`wants`), and passes the context as a keyword to those tools only: a tool that does not
ask pays nothing, and neither does its call.

What a call is, beyond its arguments, is known where the call comes from: a provider's turn
(adapters.py: the call's id, the provider, the turn's other calls), an MCP request (the
server: the caller's principal, never its token) or the host itself. Each says it with
`calling(...)` around the call, a context variable (so it follows the call into worker
threads and tasks); the registry adds the deadline and the injected values when it runs
the tool. Guards (guards.py) get the same context.
"""

from __future__ import annotations

import contextlib
import contextvars
import inspect
import time
from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field
from typing import Any

NAME = "ctx"  # the parameter name that asks for the context


@dataclass(frozen=True)
class TurnCall:
    """Another call of the same turn, as the model sent it."""

    id: str | None
    name: str
    arguments: Any


@dataclass(frozen=True)
class RunContext:
    """The call being run, as an implementation (or a guard) sees it.

    - `tool`: the canonical name of the tool called.
    - `call_id`: the provider's id of the call (through `respond`/`arespond`), the MCP
      request's id (served), or what the host gave `calling(call_id=...)`; else None.
    - `provider`: the provider whose turn it is (`"openai"`, ...; `"mcp"` when served).
    - `turn`: the turn's other calls (`TurnCall`: id, name, arguments as sent), in order,
      when it came through an adapter with several; else empty.
    - `caller`: who called, when the host or the server knows (an MCP server: the
      authenticated principal's id; never a token).
    - `deadline`: when the call's deadline passes, on `time.monotonic()`; None: none.
    - `injected`: the call's injected values (the tool's validated `injected` values, else
      what the registry's `inject` and the call's `injected=` supply).
    """

    tool: str = ""
    call_id: str | None = None
    provider: str | None = None
    turn: tuple[TurnCall, ...] = ()
    caller: str | None = None
    deadline: float | None = None
    injected: Mapping[str, Any] = field(default_factory=dict)

    def remaining_s(self) -> float | None:
        """Seconds until the deadline (0 once it passed); None without a deadline."""
        if self.deadline is None:
            return None
        return max(0.0, self.deadline - time.monotonic())


@dataclass(frozen=True)
class _Given:
    """What the call's origin said of it (`calling`)."""

    call_id: str | None = None
    provider: str | None = None
    turn: tuple[TurnCall, ...] = ()
    caller: str | None = None


_GIVEN: contextvars.ContextVar[_Given | None] = contextvars.ContextVar("toolgen_call", default=None)


@contextlib.contextmanager
def calling(
    *,
    call_id: str | None = None,
    provider: str | None = None,
    turn: tuple[TurnCall, ...] = (),
    caller: str | None = None,
) -> Iterator[None]:
    """The calls made inside this block are this call (what `RunContext` reports): for a
    host that calls `Registry.call`/`acall` itself and knows who asked. A value left None
    keeps what an outer block said (the server's `caller` inside an adapter's turn)."""
    outer = _GIVEN.get()
    if outer is not None:
        call_id = outer.call_id if call_id is None else call_id
        provider = outer.provider if provider is None else provider
        turn = turn or outer.turn
        caller = outer.caller if caller is None else caller
    token = _GIVEN.set(_Given(call_id, provider, tuple(turn), caller))
    try:
        yield
    finally:
        _GIVEN.reset(token)


def made(tool: str, timeout: float | None, extra: tuple[Any, ...], values: Any) -> RunContext:
    """The context of a call of `tool` starting now: what its origin said, its deadline
    (`timeout` seconds from now), its injected values (`extra`: the validated model, if
    any; else `values`, what the registry's `inject` supplies)."""
    given = _GIVEN.get() or _NOTHING
    deadline = None if timeout is None else time.monotonic() + timeout
    if extra:
        injected: Mapping[str, Any] = dict(extra[0])
    else:
        injected = dict(values) if values else {}
    return RunContext(
        tool, given.call_id, given.provider, given.turn, given.caller, deadline, injected
    )


_NOTHING = _Given()


def wants(run: Any) -> str | None:
    """The name of the parameter by which a `run` asks for the context: one named `ctx`, or
    one annotated `RunContext` (this runtime's or another package's copy; a string annotation
    too), that may be passed by keyword; None when it asks for nothing. Read once per tool,
    when a registry sets its tools, from the function's code (a registry of many tools must
    not pay `inspect.signature` for each)."""
    function = getattr(run, "__func__", run)
    code = getattr(function, "__code__", None)
    if code is None:  # not a plain function (a callable object, a builtin): ask inspect
        return _signature_wants(run)
    names: tuple[str, ...] = code.co_varnames[
        code.co_posonlyargcount : code.co_argcount + code.co_kwonlyargcount
    ]
    if NAME in names:
        return NAME
    try:
        annotations = function.__annotations__  # may evaluate them: a name may be missing
    except Exception:  # noqa: BLE001 - an annotation that does not evaluate asks for nothing
        return None
    for name in names:
        if name in annotations and _names_context(annotations[name]):
            return name
    return None


def _names_context(annotation: Any) -> bool:
    """`RunContext`, `RunContext | None`, `Optional[RunContext]`, or such a string."""
    if isinstance(annotation, str):
        return "RunContext" in annotation
    if getattr(annotation, "__name__", None) == "RunContext":
        return True
    return any(
        getattr(a, "__name__", None) == "RunContext" for a in getattr(annotation, "__args__", ())
    )


def _signature_wants(run: Any) -> str | None:
    try:
        parameters = inspect.signature(run).parameters.values()
    except (TypeError, ValueError, NameError):  # no signature to read: it asks for nothing
        return None
    for parameter in parameters:
        if parameter.kind not in (parameter.POSITIONAL_OR_KEYWORD, parameter.KEYWORD_ONLY):
            continue
        if parameter.name == NAME or "RunContext" in str(parameter.annotation):
            return parameter.name
    return None
