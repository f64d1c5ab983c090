# Part of toolgen's runtime, copied verbatim into generated packages (edit toolgen, not a copy).
"""Streaming tools: a `run` that yields events as it goes, then its result.

A tool flagged `streaming` may implement `run` as a generator, sync or async. It yields
events (`Progress`, `Chunk`, `Partial`, or a content block) in any number, then its result
(a dict, the Result model or an `Output`); a sync generator may `return` the result instead.
The registry drains the stream under the call's deadline (the whole stream, start to result),
hands each event to the host as it comes (`call(..., on_event=...)`, `astream`), and checks
the result against `returns` as for any call. Cancelling the call closes the generator, so its
`finally` blocks run (a sync one, once the step it is in has returned).
"""

from __future__ import annotations

import contextlib
import contextvars
import inspect
from collections.abc import AsyncGenerator, Callable, Iterator
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, ClassVar

from ..errors import ToolgenError
from ..results.content import block_kind
from .execution import cancelled

if TYPE_CHECKING:
    import asyncio

    from ..results.result import ToolResult

OnEvent = Callable[[Any], None]

# The host's listener of the call under way (`Registry.call(..., on_event=...)`): a context
# variable, so that it follows the call into worker threads and tasks, and no other call.
LISTENER: contextvars.ContextVar[OnEvent | None] = contextvars.ContextVar(
    "toolgen_listener", default=None
)


@contextlib.contextmanager
def listening(on_event: OnEvent) -> Iterator[None]:
    token = LISTENER.set(on_event)
    try:
        yield
    finally:
        LISTENER.reset(token)


@dataclass(frozen=True)
class Progress:
    """How far the tool is: `done` of `total` (None: unknown), with a line for a person."""

    done: float
    total: float | None = None
    message: str | None = None
    kind: ClassVar[str] = "progress"
    is_final: ClassVar[bool] = False

    def as_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"type": "progress", "done": self.done}
        if self.total is not None:
            out["total"] = self.total
        if self.message is not None:
            out["message"] = self.message
        return out


@dataclass(frozen=True)
class Chunk:
    """A piece of the tool's output text, as it is made (a command's output, a draft)."""

    text: str
    kind: ClassVar[str] = "chunk"
    is_final: ClassVar[bool] = False

    def as_json(self) -> dict[str, Any]:
        return {"type": "chunk", "text": self.text}


@dataclass(frozen=True)
class Partial:
    """Part of the result, as JSON, before the whole is ready."""

    data: Any
    kind: ClassVar[str] = "partial"
    is_final: ClassVar[bool] = False

    def as_json(self) -> dict[str, Any]:
        return {"type": "partial", "data": self.data}


@dataclass(frozen=True)
class Final:
    """The last event of `astream`: the call's result. `was_interrupted`: the stream was cut
    (its deadline passed, or it was cancelled) before the tool gave a result."""

    result: ToolResult
    was_interrupted: bool = False
    kind: ClassVar[str] = "final"
    is_final: ClassVar[bool] = True


EVENT_NAMES = ("Progress", "Chunk", "Partial")


async def relayed(
    call: asyncio.Future[Any], items: asyncio.Queue[Any]
) -> AsyncGenerator[Any, None]:
    """What is queued on `items` while `call` runs, as it comes, up to the last item queued
    before the call ended (`call.result()` is then ready). Stopped early (closed, cancelled),
    it cancels the call and waits for it to end."""
    import asyncio  # here, not at the top: importing it costs every package ~15 ms

    try:
        while not call.done() or not items.empty():
            waiting = asyncio.ensure_future(items.get())
            await asyncio.wait({waiting, call}, return_when=asyncio.FIRST_COMPLETED)
            if waiting.done():
                yield waiting.result()
                continue
            waiting.cancel()
            await asyncio.sleep(0)  # what was queued just before the call ended is queued by now
    finally:
        if not call.done():
            call.cancel()
            await asyncio.gather(call, return_exceptions=True)


def is_event(item: Any) -> bool:
    """An event of this runtime or another package's copy, or a content block."""
    return type(item).__name__ in EVENT_NAMES or block_kind(item) is not None


class StreamError(ToolgenError):
    """A stream that broke its form: no result, or something after the result."""


class _Collector:
    """Takes a stream's items in order: events to `on_event`, one result, nothing after it."""

    def __init__(self, on_event: OnEvent | None) -> None:
        self.on_event = on_event
        self.result: Any = _NONE

    def take(self, item: Any) -> None:
        if self.result is not _NONE:
            raise StreamError("the stream went on after its result")
        if is_event(item):
            if self.on_event is not None:
                self.on_event(item)
        else:
            self.result = item

    def finish(self, returned: Any = None) -> Any:
        if self.result is _NONE and returned is not None:
            self.result = returned
        if self.result is _NONE:
            raise StreamError("the stream ended without a result")
        return self.result


_NONE: Any = object()


def running(run: Callable[..., Any], args: tuple[Any, ...], on_event: OnEvent | None) -> Any:
    """`run(*args)` of a streaming tool: a sync stream drained here (stopped at its next event
    once its call is over: execution.cancelled()), an async one as a coroutine for the caller
    to await (and cancel), anything else as it is."""
    outcome = run(*args)
    if inspect.isasyncgen(outcome):
        return adrain(outcome, on_event)
    if inspect.isgenerator(outcome):
        return drain(outcome, on_event)
    return outcome


def drain(stream: Any, on_event: OnEvent | None) -> Any:
    """The result of a sync stream, its events handed to `on_event` on the way (this thread)."""
    collector = _Collector(on_event)
    try:
        while True:
            item = _step(stream)
            if isinstance(item, _Returned):
                return collector.finish(item.value)
            if cancelled():
                raise StreamError("the stream was stopped: its call is over")
            collector.take(item)
    finally:
        stream.close()  # stopped early (an error, its deadline): its cleanup runs now


async def adrain(stream: Any, on_event: OnEvent | None) -> Any:
    """The result of an async stream (awaited in the caller's loop). Cancelled (its deadline,
    a cancelled task), it closes the stream, so its cleanup runs."""
    collector = _Collector(on_event)
    try:
        async for item in stream:
            collector.take(item)
        return collector.finish()
    finally:
        await stream.aclose()


@dataclass(frozen=True)
class _Returned:
    value: Any  # what a sync generator returned (None: nothing)


def _step(stream: Any) -> Any:
    """The stream's next item, or _Returned once it has ended."""
    try:
        return next(stream)
    except StopIteration as stop:
        return _Returned(stop.value)
