# Part of toolgen's runtime, copied verbatim into generated packages (edit toolgen, not a copy).
"""A generated package's tools, called on an MCP server (the package's `client` extra).

`Remote` is one connection, made with the official `mcp` SDK's `Client` (a URL is streamable
HTTP, anything else a command run as a stdio server). Each call is validated here first, by
the same models and with the same messages as the server would give (nothing invalid is
sent), then sent as `tools/call`. The answer is read back into the package's types: the
Result model (from `structuredContent`, or toolgen's `_meta` value where a handshake-era
result cannot hold it, or the text of a server that is not toolgen's), the content blocks,
and a failure's kind (reading.py, bounded by `max_result_bytes` and the runtime's nesting
limit). `value` raises `ToolCallError` for every failure (failures.py turns the SDK's and
the transports' exceptions into kinds), `call` returns the whole `ToolResult`, a failure
included, `stream` yields a streaming tool's events (`Progress`, `Chunk`, ...) as they come
(another server's standard progress notifications as `Progress`), then `Final`. The generated `client.py` gives each tool its own typed method on top.
"""

from __future__ import annotations

import asyncio
import contextlib
import itertools
import shlex
from collections.abc import AsyncGenerator, AsyncIterator, Awaitable, Callable, Iterator, Mapping
from typing import Any, TypeVar

import mcp_types as types
from mcp import Client, StdioServerParameters

from ..calls import streaming, tracing
from ..errors import ToolArgumentsError, ToolCallError, UnknownToolError
from ..results.result import ToolFailure, ToolInfo, ToolResult
from ..validation.payload import LIMITS, Limits
from ..validation.suggest import nearest
from ..validation.validate import as_sent
from . import failures, reading, remote_tasks
from .remote_tasks import SyncTaskHandle, TaskHandle
from .wire import EVENT, MAX_EVENT_HEADER

_TOKENS = itertools.count(1)
R = TypeVar("R")
Approve = Callable[[str], Awaitable[bool]]
Answer = Callable[[str], Awaitable[str | None]]


class Remote:
    """The tools of `infos` on one connected MCP server."""

    def __init__(
        self,
        client: Client,
        infos: Mapping[str, ToolInfo],
        *,
        max_result_bytes: int = reading.MAX_RESULT_BYTES,
        watch: failures.Watch | None = None,
    ) -> None:
        self.client = client
        self.infos = dict(infos)
        self.limits = Limits(max_bytes=max_result_bytes, max_depth=LIMITS.max_depth)
        self.watch = watch or failures.Watch()
        self._streams: dict[str, Callable[[Any], None]] = {}
        self.elicit: Any = None  # the SDK's elicitation callback, when `connect` offers one

    def info(self, name: str) -> ToolInfo:
        info = self.infos.get(name)
        if info is None:
            raise UnknownToolError(name, nearest(name, list(self.infos)), len(self.infos))
        return info

    async def value(
        self, name: str, returns: type[R], arguments: Any = None, /, **fields: Any
    ) -> R:
        """The call's Result model (of class `returns`), or ToolCallError with the failure's
        kind (`ArgumentsRefused`, also a ToolArgumentsError, before sending an invalid call).
        (Positional parameters only, so that a tool's own `name` or `arguments` can be
        keywords.)"""
        return _value(await self.call(name, arguments, **fields), returns)

    async def call(self, name: str, arguments: Any = None, /, **fields: Any) -> ToolResult:
        """The whole result: value or failure (never raised: the connection stays usable),
        content blocks, guidance, warnings. A tool whose spec says `task: required` is run
        as a task (started, then awaited)."""
        if self.info(name).task == "required":
            try:
                handle = await self.start(name, arguments, **fields)
            except ToolCallError as error:
                failure = ToolFailure(error.kind, error.message, error.retryable)
                return ToolResult(self.info(name).name, failure=failure, exception=error)
            return await handle.outcome()
        async for event in self.stream(name, arguments, **fields):
            if isinstance(event, streaming.Final):
                return event.result
        raise AssertionError("a stream ends with Final")  # pragma: no cover

    async def start(
        self, name: str, arguments: Any = None, /, *, ttl_ms: int | None = None, **fields: Any
    ) -> TaskHandle:
        """The call started as a task on the server (remote_tasks.py): validated here as
        `call` does (ToolCallError `invalid_arguments` before sending), then a handle with
        `status()`, `result()`, `outcome()`, `cancel()`. `ttl_ms`: how long the server keeps
        it (its default otherwise)."""
        info = self.info(name)
        try:
            sent = _arguments(info, arguments, fields, [])
        except ToolArgumentsError as error:
            refused = failures.ArgumentsRefused.of(error)
            raise ToolCallError(info.name, "invalid_arguments", str(refused), False, 0) from None
        return await remote_tasks.start(self, info.name, sent, ttl_ms, _value)

    async def stream(
        self, name: str, arguments: Any = None, /, **fields: Any
    ) -> AsyncGenerator[Any, None]:
        """The call's events as the server sends them, then `Final(result)`."""
        info = self.info(name)
        warnings: list[str] = []
        try:
            sent = _arguments(info, arguments, fields, warnings)
        except ToolArgumentsError as error:
            refused = failures.ArgumentsRefused.of(error)
            failure = ToolFailure("invalid_arguments", str(refused))
            yield streaming.Final(ToolResult(info.name, failure=failure, exception=refused))
            return
        token = f"toolgen-{next(_TOKENS)}"
        events: asyncio.Queue[Any] = asyncio.Queue()
        self._streams[token] = events.put_nowait
        call = asyncio.ensure_future(
            self.client.call_tool(
                info.name, sent, meta=types.RequestParamsMeta(progress_token=token)
            )
        )
        try:
            async with contextlib.aclosing(streaming.relayed(call, events)) as relayed:
                async for event in relayed:
                    yield event
        finally:
            del self._streams[token]
        try:
            result = reading.read(info, call.result(), self.limits)
        except Exception as error:  # the SDK's, the transport's: a failure with its kind
            failure = failures.failure(error, self.watch)
            result = ToolResult(info.name, failure=failure, exception=error)
        if warnings:
            both = (*warnings, *result.warnings)
            result = ToolResult(
                result.tool,
                result.value,
                result.failure,
                result.exception,
                metadata=result.metadata,
                warnings=both,
                content=result.content,
            )
        yield streaming.Final(result)

    async def on_message(self, message: Any) -> None:
        """The client's message handler: a progress notification of a call under way goes to
        that call's stream, as the event toolgen's server put in it, or (any other server's)
        as a Progress of its numbers."""
        params = getattr(message, "params", None)
        if not isinstance(params, types.ProgressNotificationParams):
            return
        deliver = self._streams.get(str(params.progress_token))
        if deliver is None:
            return
        found = (params.meta or {}).get(EVENT)
        if isinstance(found, dict):
            deliver(reading.event(found))
        else:
            deliver(streaming.Progress(params.progress, params.total, params.message))


def _value(result: ToolResult, returns: type[R]) -> R:
    """The ok result's value, else ToolCallError with the failure's kind."""
    failure = result.failure
    if failure is not None:
        if isinstance(result.exception, ToolCallError):
            raise result.exception
        error = ToolCallError(result.tool, failure.kind, failure.message, failure.retryable, 1)
        error.partial_data, error.warnings = failure.partial_data, result.warnings
        raise error from result.exception
    if not isinstance(result.value, returns):
        raise TypeError(
            f"{result.tool} returns {type(result.value).__name__}, not {returns.__name__}"
        )
    return result.value


def _arguments(
    info: ToolInfo, arguments: Any, fields: Mapping[str, Any], warnings: list[str]
) -> dict[str, Any]:
    """What to send: the arguments validated here (ToolArgumentsError, as the server would
    say it), as their JSON; a typed Arguments instance, a mapping, or keyword arguments.
    The host's warnings (an old parameter name, a deprecated one) go to `warnings`."""
    if arguments is not None and fields:
        raise TypeError("pass the arguments as one object or as keywords, not both")
    given = fields if arguments is None else arguments
    if isinstance(given, info.arguments):
        given = as_sent(given)
    elif not isinstance(given, Mapping):
        raise TypeError(failures.positional(info, given))
    checked = info.validate_arguments(dict(given), on_warning=lambda w: warnings.append(str(w)))
    sent = as_sent(checked)
    return sent if isinstance(sent, dict) else {}


@contextlib.asynccontextmanager
async def connect(
    target: str | list[str] | Any,
    infos: Mapping[str, ToolInfo],
    *,
    token: str | None = None,
    timeout_s: float | None = 60.0,
    env: Mapping[str, str] | None = None,
    protocol: str = "auto",
    approve: Approve | None = None,
    answer: Answer | None = None,
    max_result_bytes: int = reading.MAX_RESULT_BYTES,
) -> AsyncIterator[Remote]:
    """A connection to the MCP server at `target`: an `http(s)://` URL (streamable HTTP,
    with `Authorization: Bearer <token>` when given), or a command (a list, or a string split
    as a shell would) started as a stdio server with `env` added to this environment (or
    what the SDK's `Client` takes: an `mcp` Server in this process, a Transport).
    `protocol`: "auto" (2026-07-28 where the server speaks it, else the handshake), "legacy"
    (the handshake revisions only), or a 2026-07-28 revision to use without asking.
    `approve(prompt)` decides a call that needs the user's approval (True to let it run) and
    `answer(question)` gives the user's answer to a tool's question (None: they declined);
    with either, the client offers elicitation, and the server asks them during the call.
    A result larger than `max_result_bytes` is the failure `invalid_result`. Whatever goes
    wrong leaves as ToolCallError with its kind (or the caller's own exception), never in
    exception groups."""
    server: Any = target  # an `mcp` Server, or a Transport: as the SDK's Client takes them
    watch = failures.Watch(max_result_bytes)
    if isinstance(target, str) and target.startswith(("http://", "https://")):
        import httpx2
        from mcp.client.streamable_http import streamable_http_client

        # One SSE event holds a whole result: the SDK's 1 MiB cap on it becomes the caller's
        # (the Watch cuts a tool's answer off at max_result_bytes as it is read); the server
        # is told, so that it sends such a result rather than refuse it (answering.py).
        events = max(max_result_bytes, 1024 * 1024)
        headers = {MAX_EVENT_HEADER: str(events)}
        if token is not None:
            headers["Authorization"] = f"Bearer {token}"
        http = httpx2.AsyncClient(
            headers=headers,
            timeout=timeout_s,
            event_hooks={"response": [watch], "request": [_traced]},
        )
        transport = streamable_http_client(target, http_client=http, max_sse_event_size=events)
        server = _Transport(transport, http)
    elif isinstance(target, (str, list)):
        words = shlex.split(target) if isinstance(target, str) else list(target)
        if not words:
            raise ValueError("no command to start the server")
        import os

        server = StdioServerParameters(
            command=words[0], args=words[1:], env={**os.environ, **(env or {})}
        )
    holder: list[Remote] = []

    async def on_message(message: Any) -> None:
        if holder:
            await holder[0].on_message(message)

    elicit = _elicitation(approve, answer) if approve or answer else None
    own: list[BaseException] = []  # what the caller's code raised inside `async with`
    try:
        async with Client(
            server,
            read_timeout_seconds=timeout_s,
            message_handler=on_message,
            mode=protocol,
            elicitation_callback=elicit,
        ) as client:
            holder.append(Remote(client, infos, max_result_bytes=max_result_bytes, watch=watch))
            holder[0].elicit = elicit  # a task's questions are answered as a call's
            try:
                yield holder[0]
            except BaseException as error:
                own.append(error)
                raise
    except Exception as error:
        raised = failures.connecting(error, watch, own)
        if raised is error:
            raise
        raise raised from None


def _elicitation(approve: Approve | None, answer: Answer | None) -> Any:
    """The SDK's elicitation callback, on the host's `approve` and `answer`: a form with no
    fields asks for an approval (toolgen's server sends one so), any other for an answer."""

    async def elicit(context: Any, params: Any) -> types.ElicitResult:
        schema = getattr(params, "requested_schema", None) or {}
        message = str(getattr(params, "message", ""))
        if not schema.get("properties"):
            allowed = approve is not None and await approve(message)
            return types.ElicitResult(action="accept" if allowed else "decline")
        reply = await answer(message) if answer is not None else None
        if reply is None:
            return types.ElicitResult(action="decline")
        return types.ElicitResult(action="accept", content={"answer": reply})

    return elicit


@contextlib.contextmanager
def connect_sync(
    target: str | list[str] | Any, infos: Mapping[str, ToolInfo], **options: Any
) -> Iterator[SyncRemote]:
    """`connect` for code that is not async: the connection runs on a loop in a thread."""
    from anyio.from_thread import start_blocking_portal

    with start_blocking_portal() as portal:
        with portal.wrap_async_context_manager(connect(target, infos, **options)) as remote:
            yield SyncRemote(portal, remote)


class SyncRemote:
    """`Remote`'s calls, each run to its end on the connection's loop."""

    def __init__(self, portal: Any, remote: Remote) -> None:
        self.portal, self.remote = portal, remote

    def value(self, name: str, returns: type[R], arguments: Any = None, /, **fields: Any) -> R:
        return _value(self.call(name, arguments, **fields), returns)

    def call(self, name: str, arguments: Any = None, /, **fields: Any) -> ToolResult:
        result: ToolResult = self.portal.call(lambda: self.remote.call(name, arguments, **fields))
        return result

    def start(
        self, name: str, arguments: Any = None, /, *, ttl_ms: int | None = None, **fields: Any
    ) -> SyncTaskHandle:
        """`Remote.start`: the handle's methods run to their end."""
        started = self.portal.call(
            lambda: self.remote.start(name, arguments, ttl_ms=ttl_ms, **fields)
        )
        return SyncTaskHandle(self.portal, started)

    def stream(self, name: str, arguments: Any = None, /, **fields: Any) -> Iterator[Any]:
        events = self.remote.stream(name, arguments, **fields)
        try:
            while True:
                try:
                    yield self.portal.call(events.__anext__)
                except StopAsyncIteration:
                    return
        finally:
            self.portal.call(events.aclose)


class _Transport:
    """The streamable HTTP transport on an HTTP client of ours, closed with it."""

    def __init__(self, transport: Any, http: Any) -> None:
        self.transport, self.http = transport, http

    async def __aenter__(self) -> Any:
        return await self.transport.__aenter__()

    async def __aexit__(self, *exc: Any) -> None:
        try:
            await self.transport.__aexit__(*exc)
        finally:
            await self.http.aclose()


async def _traced(request: Any) -> None:
    """An HTTP request's hook: the caller's W3C trace context as headers too (the SDK puts it
    in `_meta`), for what sits between the client and the server (proxies, gateways)."""
    request.headers.update(tracing.carried())
