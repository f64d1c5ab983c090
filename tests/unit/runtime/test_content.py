"""Content blocks (runtime/results/content.py) and how each provider receives them (runtime/providers/answers.py):
a turn whose result holds an image, a PDF, audio and a link gives exactly the messages each
provider's SDK types accept, and no image ever travels as text."""

from __future__ import annotations

import base64
import json
import struct
import zlib
from collections.abc import Iterator
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest

from tests.support.runtime_support import generated_package, interface


def png(width: int = 4, height: int = 3) -> bytes:
    """A real PNG (grey pixels), made here."""

    def chunk(kind: bytes, data: bytes) -> bytes:
        return (
            struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))
        )

    rows = b"".join(b"\x00" + b"\x80" * width for _ in range(height))
    header = struct.pack(">IIBBBBB", width, height, 8, 0, 0, 0, 0)
    return (
        b"\x89PNG\r\n\x1a\n"
        + chunk(b"IHDR", header)
        + chunk(b"IDAT", zlib.compress(rows))
        + chunk(b"IEND", b"")
    )


PDF = b"%PDF-1.4\n1 0 obj << /Type /Catalog >> endobj\ntrailer << /Root 1 0 R >>\n%%EOF\n"
WAV = (
    b"RIFF"
    + struct.pack("<I", 36)
    + b"WAVEfmt "
    + struct.pack("<IHHIIHH", 16, 1, 1, 8000, 8000, 1, 8)
    + b"data\x00\x00\x00\x00"
)

SPECS = {
    "tools": [
        {
            "name": "chart",
            "description": "Draws a chart.",
            "content": ["image", "document", "audio", "resource_link", "text"],
            "parameters": {
                "type": "object",
                "properties": {"title": {"type": "string", "description": "Its title."}},
                "required": ["title"],
            },
            "returns": {
                "type": "object",
                "properties": {"points": {"type": "integer"}},
                "required": ["points"],
            },
        },
        {"name": "plain", "description": "Returns text only.", "parameters": {"type": "object"}},
    ]
}


@pytest.fixture(scope="module")
def package(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ModuleType]:
    yield from generated_package(tmp_path_factory, "media", SPECS)


def implementations(package: ModuleType, blocks: list[Any] | None = None) -> list[Any]:
    chart, plain = interface(package, "chart"), interface(package, "plain")

    class Chart(chart):  # type: ignore[misc, valid-type]
        def run(self, arguments: Any) -> Any:
            shown = (
                blocks
                if blocks is not None
                else [
                    package.Text(f"The chart titled {arguments.title}:"),
                    package.Image.of(png()),
                    package.Document.of(PDF, name="report.pdf"),
                    package.Audio.of(WAV),
                    package.ResourceLink("https://example.org/data.csv", "data.csv", "text/csv"),
                ]
            )
            return package.Output(
                {"points": 12}, metadata="Read the axes before the bars.", content=shown
            )

    class Plain(plain):  # type: ignore[misc, valid-type]
        def run(self, arguments: Any) -> Any:
            return {}

    return [Chart(), Plain()]


IMAGE_B64 = base64.b64encode(png()).decode()


def texts(value: Any, key: str | None = None) -> Iterator[str]:
    """Every string a model reads as text in an answer: values of text-bearing keys."""
    if isinstance(value, dict):
        for k, v in value.items():
            yield from texts(v, k)
    elif isinstance(value, list):
        for v in value:
            yield from texts(v, key)
    elif isinstance(value, str) and key in ("text", "content", "output", "notes", "error"):
        yield value


def no_image_as_text(answer: Any) -> None:
    for text in texts(answer):
        assert IMAGE_B64[:40] not in text, "an image travelled as text"


# -- the blocks ------------------------------------------------------------------------------------


def test_a_block_is_normalised_from_any_one_source(package: ModuleType, tmp_path: Path) -> None:
    image = tmp_path / "photo.jpg"
    image.write_bytes(png())  # named .jpg, but a PNG: the bytes tell
    from_path = package.Image.of(image)
    assert from_path.mime_type == "image/png" and from_path.data == png()
    from_url = package.Image.of(from_path.data_url())
    assert from_url == from_path == package.Image.of(png())
    assert package.Document.of(PDF).mime_type == "application/pdf"
    (tmp_path / "notes.txt").write_text("hello")
    note = package.Document.of(tmp_path / "notes.txt")
    assert (note.mime_type, note.name) == ("text/plain", "notes.txt")
    assert package.Audio.of(WAV).mime_type == "audio/wav"
    with pytest.raises(ValueError, match="cannot tell what kind of image"):
        package.Image.of(b"not an image")
    with pytest.raises(ValueError, match="image content is one of"):
        package.Image.of(PDF)
    with pytest.raises(ValueError, match="base64"):
        package.Image.of("data:image/png;base64,@@@")
    with pytest.raises(ValueError, match="at most 3,750,000 bytes"):
        package.Image.of(png() + bytes(4_000_000))
    with pytest.raises(TypeError):
        package.Image.of(12)


def test_content_is_carried_in_order_and_checked_against_the_spec(package: ModuleType) -> None:
    registry = package.Registry(implementations(package))
    result = registry.call("chart", {"title": "Sales"})
    assert result.ok and [b.kind for b in result.content] == [
        "text",
        "image",
        "document",
        "audio",
        "resource_link",
    ]
    shown = result.to_dict()
    assert [c["type"] for c in shown["content"]] == [
        "text",
        "image",
        "document",
        "audio",
        "resource_link",
    ]
    assert "[image: image/png" in result.text() and IMAGE_B64[:40] not in result.text()
    undeclared = package.Registry(implementations(package))
    [_, plain] = implementations(package)

    class Picture(type(plain)):  # type: ignore[misc]
        def run(self, arguments: Any) -> Any:
            return package.Output({}, content=[package.Image.of(png())])

    refused = undeclared.add(Picture(), replace=True).call("plain", {})
    assert refused.failure.kind == "invalid_result"
    assert "content[0] is image content; the spec's `content` declares none" in str(
        refused.exception
    )
    odd = package.Registry(implementations(package, ["a string"])).call("chart", {"title": "x"})
    assert odd.failure.kind == "invalid_result" and "is a str, not a content block" in str(
        odd.exception
    )
    assert package.tool_info("chart").content == frozenset(
        {"image", "document", "audio", "resource_link", "text"}
    )


# -- each provider, checked by its SDK's own types ------------------------------------------------

CALL = {"title": "Sales"}


def test_openai_chat_gets_tool_messages_then_one_user_message_with_the_media(
    package: ModuleType,
) -> None:
    from openai.types.chat import ChatCompletionMessageParam
    from pydantic import TypeAdapter

    registry = package.Registry(implementations(package))
    calls = [
        {
            "id": f"c{i}",
            "type": "function",
            "function": {"name": name, "arguments": json.dumps(args)},
        }
        for i, (name, args) in enumerate([("chart", CALL), ("plain", {}), ("chart", CALL)])
    ]
    messages = package.respond(registry, "openai", calls)
    assistant = {"role": "assistant", "tool_calls": calls}
    TypeAdapter(list[ChatCompletionMessageParam]).validate_python([assistant, *messages])
    assert [m["role"] for m in messages] == [
        "tool",
        "tool",
        "tool",
        "user",
    ]  # tool messages stay together
    assert "(shown in the next message)" in messages[0]["content"]
    assert (
        "https://example.org/data.csv" in messages[0]["content"]
    )  # a link is text the model reads
    parts = messages[3]["content"]
    assert [p["type"] for p in parts] == ["text", "image_url", "file", "input_audio"] * 2
    assert parts[0]["text"] == "Content returned by the call c0 of chart:"
    assert parts[1]["image_url"]["url"] == f"data:image/png;base64,{IMAGE_B64}"
    no_image_as_text(messages)
    only_text = package.respond(registry, "openai", calls[1:2])
    assert [m["role"] for m in only_text] == ["tool"]  # no extra message when there is no media


def test_openai_responses_gets_input_image_and_input_file(package: ModuleType) -> None:
    from openai.types.responses import ResponseInputParam
    from pydantic import TypeAdapter

    registry = package.Registry(implementations(package))
    items = package.respond(
        registry,
        "openai-responses",
        [
            {
                "type": "function_call",
                "call_id": "c0",
                "name": "chart",
                "arguments": json.dumps(CALL),
            }
        ],
    )
    TypeAdapter(ResponseInputParam).validate_python(items)
    output = items[0]["output"]
    assert [p["type"] for p in output] == ["input_text", "input_image", "input_file", "input_text"]
    assert output[1]["image_url"].endswith(IMAGE_B64)
    assert "[audio: audio/wav" in output[3]["text"] and "left out" in output[3]["text"]
    assert output[3]["text"].endswith("Read the axes before the bars.")
    no_image_as_text(items)


def test_anthropic_gets_image_and_document_blocks_in_the_tool_result(package: ModuleType) -> None:
    from anthropic.types import MessageParam
    from pydantic import TypeAdapter

    registry = package.Registry(implementations(package))
    assistant = {
        "role": "assistant",
        "content": [{"type": "tool_use", "id": "t0", "name": "chart", "input": CALL}],
    }
    answer = package.respond(registry, "anthropic", assistant["content"])
    TypeAdapter(list[MessageParam]).validate_python([assistant, answer])
    blocks = answer["content"][0]["content"]
    assert [b["type"] for b in blocks] == ["text", "image", "document", "text"]
    assert blocks[1]["source"] == {"type": "base64", "media_type": "image/png", "data": IMAGE_B64}
    assert (
        blocks[2]["source"]["media_type"] == "application/pdf"
        and blocks[2]["title"] == "report.pdf"
    )
    no_image_as_text(answer)


def test_gemini_gets_inline_data_parts_in_the_function_response(package: ModuleType) -> None:
    from google.genai import types

    registry = package.Registry(implementations(package))
    answer = package.respond(
        registry, "gemini", [{"function_call": {"id": "g0", "name": "chart", "args": CALL}}]
    )
    content = types.Content.model_validate(answer)  # extra='forbid' at every level
    response = content.parts[0].function_response
    assert response.response["output"] == {"points": 12}
    assert [p.inline_data.mime_type for p in response.parts] == ["image/png", "application/pdf"]
    assert response.parts[0].inline_data.data == png()
    assert "[audio: audio/wav" in response.response["notes"]
    no_image_as_text(answer)


def test_bedrock_gets_image_and_document_blocks(package: ModuleType) -> None:
    from botocore.validate import ParamValidator

    from tests.support.provider_checks import _converse_shape

    registry = package.Registry(implementations(package))
    assistant = {
        "role": "assistant",
        "content": [{"toolUse": {"toolUseId": "b0", "name": "chart", "input": CALL}}],
    }
    answer = package.respond(registry, "bedrock", assistant["content"])
    request = {
        "modelId": "anthropic.claude",
        "messages": [{"role": "user", "content": [{"text": "chart?"}]}, assistant, answer],
    }
    report = ParamValidator().validate(request, _converse_shape())
    assert not report.has_errors(), report.generate_report()
    content = answer["content"][0]["toolResult"]["content"]
    assert [next(iter(b)) for b in content] == ["json", "text", "image", "document", "text"]
    assert content[2]["image"] == {"format": "png", "source": {"bytes": png()}}
    assert (
        content[3]["document"]["name"] == "report pdf" and content[3]["document"]["format"] == "pdf"
    )
    no_image_as_text(answer)


def test_mcp_gets_image_audio_resource_and_link_content(package: ModuleType) -> None:
    import mcp.types

    registry = package.Registry(implementations(package))
    reply = package.respond(
        registry,
        "mcp",
        {
            "jsonrpc": "2.0",
            "id": 1,
            "method": "tools/call",
            "params": {"name": "chart", "arguments": CALL},
        },
    )
    result = mcp.types.CallToolResult.model_validate(reply["result"])
    kinds = [c.type for c in result.content]
    assert kinds == ["text", "image", "resource", "audio", "resource_link", "text"]
    assert result.content[1].data == IMAGE_B64 and result.content[1].mime_type == "image/png"
    assert result.structured_content == {"points": 12}
    assert result.content[4].uri == "https://example.org/data.csv"
    no_image_as_text(reply)


def test_a_failure_never_carries_content(package: ModuleType) -> None:
    registry = package.Registry(implementations(package))
    for provider, calls in [
        ("anthropic", [{"type": "tool_use", "id": "t0", "name": "chart", "input": {}}]),
        (
            "openai",
            [{"id": "c0", "type": "function", "function": {"name": "chart", "arguments": "{}"}}],
        ),
    ]:
        answer = package.respond(registry, provider, calls)
        assert "title" in json.dumps(answer) and "image" not in json.dumps(answer)


@pytest.mark.parametrize(
    "provider", ["openai", "openai-responses", "anthropic", "gemini", "bedrock", "mcp"]
)
def test_what_lint_says_each_provider_takes_is_what_it_is_sent(
    package: ModuleType, provider: str
) -> None:
    """answers.TAKES (read by the content-left-out rule) against the answers themselves."""
    from toolgen.runtime.providers.answers import TAKES

    blocks = {
        "image": package.Image.of(png()),
        "document": package.Document.of(PDF, name="r.pdf"),
        "audio": package.Audio.of(WAV),
    }
    registry = package.Registry(implementations(package))
    calls = {
        "openai": [
            {
                "id": "c0",
                "type": "function",
                "function": {"name": "chart", "arguments": json.dumps(CALL)},
            }
        ],
        "openai-responses": [
            {
                "type": "function_call",
                "call_id": "c0",
                "name": "chart",
                "arguments": json.dumps(CALL),
            }
        ],
        "anthropic": [{"type": "tool_use", "id": "t0", "name": "chart", "input": CALL}],
        "gemini": [{"function_call": {"id": "g0", "name": "chart", "args": CALL}}],
        "bedrock": [{"toolUse": {"toolUseId": "b0", "name": "chart", "input": CALL}}],
        "mcp": {"name": "chart", "arguments": CALL},
    }[provider]
    for kind, block in blocks.items():
        registry = package.Registry(implementations(package, [block]))
        answer = package.respond(registry, provider, calls)
        left_out = "left out" in json.dumps(answer, default=str)
        assert left_out == (kind not in TAKES[provider]), (provider, kind)


def test_lint_warns_of_a_kind_some_providers_leave_out(tmp_path: Path) -> None:
    from click.testing import CliRunner

    from toolgen.cli import main

    (tmp_path / "t.yaml").write_text(
        "name: speak\ndescription: Speaks.\ncontent: [image, audio]\n", "utf-8"
    )
    done = CliRunner().invoke(main, ["lint", "--specs", str(tmp_path)])
    assert done.exit_code == 0, done.output
    lines = [line for line in done.output.splitlines() if "content-left-out" in line]
    assert len(lines) == 1 and "t.yaml:3:18: warning[content-left-out]: audio content" in lines[0]
    assert "openai-responses, anthropic, gemini, bedrock" in lines[0]
    (tmp_path / "t.yaml").write_text(
        "name: speak\ndescription: Speaks.\ncontent: [video]\n", "utf-8"
    )
    assert CliRunner().invoke(main, ["lint", "--specs", str(tmp_path)]).exit_code == 1
