"""The one table of JSON Schema 2020-12 keywords: where subschemas live, what is data.

Every walk over a schema (lint rules, lowering, exporters, strategies, importers) reads
these tables, so they cannot disagree on where a subschema is.
"""

from __future__ import annotations

# A map whose values are subschemas (its keys are names, never keywords).
SCHEMA_MAPS = frozenset(
    {"properties", "patternProperties", "$defs", "definitions", "dependentSchemas"}
)
# A list of subschemas.
SCHEMA_LISTS = frozenset({"allOf", "anyOf", "oneOf", "prefixItems"})
# One subschema.
SCHEMA_VALUES = frozenset(
    {
        "items",
        "additionalProperties",
        "additionalItems",
        "unevaluatedItems",
        "unevaluatedProperties",
        "not",
        "contains",
        "propertyNames",
        "if",
        "then",
        "else",
        "contentSchema",
    }
)
# Keywords whose values are instance data, never schemas.
DATA_KEYWORDS = frozenset({"const", "enum", "default", "examples", "example"})
# Subschemas that add conditions to the object around them rather than describe it whole.
PARTIAL = frozenset({"not", "if", "then", "else"})
JSON_TYPES = ("string", "number", "integer", "boolean", "object", "array", "null")
_NUMERIC = frozenset({"minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum", "multipleOf"})
# The keywords that constrain instances of one type only (Draft 2020-12's validation and
# applicator vocabularies): on a value of any other type each is ignored. `format` is listed
# for strings, the only type the formats of the spec format apply to; the content keywords
# only annotate (ANNOTATIONS). Read by whatever splits a schema by type (providers' `type`
# arrays as `anyOf`) or infers a type from a schema without `type` (strategies).
#
# Three tables elsewhere hold subsets of it on purpose, as their own fact, each held to this
# one by tests/unit/core/test_keywords.py: what the typemap enforces exactly
# (schema/exactness.py: no `multipleOf` for floats, whose remainders pydantic rounds), what
# the strategies build rather than filter (render/strategies.py `BUILT`), and which changes
# breaking/constraints.py orders (`COUNTS`, `PRESENCE`).
BY_TYPE: dict[str, frozenset[str]] = {
    "string": frozenset({"minLength", "maxLength", "pattern", "format"}),
    "number": _NUMERIC,
    "integer": _NUMERIC,
    "boolean": frozenset(),
    "null": frozenset(),
    "array": frozenset(
        {
            "items",
            "prefixItems",
            "contains",
            "minContains",
            "maxContains",
            "minItems",
            "maxItems",
            "uniqueItems",
            "unevaluatedItems",
        }
    ),
    "object": frozenset(
        {
            "properties",
            "patternProperties",
            "additionalProperties",
            "propertyNames",
            "required",
            "dependentRequired",
            "dependentSchemas",
            "minProperties",
            "maxProperties",
            "unevaluatedProperties",
        }
    ),
}
# Type names other languages use (lower-cased), and the JSON Schema type each means.
TYPE_ALIASES: dict[str, str] = {
    "dict": "object",
    "map": "object",
    "hashmap": "object",
    "hash": "object",
    "record": "object",
    "struct": "object",
    "mapping": "object",
    "json": "object",
    "str": "string",
    "text": "string",
    "char": "string",
    "character": "string",
    "float": "number",
    "double": "number",
    "decimal": "number",
    "real": "number",
    "float64": "number",
    "float32": "number",
    "numeric": "number",
    "int": "integer",
    "long": "integer",
    "short": "integer",
    "byte": "integer",
    "int32": "integer",
    "int64": "integer",
    "bigint": "integer",
    "biginteger": "integer",
    "bool": "boolean",
    "list": "array",
    "tuple": "array",
    "arraylist": "array",
    "set": "array",
    "sequence": "array",
    "none": "null",
    "nil": "null",
    "nonetype": "null",
}
# Every keyword of Draft 2020-12's vocabularies (core, applicator, unevaluated, validation,
# meta-data, format, content), and draft-07's `definitions`, which `$ref`s still point into.
KEYWORDS = frozenset(
    """$schema $id $ref $defs $anchor $dynamicRef $dynamicAnchor $vocabulary $comment definitions
    type enum const multipleOf maximum exclusiveMaximum minimum exclusiveMinimum maxLength
    minLength pattern maxItems minItems uniqueItems maxContains minContains maxProperties
    minProperties required dependentRequired properties patternProperties additionalProperties
    propertyNames items prefixItems contains unevaluatedItems unevaluatedProperties allOf anyOf
    oneOf not if then else dependentSchemas format contentEncoding contentMediaType contentSchema
    title description default deprecated readOnly writeOnly examples""".split()
)
# The allow-list: keywords of other dialects that only annotate, so no validator needs to
# read them (docs/spec-format.md): OpenAPI's singular `example`, Gemini's `propertyOrdering`.
ALLOWED_KEYWORDS = frozenset({"example", "propertyOrdering"})
# toolgen's own `x-` keywords (docs/spec-format.md): their values are checked by the spec
# format (spec/schema.json, `extensions`); providers never see them (providers/schema.py).
TOOLGEN_KEYWORDS = frozenset({"x-coerce", "x-repair", "x-secret", "x-sunset", "x-renamed-from"})
# Keywords that only annotate: nothing to enforce.
ANNOTATIONS = frozenset(
    {
        "$comment",
        "readOnly",
        "writeOnly",
        "contentMediaType",
        "contentEncoding",
        "$anchor",
        "deprecated",
        "propertyOrdering",
        "nullable",
    }
)
