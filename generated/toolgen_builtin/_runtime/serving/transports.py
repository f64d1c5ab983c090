# Part of toolgen's runtime, copied verbatim into generated packages (edit toolgen, not a copy).
"""The two transports of an MCP server: stdio, and streamable HTTP with its guards (loopback
Host and Origin, the bearer token or OAuth access tokens (auth_http.py), large answers and
cancellations of handshake-era clients).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from mcp.server.lowlevel import Server
from mcp.server.transport_security import TransportSecuritySettings
from starlette.applications import Starlette
from starlette.types import ASGIApp, Receive, Scope, Send

from ..calls import tracing
from . import cancelling
from .addresses import loopback
from .answering import JsonWhenAlone

if TYPE_CHECKING:
    from .auth_config import AuthSettings
    from .auth_http import Needs


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
    auth: AuthSettings | None = None,
    needs: Needs | None = None,
) -> Starlette:
    """Streamable HTTP at `path`: stateless, unless `stateful` (sessions held by this process:
    one worker only, but the server may send requests of its own, elicitation and sampling,
    to a client of a handshake revision). With `token`, a request without the header
    `Authorization: Bearer <token>` is refused (401) before MCP sees it; with `auth`, one
    without a valid access token of its issuer (auth_http.py; not both). `needs(tool,
    arguments)`: the scopes a call needs (server.py's `scopes_needed(registry)`), so that a
    call the token may not make is refused with 403 before MCP reads it."""
    if token is not None and auth is not None:
        raise ValueError("a static token or OAuth (auth=), not both")
    app = server.streamable_http_app(
        streamable_http_path=path,
        stateless_http=not stateful,
        host=host,
        transport_security=_local_only(host),
    )
    app.add_middleware(JsonWhenAlone)  # a large result to a handshake-era client (answering.py)
    if not stateful:  # a handshake-era client's cancellations (cancelling.py)
        app.add_middleware(cancelling.Tagged)
    app.add_middleware(_Traced)  # the client's W3C trace context from the HTTP headers
    if token is not None or auth is not None:
        from . import auth_http

        if auth is not None:
            app.add_middleware(auth_http.OAuth, settings=auth, path=path, needs=needs)
        elif token is not None:
            app.add_middleware(auth_http.Static, token=token, needs=needs)
    return app


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


class _Traced:
    """ASGI middleware: a request that carries a W3C `traceparent` header is served under that
    trace context (tracing.py; where OpenTelemetry is installed), so the SDK's server span and
    the registry's spans are in the client's trace. A `traceparent` in the request's `_meta`
    (what the SDK's client sends) is the SDK's to continue, and wins."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        headers = {
            k.decode("latin-1"): v.decode("latin-1")
            for k, v in scope.get("headers", [])
            if k.decode("latin-1") in tracing.CARRIED
        }
        with tracing.continued(headers):
            await self.app(scope, receive, send)
