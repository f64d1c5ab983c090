"""schema/walk.py: `nodes` and `located` list the subschemas `walk` yields, in the same order;
`rebuild` is `transform` without pointers."""

from __future__ import annotations

from typing import Any

from toolgen.schema.walk import located, nodes, rebuild, transform, walk

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


def test_located_is_walk_as_a_list() -> None:
    walked = list(walk(SCHEMA, "/parameters"))
    found = located(SCHEMA, "/parameters")
    assert [p for p, _ in found] == [p for p, _ in walked]
    assert [id(n) for _, n in found] == [id(n) for _, n in walked]
    assert "/parameters/properties/a~1b/items/anyOf/2" in [p for p, _ in found]
    assert located(True) == [] and located([{"type": "string"}]) == []


def test_rebuild_is_transform_without_pointers() -> None:
    seen: list[str] = []

    def tagged(node: dict[str, Any], path: str) -> dict[str, Any]:
        seen.append(path)
        return {**node, "tag": len(node)}

    def root(node: dict[str, Any]) -> dict[str, Any]:
        return {**node, "root": True}

    expected = transform(SCHEMA, lambda node, path: tagged(node, path) if path else root(node))
    assert rebuild(SCHEMA, lambda node: {**node, "tag": len(node)}, root=root) == expected
    assert len(seen) == 10  # the boolean subschema is not a node
    assert rebuild(True, root) is True


def test_rebuild_copies_a_leaf_root() -> None:
    leaf = {"type": "string"}
    out = rebuild(leaf, lambda node: node)
    assert out == leaf and out is not leaf
