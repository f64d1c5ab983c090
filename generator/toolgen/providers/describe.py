"""Keywords a target cannot take, written into the description where a model still reads them."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from toolgen.providers.schema import compact
from toolgen.schema.walk import Node

PHRASES: dict[str, Callable[[Any], str]] = {
    "minimum": lambda v: f"at least {compact(v)}",
    "maximum": lambda v: f"at most {compact(v)}",
    "exclusiveMinimum": lambda v: f"greater than {compact(v)}",
    "exclusiveMaximum": lambda v: f"less than {compact(v)}",
    "multipleOf": lambda v: f"a multiple of {compact(v)}",
    "minLength": lambda v: f"at least {compact(v)} character{'' if v == 1 else 's'}",
    "maxLength": lambda v: f"at most {compact(v)} character{'' if v == 1 else 's'}",
    "pattern": lambda v: f"matches the regular expression {compact(v)}",
    "format": lambda v: f"format {compact(v)}",
    "minItems": lambda v: f"at least {compact(v)} item{'' if v == 1 else 's'}",
    "maxItems": lambda v: f"at most {compact(v)} item{'' if v == 1 else 's'}",
    "uniqueItems": lambda v: "items are unique" if v else "items may repeat",
    "minProperties": lambda v: f"at least {compact(v)} key{'' if v == 1 else 's'}",
    "maxProperties": lambda v: f"at most {compact(v)} key{'' if v == 1 else 's'}",
    "default": lambda v: f"default {compact(v)}",
    "examples": lambda v: f"examples {compact(v)}",
    "example": lambda v: f"example {compact(v)}",
    "prefixItems": lambda v: f"items in this order: {compact(v)}",
    "enum": lambda v: f"one of {compact(v)}",
    "additionalProperties": lambda v: f"values: {compact(v)}",
}


def describe(node: Node, moved: dict[str, Any]) -> Node:
    """`node` with the moved keywords written at the end of its description."""
    if not moved:
        return node
    said = []
    for key, value in moved.items():
        phrase = PHRASES.get(key)
        said.append(phrase(value) if phrase is not None else f"{key}: {compact(value)}")
    phrases = "; ".join(said)
    text = node.get("description")
    out = dict(node)
    out["description"] = (
        f"{text}\n\n({phrases})" if isinstance(text, str) and text else f"({phrases})"
    )
    return out
