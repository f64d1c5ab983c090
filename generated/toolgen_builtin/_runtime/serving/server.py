# Part of toolgen's runtime, copied verbatim into generated packages (edit toolgen, not a copy).
"""A registry served over MCP with the official `mcp` SDK (the package's `server` extra).

`mcp_server(registry)` is a low-level `mcp` Server: `tools/list` gives the registry's MCP
definitions as generated (the same bytes as `tool_definitions("mcp")`), in the registry's
order; `tools/call` runs the call as `Registry.acall` does, under every declared policy, and
answers with `answers.mcp` (content blocks, `structuredContent`; a failure is a result with
`isError` and the model-facing message, invalid arguments included). A call to a name the
server does not have is a protocol error (INVALID_PARAMS), as MCP asks.

What happens during a call reaches the client as MCP has it:
- a streaming tool's events are `notifications/progress` when the request has a progress
  token (`Progress` keeps its numbers where they rise; every event rides in `_meta` under
  `EVENT`, for toolgen's client);
- the implementation's `logging` records are `notifications/message` at their level;
- a tool that needs approval, or asks the user (`Suspend`), asks through elicitation: inline
  on a handshake connection whose client declares it, or as an input-required result on
  2026-07-28 (the suspended call, signed, is the request state). A client that cannot be asked
  gets an error result saying so.
- `notifications/cancelled` cancels the call (the implementation is cancelled or told, as
  for any cancelled `acall`).

`serve_stdio` and `http_app` are the two transports; `main` is `python -m <package> serve`.
Streamable HTTP runs stateless: each request stands alone, so that several worker processes,
or machines behind a load balancer, serve the same tools. A suspended call resumed by another
process needs the same `Registry(secret=...)` in each.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import contextvars
import hmac
import importlib
import ipaddress
import json
import logging
import os
import secrets
import sys
import warnings
from collections.abc import Awaitable, Callable, Mapping
from typing import Any

import mcp_types as types
from mcp.server.context import ServerRequestContext
from mcp.server.lowlevel import Server
from mcp.server.transport_security import TransportSecuritySettings
from mcp.shared.exceptions import MCPError
from mcp.shared.message import ServerMessageMetadata
from mcp_types.version import MODERN_PROTOCOL_VERSIONS
from starlette.applications import Starlette
from starlette.types import ASGIApp, Receive, Scope, Send

from ..calls import streaming
from ..calls.registry import SECRET, Registry
from ..providers import answers
from ..results import control
from ..results.control import Suspension
from ..results.result import ToolResult
from ..store.base import ENVIRONMENT, MEMORY
from ..validation.suggest import nearest

# `_meta` keys of toolgen's own: a streaming tool's event (on a progress notification); the
# failure of an error result, and (as JSON text) the value a result cannot put in
# `structuredContent` (not a JSON object, on a handshake revision; null).
EVENT = "io.toolgen/event"
FAILURE = "io.toolgen/failure"
VALUE = "io.toolgen/value"
METADATA = "io.toolgen/metadata"  # the guidance for the model (also in the text content)
ASKED = "toolgen"  # the key of the one input request of an input-required result

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
LOG = logging.getLogger(__name__)


class _Forward(logging.Handler):
    """Hands each record logged during a served call to that call's sink (the server's own
    records stay on the server)."""

    def emit(self, record: logging.LogRecord) -> None:
        sink = _SINK.get()
        if sink is not None and record.name != LOG.name:
            sink(record)


_FORWARD = _Forward()

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


def mcp_server(
    registry: Registry,
    *,
    name: str,
    version: str = "",
    instructions: str | None = None,
    inject: Inject | None = None,
    list_ttl_ms: int = 0,
) -> Server[Any]:
    """An MCP server of `registry`'s tools. `inject(tool, headers)` gives a call's injected
    values from the request's HTTP headers (empty on stdio); they win over the registry's own
    `inject`. A handler on the root logger forwards what implementations log during a served
    call (and nothing else) to its client: the host sets the levels that reach it.

    A registry with deferred tools (spec `defer: true`) holds the tool-search pair, and lists
    it in their place: `search_tools` finds any tool, `call_tool` calls one (as a call of that
    tool: its injected values, approvals and progress are its own).

    `list_ttl_ms`: how long a client may keep the listing (MCP 2026-07-28's `ttlMs`; private
    to the client, never a shared cache's). 0: not at all."""
    definitions = registry.definitions("mcp")
    tools = [types.Tool.model_validate(d) for d in definitions]
    listed = types.ListToolsResult(tools=tools, ttl_ms=list_ttl_ms, cache_scope="private")
    # What 2026-07-28's HTTP transport checks `Mcp-Param-*` headers against: looked up here,
    # instead of the SDK running the whole `tools/list` for every call.
    schemas = {d["name"]: d["inputSchema"] for d in definitions}
    if logging.getLogger().handlers.count(_FORWARD) == 0:
        logging.getLogger().addHandler(_FORWARD)

    async def list_tools(
        ctx: ServerRequestContext[Any], params: types.PaginatedRequestParams | None
    ) -> types.ListToolsResult:
        return listed

    async def call_tool(
        ctx: ServerRequestContext[Any], params: types.CallToolRequestParams
    ) -> types.CallToolResult | types.InputRequiredResult:
        if params.name not in registry:
            hint = nearest(params.name, list(registry))
            near = f"; did you mean {hint!r}?" if hint else ""
            message = f"unknown tool {params.name!r}{near} (this server has {len(registry)})"
            raise MCPError(types.INVALID_PARAMS, message)
        try:
            return await _called(ctx, registry, params, inject)
        except MCPError:
            raise
        except Exception:  # noqa: BLE001 - a host bug (inject, a hook) fails one call
            LOG.exception("tools/call %s failed before its result", params.name)
            return _refused(f"tool {params.name!r} failed unexpectedly", "internal")

    async def set_level(
        ctx: ServerRequestContext[Any], params: types.SetLevelRequestParams
    ) -> types.EmptyResult:
        _connection_state(ctx)["toolgen_log_level"] = params.level
        return types.EmptyResult()

    with warnings.catch_warnings():
        # logging/setLevel is deprecated on 2026-07-28 only; handshake clients still send it.
        warnings.simplefilter("ignore")
        return Server(
            name,
            version=version,
            instructions=instructions,
            on_list_tools=list_tools,
            on_call_tool=call_tool,
            on_set_logging_level=set_level,
            get_tool_input_schema=schemas.get,
        )


# -- one call -------------------------------------------------------------------------------------


async def _called(
    ctx: ServerRequestContext[Any],
    registry: Registry,
    params: types.CallToolRequestParams,
    inject: Inject | None,
) -> types.CallToolResult | types.InputRequiredResult:
    arguments = params.arguments if params.arguments is not None else {}
    # call_tool of the search pair: the call of the tool it names.
    name, arguments = registry.forwarded(params.name, arguments)
    injected = inject(name, _headers(ctx)) if inject is not None else None
    if params.request_state is not None:
        return await _resumed(ctx, registry, params, name, injected)
    result = await _pumped(
        ctx,
        lambda on_event: registry.acall(name, arguments, injected=injected, on_event=on_event),
    )
    return await _answered(ctx, registry, result, injected)


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
    # This request cancelled (notifications/cancelled): the relay cancels the call.
    async with contextlib.aclosing(streaming.relayed(call, queue)) as relayed:
        async for item in relayed:
            await send(item)
    return call.result()


class _Notifier:
    """Sends one call's events as progress notifications and its records as log messages."""

    def __init__(self, ctx: ServerRequestContext[Any]) -> None:
        self.ctx = ctx
        meta: Mapping[str, Any] = ctx.meta or {}
        token = meta.get("progress_token", meta.get("progressToken"))
        self.token: str | int | None = token if isinstance(token, (str, int)) else None
        self.last = -1.0
        level = _connection_state(ctx).get("toolgen_log_level", "debug")
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
        return _refused(
            f"{waiting}; on this connection the server cannot ask the client (a stateless "
            "HTTP server asks clients of the handshake revisions only when serving --stateful)"
        )
    if not ctx.session.check_client_capability(wanted):
        return _refused(f"{waiting}; this client cannot ask the user (it offers no elicitation)")
    if modern:
        return types.InputRequiredResult(
            input_requests={ASKED: _elicitation(suspension)},
            request_state=json.dumps(suspension.to_json(), ensure_ascii=False),
        )
    related = ServerMessageMetadata(related_request_id=ctx.request_id)
    answer = await ctx.session.send_request(
        _elicitation(suspension), types.ElicitResult, metadata=related
    )
    resumed = await _pumped(
        ctx, lambda on_event: _resume(registry, suspension, answer, injected, on_event)
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
            ctx, lambda on_event: _resume(registry, record, answer, injected, on_event)
        )
    except control.SuspensionError as error:
        raise MCPError(types.INVALID_PARAMS, f"requestState: {error}") from None
    return await _answered(ctx, registry, result, injected)


async def _resume(
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


def _elicitation(suspension: Suspension) -> types.ElicitRequest:
    if suspension.reason == control.APPROVAL:
        schema: dict[str, Any] = {"type": "object", "properties": {}}
    else:
        answer = {"type": "string", "title": "Answer", "description": suspension.prompt}
        schema = {"type": "object", "properties": {"answer": answer}, "required": ["answer"]}
    return types.ElicitRequest(
        params=types.ElicitRequestFormParams(message=suspension.prompt, requested_schema=schema)
    )


def _result(ctx: ServerRequestContext[Any], result: ToolResult) -> types.CallToolResult:
    answer = answers.mcp(answers.Call(None, result.tool, None), result)
    meta: dict[str, Any] = {} if result.metadata is None else {METADATA: result.metadata}
    if result.failure is not None:
        failure = result.failure
        meta[FAILURE] = {"kind": failure.kind, "retryable": failure.retryable}
    elif "structuredContent" not in answer:
        value = result.data()
        if value is not None and ctx.protocol_version in MODERN_PROTOCOL_VERSIONS:
            answer["structuredContent"] = value  # 2026-07-28 takes any JSON value there
        else:  # as JSON text: null is a value too
            meta[VALUE] = json.dumps(value, ensure_ascii=False)
    if meta:
        answer["_meta"] = meta
    return types.CallToolResult.model_validate(answer)


def _refused(message: str, kind: str = "suspended") -> types.CallToolResult:
    return types.CallToolResult(
        content=[types.TextContent(text=message)],
        is_error=True,
        _meta={FAILURE: {"kind": kind, "retryable": False}},
    )


def _headers(ctx: ServerRequestContext[Any]) -> Mapping[str, str]:
    request = ctx.request
    headers = getattr(request, "headers", None)
    return dict(headers) if headers is not None else {}


def _connection_state(ctx: ServerRequestContext[Any]) -> dict[str, Any]:
    """State kept per client connection (the log level it set)."""
    connection = getattr(ctx.session, "_connection", None)
    state = getattr(connection, "state", None)
    return state if isinstance(state, dict) else {}


# -- transports -----------------------------------------------------------------------------------


async def serve_stdio(server: Server[Any]) -> None:
    """Serve one client on this process's stdin and stdout until it closes them."""
    from mcp.server.stdio import stdio_server

    async with stdio_server() as (read, write):
        await server.run(read, write, server.create_initialization_options())


def http_app(
    server: Server[Any],
    *,
    token: str | None = None,
    host: str = "127.0.0.1",
    path: str = "/mcp",
    stateful: bool = False,
) -> Starlette:
    """Streamable HTTP at `path`: stateless, unless `stateful` (sessions held by this process:
    one worker only, but the server may send requests of its own, elicitation and sampling,
    to a client of a handshake revision). With `token`, a request without the header
    `Authorization: Bearer <token>` is refused (401) before MCP sees it."""
    app = server.streamable_http_app(
        streamable_http_path=path,
        stateless_http=not stateful,
        host=host,
        transport_security=_local_only(host),
    )
    if token is not None:
        app.add_middleware(_BearerOnly, token=token)
    return app


def loopback(host: str) -> bool:
    """Whether `host` is a loopback address: `localhost`, 127.0.0.0/8, ::1 (an IPv4-mapped
    one too, ::ffff:127.0.0.1)."""
    if host.lower() == "localhost":
        return True
    try:
        address = ipaddress.ip_address(host.strip("[]"))
    except ValueError:
        return False
    mapped = getattr(address, "ipv4_mapped", None)
    return address.is_loopback or (mapped is not None and mapped.is_loopback)


def _local_only(host: str) -> TransportSecuritySettings | None:
    """On a loopback address, the Host and Origin a request may carry (DNS rebinding): the
    loopback names and `host` itself, on any port. Elsewhere none (the token guards it)."""
    if not loopback(host):
        return None
    names = ["127.0.0.1", "localhost", "[::1]"]
    bound = f"[{host.strip('[]')}]" if ":" in host else host
    if bound not in names:
        names.append(bound)
    return TransportSecuritySettings(
        enable_dns_rebinding_protection=True,
        allowed_hosts=[*names, *(f"{name}:*" for name in names)],
        allowed_origins=[
            f"{scheme}://{name}{port}"
            for scheme in ("http", "https")
            for name in names
            for port in ("", ":*")
        ],
    )


class _BearerOnly:
    """ASGI middleware: only requests that carry the bearer token reach the app."""

    def __init__(self, app: ASGIApp, token: str) -> None:
        self.app = app
        self.expected = f"Bearer {token}".encode()

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] == "http":
            given = dict(scope.get("headers", [])).get(b"authorization", b"")
            if not hmac.compare_digest(given, self.expected):
                body = b'{"error": "a bearer token is required (Authorization: Bearer ...)"}'
                await send(
                    {
                        "type": "http.response.start",
                        "status": 401,
                        "headers": [
                            (b"content-type", b"application/json"),
                            (b"www-authenticate", b"Bearer"),
                        ],
                    }
                )
                await send({"type": "http.response.body", "body": body})
                return
        await self.app(scope, receive, send)


# -- python -m <package> serve --------------------------------------------------------------------

_SETTINGS = "TOOLGEN_SERVE"  # the worker processes' settings, as JSON in the environment


def main(argv: list[str], package: str) -> int:
    """`python -m <package> serve (--stdio | --http) --registry module:name ...`."""
    parser = argparse.ArgumentParser(prog=f"python -m {package}")
    commands = parser.add_subparsers(dest="command", required=True)
    serve = commands.add_parser("serve", help="serve the tools over MCP")
    transport = serve.add_mutually_exclusive_group(required=True)
    transport.add_argument("--stdio", action="store_true", help="one client on stdin/stdout")
    transport.add_argument("--http", action="store_true", help="streamable HTTP (stateless)")
    serve.add_argument(
        "--registry",
        required=True,
        metavar="MODULE:NAME",
        help="the registry to serve: a Registry, or a function that returns one",
    )
    serve.add_argument("--host", default="127.0.0.1", help="bind address (default 127.0.0.1)")
    serve.add_argument("--port", type=int, default=8000)
    serve.add_argument("--workers", type=int, default=1, help="worker processes (HTTP)")
    serve.add_argument(
        "--store",
        metavar="URL",
        help="where rate limits, caches, concurrency slots and used suspension records are kept "
        "(redis://HOST:PORT/DB: shared by every worker and server using it; default "
        "$TOOLGEN_STORE, else memory://, each process its own)",
    )
    serve.add_argument(
        "--stateful",
        action="store_true",
        help="HTTP sessions held by one process (one worker): lets the server ask a client of "
        "a handshake revision for elicitation and sampling during a call",
    )
    serve.add_argument(
        "--log-level",
        default="info",
        choices=["debug", "info", "warning", "error"],
        help="the least level of the records an implementation logs during a call that are "
        "sent to the client (it may ask for less)",
    )
    serve.add_argument(
        "--token-env",
        default="TOOLGEN_MCP_TOKEN",
        metavar="NAME",
        help="the environment variable holding the bearer token HTTP requests must carry "
        "(unset: no token is asked for, on a loopback --host only)",
    )
    serve.add_argument(
        "--list-ttl-ms",
        type=int,
        default=0,
        metavar="MS",
        help="how long a client may keep the tool listing (MCP 2026-07-28's ttlMs; default 0)",
    )
    serve.add_argument(
        "--insecure-no-auth",
        action="store_true",
        help="serve HTTP on an address other than loopback without a token",
    )
    serve.add_argument(
        "--ui",
        metavar="DIR",
        help="also serve the catalog `toolgen catalog` wrote into DIR at /ui/, each tool's page "
        "with a form that calls it (HTTP on loopback without a token only)",
    )
    args = parser.parse_args(argv)
    if args.stateful and args.workers != 1:
        parser.error("--stateful serves from one process: it takes no --workers")
    refused = _unsafe(args)
    if refused is None and args.ui and not os.path.isfile(os.path.join(args.ui, "index.html")):
        refused = f"--ui {args.ui}: no catalog there (write one with `toolgen catalog --out`)"
    if refused:
        print(f"python -m {package} serve: {refused}", file=sys.stderr)
        return 2
    settings = {
        "package": package,
        "registry": args.registry,
        "token_env": args.token_env,
        "stateful": args.stateful,
        "log_level": args.log_level,
        "host": args.host,
        "list_ttl_ms": args.list_ttl_ms,
        "ui": os.path.abspath(args.ui) if args.ui else None,
    }
    if args.store is not None:  # read by every registry made without a store (workers too)
        os.environ[ENVIRONMENT] = args.store
    try:
        server = _server(settings)
    except (ImportError, AttributeError, TypeError, ValueError) as error:
        print(f"python -m {package} serve: {error}", file=sys.stderr)
        return 2
    if args.http and args.workers > 1 and not _shared_store(settings):
        print(
            f"python -m {package} serve: warning: {args.workers} workers with the in-process "
            "store: rate limits, caches, concurrency limits and suspended-call records are per "
            "process (each worker its own); pass --store redis://HOST:PORT/DB (or set "
            f"${ENVIRONMENT}) to share them",
            file=sys.stderr,
        )
    if args.stdio:
        asyncio.run(serve_stdio(server))
        return 0
    os.environ[_SETTINGS] = json.dumps(settings)
    # Workers resume each other's suspended calls: they share one key (registry.SECRET).
    os.environ.setdefault(SECRET, secrets.token_hex(32))
    _serve_http(args.host, args.port, args.workers)
    return 0


def _shared_store(settings: Mapping[str, Any]) -> bool:
    """Whether the served registry keeps its policies' state where every worker sees it: its
    own store when `--registry` names a registry, else the store $TOOLGEN_STORE names."""
    module_name, _, attribute = settings["registry"].partition(":")
    found = getattr(sys.modules.get(module_name), attribute, None)
    if _registry(found):
        return bool(getattr(getattr(found, "store", None), "shared", False))
    return (os.environ.get(ENVIRONMENT) or MEMORY).partition("://")[0] != "memory"


def _unsafe(args: argparse.Namespace) -> str | None:
    """Why the server must not start as told: an empty token (set, but nothing to compare
    with), or HTTP beyond loopback that anyone may call."""
    token = os.environ.get(args.token_env)
    if token is not None and not token.strip():
        return f"{args.token_env} is set but empty: set it to a token, or unset it"
    if args.ui and not (args.http and token is None and loopback(args.host)):
        return (
            "--ui serves pages that call tools without credentials: only with --http on a "
            f"loopback --host and {args.token_env} unset"
        )
    if args.http and token is None and not loopback(args.host) and not args.insecure_no_auth:
        return (
            f"--host {args.host} is not a loopback address: set {args.token_env} to a bearer "
            "token (or pass --insecure-no-auth)"
        )
    return None


def _serve_http(host: str, port: int, workers: int) -> None:
    """uvicorn, `worker_app` in each of `workers` processes."""
    import socket

    import uvicorn
    from uvicorn.supervisors import Multiprocess

    from . import guard

    config = uvicorn.Config(
        f"{__name__}:worker_app",
        factory=True,
        host=host,
        port=port,
        workers=workers,
        log_level="warning",
        # Idle and slow clients cut off (guard.py): uvicorn's keep-alive timeout and 503 past
        # the limit; the read deadlines and the cap on connections are the protocol's.
        http=guard.Guarded,
        timeout_keep_alive=guard.KEEP_ALIVE_S,
        limit_concurrency=guard.connection_cap() + 1,
    )
    if workers == 1:  # one process makes its listener through asyncio, which sets TCP_NODELAY
        uvicorn.Server(config).run()
        return
    # The listener the workers share, made a TCP socket by name: asyncio turns Nagle's
    # algorithm off (TCP_NODELAY) only on those, and uvicorn's own would leave each answer on a
    # kept connection waiting about 40 ms for the client's delayed acknowledgement.
    made = config.bind_socket()
    listener = socket.socket(made.family, made.type, socket.IPPROTO_TCP, made.detach())
    Multiprocess(config, sockets=[listener]).run()


def worker_app() -> Starlette:
    """The HTTP app of one worker process (uvicorn's factory): settings from `main`."""
    settings = json.loads(os.environ[_SETTINGS])
    token = os.environ.get(settings["token_env"]) or None
    _logging(settings)
    registry = _registry_of(settings)
    server = _server(settings, registry)
    app = http_app(server, token=token, host=settings["host"], stateful=settings["stateful"])
    if settings.get("ui"):
        from pathlib import Path

        from . import ui

        ui.mount(app, registry, Path(settings["ui"]))
    return app


def _registry_of(settings: Mapping[str, Any]) -> Registry:
    """The registry `--registry` names: a Registry, or a function that returns one."""
    sys.path.insert(0, os.getcwd())
    module_name, _, attribute = settings["registry"].partition(":")
    if not attribute:
        raise ValueError(f"--registry is MODULE:NAME, not {settings['registry']!r}")
    found = getattr(importlib.import_module(module_name), attribute)
    registry = found if _registry(found) else found() if callable(found) else found
    if not _registry(registry):
        raise TypeError(
            f"{settings['registry']} is not a Registry (it is {type(registry).__name__})"
        )
    return registry  # type: ignore[no-any-return]


def _logging(settings: Mapping[str, Any]) -> None:
    logging.getLogger().setLevel(settings["log_level"].upper())  # what implementations log
    if not LOG.handlers:  # the server's own records (failed calls) on stderr, at that level
        handler = logging.StreamHandler(sys.stderr)
        handler.setFormatter(logging.Formatter("%(asctime)s %(levelname)s %(name)s: %(message)s"))
        LOG.addHandler(handler)


def _server(settings: Mapping[str, Any], registry: Registry | None = None) -> Server[Any]:
    _logging(settings)
    if registry is None:
        registry = _registry_of(settings)
    package = importlib.import_module(settings["package"])
    return mcp_server(
        registry,
        name=settings["package"],
        version=str(package.__version__),
        list_ttl_ms=settings["list_ttl_ms"],
    )


def _registry(found: Any) -> bool:
    """A Registry of this package's or of any other generated package's (`b + a` is `b`'s
    class, the same code): what `mcp_server` serves."""
    return isinstance(found, Registry) or (
        type(found).__name__ == "Registry" and callable(getattr(found, "acall", None))
    )
