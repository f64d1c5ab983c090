# Part of toolgen's runtime, copied verbatim into generated packages (edit toolgen, not a copy).
"""An MCP server's answer to `tools/call`, read back into the package's types (remote.py).

Bounded: the answer's size (its text, its base64 and its structured value, as JSON would
count them) and its nesting are measured before anything is parsed or validated, with the
limits arguments have (validation/payload.py), so that no server can make the client spend
more than the caller allows. What breaks the spec is the failure `invalid_result`, as the
server's own registry would make it: a value that does not match `returns`, a content block
of a kind the spec's `content` does not declare (or that MCP does not define), base64 that
does not decode. (A spec with no `content`, as `toolgen import` writes a server's tools, takes
every kind MCP defines: tools/list says nothing of them.)
"""

from __future__ import annotations

import base64
import binascii
import json
from typing import Any

import mcp_types as types
from pydantic import ValidationError

from ..calls import streaming
from ..results.content import Audio, Document, Image, ResourceLink, Text
from ..results.result import ToolFailure, ToolInfo, ToolResult
from ..validation.payload import Limits, check, measure
from .wire import FAILURE, METADATA, VALUE, WARNINGS

MAX_RESULT_BYTES = 10 * 1024 * 1024  # an answer larger than this is `invalid_result`
DONE = "\nDone before the failure: "  # how a failure's text carries its partial data


class Refused(ValueError):
    """An answer that breaks the spec or the limits: its message says how."""


def read(info: ToolInfo, answer: types.CallToolResult, limits: Limits) -> ToolResult:
    """The answer as a ToolResult: value and blocks, or the failure the server reported, or
    `invalid_result` for an answer that breaks the spec or `limits`."""
    try:
        return _read(info, answer, limits)
    except (Refused, RecursionError) as error:
        message = f"the server's result was refused: {error}"
        if isinstance(error, RecursionError):
            message = "the server's result was refused: nested too deeply"
        return ToolResult(info.name, failure=ToolFailure("invalid_result", message))


def _read(info: ToolInfo, answer: types.CallToolResult, limits: Limits) -> ToolResult:
    meta = answer.meta or {}
    _bounded(answer, meta, limits)
    blocks = [_block(info, i, item) for i, item in enumerate(answer.content)]
    texts = "\n\n".join(b.text for b in blocks if isinstance(b, Text))
    found = meta.get(WARNINGS)
    warnings = tuple(map(str, found)) if isinstance(found, list) else ()
    if answer.is_error:
        found = meta.get(FAILURE)
        failure: dict[str, Any] = found if isinstance(found, dict) else {}
        message, partial = texts, failure.get("partial_data")
        if DONE in texts and partial is None:
            message, _, done = texts.partition(DONE)
            partial = next(iter(_json(done, limits)), done)
        kind = str(failure.get("kind", "error"))
        failed = ToolFailure(kind, message, failure.get("retryable") is True, partial)
        return ToolResult(info.name, failure=failed, warnings=warnings)
    media = tuple(b for b in blocks if not isinstance(b, Text))
    if answer.structured_content is not None:
        candidates = [answer.structured_content]
    elif isinstance(meta.get(VALUE), str):
        candidates = _json(meta[VALUE], limits)
    else:  # a server that is not toolgen's: its text is the value, or the JSON it holds
        candidates = [texts, *_json(texts, limits)]
    guidance = meta.get(METADATA) if isinstance(meta.get(METADATA), str) else None
    problem = "no value"
    for candidate in candidates:
        try:
            value = info.result.model_validate(candidate)
        except ValidationError as error:
            problem = error.errors()[0]["msg"]
            continue
        return ToolResult(
            info.name, value=value, content=media, metadata=guidance, warnings=warnings
        )
    message = f"the server's result does not match what the spec returns: {problem}"
    return ToolResult(info.name, failure=ToolFailure("invalid_result", message))


def _bounded(answer: types.CallToolResult, meta: dict[str, Any], limits: Limits) -> None:
    """Refused when the answer holds more than `limits` allow (size, nesting)."""
    size = 0
    for item in answer.content:
        for part in ("text", "data"):
            value = getattr(item, part, None)
            size += len(value) if isinstance(value, str) else 0
        resource = getattr(item, "resource", None)
        for part in ("text", "blob"):
            value = getattr(resource, part, None)
            size += len(value) if isinstance(value, str) else 0
    if isinstance(meta.get(VALUE), str):
        size += len(meta[VALUE])
    if size > limits.max_bytes:
        raise Refused(f"{size} bytes of content; the limit is {limits.max_bytes}")
    rest = Limits(max_bytes=limits.max_bytes - size, max_depth=limits.max_depth)
    for value in (answer.structured_content, meta):
        if isinstance(value, (dict, list)) and (issue := measure(value, rest)) is not None:
            raise Refused(issue.message)


def _json(text: str, limits: Limits) -> list[Any]:
    """[the JSON `text` holds], or [] for text that is no JSON; Refused past the limits."""
    issue = check(text, limits)
    if issue is not None:
        raise Refused(issue.message)
    try:
        return [json.loads(text)]
    except ValueError:
        return []


def _block(info: ToolInfo, at: int, item: Any) -> Any:
    """An MCP content item as the runtime's block; Refused for a kind the spec's `content`
    does not declare (text is always allowed: it carries the value; a spec that declares no
    `content`, as `toolgen import` writes them, takes every kind), or base64 that does not
    decode."""
    block = _media(at, item)
    kind = block.kind
    if kind != "text" and info.content and kind not in info.content:
        allowed = ", ".join(sorted(info.content)) or "none"
        raise Refused(f"content[{at}] is {kind} content; the spec's `content` declares {allowed}")
    return block


def _media(at: int, item: Any) -> Any:
    try:
        if isinstance(item, types.TextContent):
            return Text(item.text)
        if isinstance(item, (types.ImageContent, types.AudioContent)):
            kind = Image if isinstance(item, types.ImageContent) else Audio
            return kind(_decoded(at, item.data), item.mime_type)
        if isinstance(item, types.EmbeddedResource):
            resource = item.resource
            name = str(resource.uri).rpartition("/")[2] or "resource"
            if isinstance(resource, types.TextResourceContents):
                if resource.mime_type not in (None, "text/plain"):  # JSON, HTML, ...: its text
                    return Text(resource.text)
                return Document(resource.text.encode(), "text/plain", name)
            mime = resource.mime_type or "application/octet-stream"
            return Document(_decoded(at, resource.blob), mime, name)
        if isinstance(item, types.ResourceLink):
            return ResourceLink(str(item.uri), item.name, item.mime_type, item.description)
    except Refused:
        raise
    except ValueError as error:  # a block the runtime does not take (an SVG image, ...)
        raise Refused(f"content[{at}]: {error}") from None
    raise Refused(f"content[{at}] is {getattr(item, 'type', 'unknown')!r} content, not MCP's")


def _decoded(at: int, data: str) -> bytes:
    try:
        return base64.b64decode(data, validate=True)
    except (binascii.Error, ValueError):
        raise Refused(f"content[{at}]: its base64 data does not decode") from None


def event(data: dict[str, Any]) -> Any:
    """A streaming tool's event, from the JSON toolgen's server sends it as."""
    kind = data.get("type")
    if kind == "progress":
        return streaming.Progress(data.get("done", 0), data.get("total"), data.get("message"))
    if kind == "chunk":
        return streaming.Chunk(str(data.get("text", "")))
    if kind == "partial":
        return streaming.Partial(data.get("value"))
    return data  # a content block, as JSON
