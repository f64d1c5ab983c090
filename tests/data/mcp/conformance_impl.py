"""Implementations of the MCP conformance suite's test tools (specs in specs/), and of two
tools of the end-to-end tests (approval, streaming and cancellation), served by the package
toolgen generates from them: `python -m conformance_tools serve --registry
conformance_impl:registry` (`headers_app`: the same, with the user injected from an HTTP
header). COUNT_MARKS, when set, is a file where count_slowly writes how
its call ended (the tests read it to see that a cancelled call was cancelled)."""

from __future__ import annotations

import asyncio
import logging
import os
import struct
import zlib
from collections.abc import AsyncIterator
from typing import Any

import conformance_tools as pkg
from conformance_tools import Document, Image, Output, Progress, Suspend, Text, ToolError, resumed
from conformance_tools.server import http_app, mcp_server, sample
from conformance_tools.tools import (
    add_numbers,
    count_slowly,
    export_notes,
    json_schema_2020_12_tool,
    remove_note,
    test_audio_content,
    test_elicitation,
    test_embedded_resource,
    test_error_handling,
    test_image_content,
    test_multiple_content_types,
    test_sampling,
    test_simple_text,
    test_tool_with_logging,
    test_tool_with_progress,
    whoami,
)

LOG = logging.getLogger("conformance_impl")


def png() -> bytes:
    """A one-pixel red PNG."""

    def chunk(kind: bytes, data: bytes) -> bytes:
        body = kind + data
        return struct.pack(">I", len(data)) + body + struct.pack(">I", zlib.crc32(body))

    header = struct.pack(">IIBBBBB", 1, 1, 8, 2, 0, 0, 0)
    pixels = zlib.compress(b"\x00\xff\x00\x00")
    return (
        b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", header) + chunk(b"IDAT", pixels) + chunk(b"IEND", b"")
    )


def wav() -> bytes:
    """A tenth of a second of silence, 8 kHz mono 16-bit."""
    samples = b"\x00\x00" * 800
    fmt = struct.pack("<HHIIHH", 1, 1, 8000, 16000, 2, 16)
    body = (
        b"WAVE"
        + b"fmt "
        + struct.pack("<I", len(fmt))
        + fmt
        + b"data"
        + struct.pack("<I", len(samples))
        + samples
    )
    return b"RIFF" + struct.pack("<I", len(body)) + body


class SimpleText(test_simple_text.TestSimpleTextTool):
    def run(self, arguments: Any) -> Any:
        return Output(None, content=[Text("This is a simple text response for testing.")])


class ImageContent(test_image_content.TestImageContentTool):
    def run(self, arguments: Any) -> Any:
        return Output(None, content=[Image.of(png())])


class AudioContent(test_audio_content.TestAudioContentTool):
    def run(self, arguments: Any) -> Any:
        return Output(None, content=[pkg.Audio.of(wav())])


class EmbeddedResource(test_embedded_resource.TestEmbeddedResourceTool):
    def run(self, arguments: Any) -> Any:
        text = b"This is an embedded resource content."
        return Output(None, content=[Document(text, "text/plain", "embedded-resource")])


class MultipleContentTypes(test_multiple_content_types.TestMultipleContentTypesTool):
    def run(self, arguments: Any) -> Any:
        data = b'{"test":"data","value":123}'
        blocks = [
            Text("Multiple content types test:"),
            Image.of(png()),
            Document(data, "text/plain", "mixed-content-resource"),
        ]
        return Output(None, content=blocks)


class WithLogging(test_tool_with_logging.TestToolWithLoggingTool):
    async def run(self, arguments: Any) -> Any:
        LOG.info("Tool execution started")
        await asyncio.sleep(0.05)
        LOG.info("Tool processing data")
        await asyncio.sleep(0.05)
        LOG.info("Tool execution completed")
        return "Logged three lines."


class ErrorHandling(test_error_handling.TestErrorHandlingTool):
    def run(self, arguments: Any) -> Any:
        raise ToolError("always_fails", "This tool intentionally returns an error for testing")


class WithProgress(test_tool_with_progress.TestToolWithProgressTool):
    async def run(self, arguments: Any) -> AsyncIterator[Any]:
        for done in (0, 50, 100):
            yield Progress(done, 100)
            await asyncio.sleep(0.05)
        yield "Done in three steps."


class Sampling(test_sampling.TestSamplingTool):
    async def run(self, arguments: Any) -> Any:
        answer = await sample(arguments.prompt, max_tokens=100)
        if answer is None:
            raise ToolError("unavailable", "the client offers no sampling")
        return f"LLM response: {answer}"


class Elicitation(test_elicitation.TestElicitationTool):
    def run(self, arguments: Any) -> Any:
        answered = resumed()
        if answered is None:
            raise Suspend(arguments.message)
        return f"User response: {answered.answer!r}"


class JsonSchemaTool(json_schema_2020_12_tool.JsonSchema202012Tool):
    def run(self, arguments: Any) -> Any:
        return f"Hello, {arguments.name or 'nobody'}."


class AddNumbers(add_numbers.AddNumbersTool):
    def run(self, arguments: Any) -> Any:
        return Output(arguments.a + arguments.b, metadata="Exact for integers; floats may round.")


class RemoveNote(remove_note.RemoveNoteTool):
    def run(self, arguments: Any) -> Any:
        return {"removed": arguments.id}


class CountSlowly(count_slowly.CountSlowlyTool):
    async def run(self, arguments: Any) -> AsyncIterator[Any]:
        marks = os.environ.get("COUNT_MARKS")
        try:
            for step in range(1, arguments.to + 1):
                yield pkg.Chunk(f"{step} ")
                await asyncio.sleep(0.1)
        except asyncio.CancelledError:
            if marks:
                with open(marks, "a", encoding="utf-8") as out:
                    out.write("cancelled\n")
            raise
        yield {"counted": arguments.to}


class ExportNotes(export_notes.ExportNotesTool):
    async def run(self, arguments: Any) -> AsyncIterator[Any]:
        LOG.info("exporting")
        for done in (1, 2):
            yield Progress(done, 2, f"note {done} of 2")
        yield {"exported": 2}


class Whoami(whoami.WhoamiTool):
    def run(self, arguments: Any, injected: Any) -> Any:
        return {"user": injected.user}


registry = pkg.build_registry(
    SimpleText(),
    ImageContent(),
    AudioContent(),
    EmbeddedResource(),
    MultipleContentTypes(),
    WithLogging(),
    ErrorHandling(),
    WithProgress(),
    Sampling(),
    Elicitation(),
    JsonSchemaTool(),
    AddNumbers(),
    RemoveNote(),
    CountSlowly(),
    Whoami(),
    ExportNotes(),
)


def headers_app() -> Any:
    """The HTTP app of a host that injects the caller named by its `X-User` header."""
    server = mcp_server(
        registry,
        name="conformance_tools",
        inject=lambda tool, headers: {"user": headers.get("x-user", "nobody")},
    )
    return http_app(server)
