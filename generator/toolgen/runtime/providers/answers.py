# Part of toolgen's runtime, copied verbatim into generated packages (edit toolgen, not a copy).
"""One call's result in each provider's shape, content blocks included (adapters.py answers
whole turns with these).

A result is read as pieces, in order: its value as JSON text, its content blocks, then its
guidance (`metadata`). Text pieces become the provider's text; an image, a document or a
recording becomes the provider's own content of that kind where it takes one in a tool
result, so that a model sees it (about a hundred tokens for an image) instead of reading its
base64 (tens of thousands). Where a provider takes no such content in a tool result, the text
says what was left out; no binary content ever travels as text:

| provider         | image                   | document (PDF, text)     | audio                  |
|------------------|-------------------------|--------------------------|------------------------|
| openai (Chat)    | a `user` message after the turn's tool messages (`image_url`) | the same message (`file`) | the same message (`input_audio`: WAV, MP3) |
| openai-responses | `input_image`           | `input_file`             | left out               |
| anthropic        | `image` block           | `document` block         | left out               |
| gemini           | `parts` inline data     | `parts` inline data      | left out               |
| bedrock          | `image` block           | `document` block         | left out               |
| mcp              | `image` content         | embedded `resource`      | `audio` content        |

Chat Completions takes text only in a `tool` message: its answer is the tool messages of the
whole turn, then one `user` message holding every call's content (each introduced by the call
it came from), the pattern OpenAI's vision models read.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from pydantic_core import to_json

from .. import kinds
from ..results.content import Audio, Document, Image, ResourceLink, Text

if TYPE_CHECKING:
    from ..results.result import ToolResult


@dataclass(frozen=True)
class Call:
    """One tool call, whatever provider sent it (adapters.py reads them)."""

    id: str | None
    name: str
    arguments: Any  # a dict, or a JSON string (OpenAI), validated by the registry


# The kinds of media each provider takes in a tool result (the table above); the rest is
# written as text saying what was left out. `toolgen lint` warns of those (content-left-out).
TAKES: dict[str, frozenset[str]] = {
    kinds.OPENAI: frozenset(kinds.MEDIA),  # audio: WAV and MP3
    kinds.OPENAI_RESPONSES: frozenset({kinds.IMAGE, kinds.DOCUMENT}),
    kinds.ANTHROPIC: frozenset({kinds.IMAGE, kinds.DOCUMENT}),
    kinds.GEMINI: frozenset({kinds.IMAGE, kinds.DOCUMENT}),
    kinds.BEDROCK: frozenset({kinds.IMAGE, kinds.DOCUMENT}),
    kinds.MCP: frozenset(kinds.MEDIA),
}


@dataclass(frozen=True)
class Parts:
    """The one answer to a call glued from several (`split`: Registry.call_split), run as its
    parts: each part's result, labelled with its tool's name, in order. Answered as a result
    is (the answers below take either); ok when every part is."""

    tool: str  # the glued name, as the model called it
    results: tuple[ToolResult, ...]

    @property
    def ok(self) -> bool:
        return all(r.failure is None for r in self.results)

    @property
    def failure(self) -> Any:
        """The first part's failure, or None when every part is ok."""
        return next((r.failure for r in self.results if r.failure is not None), None)

    @property
    def content(self) -> tuple[Any, ...]:
        return tuple(block for r in self.results for block in r.content)

    @property
    def metadata(self) -> str | None:
        return None

    def text(self) -> str:
        return "\n\n".join(f"{r.tool}: {r.text()}" for r in self.results)

    def data(self) -> str:
        """No value of its own: the parts' text (what a provider shows where a value goes)."""
        return self.text()


def pieces(result: ToolResult | Parts) -> list[Any]:
    """What a result shows, in order: Text pieces and content blocks (a null value beside
    content blocks says nothing, and is left out). Of Parts: each part's, its first text
    labelled with its tool's name."""
    if isinstance(result, Parts):
        shown: list[Any] = []
        for part in result.results:
            own = pieces(part)
            if own and isinstance(own[0], Text):
                own[0] = Text(f"{part.tool}: {own[0].text}")
            else:
                own.insert(0, Text(f"{part.tool}:"))
            shown += own
        return shown
    if result.failure is not None:
        return [Text(result.text())]
    value = result.data()
    shown = [] if value is None and result.content else [Text(to_json(value).decode())]
    shown += result.content
    if result.metadata is not None:
        shown.append(Text(result.metadata))
    return shown


def has_media(result: ToolResult | Parts) -> bool:
    return any(isinstance(b, (Image, Document, Audio)) for b in result.content)


def _text(piece: Any, where: str = "") -> str:
    """A piece as text: a link as its reference; media as what was left out and why."""
    if isinstance(piece, Text):
        return piece.text
    if isinstance(piece, ResourceLink):
        return piece.shown()
    return f"{piece.shown()} {where}".rstrip()


def _joined(
    parts: list[Any], render: Callable[[Any], dict[str, Any] | None], note: str
) -> list[Any]:
    """Pieces as a provider's parts: runs of text joined into one text part (`render(Text)`),
    media rendered where `render` takes it, else written as text saying `note`."""
    out: list[Any] = []
    texts: list[str] = []
    for piece in parts:
        rendered = None if isinstance(piece, Text) else render(piece)
        if rendered is None:
            texts.append(_text(piece, note))
            continue
        if texts:
            out.append(render(Text("\n\n".join(texts))))
            texts = []
        out.append(rendered)
    if texts:
        out.append(render(Text("\n\n".join(texts))))
    return out


# -- OpenAI Chat Completions ------------------------------------------------------------------------


def openai(call: Call, result: ToolResult | Parts) -> dict[str, Any]:
    texts = [
        _text(p, "(shown in the next message)" if _chat_takes(p) else "(left out: not taken here)")
        for p in pieces(result)
    ]
    return {"role": "tool", "tool_call_id": call.id or "", "content": "\n\n".join(texts)}


def openai_content(turn: list[tuple[Call, ToolResult | Parts]]) -> list[dict[str, Any]]:
    """The `user` message after a turn's tool messages, holding what they could not."""
    parts: list[dict[str, Any]] = []
    for call, result in turn:
        media = [b for b in result.content if _chat_takes(b)]
        if not media:
            continue
        parts.append(
            {
                "type": "text",
                "text": f"Content returned by the call {call.id or ''} of {call.name}:",
            }
        )
        parts += [_chat_part(b) for b in media]
    return [{"role": "user", "content": parts}] if parts else []


def _chat_takes(piece: Any) -> bool:
    """Whether a user message of Chat Completions takes this block (text pieces stay text)."""
    return isinstance(piece, (Image, Document)) or (
        isinstance(piece, Audio) and piece.mime_type in _CHAT_AUDIO
    )


def _chat_part(block: Any) -> dict[str, Any]:
    """A block `_chat_takes`, as a content part of a user message."""
    if isinstance(block, Image):
        return {"type": "image_url", "image_url": {"url": block.data_url()}}
    if isinstance(block, Document) and block.mime_type == "application/pdf":
        return {"type": "file", "file": {"file_data": block.data_url(), "filename": block.name}}
    if isinstance(block, Document):
        return {"type": "text", "text": f"{block.name}:\n{block.data.decode('utf-8', 'replace')}"}
    audio = {"data": block.base64(), "format": _CHAT_AUDIO[block.mime_type]}
    return {"type": "input_audio", "input_audio": audio}


_CHAT_AUDIO = {"audio/wav": "wav", "audio/mpeg": "mp3"}


# -- OpenAI Responses -------------------------------------------------------------------------------


def responses(call: Call, result: ToolResult | Parts) -> dict[str, Any]:
    output: Any = result.text()
    if has_media(result):
        output = _joined(pieces(result), _responses_part, "(left out: not taken in a tool output)")
    return {"type": "function_call_output", "call_id": call.id or "", "output": output}


def _responses_part(piece: Any) -> dict[str, Any] | None:
    if isinstance(piece, Text):
        return {"type": "input_text", "text": piece.text}
    if isinstance(piece, Image):
        return {"type": "input_image", "image_url": piece.data_url()}
    if isinstance(piece, Document):
        return {"type": "input_file", "file_data": piece.data_url(), "filename": piece.name}
    return None


# -- Anthropic --------------------------------------------------------------------------------------


def anthropic(call: Call, result: ToolResult | Parts) -> dict[str, Any]:
    content: Any = result.text()
    if has_media(result):
        content = _joined(
            pieces(result), _anthropic_block, "(left out: not taken in a tool result)"
        )
    return {
        "type": "tool_result",
        "tool_use_id": call.id or "",
        "content": content,
        "is_error": not result.ok,
    }


def _anthropic_block(piece: Any) -> dict[str, Any] | None:
    if isinstance(piece, Text):
        return {"type": "text", "text": piece.text}
    if isinstance(piece, Image):
        source = {"type": "base64", "media_type": piece.mime_type, "data": piece.base64()}
        return {"type": "image", "source": source}
    if isinstance(piece, Document) and piece.mime_type == "application/pdf":
        source = {"type": "base64", "media_type": "application/pdf", "data": piece.base64()}
        return {"type": "document", "source": source, "title": piece.name}
    if isinstance(piece, Document):
        text = piece.data.decode("utf-8", "replace")
        source = {"type": "text", "media_type": "text/plain", "data": text}
        return {"type": "document", "source": source, "title": piece.name}
    return None


# -- Gemini -----------------------------------------------------------------------------------------


def gemini(call: Call, result: ToolResult | Parts) -> dict[str, Any]:
    """A FunctionResponse: the value under `output` (the failure's text under `error`), the
    other text pieces under `notes`, images and documents as inline data `parts`."""
    if not result.ok:
        response: dict[str, Any] = {"error": result.text()}
    else:
        response = {"output": result.data()}
    body: dict[str, Any] = {"name": call.name, "response": response}
    if result.ok:
        parts: list[dict[str, Any]] = []
        notes: list[str] = []
        # The pieces after the value (of Parts, the value is their text: their media only).
        rest = pieces(result)
        rest = (
            [p for p in rest if not isinstance(p, Text)] if isinstance(result, Parts) else rest[1:]
        )
        for piece in rest:
            part = _gemini_part(piece)
            if part is None:
                notes.append(_text(piece, "(left out: not taken in a function response)"))
            else:
                parts.append(part)
        if notes:
            response["notes"] = "\n\n".join(notes)
        if parts:
            body["parts"] = parts
    if call.id:
        body["id"] = call.id
    return {"function_response": body}


def _gemini_part(piece: Any) -> dict[str, Any] | None:
    if isinstance(piece, (Image, Document)):
        return {"inline_data": {"mime_type": piece.mime_type, "data": piece.data}}
    return None


# -- Bedrock Converse -------------------------------------------------------------------------------


def bedrock(call: Call, result: ToolResult | Parts) -> dict[str, Any]:
    shown = pieces(result)
    value = result.data() if result.ok else None
    if isinstance(value, dict):  # a JSON object is sent as one; the rest as text and media
        first: list[Any] = [{"json": value}]
        shown = shown[1:]
    else:
        first = []
    content = first + _joined(shown, _bedrock_block, "(left out: not taken in a tool result)")
    status = "success" if result.ok else "error"
    return {"toolResult": {"toolUseId": call.id or "", "content": content, "status": status}}


def _bedrock_block(piece: Any) -> dict[str, Any] | None:
    if isinstance(piece, Text):
        return {"text": piece.text}
    if isinstance(piece, Image):
        image_format = piece.mime_type.partition("/")[2]
        return {"image": {"format": image_format, "source": {"bytes": piece.data}}}
    if isinstance(piece, Document):
        document_format = "pdf" if piece.mime_type == "application/pdf" else "txt"
        name = _bedrock_name(piece.name)
        return {
            "document": {"format": document_format, "name": name, "source": {"bytes": piece.data}}
        }
    return None


def _bedrock_name(name: str) -> str:
    """A document name as Converse takes it: letters, digits, single spaces, hyphens,
    parentheses and square brackets (at most 200 characters)."""
    cleaned = re.sub(r"[^A-Za-z0-9\-()\[\] ]+", " ", name)
    return re.sub(r"\s+", " ", cleaned).strip()[:200] or "document"


# -- MCP --------------------------------------------------------------------------------------------


def mcp(call: Call, result: ToolResult | Parts) -> dict[str, Any]:
    """`CallToolResult`: the pieces as content, and `structuredContent` when the value is a JSON
    object (validated by the tool's Result model, its outputSchema)."""
    content = _joined(pieces(result), _mcp_content, "")
    answer: dict[str, Any] = {"content": content, "isError": not result.ok}
    if result.ok and isinstance(value := result.data(), dict):
        answer["structuredContent"] = value
    return answer


def _mcp_content(piece: Any) -> dict[str, Any] | None:
    if isinstance(piece, Text):
        return {"type": "text", "text": piece.text}
    if isinstance(piece, (Image, Audio)):
        return {"type": piece.kind, "data": piece.base64(), "mimeType": piece.mime_type}
    if isinstance(piece, Document):
        resource: dict[str, Any] = {
            "uri": f"toolgen:content/{piece.name}",
            "mimeType": piece.mime_type,
        }
        if piece.mime_type == "text/plain":
            resource["text"] = piece.data.decode("utf-8", "replace")
        else:
            resource["blob"] = piece.base64()
        return {"type": "resource", "resource": resource}
    if isinstance(piece, ResourceLink):
        link = {"type": "resource_link", "uri": piece.uri, "name": piece.name}
        if piece.mime_type:
            link["mimeType"] = piece.mime_type
        if piece.description:
            link["description"] = piece.description
        return link
    return None
