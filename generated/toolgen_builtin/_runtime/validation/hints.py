# Part of toolgen's runtime, copied verbatim into generated packages (edit toolgen, not a copy).
"""The concrete fix for a value of the wrong type: `"5"` for an integer -> send 5."""

from __future__ import annotations

import json
import re
from typing import Any

from ..errors import preview
from .shape import Node

_NUMBER = re.compile(r"-?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)?")
_FITS = {
    "string": (str,),
    "integer": (int,),
    "number": (int, float),
    "boolean": (bool,),
    "object": (dict,),
    "map": (dict,),
}


def type_hint(raw: Any, node: Node) -> str | None:
    members = node.members
    kinds = {m.kind for m in members}
    if isinstance(raw, str):
        return _from_string(raw.strip(), kinds) if len(raw) <= 10_000 else None
    if isinstance(raw, bool):
        return f'send "{json.dumps(raw)}" in quotes' if "string" in kinds else None
    if isinstance(raw, (int, float)):
        if "string" in kinds:
            return f'send "{preview(raw)}" in quotes'
        if "integer" in kinds and isinstance(raw, float):
            return "send a whole number"
        if "boolean" in kinds and raw in (0, 1):
            return "send true or false"
    for member in members:  # one value where a list belongs
        if member.kind == "array" and raw is not None and not isinstance(raw, list):
            item = member.child(0)
            if item is not None and _fits(raw, item):
                return f"send a list: [{preview(raw, 40)}]"
    if isinstance(raw, list) and len(raw) == 1 and any(_fits(raw[0], m) for m in members):
        return f"send the value itself, not a list: {preview(raw[0], 40)}"
    return None


def _from_string(text: str, kinds: set[str]) -> str | None:
    if kinds & {"integer", "number"} and len(text) <= 300 and _NUMBER.fullmatch(text):
        number = json.loads(text)
        if "number" in kinds or isinstance(number, int) or number.is_integer():
            shown = text if "number" in kinds or isinstance(number, int) else str(int(number))
            return f"send {shown} without quotes"
        return "send a whole number without quotes"
    if "boolean" in kinds and text.lower() in ("true", "false"):
        return f"send {text.lower()} without quotes"
    if "null" in kinds and text.lower() in ("null", "none"):
        return "send null without quotes"
    opener = text[:1]
    if (opener == "{" and kinds & {"object", "map"}) or (opener == "[" and "array" in kinds):
        try:
            parsed = json.loads(text)
        except ValueError:
            return None
        what = "object" if isinstance(parsed, dict) else "array"
        return f"send the {what} itself, not a string holding its JSON"
    return None


def _fits(value: Any, node: Node) -> bool:
    if node.kind == "any":
        return True
    if node.kind == "enum":
        return any(type(value) is type(v) and value == v for v in node.values)
    kinds = _FITS.get(node.kind)
    return (
        kinds is not None
        and isinstance(value, kinds)
        and not (isinstance(value, bool) and bool not in kinds)
    )
