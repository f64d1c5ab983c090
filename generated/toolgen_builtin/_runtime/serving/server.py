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

`serve_stdio` and `http_app` are the two transports (transports.py).

This module makes the server; one call is served by calling.py, the transports are
transports.py, the `_meta` keys wire.py (each importable from here too), and
`python -m <package> serve` is command.py.
"""

from __future__ import annotations

import logging
import warnings
from typing import Any

import mcp_types as types
from mcp.server.context import ServerRequestContext
from mcp.server.lowlevel import Server
from mcp.shared.exceptions import MCPError

from .. import kinds
from ..calls.registry import Registry
from ..errors import UnknownToolError
from ..validation.suggest import nearest
from . import cancelling, scopes
from .addresses import loopback
from .auth_config import AuthSettings
from .calling import FORWARD, LOG, Inject, called, caller_of, connection_state, refused, sample
from .scopes import needs_of
from .tasks import serve_tasks
from .taskwork import MAX_TTL_MS, Board
from .transports import http_app, serve_stdio
from .wire import ASKED, EVENT, FAILURE, METADATA, VALUE, WARNINGS

__all__ = [
    "ASKED",
    "EVENT",
    "FAILURE",
    "METADATA",
    "VALUE",
    "WARNINGS",
    "AuthSettings",
    "Inject",
    "http_app",
    "loopback",
    "mcp_server",
    "needs_of",
    "sample",
    "serve_stdio",
]


def mcp_server(
    registry: Registry,
    *,
    name: str,
    version: str = "",
    instructions: str | None = None,
    inject: Inject | None = None,
    list_ttl_ms: int = 0,
    max_task_ttl_ms: int = MAX_TTL_MS,
) -> Server[Any]:
    """An MCP server of `registry`'s tools. `inject(tool, headers)` gives a call's injected
    values from the request's HTTP headers (empty on stdio); they win over the registry's own
    `inject`. A handler on the root logger forwards what implementations log during a served
    call (and nothing else) to its client: the host sets the levels that reach it.

    A registry with deferred tools (spec `defer: true`) holds the tool-search pair, and lists
    it in their place: `search_tools` finds any tool, `call_tool` calls one (as a call of that
    tool: its injected values, approvals and progress are its own).

    `list_ttl_ms`: how long a client may keep the listing (MCP 2026-07-28's `ttlMs`; private
    to the client, never a shared cache's). 0: not at all.

    Calls may be tasks (tasks.py, 2025-11-25), kept in the registry's store for the `ttl`
    asked, at most `max_task_ttl_ms`."""
    definitions = registry.definitions(kinds.MCP)
    tools = [types.Tool.model_validate(d) for d in definitions]
    listed = types.ListToolsResult(tools=tools, ttl_ms=list_ttl_ms, cache_scope="private")
    # What 2026-07-28's HTTP transport checks `Mcp-Param-*` headers against: looked up here,
    # instead of the SDK running the whole `tools/list` for every call.
    schemas = {d["name"]: d["inputSchema"] for d in definitions}
    needs = scopes.needs_of(registry)
    if logging.getLogger().handlers.count(FORWARD) == 0:
        logging.getLogger().addHandler(FORWARD)
    cancelling.across(registry.store)  # handshake-era cancellations between servers

    async def list_tools(
        ctx: ServerRequestContext[Any], params: types.PaginatedRequestParams | None
    ) -> types.ListToolsResult:
        caller = caller_of(ctx)
        if caller is None or caller.every_scope:
            return listed
        shown = scopes.visible(registry, caller)  # only the tools its token may call
        return listed.model_copy(update={"tools": [t for t in tools if shown(t.name)]})

    async def call_tool(
        ctx: ServerRequestContext[Any], params: types.CallToolRequestParams
    ) -> types.CallToolResult | types.InputRequiredResult:
        if params.name not in registry:
            raise MCPError(types.INVALID_PARAMS, _unknown(registry, params.name))
        caller = caller_of(ctx)
        if caller is not None and (lacks := caller.missing(needs(params.name, params.arguments))):
            return refused(
                f"tool {params.name!r} needs the scope {' '.join(lacks)}", "unauthorized"
            )
        try:
            return await called(ctx, registry, params, inject)
        except MCPError:
            raise
        except Exception:  # noqa: BLE001 - a host bug (inject, a hook) fails one call
            LOG.exception("tools/call %s failed before its result", params.name)
            return refused(f"tool {params.name!r} failed unexpectedly", "internal")

    async def set_level(
        ctx: ServerRequestContext[Any], params: types.SetLevelRequestParams
    ) -> types.EmptyResult:
        connection_state(ctx)["toolgen_log_level"] = params.level
        return types.EmptyResult()

    with warnings.catch_warnings():
        # logging/setLevel is deprecated on 2026-07-28 only; handshake clients still send it.
        warnings.simplefilter("ignore")
        server = Server(
            name,
            version=version,
            instructions=instructions,
            on_list_tools=list_tools,
            on_call_tool=call_tool,
            on_set_logging_level=set_level,
            get_tool_input_schema=schemas.get,
        )
    serve_tasks(server, registry, Board(registry, max_ttl_ms=max_task_ttl_ms))
    return server


def _unknown(registry: Registry, name: str) -> str:
    """Why no tool answers `name`: the registry's own word where it has one (a tool the host
    left off names the switch that turns it on), else the nearest tool's name."""
    try:
        registry.resolve(name)
    except UnknownToolError as exc:
        if type(exc) is not UnknownToolError:
            return str(exc)
    hint = nearest(name, list(registry))
    near = f"; did you mean {hint!r}?" if hint else ""
    return f"unknown tool {name!r}{near} (this server has {len(registry)})"
