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

Once a stream has begun (in either era), the response can only be one more event, and no
part of the protocol lets it be split or sent another way. So a response event larger than the client reads (the
SDK's limit, 1 MiB, unless the request's `toolgen-max-event-bytes` header says more, as
toolgen's client does) is replaced by a tool error naming the size and the limit: the model
reads why and can ask for less, where the client would otherwise drop the stream.
"""

from __future__ import annotations

import json
from typing import Any

from mcp_types.version import HANDSHAKE_PROTOCOL_VERSIONS
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from .wire import FAILURE, MAX_EVENT_HEADER

_SSE = b"text/event-stream"
# The most bytes of one SSE event the SDK's client reads (its DEFAULT_MAX_SSE_EVENT_SIZE):
# the lines of the event, their line breaks and comments not counted.
SDK_EVENT_LIMIT = 1024 * 1024


class JsonWhenAlone:
    """ASGI middleware: a handshake-era POST's SSE answer that holds only the response goes
    as `application/json`; in any POST's SSE answer, a response larger than the client reads
    is an error result that says so."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http" or scope.get("method") != "POST":
            await self.app(scope, receive, send)
        else:
            accepts = b"application/json" in dict(scope.get("headers", [])).get(b"accept", b"")
            alone = accepts and handshake_era(scope)
            await self.app(scope, receive, _Deferred(send, event_limit(scope), alone).send)


def event_limit(scope: Scope) -> int:
    """The largest SSE event the client reads: what its request says, else the SDK's limit."""
    said = dict(scope.get("headers", [])).get(MAX_EVENT_HEADER.encode(), b"")
    return int(said) if said.isdigit() and int(said) > 0 else SDK_EVENT_LIMIT


def handshake_era(scope: Scope) -> bool:
    """A request of a handshake revision (or of none yet: the initialize request)."""
    found = dict(scope.get("headers", [])).get(b"mcp-protocol-version", b"")
    version = found.decode("latin-1")
    return not version or version in HANDSHAKE_PROTOCOL_VERSIONS


class _Deferred:
    """Holds an SSE answer's start and its body until its first event: a response that ends
    the body goes as JSON, anything else commits to SSE (what was held first)."""

    def __init__(self, send: Send, limit: int, alone: bool) -> None:
        self.downstream = send
        self.limit = limit
        self.alone = alone  # whether a response alone goes as JSON (else SSE is kept, bounded)
        self.start: Message | None = None
        self.held = bytearray()
        self.committed = False
        self.sse = False

    async def send(self, message: Message) -> None:
        if self.committed:
            body = message.get("body", b"")
            if self.sse and message["type"] == "http.response.body" and len(body) > self.limit:
                message = {**message, "body": bounded(body, self.limit)}
            await self.downstream(message)
        elif message["type"] == "http.response.start":
            self.sse = _SSE in dict(message.get("headers", [])).get(b"content-type", b"")
            if self.alone and self.sse:
                self.start = message
            else:  # as it is (an SSE answer's events bounded)
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
            await self.send({"type": "http.response.body", **body})

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


def bounded(body: bytes, limit: int) -> bytes:
    """`body` (SSE events), each response event the client would refuse (over `limit` bytes
    as it counts them) replaced by an error result of the same id that says so."""
    events = body.replace(b"\r\n", b"\n").split(b"\n\n")
    for at, event in enumerate(events):
        size = sum(len(line) for line in event.split(b"\n") if not line.startswith(b":"))
        data = _response(event) if size > limit else None
        response = json.loads(data) if data is not None else None
        if isinstance(response, dict) and isinstance(response.get("result"), dict):
            response["result"] = _too_large(response["result"], size, limit)
            kept = [line for line in event.split(b"\n") if line and not line.startswith(b"data:")]
            events[at] = b"\n".join([*kept, b"data: " + json.dumps(response).encode()])
    return b"\n\n".join(events)


def _too_large(result: dict[str, Any], size: int, limit: int) -> dict[str, Any]:
    """An error result in place of `result` (its other fields kept: 2026-07-28's `resultType`)."""
    message = (
        f"the result is {size:,} bytes, over the {limit:,} bytes this client reads in one "
        "server-sent event, and a result sent after progress or log notifications can only "
        "be one: ask for less of it (a part, a page, a narrower query)"
    )
    kept = {
        key: value
        for key, value in result.items()
        if key not in ("content", "structuredContent", "isError", "_meta")
    }
    return {
        **kept,
        "content": [{"type": "text", "text": message}],
        "isError": True,
        "_meta": {FAILURE: {"kind": "result_too_large", "retryable": False}},
    }
