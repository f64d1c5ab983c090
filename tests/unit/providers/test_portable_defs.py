"""providers/portable.py: the expansions of references skip a schema with no `$defs` anywhere."""

from __future__ import annotations

from typing import Any

from toolgen.providers.portable import defs_free, inline_refs

PLAIN: dict[str, Any] = {
    "type": "object",
    "properties": {"a": {"type": "string"}, "b": {"items": {"$ref": "#/$defs/missing"}}},
}
DEFINED: dict[str, Any] = {
    "type": "object",
    "properties": {"a": {"$ref": "#/$defs/A"}},
    "$defs": {"A": {"type": "integer"}},
}
# `$defs` below the root, where neither a walk of subschemas nor the root would show it.
HIDDEN: dict[str, Any] = {"type": "object", "x": [{"y": {"$defs": {}}}]}


def test_defs_free_looks_everywhere() -> None:
    assert defs_free(PLAIN)
    assert not defs_free(DEFINED)
    assert not defs_free(HIDDEN)
    assert not defs_free({"properties": {"$defs": {"type": "string"}}})


def test_inline_refs_returns_a_schema_without_definitions_as_it_is() -> None:
    assert inline_refs(PLAIN, keep_recursive=False) is PLAIN
    assert inline_refs(DEFINED, keep_recursive=False) == {
        "type": "object",
        "properties": {"a": {"type": "integer"}},
    }
    assert inline_refs(HIDDEN, keep_recursive=False) == {"type": "object", "x": [{"y": {}}]}
