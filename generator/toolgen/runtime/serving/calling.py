# Part of toolgen's runtime, copied verbatim into generated packages (edit toolgen, not a copy).
"""One `tools/call` served (server.py makes the server): the call run as `Registry.acall`
runs it, its events and log records sent to the client as they come, a suspended call asked
of the user through elicitation, the result as MCP has it (`_meta` keys: wire.py).
"""

from __future__ import annotations

import asyncio
import contextlib
import contextvars
import json
import logging
import warnings
from collections.abc import Awaitable, Callable, Mapping
from typing import Any

import mcp_types as types
from mcp.server.context import ServerRequestContext
from mcp.server.streamable_http import REQUEST_CANCELLED
from mcp.shared.exceptions import MCPError
from mcp.shared.message import ServerMessageMetadata
from mcp_types.version import MODERN_PROTOCOL_VERSIONS
from pydantic_core import to_json

from .. import identity, kinds
from ..calls import streaming
from ..calls.registry import Registry
from ..providers import answers
from ..results import control
from ..results.control import Suspension
from ..results.result import ToolResult
from . import auth_http, cancelling
from .wire import ASKED, EVENT, FAILURE, METADATA, VALUE, WARNINGS

Inject = Callable[[str, Mapping[str, str]], Mapping[str, Any] | None]
Sink = Callable[[Any], None]

# MCP's log levels by Python's: a record goes at the highest level not above its own.
_LEVELS: tuple[tuple[int, types.LoggingLevel], ...] = (
    (50, "critical"),
    (40, "error"),
    (30, "warning"),
    (20, "info"),
    (0, "debug"),
)
_RANK = {
    name: rank
    for rank, name in enumerate(
        ("debug", "info", "notice", "warning", "error", "critical", "alert", "emergency")
    )
}

# Where the records an implementation logs during a call go: the call's own sink. A context
# variable, so that it follows the call into worker threads, and no other call.
_SINK: contextvars.ContextVar[Sink | None] = contextvars.ContextVar(
    "toolgen_log_sink", default=None
)


# The server's own log: each failed call, with its exception and traceback (never the client's).
LOG = logging.getLogger(f"{__package__}.server")


class _Forward(logging.Handler):
    """Hands each record logged during a served call to that call's sink (the server's own
    records stay on the server)."""

    def emit(self, record: logging.LogRecord) -> None:
        sink = _SINK.get()
        if sink is not None and record.name != LOG.name:
            sink(record)


FORWARD = _Forward()

# The request of the served call under way, for `sample`.
_REQUEST: contextvars.ContextVar[ServerRequestContext[Any] | None] = contextvars.ContextVar(
    "toolgen_request", default=None
)


async def sample(prompt: str, *, max_tokens: int = 1000) -> str | None:
    """The answer of the client's model to `prompt`, for an async implementation served over
    MCP whose client offers sampling (on a connection that can carry the request); None
    elsewhere: outside a served call, or where the client cannot be asked."""
    ctx = _REQUEST.get()
    wanted = types.ClientCapabilities(sampling=types.SamplingCapability())
    if ctx is None or not ctx.session.can_send_request:
        return None
    if not ctx.session.check_client_capability(wanted):
        return None
    message = types.SamplingMessage(role="user", content=types.TextContent(text=prompt))
    with warnings.catch_warnings():  # deprecated on 2026-07-28, where it is not sent like this
        warnings.simplefilter("ignore")
        answer = await ctx.session.create_message(
            [message], max_tokens=max_tokens, related_request_id=ctx.request_id
        )
    content = answer.content
    return content.text if isinstance(content, types.TextContent) else None


async def called(
    ctx: ServerRequestContext[Any],
    registry: Registry,
    params: types.CallToolRequestParams,
    inject: Inject | None,
) -> types.CallToolResult | types.InputRequiredResult:
    arguments = params.arguments if params.arguments is not None else {}
    # call_tool of the search pair: the call of the tool it names.
    name, arguments = registry.forwarded(params.name, arguments)
    headers = _headers(ctx)
    injected = inject(name, headers) if inject is not None else None
    caller = caller_of(ctx)
    if caller is not None and identity.CALLER in _injectable(registry, name):
        injected = {**(injected or {}), identity.CALLER: caller.as_json()}  # never the host's
    told: contextlib.AbstractContextManager[None] = contextlib.nullcontext()
    if registry.wants_context():  # a tool or guard reads its RunContext
        from ..calls.context import calling

        told = calling(call_id=str(ctx.request_id), provider=kinds.MCP, caller=named(caller))
    with identity.acting(caller), told:
        if params.request_state is not None:
            return await _resumed(ctx, registry, params, name, injected)
        result = await _pumped(
            ctx,
            lambda on_event: registry.acall(name, arguments, injected=injected, on_event=on_event),
        )
        return await _answered(ctx, registry, result, injected)


def caller_of(ctx: ServerRequestContext[Any]) -> identity.Principal | None:
    """Who sent the request: the principal the HTTP guard authenticated (auth_http.py), or
    None (stdio, no authentication)."""
    scope = getattr(ctx.request, "scope", None)
    return auth_http.principal(scope) if isinstance(scope, dict) else None


def _injectable(registry: Registry, name: str) -> frozenset[str]:
    """The names of the injected values tool `name` declares."""
    model = registry.info(name).injected if name in registry else None
    return frozenset(model.model_fields) if model is not None else frozenset()


def named(caller: identity.Principal | None) -> str | None:
    """The run context's `caller`: the authenticated principal's subject, else the client its
    token was issued to; never the token itself. None where no one is authenticated."""
    return None if caller is None else caller.subject or caller.client_id


def _logged(result: ToolResult) -> None:
    """A failed call on the server's log: an internal failure as an error, with the exception
    and its traceback (the client reads only the model-facing message); any other as a warning."""
    failure = result.failure
    if failure is None or result.suspended is not None:
        return
    level = logging.ERROR if failure.kind == "internal" else logging.WARNING
    exception = result.exception
    trace = (type(exception), exception, exception.__traceback__) if exception else None
    LOG.log(level, "%s failed (%s): %s", result.tool, failure.kind, failure.message, exc_info=trace)


async def _pumped(
    ctx: ServerRequestContext[Any], start: Callable[[Sink], Awaitable[ToolResult]]
) -> ToolResult:
    """Run the call `start(on_event)` starts, sending its events and log records to the
    client as they come (from the loop or a worker thread), all before its result."""
    loop = asyncio.get_running_loop()
    queue: asyncio.Queue[Any] = asyncio.Queue()

    def sink(item: Any) -> None:
        loop.call_soon_threadsafe(queue.put_nowait, item)

    token, request = _SINK.set(sink), _REQUEST.set(ctx)
    try:
        call = asyncio.ensure_future(start(sink))
    finally:
        _SINK.reset(token)
        _REQUEST.reset(request)
    send = _Notifier(ctx)
    # This request cancelled (notifications/cancelled): the relay cancels the call. On a
    # stateless HTTP server, a handshake-era client's cancellation cancels it (cancelling.py).
    with cancelling.cancellable(_headers(ctx), ctx.request_id, call):
        async with contextlib.aclosing(streaming.relayed(call, queue)) as relayed:
            async for item in relayed:
                await send(item)
    if call.cancelled():  # by the client: it reads no answer, but the request needs one
        raise MCPError(REQUEST_CANCELLED, "the client cancelled the call")
    return call.result()


class _Notifier:
    """Sends one call's events as progress notifications and its records as log messages."""

    def __init__(self, ctx: ServerRequestContext[Any]) -> None:
        self.ctx = ctx
        meta: Mapping[str, Any] = ctx.meta or {}
        token = meta.get("progress_token", meta.get("progressToken"))
        self.token: str | int | None = token if isinstance(token, (str, int)) else None
        self.last = -1.0
        level = connection_state(ctx).get("toolgen_log_level", "debug")
        self.least = _RANK.get(level, 0)

    async def __call__(self, item: Any) -> None:
        if isinstance(item, logging.LogRecord):
            await self._log(item)
        elif self.token is not None:
            await self._progress(item, self.token)

    async def _log(self, record: logging.LogRecord) -> None:
        level = next(name for floor, name in _LEVELS if record.levelno >= floor)
        if _RANK[level] < self.least:
            return
        with warnings.catch_warnings():  # deprecated on 2026-07-28, where the client opts in
            warnings.simplefilter("ignore")
            await self.ctx.session.send_log_message(
                level,
                record.getMessage(),
                logger=record.name,
                related_request_id=self.ctx.request_id,
            )

    async def _progress(self, event: Any, token: str | int) -> None:
        done = getattr(event, "done", None)
        total, message = getattr(event, "total", None), getattr(event, "message", None)
        # MCP's progress must rise with each notification: a Progress keeps its own `done`
        # where it does; any other event counts one step.
        progress = float(done) if done is not None and done > self.last else self.last + 1
        self.last = progress
        if message is None and event.kind == "chunk":
            message = event.text
        await self.ctx.session.send_notification(
            types.ProgressNotification(
                params=types.ProgressNotificationParams(
                    progress_token=token,
                    progress=progress,
                    total=total,
                    message=message,
                    _meta={EVENT: event.as_json()},
                )
            ),
            related_request_id=self.ctx.request_id,
        )


async def _answered(
    ctx: ServerRequestContext[Any],
    registry: Registry,
    result: ToolResult,
    injected: Mapping[str, Any] | None,
) -> types.CallToolResult | types.InputRequiredResult:
    """The result as MCP has it; a suspended call asks the user first, where it can."""
    if result.suspended is None:
        _logged(result)
        return _result(ctx, result)
    suspension = result.suspended
    waiting = control.waiting_message(suspension)
    wanted = types.ClientCapabilities(elicitation=types.ElicitationCapability())
    modern = ctx.protocol_version in MODERN_PROTOCOL_VERSIONS
    if not modern and not ctx.session.can_send_request:
        return refused(
            f"{waiting}; on this connection the server cannot ask the client (a stateless "
            "HTTP server asks clients of the handshake revisions only when serving --stateful)"
        )
    if not ctx.session.check_client_capability(wanted):
        return refused(f"{waiting}; this client cannot ask the user (it offers no elicitation)")
    if modern:
        return types.InputRequiredResult(
            input_requests={ASKED: elicitation(suspension)},
            request_state=json.dumps(suspension.to_json(), ensure_ascii=False),
        )
    related = ServerMessageMetadata(related_request_id=ctx.request_id)
    answer = await ctx.session.send_request(
        elicitation(suspension), types.ElicitResult, metadata=related
    )
    resumed = await _pumped(
        ctx, lambda on_event: resume_with(registry, suspension, answer, injected, on_event)
    )
    return await _answered(ctx, registry, resumed, injected)


async def _resumed(
    ctx: ServerRequestContext[Any],
    registry: Registry,
    params: types.CallToolRequestParams,
    tool: str,
    injected: Mapping[str, Any] | None,
) -> types.CallToolResult | types.InputRequiredResult:
    """A 2026-07-28 retry: the request state is the suspended call of `tool` (the tool called,
    or the one call_tool names), the input its answer."""
    try:
        record = json.loads(params.request_state or "")
    except ValueError:
        record = None
    answer = (params.input_responses or {}).get(ASKED)
    if not isinstance(record, dict) or record.get("tool") != tool:
        raise MCPError(types.INVALID_PARAMS, "requestState: not a suspended call of this tool")
    if not isinstance(answer, types.ElicitResult):
        raise MCPError(types.INVALID_PARAMS, f"inputResponses: no answer under {ASKED!r}")
    try:
        result = await _pumped(
            ctx, lambda on_event: resume_with(registry, record, answer, injected, on_event)
        )
    except control.SuspensionError as error:
        raise MCPError(types.INVALID_PARAMS, f"requestState: {error}") from None
    return await _answered(ctx, registry, result, injected)


async def resume_with(
    registry: Registry,
    suspended: Suspension | dict[str, Any],
    answer: types.ElicitResult,
    injected: Mapping[str, Any] | None,
    on_event: Sink,
) -> ToolResult:
    """Go on with the call as the user answered (the registry checks the record's signature),
    its events to `on_event`."""
    record = suspended.to_json() if isinstance(suspended, Suspension) else suspended
    accepted = answer.action == "accept"
    with streaming.listening(on_event):
        if record.get("reason") == control.APPROVAL:
            why = None if accepted else f"the user chose {answer.action!r} when asked"
            return await registry.aresume(record, approved=accepted, reason=why, injected=injected)
        reply = (answer.content or {}).get("answer") if accepted else None
        return await registry.aresume(record, answer=reply, injected=injected)


def elicitation(suspension: Suspension) -> types.ElicitRequest:
    if suspension.reason == control.APPROVAL:
        schema: dict[str, Any] = {"type": "object", "properties": {}}
    else:
        answer = {"type": "string", "title": "Answer", "description": suspension.prompt}
        schema = {"type": "object", "properties": {"answer": answer}, "required": ["answer"]}
    return types.ElicitRequest(
        params=types.ElicitRequestFormParams(message=suspension.prompt, requested_schema=schema)
    )


def _result(ctx: ServerRequestContext[Any], result: ToolResult) -> types.CallToolResult:
    return rendered(result, ctx.protocol_version in MODERN_PROTOCOL_VERSIONS)


def rendered(result: ToolResult, modern: bool) -> types.CallToolResult:
    """A call's result as MCP has it (`modern`: on 2026-07-28, any value is structured)."""
    answer = answers.mcp(answers.Call(None, result.tool, None), result)
    meta: dict[str, Any] = {} if result.metadata is None else {METADATA: result.metadata}
    if result.warnings:
        meta[WARNINGS] = list(result.warnings)
    if result.failure is not None:
        failure = result.failure
        meta[FAILURE] = {"kind": failure.kind, "retryable": failure.retryable}
        if failure.partial_data is not None:
            meta[FAILURE]["partial_data"] = json.loads(to_json(failure.partial_data))
    elif "structuredContent" not in answer:
        value = result.data()
        if value is not None and modern:
            answer["structuredContent"] = value  # 2026-07-28 takes any JSON value there
        else:  # as JSON text: null is a value too
            meta[VALUE] = json.dumps(value, ensure_ascii=False)
    if meta:
        answer["_meta"] = meta
    return types.CallToolResult.model_validate(answer)


def refused(message: str, kind: str = "suspended") -> types.CallToolResult:
    return types.CallToolResult(
        content=[types.TextContent(text=message)],
        is_error=True,
        _meta={FAILURE: {"kind": kind, "retryable": False}},
    )


def _headers(ctx: ServerRequestContext[Any]) -> Mapping[str, str]:
    request = ctx.request
    headers = getattr(request, "headers", None)
    return dict(headers) if headers is not None else {}


def connection_state(ctx: ServerRequestContext[Any]) -> dict[str, Any]:
    """State kept per client connection (the log level it set)."""
    connection = getattr(ctx.session, "_connection", None)
    state = getattr(connection, "state", None)
    return state if isinstance(state, dict) else {}
