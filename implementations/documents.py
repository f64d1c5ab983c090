"""What read_file makes of a file that is not text: an image the model sees, or a PDF as the
text of each page followed by the images the page draws, in the order it draws them.

PDFs are read with pypdf (the `pdf` extra), imported only when a PDF is read: a host without
it gets the declared `unavailable` error. Images inside a PDF are sent as they are stored when
they are JPEG (DCTDecode), and as PNG when they are 8-bit grey or RGB pixels (FlateDecode or
none), encoded here with zlib; other encodings (JBIG2, CCITT, JPEG 2000, indexed colours) are
counted as left out. No image library is needed.
"""

from __future__ import annotations

import struct
import zlib
from dataclasses import dataclass, field
from typing import Any

from toolgen_builtin import Image, Text, ToolError

IMAGE_TYPES = {"image/png", "image/jpeg", "image/gif", "image/webp"}


@dataclass
class Pages:
    """The pages of a PDF read, as content blocks in reading order."""

    total: int
    first: int
    last: int
    blocks: list[Any] = field(default_factory=list)
    text: list[str] = field(default_factory=list)  # each page's text, for the result's `content`
    images_left_out: int = 0


def read_pdf(data: bytes, path: str, first: int, last: int | None, max_images: int) -> Pages:
    """Pages `first` to `last` (1-based, inclusive; None: the last page) of the PDF `data`."""
    try:
        import pypdf
        from pypdf.errors import PdfReadError
    except ImportError:
        raise ToolError(
            "unavailable",
            "reading PDFs needs the pypdf package, which the host does not have "
            "(pip install pypdf)",
        ) from None
    import io

    try:
        reader = pypdf.PdfReader(io.BytesIO(data))
        if reader.is_encrypted:
            raise ToolError("not_readable", f"{path} is an encrypted PDF")
        total = len(reader.pages)
    except PdfReadError as exc:
        raise ToolError("not_readable", f"{path} is not a readable PDF: {exc}") from None
    end = total if last is None else min(last, total)
    pages = Pages(total, first, max(end, first - 1))
    for number in range(first, end + 1):
        page = reader.pages[number - 1]
        try:
            text = page.extract_text() or ""
        except Exception as exc:  # noqa: BLE001 - pypdf raises many kinds on broken pages
            text = f"(the text of this page could not be read: {type(exc).__name__})"
        pages.text.append(text)
        pages.blocks.append(Text(f"--- page {number} of {total} ---\n{text}".rstrip()))
        drawn = _images_of(page)
        for image in drawn[:max_images]:
            if image is None:
                pages.images_left_out += 1
            else:
                pages.blocks.append(image)
        pages.images_left_out += max(0, len(drawn) - max_images)
    return pages


def _images_of(page: Any) -> list[Image | None]:
    """The images a page draws, in the order it draws them (None: one that cannot be sent)."""
    from pypdf.generic import ContentStream

    resources = page.get("/Resources") or {}
    objects = resources.get("/XObject") or {}
    contents = page.get_contents()
    if contents is None or not objects:
        return []
    drawn: list[Image | None] = []
    seen: set[str] = set()
    for operands, operator in ContentStream(contents, page.pdf).operations:
        if operator != b"Do" or not operands:
            continue
        name = str(operands[0])
        xobject = objects.get(name)
        if xobject is None or name in seen:
            continue
        xobject = xobject.get_object()
        if xobject.get("/Subtype") != "/Image":
            continue
        seen.add(name)
        drawn.append(_image(xobject))
    return drawn


def _image(xobject: Any) -> Image | None:
    filters = xobject.get("/Filter")
    filters = (
        [str(f) for f in filters]
        if isinstance(filters, list)
        else [str(filters)]
        if filters
        else []
    )
    try:
        if filters == ["/DCTDecode"]:
            return Image.of(xobject.get_data())  # a JPEG: pypdf passes DCTDecode data through
        if filters in ([], ["/FlateDecode"]):
            return _png(xobject)
    except ValueError:  # too large, or bytes that are no image
        return None
    return None


def _png(xobject: Any) -> Image | None:
    """8-bit grey or RGB pixels as a PNG (what PNG calls colour types 0 and 2)."""
    width, height = int(xobject["/Width"]), int(xobject["/Height"])
    bits = int(xobject.get("/BitsPerComponent", 8))
    space = str(xobject.get("/ColorSpace"))
    channels = {"/DeviceGray": 1, "/DeviceRGB": 3}.get(space)
    if channels is None or bits != 8 or "/DecodeParms" in xobject:
        return None
    pixels = xobject.get_data()
    stride = width * channels
    if len(pixels) < stride * height:
        return None
    rows = b"".join(b"\x00" + pixels[i * stride : (i + 1) * stride] for i in range(height))

    def chunk(kind: bytes, body: bytes) -> bytes:
        return (
            struct.pack(">I", len(body)) + kind + body + struct.pack(">I", zlib.crc32(kind + body))
        )

    header = struct.pack(">IIBBBBB", width, height, 8, 0 if channels == 1 else 2, 0, 0, 0)
    png = (
        b"\x89PNG\r\n\x1a\n"
        + chunk(b"IHDR", header)
        + chunk(b"IDAT", zlib.compress(rows))
        + chunk(b"IEND", b"")
    )
    return Image.of(png)
