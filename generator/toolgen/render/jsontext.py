"""The JSON files of a package (`definitions/<provider>.json`, `definitions/search.json`) as
text: one definition (or tool) a line, written compact by pydantic-core's encoder."""

from __future__ import annotations

import json
import re
from typing import Any

from pydantic_core import PydanticSerializationError, to_json

SURROGATE = re.compile("[\ud800-\udfff]")


# The C encoder (no indent), made once: `json.dumps` with options builds an encoder a call.
# Exports are trees (no value holds itself), so the encoder skips its check for cycles. It
# writes the lines the runtime's facade looks for as `json.dumps` writes them (the head, a
# variant's options) and a line pydantic-core refuses (a lone surrogate).
_dump = json.JSONEncoder(ensure_ascii=False, separators=(", ", ": "), check_circular=False).encode


def _line(value: Any) -> str:
    """One definition (or tool) as compact JSON, by pydantic-core's encoder: about three
    times the speed of the C encoder above (13 MB of definitions at 1,000 tools: 0.05
    against 0.13-0.2 s of CPU). Its numbers are the shortest that read back the same (`1e-7`
    where `json` writes `1e-07`); non-finite numbers are `Infinity` and `NaN`, as `json`
    writes them."""
    try:
        return to_json(value, inf_nan_mode="constants").decode("utf-8")
    except PydanticSerializationError:  # a lone surrogate, which UTF-8 cannot encode
        return _dump(value)


def json_text(document: dict[str, Any]) -> str:
    """A definitions document as JSON with one definition a line, compact (pretty-printing is
    pure Python and cost seconds at 1,000 tools), so that diffs stay readable.
    Non-ASCII is kept; lone surrogates, which JSON strings may carry but UTF-8 cannot, stay
    `\\uXXXX` escapes. The runtime's facade reads one variant alone by the line that starts
    it (`{"options": ..., "definitions": [`), and the other keys from the first line."""
    head = {key: value for key, value in document.items() if key != "variants"}
    lines = ["{" + _dump(head)[1:-1] + ', "variants": [']
    variants = document["variants"]
    for i, variant in enumerate(variants):
        lines.append('{"options": ' + _dump(variant["options"]) + ', "definitions": [')
        definitions = variant["definitions"]
        lines.extend(
            _line(d) + ("," if j < len(definitions) - 1 else "") for j, d in enumerate(definitions)
        )
        lines.append("]}" + ("," if i < len(variants) - 1 else ""))
    lines.append("]}")
    return _escaped("\n".join(lines) + "\n")


def index_text(document: dict[str, Any]) -> str:
    """definitions/search.json (render/search_index.py) as definitions are written: its head,
    then one tool a line."""
    head = {key: value for key, value in document.items() if key != "tools"}
    tools = document["tools"]
    lines = ["{" + _dump(head)[1:-1] + ', "tools": [']
    lines.extend(_line(t) + ("," if i < len(tools) - 1 else "") for i, t in enumerate(tools))
    lines.append("]}")
    return _escaped("\n".join(lines) + "\n")


def _escaped(text: str) -> str:
    """Lone surrogates, which JSON strings may carry but UTF-8 cannot, as `\\uXXXX` escapes.
    Whether there is one is asked of C first (ASCII, or UTF-8 that encodes): the pattern
    scans a definitions file at about a fifth of the speed of its encoding."""
    if text.isascii():
        return text
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        return SURROGATE.sub(lambda m: f"\\u{ord(m.group()):04x}", text)
    return text
