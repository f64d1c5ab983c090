# Part of toolgen's runtime, copied verbatim into generated packages (edit toolgen, not a copy).
"""The two transports of an MCP server: stdio, and streamable HTTP with its guards (loopback
Host and Origin, the bearer token, large answers and cancellations of handshake-era clients).
"""

from __future__ import annotations

import hmac
import ipaddress
from typing import Any

from mcp.server.lowlevel import Server
from mcp.server.transport_security import TransportSecuritySettings
from starlette.applications import Starlette
from starlette.types import ASGIApp, Receive, Scope, Send

from . import cancelling
from .answering import JsonWhenAlone


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
    app.add_middleware(JsonWhenAlone)  # a large result to a handshake-era client (answering.py)
    if not stateful:  # a handshake-era client's cancellations (cancelling.py)
        app.add_middleware(cancelling.Tagged)
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
