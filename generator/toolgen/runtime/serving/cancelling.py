# Part of toolgen's runtime, copied verbatim into generated packages (edit toolgen, not a copy).
"""A handshake-era client's `notifications/cancelled`, on a stateless HTTP server.

On the handshake revisions a client cancels a call with a notification, sent in a POST of its
own; the call's POST stays open (closing it is no cancellation there). A stateless server
serves each POST alone, so the SDK never matched the two and the call ran on. Here the
answer to a handshake-era POST that names no session carries `Mcp-Session-Id`: a random tag
that holds no state (any worker serves a request that carries it), which the client then
sends with each request. A call under way is kept under (tag, request id); a cancellation
with the same pair cancels it, as on stdio or a session. The tag makes the pair the client's
own: another client cannot name its calls. A GET with a tag is refused (405: this server
opens no stream of its own), as a DELETE is by the SDK.

The table is the process's. With several worker processes (`serve --workers`), a worker
that holds no call of the pair passes the cancellation on to the others: each has a Unix
datagram socket in a folder that only the server's user can enter (`SIBLINGS`, made by
`serve`, removed when it ends).

Across machines, through the fleet's store (`serve --store redis://...`; `mcp_server` names
it, `across`): a server that holds no call of the pair also writes it into the store's map of
cancellations (kept an hour), and each call under way of a tagged client looks for its own
pair there every `POLL_S` seconds while it runs, so a cancellation that arrived before the
call began is seen too. A store that does not answer loses the cancellation, never the call.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
import secrets
import socket
import time
from collections.abc import Iterator, Mapping
from typing import Any

from starlette.types import ASGIApp, Message, Receive, Scope, Send

from ..store.base import StoreUnavailable
from .answering import handshake_era

TAG = "mcp-session-id"
SIBLINGS = "TOOLGEN_SERVE_SIBLINGS"  # the environment variable naming the workers' folder
_PEEKED = 64 * 1024  # the largest body looked into for a cancellation (one is ~100 bytes)
# The calls under way in this process: (tag, request id) -> the call.
_CALLS: dict[tuple[str, Any], asyncio.Future[Any]] = {}
# The shared store cancellations pass through between servers (none: this machine only).
_FLEET: list[Any] = []
_WATCHES: set[asyncio.Future[None]] = set()  # the calls' watches of the store, under way
FLAGS = "cancelled"  # the store's map of cancellations: "tag\nrequest id" -> b"1"
FLAG_TTL_S = 3600.0  # how long a cancellation waits in the store for its call
FLAG_ENTRIES = 100_000  # the most kept at once (the oldest go first)
POLL_S = 0.5  # how often a call under way looks for its cancellation in the store


def across(store: Any) -> None:
    """Pass cancellations between servers through `store` when it is shared (else none)."""
    _FLEET[:] = [store] if getattr(store, "shared", False) else []


@contextlib.contextmanager
def cancellable(
    headers: Mapping[str, str], request_id: Any, call: asyncio.Future[Any]
) -> Iterator[None]:
    """While the block runs, a cancellation of `request_id` under the request's tag cancels
    `call` (nothing without a tag: stdio, a session and 2026-07-28 cancel their own way)."""
    tag = headers.get(TAG)
    if tag is None:
        yield
        return
    key = (tag, request_id)
    _CALLS[key] = call
    ended = asyncio.Event()
    if _FLEET:
        watch = asyncio.ensure_future(_watched(_FLEET[0], key, call, ended))
        _WATCHES.add(watch)  # the loop holds its tasks weakly
        watch.add_done_callback(_WATCHES.discard)
    try:
        yield
    finally:
        ended.set()  # the watch ends, never cut off mid-request (that drops its connection)
        if _CALLS.get(key) is call:
            del _CALLS[key]


def _field(key: tuple[str, Any]) -> str:
    return f"{key[0]}\n{json.dumps(key[1])}"


async def _watched(
    store: Any, key: tuple[str, Any], call: asyncio.Future[Any], ended: asyncio.Event
) -> None:
    """Cancel `call` once the store holds the cancellation of `key`, looking every POLL_S
    seconds until `ended` (a call shorter than POLL_S never asks the store)."""
    field = _field(key)
    while True:
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(ended.wait(), POLL_S)
            return
        with contextlib.suppress(StoreUnavailable):
            if await store.aget(FLAGS, field, FLAG_TTL_S, time.time()) is not None:
                call.cancel()
                return


async def _flagged(key: tuple[str, Any]) -> None:
    """The cancellation of `key` written into the fleet's store, for the server holding it."""
    for store in _FLEET:
        with contextlib.suppress(StoreUnavailable):
            await store.aput(FLAGS, _field(key), b"1", FLAG_TTL_S, FLAG_ENTRIES, time.time())


class Tagged:
    """ASGI middleware of a stateless server: the tag on handshake-era answers, and the
    cancellations that carry it."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app
        folder = os.environ.get(SIBLINGS)
        self.siblings = _Siblings(folder) if folder else None

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http" or not handshake_era(scope):
            await self.app(scope, receive, send)
            return
        if self.siblings is not None:
            self.siblings.listen()  # before this process holds any call
        headers = dict(scope.get("headers", []))
        tag = headers.get(TAG.encode())
        if tag is None:
            fresh = secrets.token_urlsafe(16).encode()
            await self.app(scope, receive, _tagging(send, fresh))
        elif scope.get("method") == "GET":
            await _refuse_get(send)
        elif scope.get("method") == "POST" and _small(headers):
            body, replay = await _peeked(receive)
            for request_id in _cancelled(body):
                key = (tag.decode("latin-1"), request_id)
                if _cancel(key):
                    continue
                if self.siblings is not None:
                    self.siblings.tell(key)
                await _flagged(key)
            await self.app(scope, replay, send)
        else:
            await self.app(scope, receive, send)


def _tagging(send: Send, tag: bytes) -> Send:
    async def tagged(message: Message) -> None:
        if message["type"] == "http.response.start" and message.get("status") == 200:
            headers = list(message.get("headers", []))
            if all(name.lower() != TAG.encode() for name, _ in headers):
                message = {**message, "headers": [*headers, (TAG.encode(), tag)]}
        await send(message)

    return tagged


async def _refuse_get(send: Send) -> None:
    body = b'{"error": "this server opens no stream of its own: POST each request"}'
    headers = [(b"content-type", b"application/json"), (b"allow", b"POST")]
    await send({"type": "http.response.start", "status": 405, "headers": headers})
    await send({"type": "http.response.body", "body": body})


def _small(headers: Mapping[bytes, bytes]) -> bool:
    length = headers.get(b"content-length", b"")
    return length.isdigit() and int(length) <= _PEEKED


async def _peeked(receive: Receive) -> tuple[bytes, Receive]:
    """The request's whole body, and a `receive` that gives it again."""
    messages: list[Message] = []
    body = bytearray()
    while True:
        message = await receive()
        messages.append(message)
        if message["type"] != "http.request":
            break
        body += message.get("body", b"")
        if not message.get("more_body", False):
            break

    async def replay() -> Message:
        return messages.pop(0) if messages else await receive()

    return bytes(body), replay


def _cancelled(body: bytes) -> list[Any]:
    """The request ids the body's cancellations name."""
    try:
        sent = json.loads(body)
    except ValueError:
        return []
    found = []
    for message in sent if isinstance(sent, list) else [sent]:
        if not isinstance(message, dict) or message.get("method") != "notifications/cancelled":
            continue
        params = message.get("params")
        request_id = params.get("requestId") if isinstance(params, dict) else None
        if isinstance(request_id, (str, int)) and not isinstance(request_id, bool):
            found.append(request_id)
    return found


def _cancel(key: tuple[str, Any]) -> bool:
    """Cancel the call of (tag, request id), if this process holds it."""
    call = _CALLS.get(key)
    if call is not None:
        call.cancel()
    return call is not None


class _Siblings:
    """The worker processes of one server, each with a datagram socket in `folder`, named by
    its process id: a cancellation that one receives, the others are told of."""

    def __init__(self, folder: str) -> None:
        self.folder = folder
        self.own = os.path.join(folder, str(os.getpid()))
        self.sock: socket.socket | None = None

    def listen(self) -> None:
        """This process's socket, read on the running loop (made once)."""
        if self.sock is not None:
            return
        sock = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
        sock.setblocking(False)
        sock.bind(self.own)
        asyncio.get_running_loop().add_reader(sock.fileno(), self._received)
        self.sock = sock

    def _received(self) -> None:
        while self.sock is not None:
            try:
                data = self.sock.recv(_PEEKED)
            except OSError:  # nothing more to read now
                return
            tag, _, request_id = data.decode("utf-8", "replace").partition("\n")
            with contextlib.suppress(ValueError, TypeError):
                _cancel((tag, json.loads(request_id)))

    def tell(self, key: tuple[str, Any]) -> None:
        """Pass the cancellation of `key` on to every other worker."""
        data = f"{key[0]}\n{json.dumps(key[1])}".encode()
        for name in os.listdir(self.folder):
            path = os.path.join(self.folder, name)
            if path != self.own and self.sock is not None:
                with contextlib.suppress(OSError):  # a worker that has ended
                    self.sock.sendto(data, path)
