"""JSON pointers (RFC 6901) in the generator: the escaping rule is the runtime's
(runtime/pointer.py, which generated packages carry), pointers are built and read here."""

from __future__ import annotations

from typing import Any

from toolgen.runtime.pointer import escape, unescape

__all__ = ["child", "escape", "ref_name", "resolve", "unescape"]


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
