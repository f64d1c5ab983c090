# Part of toolgen's runtime, copied verbatim into generated packages (edit toolgen, not a copy).
"""The answer to a handshake-era HTTP request as JSON when nothing came before it.

The SDK's transport answers every request of the handshake revisions as an SSE stream, its
result one event; the SDK's client refuses an event over 1 MiB, so a large result (a file
read: its value is in the text content and in `structuredContent`) never reached it. A POST
that accepts `application/json` and whose stream holds the response alone (no progress, no
log message before it) is answered with that response as JSON instead, which the client
reads whole. A stream whose first event is anything else is passed on as it comes: a
notification (progress, a log message, to be seen while the call runs) or the keep-alive
ping of a call silent for 15 s. That is what the SDK's transport does on 2026-07-28 itself.
"""

from __future__ import annotations

import json
from typing import Any

from mcp_types.version import HANDSHAKE_PROTOCOL_VERSIONS
from starlette.types import ASGIApp, Message, Receive, Scope, Send

_SSE = b"text/event-stream"


class JsonWhenAlone:
    """ASGI middleware: a handshake-era POST's SSE answer that holds only the response goes
    as `application/json`."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        accepts = b"application/json" in dict(scope.get("headers", [])).get(b"accept", b"")
        if scope["type"] != "http" or scope.get("method") != "POST" or not accepts:
            await self.app(scope, receive, send)
        elif not handshake_era(scope):
            await self.app(scope, receive, send)
        else:
            await self.app(scope, receive, _Deferred(send).send)


def handshake_era(scope: Scope) -> bool:
    """A request of a handshake revision (or of none yet: the initialize request)."""
    found = dict(scope.get("headers", [])).get(b"mcp-protocol-version", b"")
    version = found.decode("latin-1")
    return not version or version in HANDSHAKE_PROTOCOL_VERSIONS


class _Deferred:
    """Holds an SSE answer's start and its body until its first event: a response that ends
    the body goes as JSON, anything else commits to SSE (what was held first)."""

    def __init__(self, send: Send) -> None:
        self.downstream = send
        self.start: Message | None = None
        self.held = bytearray()
        self.committed = False

    async def send(self, message: Message) -> None:
        if self.committed:
            await self.downstream(message)
        elif message["type"] == "http.response.start":
            if _SSE in dict(message.get("headers", [])).get(b"content-type", b""):
                self.start = message
            else:  # not an SSE answer: as it is
                await self._commit(message)
        elif self.start is not None:
            self.held += message.get("body", b"")
            more = bool(message.get("more_body", False))
            first, ended, rest = bytes(self.held).replace(b"\r\n", b"\n").partition(b"\n\n")
            alone = _response(first) if ended else None
            if alone is not None and not rest.strip() and not more:
                await self._json(alone)
            elif (ended and (alone is None or rest.strip())) or not more:
                # a notification (or the keep-alive ping of a silent call) before the response
                await self._commit(self.start, {"body": bytes(self.held), "more_body": more})

    async def _commit(self, start: Message, body: Message | None = None) -> None:
        self.committed = True
        await self.downstream(start)
        if body is not None:
            await self.downstream({"type": "http.response.body", **body})

    async def _json(self, data: bytes) -> None:
        assert self.start is not None
        headers = [
            (name, value)
            for name, value in self.start.get("headers", [])
            if name.lower() not in (b"content-type", b"content-length", b"cache-control")
        ]
        headers += [
            (b"content-type", b"application/json"),
            (b"content-length", str(len(data)).encode()),
        ]
        self.committed = True
        await self.downstream({**self.start, "headers": headers})
        await self.downstream({"type": "http.response.body", "body": data, "more_body": False})


def _response(event: bytes) -> bytes | None:
    """The JSON of an SSE event that is a JSON-RPC response (a result or an error), else None."""
    lines = event.decode("utf-8", "replace").splitlines()
    data = "\n".join(line[5:].removeprefix(" ") for line in lines if line.startswith("data:"))
    kinds = {line.partition(":")[0] for line in lines if line and not line.startswith(":")}
    if not data or not kinds <= {"event", "data", "id"}:
        return None
    try:
        message: Any = json.loads(data)
    except ValueError:
        return None
    if not isinstance(message, dict) or "id" not in message:
        return None
    if "result" not in message and "error" not in message:
        return None
    return data.encode()
