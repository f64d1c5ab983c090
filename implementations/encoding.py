"""A response body's Content-Encoding, decoded as it is read, never past the size limit.

The web tools advertise what they decode (`ACCEPT_ENCODING`: gzip and deflate, which the
standard library's zlib reads) and decode what a server sends in them, whether asked or
not: the output is produced a bounded piece at a time (`feed(data, room)` returns at most
`room + 1` bytes), so a small body that expands a thousandfold stops at the limit like any
long body. Any other coding (br, zstd, compress, codings stacked) and compressed data that
is broken fail with ToolError(`bad_encoding`), never as bytes decoded as text.
"""

from __future__ import annotations

import zlib

from toolgen_builtin import ToolError

ACCEPT_ENCODING = "gzip, deflate"
_GZIP_MAGIC = b"\x1f\x8b"


def codings(header: str | None) -> list[str]:
    """The codings a Content-Encoding header lists, in order, lower case, `identity` left out."""
    found = [part.strip().lower() for part in (header or "").split(",")]
    return [coding for coding in found if coding and coding != "identity"]


class Decoder:
    """One body's decoder: gzip (members one after another) or deflate (zlib-wrapped, as the
    standard says, or raw, as some servers send it)."""

    def __init__(self, coding: str) -> None:
        self.gzip = coding in ("gzip", "x-gzip")
        self._stream: zlib._Decompress | None = None
        self._started = False
        self._ended = False  # the stream's end was read (what follows it is ignored)

    @classmethod
    def of(cls, header: str | None) -> Decoder | None:
        """The decoder a Content-Encoding header asks for; None when the body is not encoded."""
        listed = codings(header)
        if not listed:
            return None
        if len(listed) == 1 and listed[0] in ("gzip", "x-gzip", "deflate"):
            return cls(listed[0])
        raise ToolError(
            "bad_encoding",
            f"the server sent the body encoded as {', '.join(listed)}; "
            f"only {ACCEPT_ENCODING} (one of them) can be decoded",
        )

    def _open(self, data: bytes) -> zlib._Decompress:
        if self.gzip:
            return zlib.decompressobj(16 + zlib.MAX_WBITS)
        zlib_header = len(data) >= 2 and data[0] & 0x0F == 8 and (data[0] << 8 | data[1]) % 31 == 0
        return zlib.decompressobj(zlib.MAX_WBITS if zlib_header else -zlib.MAX_WBITS)

    def feed(self, data: bytes, room: int) -> bytes:
        """The decoded bytes of `data` (what came next of the body), at most `room + 1` of them:
        one more than fits tells the caller the body goes on past the limit."""
        out = bytearray()
        try:
            while data and not self._ended and len(out) <= room:
                if self._stream is None:
                    if self._started and not (self.gzip and data.startswith(_GZIP_MAGIC)):
                        self._ended = True  # bytes after the last member: not part of the body
                        break
                    self._stream, self._started = self._open(data), True
                out += self._stream.decompress(data, room + 1 - len(out))
                if self._stream.eof:
                    data, self._stream = self._stream.unused_data, None
                    self._ended = not self.gzip
                else:
                    data = self._stream.unconsumed_tail  # left only when the output is full
        except zlib.error as exc:
            raise ToolError("bad_encoding", f"the compressed body is broken: {exc}") from None
        return bytes(out)

    def finish(self) -> None:
        """At the body's end: ToolError(bad_encoding) when the compressed data stopped midway."""
        if self._stream is not None:
            raise ToolError("bad_encoding", "the compressed body ended before the end of its data")
