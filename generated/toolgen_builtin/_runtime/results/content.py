# Part of toolgen's runtime, copied verbatim into generated packages (edit toolgen, not a copy).
"""Content a model should see rather than read: images, audio, documents, text and links.

A tool whose spec declares `content: [image, ...]` may return blocks beside its result
(`Output(result, content=[Image.of("chart.png")])`); the adapters render each block the way
its provider takes it (an image as image input, never as base64 text). Blocks keep their order.

Each block holds one source, normalised: `Image.of(source)` takes a local path, bytes or a
`data:` URL, reads it once, and keeps the bytes with the MIME type their first bytes show (a
PNG named `.jpg` is a PNG; bytes that are no image of a known kind are refused). Sizes are
bounded by `LIMITS` (the smallest a provider accepts, so that every provider takes what was
made): a block past its limit is a ValueError where it is made, which the registry reports
as the tool's internal failure.
"""

from __future__ import annotations

import base64
import binascii
import mimetypes
import os
from dataclasses import dataclass
from pathlib import Path
from typing import Any, ClassVar

from .. import kinds

# Largest block of each kind, in bytes: Bedrock's Converse takes images up to 3.75 MB and
# documents up to 4.5 MB; Anthropic 5 MB images; OpenAI 20 MB audio.
LIMITS = {kinds.IMAGE: 3_750_000, kinds.AUDIO: 20_000_000, kinds.DOCUMENT: 4_500_000}

Source = bytes | str | os.PathLike[str]


def sniff(data: bytes) -> str | None:
    """The MIME type the first bytes of `data` show, for the formats providers take."""
    if data.startswith(b"\x89PNG\r\n\x1a\n"):
        return "image/png"
    if data.startswith(b"\xff\xd8\xff"):
        return "image/jpeg"
    if data.startswith((b"GIF87a", b"GIF89a")):
        return "image/gif"
    if data[:4] == b"RIFF" and data[8:12] == b"WEBP":
        return "image/webp"
    if data[:4] == b"RIFF" and data[8:12] == b"WAVE":
        return "audio/wav"
    if data.startswith(b"ID3") or data[:2] in (b"\xff\xfb", b"\xff\xf3", b"\xff\xf2"):
        return "audio/mpeg"
    if data.startswith(b"OggS"):
        return "audio/ogg"
    if data.startswith(b"fLaC"):
        return "audio/flac"
    if data.startswith(b"%PDF-"):
        return "application/pdf"
    return None


def _read(source: Source) -> tuple[bytes, str | None]:
    """(the bytes of one source, the MIME type a data URL declares)."""
    if isinstance(source, (bytes, bytearray, memoryview)):
        return bytes(source), None
    if isinstance(source, str) and source.startswith("data:"):
        header, comma, payload = source.partition(",")
        if not comma or not header.endswith(";base64"):
            raise ValueError("a data URL here is base64: data:<type>;base64,<data>")
        try:
            return base64.b64decode(payload, validate=True), header[5:-7] or None
        except binascii.Error as exc:
            raise ValueError(f"the data URL's base64 is broken: {exc}") from None
    if isinstance(source, (str, os.PathLike)):
        return Path(source).read_bytes(), None
    raise TypeError(f"a content source is a path, bytes or a data URL, not {type(source).__name__}")


class _Binary:
    """A block of bytes with a MIME type of its kind, checked when made."""

    kind: ClassVar[str]
    types: ClassVar[tuple[str, ...]]
    data: bytes
    mime_type: str

    def _check(self) -> None:
        if not isinstance(self.data, bytes):
            raise TypeError(f"{self.kind} data is bytes, not {type(self.data).__name__}")
        if self.mime_type not in self.types:
            raise ValueError(
                f"{self.kind} content is one of {', '.join(self.types)}, not {self.mime_type!r}"
            )
        if len(self.data) > LIMITS[self.kind]:
            raise ValueError(
                f"{self.kind} content is at most {LIMITS[self.kind]:,} bytes, "
                f"not {len(self.data):,}"
            )

    @classmethod
    def _load(cls, source: Source, mime_type: str | None) -> tuple[bytes, str]:
        data, declared = _read(source)
        if declared is None and isinstance(source, (str, os.PathLike)):
            declared = mimetypes.guess_type(os.fspath(source))[0]  # by its name, if no bytes tell
        found = mime_type or sniff(data) or declared
        if found is None:
            raise ValueError(
                f"cannot tell what kind of {cls.kind} this is: its bytes are none of "
                f"{', '.join(cls.types)}"
            )
        return data, found

    def base64(self) -> str:
        return base64.b64encode(self.data).decode("ascii")

    def data_url(self) -> str:
        return f"data:{self.mime_type};base64,{self.base64()}"

    def as_json(self) -> dict[str, Any]:
        return {"type": self.kind, "mime_type": self.mime_type, "data": self.base64()}

    def shown(self) -> str:
        """How text that cannot carry it refers to it."""
        return f"[{self.kind}: {self.mime_type}, {len(self.data):,} bytes]"


@dataclass(frozen=True)
class Text:
    """Text the model reads, in its place among the other blocks."""

    text: str
    kind: ClassVar[str] = "text"

    def as_json(self) -> dict[str, Any]:
        return {"type": "text", "text": self.text}

    def shown(self) -> str:
        return self.text


@dataclass(frozen=True)
class Image(_Binary):
    """A PNG, JPEG, GIF or WebP image."""

    data: bytes
    mime_type: str
    kind: ClassVar[str] = "image"
    types: ClassVar[tuple[str, ...]] = ("image/png", "image/jpeg", "image/gif", "image/webp")

    def __post_init__(self) -> None:
        self._check()

    @classmethod
    def of(cls, source: Source, mime_type: str | None = None) -> Image:
        """From a path, bytes or a data URL; the MIME type from the bytes unless given."""
        return cls(*cls._load(source, mime_type))


@dataclass(frozen=True)
class Audio(_Binary):
    """A WAV, MP3, Ogg or FLAC recording."""

    data: bytes
    mime_type: str
    kind: ClassVar[str] = "audio"
    types: ClassVar[tuple[str, ...]] = ("audio/wav", "audio/mpeg", "audio/ogg", "audio/flac")

    def __post_init__(self) -> None:
        self._check()

    @classmethod
    def of(cls, source: Source, mime_type: str | None = None) -> Audio:
        return cls(*cls._load(source, mime_type))


@dataclass(frozen=True)
class Document(_Binary):
    """A PDF, or plain text as a document (`name`: what the model may call it)."""

    data: bytes
    mime_type: str
    name: str = "document"
    kind: ClassVar[str] = "document"
    types: ClassVar[tuple[str, ...]] = ("application/pdf", "text/plain")

    def __post_init__(self) -> None:
        self._check()

    @classmethod
    def of(cls, source: Source, mime_type: str | None = None, name: str | None = None) -> Document:
        data, found = cls._load(source, mime_type)
        if name is None:
            is_path = isinstance(source, os.PathLike) or (
                isinstance(source, str) and not source.startswith("data:")
            )
            name = Path(source).name if is_path else "document"  # type: ignore[arg-type]
        return cls(data, found, name)

    def as_json(self) -> dict[str, Any]:
        return {**super().as_json(), "name": self.name}


@dataclass(frozen=True)
class ResourceLink:
    """A link to something the model (or its client) may fetch: a URI, not its content."""

    uri: str
    name: str
    mime_type: str | None = None
    description: str | None = None
    kind: ClassVar[str] = "resource_link"

    def as_json(self) -> dict[str, Any]:
        out = {"type": "resource_link", "uri": self.uri, "name": self.name}
        if self.mime_type:
            out["mime_type"] = self.mime_type
        if self.description:
            out["description"] = self.description
        return out

    def shown(self) -> str:
        about = f": {self.description}" if self.description else ""
        return f"[{self.name}]({self.uri}){about}"


Block = Text | Image | Audio | Document | ResourceLink
BLOCKS = (Text, Image, Audio, Document, ResourceLink)


def block_kind(block: object) -> str | None:
    """The kind of a content block (of this runtime or another package's copy), else None."""
    kind = getattr(type(block), "kind", None)
    if type(block).__name__ in ("Text", "Image", "Audio", "Document", "ResourceLink"):
        return kind if isinstance(kind, str) else None
    return None
