# Part of toolgen's runtime, copied verbatim into generated packages (edit toolgen, not a copy).
"""JSON Pointer (RFC 6901) reference tokens: the one escaping rule, `~` as `~0` and `/` as
`~1`. A leaf: the runtime's exact check and test support use it, and so does the generator
(toolgen.schema.pointer builds its pointers on it)."""

from __future__ import annotations


def escape(token: str | int) -> str:
    """One reference token: `~` -> `~0`, `/` -> `~1` (an index as its digits)."""
    if type(token) is not str:  # noqa: E721 - an index, or a str subclass
        token = str(token)
    if "~" in token or "/" in token:  # rare: most names need no escaping, and this is a hot path
        return token.replace("~", "~0").replace("/", "~1")
    return token


def unescape(token: str) -> str:
    """One reference token as the key it names (`~1` first, so `~01` is `~1`, not `/`)."""
    return token.replace("~1", "/").replace("~0", "~")


def tokens(pointer: str) -> list[str]:
    """The keys of a pointer (`""` is the whole document: no keys), unescaped."""
    return [unescape(token) for token in pointer.split("/")[1:]]
