"""What a 50 KB PNG returned by a tool costs each provider: as text, or as image content.

A tool that returns an image inside its JSON result (base64 in a string, what a tool without
content blocks has to do) makes the model read every character of it. Returned as a content
block, each provider gets it as its own image input (runtime/providers/answers.py), and the model's text
is only the result and a short reference. For each provider this prints the bytes of text in
the answer (what the model reads as tokens) and the bytes of image data (what it sees), with
both ways of returning the same image, and an estimate of the tokens each costs:

- text: 1 token per 3 characters of base64 (tokenizers cut base64 finely; English runs near 4);
- an image: the providers' published rates for its size (Anthropic and Bedrock's Claude:
  width x height / 750; OpenAI: 85 + 170 per 512-pixel tile at high detail; Gemini: 258 for
  an image no larger than 384 pixels a side).

Run: `python benchmarks/content.py [--size 50000]`. The image is noise (PNG cannot compress it),
made here at the size asked.
"""

from __future__ import annotations

import argparse
import base64
import json
import math
import random
import struct
import sys
import zlib
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "generator"))

from pydantic import RootModel  # noqa: E402

from toolgen.runtime.providers import answers  # noqa: E402
from toolgen.runtime.results.content import Image  # noqa: E402
from toolgen.runtime.results.result import ToolResult  # noqa: E402

PROVIDERS = ("openai", "openai-responses", "anthropic", "gemini", "bedrock", "mcp")
# Strings under these keys are names and ids, not what the model reads; MCP's
# structuredContent is for the client (the model reads the same value in `content`).
NOT_READ = (
    "type",
    "role",
    "tool_call_id",
    "call_id",
    "id",
    "name",
    "tool_use_id",
    "toolUseId",
    "status",
    "mime_type",
    "mimeType",
    "media_type",
    "structuredContent",
)


def noise_png(target: int) -> tuple[bytes, int]:
    """A PNG of random RGB pixels, about `target` bytes, and its side in pixels."""
    side = max(8, int(math.sqrt(target / 3)))
    rng = random.Random(7)
    rows = b"".join(b"\x00" + rng.randbytes(side * 3) for _ in range(side))

    def chunk(kind: bytes, data: bytes) -> bytes:
        return (
            struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))
        )

    header = struct.pack(">IIBBBBB", side, side, 8, 2, 0, 0, 0)
    data = (
        b"\x89PNG\r\n\x1a\n"
        + chunk(b"IHDR", header)
        + chunk(b"IDAT", zlib.compress(rows, 9))
        + chunk(b"IEND", b"")
    )
    return data, side


def measure(answer: Any, key: str | None = None) -> tuple[int, int]:
    """(bytes of text the model reads, bytes of image data it sees) in one answer: every
    string but names and ids, and every image part whole (its JSON, bytes as base64)."""
    text = media = 0
    if isinstance(answer, dict):
        if (
            answer.get("type") in ("image", "input_image", "image_url")
            or "inline_data" in answer
            or "image" in answer
        ):
            return 0, len(json.dumps(answer, default=lambda b: base64.b64encode(b).decode()))
        for k, v in answer.items():
            if k in NOT_READ:
                continue
            t, m = measure(v, k)
            text, media = text + t, media + m
    elif isinstance(answer, list):
        for v in answer:
            t, m = measure(v, key)
            text, media = text + t, media + m
    elif isinstance(answer, str):
        text = len(answer.encode())
    return text, media


def image_tokens(provider: str, side: int) -> int:
    if provider in ("anthropic", "bedrock", "mcp"):
        return math.ceil(side * side / 750)
    if provider == "gemini":
        return 258 if side <= 384 else 258 * math.ceil(side / 768) ** 2
    return 85 + 170 * math.ceil(side / 512) ** 2


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--size", type=int, default=50_000, help="bytes of PNG to return")
    size = parser.parse_args().size
    data, side = noise_png(size)
    image = Image.of(data)
    as_text = ToolResult("chart", RootModel[Any]({"chart": image.data_url()}))
    as_content = ToolResult("chart", RootModel[Any]({"points": 12}), content=(image,))
    call = answers.Call("c0", "chart", {})
    print(f"A {len(data):,}-byte PNG ({side}x{side} pixels), returned by one tool call.\n")
    print(
        "| provider | in the JSON result: text read | as content: text read | image data sent | "
        "tokens, as text | tokens, as content |"
    )
    print("|---|---:|---:|---:|---:|---:|")
    for provider in PROVIDERS:
        answer = getattr(answers, provider.replace("openai-responses", "responses"))
        text_only = answer(call, as_text)
        shown = answer(call, as_content)
        extra = answers.openai_content([(call, as_content)]) if provider == "openai" else []
        read_as_text, _ = measure(text_only)
        read, media = measure([shown, *extra])
        tokens_text = math.ceil(read_as_text / 3)
        tokens_content = math.ceil(read / 3) + image_tokens(provider, side)
        print(
            f"| {provider} | {read_as_text:,} B | {read:,} B | {media:,} B | {tokens_text:,} | {tokens_content:,} |"
        )


if __name__ == "__main__":
    main()
