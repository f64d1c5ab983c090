"""JSON pointers (RFC 6901): the one escaping rule."""

from __future__ import annotations

from typing import Any


def escape(token: str | int) -> str:
    """One reference token: `~` -> `~0`, `/` -> `~1`."""
    if type(token) is not str:  # noqa: E721 - an index, or a str subclass
        token = str(token)
    if "~" in token or "/" in token:  # rare: most names need no escaping, and this is a hot path
        return token.replace("~", "~0").replace("/", "~1")
    return token


def unescape(token: str) -> str:
    return token.replace("~1", "/").replace("~0", "~")


def child(pointer: str, token: str | int) -> str:
    """`pointer` extended by one token."""
    return f"{pointer}/{escape(token)}"


def ref_name(ref: str) -> str:
    """The definition name of a local `#/$defs/<name>` reference."""
    return unescape(ref.removeprefix("#/$defs/"))


def resolve(root: Any, pointer: str) -> Any:
    """The value at `pointer` inside `root` (None when there is none)."""
    node = root
    for token in pointer.split("/")[1:]:
        key = unescape(token)
        if isinstance(node, list) and key.isdigit() and int(key) < len(node):
            node = node[int(key)]
        elif isinstance(node, dict) and key in node:
            node = node[key]
        else:
            return None
    return node
