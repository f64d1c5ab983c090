"""schema/walk.py: `nodes` lists the subschemas `walk` yields, in the same order."""

from __future__ import annotations

from typing import Any

from toolgen.schema.walk import nodes, walk

SCHEMA: dict[str, Any] = {
    "type": "object",
    "properties": {
        "a/b": {"type": "array", "items": {"anyOf": [{"type": "string"}, True, {"const": 1}]}},
        "c": {"additionalProperties": {"type": "integer"}, "not": {"enum": [1]}},
        "d": False,
    },
    "$defs": {"x": {"prefixItems": [{"minimum": 0}]}},
    "enum": [{"properties": {"data": {}}}],  # data: never walked
    "if": {"required": ["a/b"]},
}


def test_nodes_are_walks_subschemas_in_order_without_pointers() -> None:
    walked = [node for _, node in walk(SCHEMA)]
    assert [id(n) for n in nodes(SCHEMA)] == [id(n) for n in walked]
    assert len(walked) == 11
    assert nodes(True) == [] and nodes([{"type": "string"}]) == []
