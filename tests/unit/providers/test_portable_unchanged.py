"""providers/portable.py: a rewrite with nothing to rewrite in a schema returns the schema itself
(so that the memos of the rewrites after it are shared), and rewrites it otherwise; the portable
lowering skips the steps that would copy a schema as it is."""

from __future__ import annotations

from typing import Any

import pytest

from toolgen.providers import portable as portable_module
from toolgen.providers.portable import inline_refs, type_arrays_to_any_of, typed_enums
from toolgen.providers.schema import defs_free, rewrites_booleans

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


def test_type_arrays_to_any_of_and_typed_enums_return_a_schema_without_either_as_it_is() -> None:
    assert type_arrays_to_any_of(PLAIN) is PLAIN
    assert typed_enums(PLAIN) is PLAIN
    arrays = {"type": "object", "properties": {"a": {"type": ["string", "null"]}}}
    assert type_arrays_to_any_of(arrays)["properties"]["a"] == {
        "anyOf": [{"type": "string"}, {"type": "null"}]
    }
    untyped = {"type": "object", "properties": {"a": {"enum": ["x", 1]}}}
    assert typed_enums(untyped)["properties"]["a"] == {
        "anyOf": [{"type": "string", "enum": ["x"]}, {"type": "integer", "enum": [1]}]
    }


SCHEMAS: list[dict[str, Any]] = [
    PLAIN,
    DEFINED,
    {"type": "object", "properties": {"a": {"type": "array", "items": True}}},
    {"type": "object", "properties": {"a": {"type": "array", "items": False}}},
    {"type": "object", "properties": {"a": {"anyOf": [{"type": "string"}, False]}}},
    {"type": "object", "properties": {"a": {"not": False}, "b": False}, "required": ["b"]},
    {"type": "object", "properties": {"a": {"oneOf": [{"type": "string"}]}}},
    {"type": "object", "properties": {"a": {"const": 1}}, "additionalProperties": False},
    {"type": "object", "properties": {"a": {"allOf": [{"minimum": 1}, {"maximum": 2}]}}},
    {"type": "object", "properties": {"a": {"prefixItems": [{"type": "string"}]}}},
    {"anyOf": [{"properties": {"a": {"type": "string"}}}]},
]


@pytest.mark.parametrize("schema", SCHEMAS)
def test_portable_takes_its_shortcut_only_where_the_full_lowering_says_the_same(
    schema: dict[str, Any], monkeypatch: pytest.MonkeyPatch
) -> None:
    short = portable_module._portable(schema)
    monkeypatch.setattr(portable_module, "_settled", lambda schema: False)
    assert short == portable_module._portable(schema)


def test_rewrites_booleans_names_what_without_booleans_rewrites() -> None:
    assert not rewrites_booleans({"type": "array", "items": False})
    assert not rewrites_booleans({"type": "object", "additionalProperties": True})
    assert rewrites_booleans({"type": "array", "items": True})
    assert rewrites_booleans({"not": False})
    assert rewrites_booleans({"properties": {"a": True}})
    assert rewrites_booleans({"anyOf": [{"type": "string"}, False]})
    assert not rewrites_booleans({"type": "string", "deprecated": True})
