"""Every keyword of JSON Schema 2020-12 an exporter drops is named in a lint note of that provider.

One schema uses every keyword (each on a property of its own, and the combinators again at
the root); for each variant of each provider, a keyword the emitted definition no longer
has, and no equivalent of it (`oneOf` as `anyOf`, `const` as `enum`), must be named by a
note of that export: a `provider-lossy` "does not take", a root merge, or a fallback's reason.
"""

from __future__ import annotations

from typing import Any

import pytest

from tests.support import provider_checks as checks
from tests.unit.providers.test_providers import tool
from toolgen.providers import PROVIDERS, export, variants
from toolgen.schema.walk import walk

# keyword -> a property schema that uses it
EVERY_KEYWORD: dict[str, dict[str, Any]] = {
    "type": {"type": "string"},
    "enum": {"enum": ["a", "b"]},
    "const": {"const": "c"},
    "multipleOf": {"type": "number", "multipleOf": 0.5},
    "maximum": {"type": "number", "maximum": 9},
    "exclusiveMaximum": {"type": "number", "exclusiveMaximum": 9},
    "minimum": {"type": "number", "minimum": 1},
    "exclusiveMinimum": {"type": "number", "exclusiveMinimum": 1},
    "maxLength": {"type": "string", "maxLength": 9},
    "minLength": {"type": "string", "minLength": 2},
    "pattern": {"type": "string", "pattern": "^[a-z]+$"},
    "format": {"type": "string", "format": "ipv4"},
    "maxItems": {"type": "array", "items": {"type": "string"}, "maxItems": 3},
    "minItems": {"type": "array", "items": {"type": "string"}, "minItems": 2},
    "uniqueItems": {"type": "array", "items": {"type": "string"}, "uniqueItems": True},
    "contains": {"type": "array", "items": {"type": "string"}, "contains": {"const": "x"}},
    "maxContains": {
        "type": "array",
        "items": {"type": "string"},
        "contains": {"const": "x"},
        "maxContains": 2,
    },
    "minContains": {
        "type": "array",
        "items": {"type": "string"},
        "contains": {"const": "x"},
        "minContains": 2,
    },
    "prefixItems": {"type": "array", "prefixItems": [{"type": "string"}, {"type": "integer"}]},
    "items": {"type": "array", "items": {"type": "integer"}},
    "unevaluatedItems": {
        "type": "array",
        "prefixItems": [{"type": "string"}],
        "unevaluatedItems": False,
    },
    "properties": {"type": "object", "properties": {"x": {"type": "string"}}},
    "required": {"type": "object", "properties": {"x": {"type": "string"}}, "required": ["x"]},
    "maxProperties": {
        "type": "object",
        "properties": {"x": {"type": "string"}},
        "maxProperties": 1,
    },
    "minProperties": {
        "type": "object",
        "properties": {"x": {"type": "string"}},
        "minProperties": 1,
    },
    "dependentRequired": {
        "type": "object",
        "properties": {"x": {"type": "string"}, "y": {"type": "string"}},
        "dependentRequired": {"x": ["y"]},
    },
    "dependentSchemas": {
        "type": "object",
        "properties": {"x": {"type": "string"}, "y": {"type": "string"}},
        "dependentSchemas": {"x": {"required": ["y"]}},
    },
    "patternProperties": {"type": "object", "patternProperties": {"^s_": {"type": "string"}}},
    "additionalProperties": {"type": "object", "additionalProperties": {"type": "integer"}},
    "propertyNames": {
        "type": "object",
        "additionalProperties": {"type": "string"},
        "propertyNames": {"maxLength": 5},
    },
    "unevaluatedProperties": {
        "type": "object",
        "properties": {"x": {"type": "string"}},
        "allOf": [{"properties": {"y": {"type": "string"}}}],
        "unevaluatedProperties": False,
    },
    "allOf": {"allOf": [{"type": "string"}, {"minLength": 1}]},
    "anyOf": {"anyOf": [{"type": "string"}, {"type": "integer"}]},
    "oneOf": {"oneOf": [{"type": "string"}, {"type": "integer"}]},
    "not": {"type": "string", "not": {"const": "no"}},
    "if": {
        "type": "string",
        "if": {"minLength": 3},
        "then": {"pattern": "^a"},
        "else": {"pattern": "^b"},
    },
    "contentEncoding": {"type": "string", "contentEncoding": "base64"},
    "contentMediaType": {"type": "string", "contentMediaType": "application/json"},
    "contentSchema": {
        "type": "string",
        "contentMediaType": "application/json",
        "contentSchema": {"type": "object"},
    },
    "default": {"type": "string", "default": "d"},
    "examples": {"type": "string", "examples": ["e"]},
    "deprecated": {"type": "string", "deprecated": True},
    "readOnly": {"type": "string", "readOnly": True},
    "writeOnly": {"type": "string", "writeOnly": True},
    "title": {"type": "string", "title": "T"},
    "description": {"type": "string", "description": "D"},
    "$comment": {"type": "string", "$comment": "C"},
    "$ref": {"$ref": "#/$defs/Named"},
}
SAME = {"oneOf": "anyOf", "const": "enum"}
# Annotations only (a target writes them into the description): nothing for a model to satisfy.
ANNOTATIONS = {
    "title",
    "description",
    "default",
    "examples",
    "$comment",
    "deprecated",
    "readOnly",
    "writeOnly",
    "contentEncoding",
    "contentMediaType",
    "$defs",
    "$ref",
    "allOf",
    "additionalProperties",
}


def every_keyword() -> dict[str, Any]:
    return {
        "type": "object",
        "properties": {f"k_{i}": schema for i, schema in enumerate(EVERY_KEYWORD.values())},
        "$defs": {"Named": {"type": "string", "minLength": 1}},
    }


def keywords(schema: Any) -> set[str]:
    return {key for _, node in walk(schema) for key in node}


def schema_of(provider: str, definition: dict[str, Any]) -> Any:
    for path in (
        ("function", "parameters"),
        ("parameters",),
        ("input_schema",),
        ("parametersJsonSchema",),
        ("inputSchema",),
        ("toolSpec", "inputSchema", "json"),
    ):
        node: Any = definition
        for key in path:
            node = node.get(key) if isinstance(node, dict) else None
        if node is not None:
            return node
    raise AssertionError(f"no schema in {provider} definition")


def test_the_schema_uses_every_keyword() -> None:
    assert keywords(every_keyword()) >= set(EVERY_KEYWORD) | {"then", "else", "$defs"}


@pytest.mark.parametrize(
    ("provider", "option"), [(p, o) for p in PROVIDERS for o in variants(p)], ids=lambda x: str(x)
)
def test_every_dropped_keyword_is_named_in_a_note(provider: str, option: dict[str, Any]) -> None:
    view = tool("every_keyword", every_keyword())
    result = export(provider, [view], **option)
    (definition,) = result.definitions
    assert checks.check(provider, definition) == []
    emitted = keywords(schema_of(provider, definition))
    said = " ".join(note.message for note in result.notes)
    dropped = sorted(
        k
        for k in keywords(view.parameters) - emitted - ANNOTATIONS
        if not (k in SAME and SAME[k] in emitted)
    )
    unsaid = [k for k in dropped if f"`{k}`" not in said]
    assert unsaid == [], f"{provider} {option} drops {unsaid} without a note; notes: {said}"


def test_root_combinators_are_named_for_every_provider_but_mcp() -> None:
    parameters = {
        "type": "object",
        "properties": {"a": {"type": "string"}, "b": {"type": "integer"}},
        "oneOf": [{"required": ["a"]}, {"required": ["b"]}],
    }
    view = tool("root", parameters)
    for provider in PROVIDERS:
        for option in variants(provider):
            result = export(provider, [view], **option)
            (definition,) = result.definitions
            assert checks.check(provider, definition) == []
            merged = [n for n in result.notes if n.rule == "provider-root-merged"]
            if provider == "mcp":
                assert merged == [] and "oneOf" in schema_of(provider, definition)
            else:
                assert [n.message for n in merged] == [
                    "the oneOf at the root is merged into one object; the model is not told that exactly one of a, "
                    "b is required"
                ], (provider, option)
