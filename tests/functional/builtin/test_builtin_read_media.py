"""read_file on what is not text: an image comes back as an image block the model sees, a PDF
as each page's text followed by the images the page draws (page ranges, a cap on images per
page), and without the PDF library, the declared `unavailable` error."""

from __future__ import annotations

import json
import struct
import sys
import zlib
from pathlib import Path
from typing import Any

import pytest

import toolgen_builtin
from implementations import registry
from tests.support import builtin_support  # noqa: F401 - puts generated/ and the repository on sys.path


def png(width: int = 3, height: int = 2) -> bytes:
    def chunk(kind: bytes, data: bytes) -> bytes:
        return (
            struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))
        )

    rows = b"".join(b"\x00" + b"\x10\x20\x30" * width for _ in range(height))
    header = struct.pack(">IIBBBBB", width, height, 8, 2, 0, 0, 0)
    return (
        b"\x89PNG\r\n\x1a\n"
        + chunk(b"IHDR", header)
        + chunk(b"IDAT", zlib.compress(rows))
        + chunk(b"IEND", b"")
    )


def pdf(pages: list[tuple[str, int]]) -> bytes:
    """A PDF made here: each page shows a line of text and draws `n` small RGB images."""
    objects: list[bytes] = []

    def add(body: bytes) -> int:
        objects.append(body)
        return len(objects)

    font = add(b"<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>")
    page_ids = []
    pages_id = (
        len(objects) + 1 + sum(2 + n for _, n in pages)
    )  # the Pages object comes last but one
    for number, (text, count) in enumerate(pages):
        images = []
        for i in range(count):
            pixels = zlib.compress(bytes([number, i, 120]) * 4)  # its page and place, as its colour
            images.append(
                add(
                    b"<< /Type /XObject /Subtype /Image /Width 2 /Height 2 /ColorSpace /DeviceRGB "
                    b"/BitsPerComponent 8 /Filter /FlateDecode /Length %d >>\nstream\n"
                    % len(pixels)
                    + pixels
                    + b"\nendstream"
                )
            )
        draw = b"".join(
            b"q 20 0 0 20 %d 600 cm /Im%d Do Q " % (72 + 30 * i, i) for i in range(count)
        )
        stream = b"BT /F1 12 Tf 72 720 Td (" + text.encode() + b") Tj ET " + draw
        content = add(b"<< /Length %d >>\nstream\n" % len(stream) + stream + b"\nendstream")
        xobjects = b" ".join(b"/Im%d %d 0 R" % (i, obj) for i, obj in enumerate(images))
        page_ids.append(
            add(
                b"<< /Type /Page /Parent %d 0 R /MediaBox [0 0 612 792] /Contents %d 0 R "
                b"/Resources << /Font << /F1 %d 0 R >> /XObject << %s >> >> >>"
                % (pages_id, content, font, xobjects)
            )
        )
    kids = b" ".join(b"%d 0 R" % p for p in page_ids)
    assert add(b"<< /Type /Pages /Kids [%s] /Count %d >>" % (kids, len(page_ids))) == pages_id
    catalog = add(b"<< /Type /Catalog /Pages %d 0 R >>" % pages_id)
    out = bytearray(b"%PDF-1.4\n")
    offsets = []
    for number, body in enumerate(objects, 1):
        offsets.append(len(out))
        out += b"%d 0 obj\n" % number + body + b"\nendobj\n"
    xref = len(out)
    out += b"xref\n0 %d\n0000000000 65535 f \n" % (len(objects) + 1)
    out += b"".join(b"%010d 00000 n \n" % offset for offset in offsets)
    out += b"trailer\n<< /Size %d /Root %d 0 R >>\nstartxref\n%d\n%%%%EOF\n" % (
        len(objects) + 1,
        catalog,
        xref,
    )
    return bytes(out)


def first_pixel(data: bytes) -> tuple[int, ...]:
    """The first pixel of an RGB PNG (as the ones read_file makes: one IDAT, no filter)."""
    length = struct.unpack(">I", data[33:37])[0]
    rows = zlib.decompress(data[41 : 41 + length])
    return tuple(rows[1:4])


@pytest.fixture
def tools(tmp_path: Path) -> Any:
    (tmp_path / "chart.png").write_bytes(png())
    (tmp_path / "report.pdf").write_bytes(
        pdf([("Hello page one", 1), ("Second page", 3), ("Third", 0)])
    )
    (tmp_path / "broken.pdf").write_bytes(b"%PDF-1.4\nthis is no PDF")
    (tmp_path / "data.bin").write_bytes(bytes(range(256)))
    return registry(tmp_path)


def test_an_image_comes_back_as_an_image_block(tools: Any) -> None:
    result = tools.call("read_file", {"path": "chart.png"})
    assert result.ok and result.data()["type"] == "image" and result.data()["total_lines"] == 0
    [image] = result.content
    assert (image.kind, image.mime_type, image.data) == ("image", "image/png", png())
    answer = toolgen_builtin.respond(
        tools,
        "anthropic",
        [{"type": "tool_use", "id": "t", "name": "read_file", "input": {"path": "chart.png"}}],
    )
    blocks = answer["content"][0]["content"]
    assert [b["type"] for b in blocks] == [
        "text",
        "image",
    ]  # the model sees it, never reads its base64


def test_a_pdf_gives_each_pages_text_then_its_images_in_order(tools: Any) -> None:
    result = tools.call("read_file", {"path": "report.pdf"})
    assert result.ok, result.text()
    data = result.data()
    assert (data["type"], data["start_line"], data["end_line"], data["total_lines"]) == (
        "pdf",
        1,
        3,
        3,
    )
    kinds = [b.kind for b in result.content]
    assert kinds == ["text", "image", "text", "image", "image", "image", "text"]
    assert "Hello page one" in result.content[0].text and "page 1 of 3" in result.content[0].text
    assert "Second page" in result.content[2].text
    assert all(b.mime_type == "image/png" for b in result.content if b.kind == "image")
    # Each image is its page's own, in the order the page draws it.
    assert [first_pixel(b.data) for b in result.content if b.kind == "image"] == [
        (0, 0, 120),
        (1, 0, 120),
        (1, 1, 120),
        (1, 2, 120),
    ]


def test_pages_are_chosen_and_images_capped(tools: Any) -> None:
    result = tools.call(
        "read_file",
        {"path": "report.pdf", "start_line": 2, "end_line": 2, "max_images_per_page": 1},
    )
    assert result.ok and [b.kind for b in result.content] == ["text", "image"]
    assert (result.data()["start_line"], result.data()["end_line"]) == (2, 2)
    assert "2 image(s) were left out" in result.data()["content"]
    text_only = tools.call("read_file", {"path": "report.pdf", "max_images_per_page": 0})
    assert [b.kind for b in text_only.content] == ["text", "text", "text"]
    past_the_end = tools.call("read_file", {"path": "report.pdf", "start_line": 9})
    assert (
        past_the_end.ok
        and past_the_end.content == ()
        and "no page" in past_the_end.data()["content"]
    )


def test_what_cannot_be_read_is_a_declared_error(
    tools: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    broken = tools.call("read_file", {"path": "broken.pdf"})
    assert broken.failure.kind == "not_readable"
    assert tools.call("read_file", {"path": "data.bin"}).failure.kind == "not_text"
    monkeypatch.setitem(sys.modules, "pypdf", None)  # a host without the PDF library
    missing = tools.call("read_file", {"path": "report.pdf"})
    assert missing.failure.kind == "unavailable" and "pip install pypdf" in missing.failure.message
    assert (
        json.loads(tools.call("read_file", {"path": "chart.png"}).text().split("\n\n")[0])["type"]
        == "image"
    )


def test_an_image_larger_than_a_model_takes_is_too_large(tmp_path: Path) -> None:
    from implementations import Workspace

    (tmp_path / "huge.png").write_bytes(png() + bytes(4_000_000))  # a PNG, past the image limit
    roomy = registry(Workspace(tmp_path, max_read_bytes=5_000_000))
    result = roomy.call("read_file", {"path": "huge.png"})
    assert result.failure.kind == "too_large" and "at most 3,750,000" in result.failure.message
