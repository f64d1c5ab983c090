# Part of toolgen's runtime, copied verbatim into generated packages (edit toolgen, not a copy).
"""A generated package's tools, called on an MCP server (the package's `client` extra).

`Remote` is one connection, made with the official `mcp` SDK's `Client` (a URL is streamable
HTTP, anything else a command run as a stdio server). Each call is validated here first, by
the same models and with the same messages as the server would give (nothing invalid is
sent), then sent as `tools/call`. The answer is read back into the package's types: the
Result model (from `structuredContent`, or toolgen's `_meta` value where a handshake-era
result cannot hold it, or the text of a server that is not toolgen's), the content blocks,
and a failure's kind. `value` raises `ToolCallError` for a failure, `call` returns the whole
`ToolResult`, `stream` yields a streaming tool's events (`Progress`, `Chunk`, ...) as they
come, then `Final`. The generated `client.py` gives each tool its own typed method on top.
"""

from __future__ import annotations

import asyncio
import base64
import contextlib
import itertools
import json
import shlex
from collections.abc import AsyncGenerator, AsyncIterator, Awaitable, Callable, Iterator, Mapping
from typing import Any, TypeVar

import mcp_types as types
from mcp import Client, StdioServerParameters
from pydantic import ValidationError

from ..calls import streaming
from ..errors import ToolCallError, UnknownToolError
from ..results.content import Audio, Document, Image, ResourceLink, Text
from ..results.result import ToolFailure, ToolInfo, ToolResult
from ..validation.suggest import nearest
from ..validation.validate import as_sent, validate
from .server import EVENT, FAILURE, METADATA, VALUE

_TOKENS = itertools.count(1)
R = TypeVar("R")
Approve = Callable[[str], Awaitable[bool]]
Answer = Callable[[str], Awaitable[str | None]]


class Remote:
    """The tools of `infos` on one connected MCP server."""

    def __init__(self, client: Client, infos: Mapping[str, ToolInfo]) -> None:
        self.client = client
        self.infos = dict(infos)
        self._streams: dict[str, Callable[[Any], None]] = {}

    def info(self, name: str) -> ToolInfo:
        info = self.infos.get(name)
        if info is None:
            raise UnknownToolError(name, nearest(name, list(self.infos)), len(self.infos))
        return info

    async def value(
        self, name: str, returns: type[R], arguments: Any = None, /, **fields: Any
    ) -> R:
        """The call's Result model (of class `returns`); ToolArgumentsError before sending an
        invalid call, ToolCallError (with the failure's kind) for a failure. (Positional
        parameters only, so that a tool's own `name` or `arguments` can be keywords.)"""
        return _value(await self.call(name, arguments, **fields), returns)

    async def call(self, name: str, arguments: Any = None, /, **fields: Any) -> ToolResult:
        """The whole result: value or failure, content blocks, guidance."""
        async for event in self.stream(name, arguments, **fields):
            if isinstance(event, streaming.Final):
                return event.result
        raise AssertionError("a stream ends with Final")  # pragma: no cover

    async def stream(
        self, name: str, arguments: Any = None, /, **fields: Any
    ) -> AsyncGenerator[Any, None]:
        """The call's events as the server sends them, then `Final(result)`."""
        info = self.info(name)
        sent = _arguments(info, arguments, fields)
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
        yield streaming.Final(_read(info, call.result()))

    async def on_message(self, message: Any) -> None:
        """The client's message handler: a progress notification of a call under way that
        carries toolgen's event goes to that call's stream."""
        params = getattr(message, "params", None)
        if not isinstance(params, types.ProgressNotificationParams):
            return
        deliver = self._streams.get(str(params.progress_token))
        event = (params.meta or {}).get(EVENT)
        if deliver is not None and isinstance(event, dict):
            deliver(_event(event))


def _value(result: ToolResult, returns: type[R]) -> R:
    """The ok result's value, else ToolCallError with the failure's kind."""
    failure = result.failure
    if failure is not None:
        raise ToolCallError(result.tool, failure.kind, failure.message, failure.retryable, 1)
    if not isinstance(result.value, returns):
        raise TypeError(
            f"{result.tool} returns {type(result.value).__name__}, not {returns.__name__}"
        )
    return result.value


def _arguments(info: ToolInfo, arguments: Any, fields: Mapping[str, Any]) -> dict[str, Any]:
    """What to send: the arguments validated here (ToolArgumentsError, as the server would
    say it), as their JSON; a typed Arguments instance, a mapping, or keyword arguments."""
    if arguments is not None and fields:
        raise TypeError("pass the arguments as one object or as keywords, not both")
    given = fields if arguments is None else arguments
    if isinstance(given, info.arguments):
        given = as_sent(given)
    checked = validate(info.arguments, info.name, dict(given), info.secrets)
    sent = as_sent(checked)
    return sent if isinstance(sent, dict) else {}


def _read(info: ToolInfo, answer: types.CallToolResult) -> ToolResult:
    meta = answer.meta or {}
    blocks = [b for b in map(_block, answer.content) if b is not None]
    texts = "\n\n".join(b.text for b in blocks if isinstance(b, Text))
    if answer.is_error:
        found = meta.get(FAILURE)
        failure: dict[str, Any] = found if isinstance(found, dict) else {}
        kind = str(failure.get("kind", "error"))
        return ToolResult(
            info.name, failure=ToolFailure(kind, texts, failure.get("retryable") is True)
        )
    media = tuple(b for b in blocks if not isinstance(b, Text))
    if answer.structured_content is not None:
        found = [answer.structured_content]
    elif isinstance(meta.get(VALUE), str):
        found = _json(meta[VALUE])
    else:  # a server that is not toolgen's: its text is the value, or the JSON it holds
        found = [texts, *_json(texts)]
    guidance = meta.get(METADATA) if isinstance(meta.get(METADATA), str) else None
    for candidate in found:
        try:
            value = info.result.model_validate(candidate)
        except ValidationError as error:
            problem = error.errors()[0]["msg"]
            continue
        return ToolResult(info.name, value=value, content=media, metadata=guidance)
    message = f"the server's result does not match what the spec returns: {problem}"
    return ToolResult(info.name, failure=ToolFailure("invalid_result", message))


def _json(text: str) -> list[Any]:
    try:
        return [json.loads(text)]
    except ValueError:
        return []


def _block(item: Any) -> Any:
    """An MCP content item as the runtime's block (None for what has no block); media of a
    kind no provider takes (an SVG image) as text saying what was left out."""
    try:
        return _media(item)
    except ValueError:
        return Text(
            f"[{getattr(item, 'type', 'content')}: {getattr(item, 'mime_type', '?')}, left out]"
        )


def _media(item: Any) -> Any:
    if isinstance(item, types.TextContent):
        return Text(item.text)
    if isinstance(item, (types.ImageContent, types.AudioContent)):
        kind = Image if isinstance(item, types.ImageContent) else Audio
        return kind(base64.b64decode(item.data), item.mime_type)
    if isinstance(item, types.EmbeddedResource):
        resource = item.resource
        name = str(resource.uri).rpartition("/")[2] or "resource"
        if isinstance(resource, types.TextResourceContents):
            if resource.mime_type not in (None, "text/plain"):  # JSON, HTML, ...: its text
                return Text(resource.text)
            return Document(resource.text.encode(), "text/plain", name)
        mime = resource.mime_type or "application/octet-stream"
        return Document(base64.b64decode(resource.blob), mime, name)
    if isinstance(item, types.ResourceLink):
        return ResourceLink(str(item.uri), item.name, item.mime_type, item.description)
    return None


def _event(data: dict[str, Any]) -> Any:
    kind = data.get("type")
    if kind == "progress":
        return streaming.Progress(data.get("done", 0), data.get("total"), data.get("message"))
    if kind == "chunk":
        return streaming.Chunk(str(data.get("text", "")))
    if kind == "partial":
        return streaming.Partial(data.get("value"))
    return data  # a content block, as JSON


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
) -> AsyncIterator[Remote]:
    """A connection to the MCP server at `target`: an `http(s)://` URL (streamable HTTP,
    with `Authorization: Bearer <token>` when given), or a command (a list, or a string split
    as a shell would) started as a stdio server with `env` added to this environment (or
    what the SDK's `Client` takes: an `mcp` Server in this process, a Transport).
    `protocol`: "auto" (2026-07-28 where the server speaks it, else the handshake), "legacy"
    (the handshake revisions only), or a 2026-07-28 revision to use without asking.
    `approve(prompt)` decides a call that needs the user's approval (True to let it run) and
    `answer(question)` gives the user's answer to a tool's question (None: they declined);
    with either, the client offers elicitation, and the server asks them during the call."""
    server: Any = target  # an `mcp` Server, or a Transport: as the SDK's Client takes them
    if isinstance(target, str) and target.startswith(("http://", "https://")):
        server = target
        if token is not None:
            import httpx2
            from mcp.client.streamable_http import streamable_http_client

            http = httpx2.AsyncClient(
                headers={"Authorization": f"Bearer {token}"}, timeout=timeout_s
            )
            server = _Transport(streamable_http_client(target, http_client=http), http)
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
    async with Client(
        server,
        read_timeout_seconds=timeout_s,
        message_handler=on_message,
        mode=protocol,
        elicitation_callback=elicit,
    ) as client:
        holder.append(Remote(client, infos))
        yield holder[0]


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
