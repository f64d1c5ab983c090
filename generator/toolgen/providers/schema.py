"""JSON Schema helpers shared by the exporters: walking, references, nullability.

Schemas here are the IR's bundled schemas: every `$ref` is `#/$defs/<Name>` into the
root's own `$defs`. Nothing is mutated: every function returns new dicts.
"""

from __future__ import annotations

import json
from typing import Any

from toolgen.providers.memo import memoised_by_identity
from toolgen.schema.keywords import DATA_KEYWORDS, SCHEMA_LISTS, SCHEMA_MAPS, SCHEMA_VALUES
from toolgen.schema.pointer import ref_name
from toolgen.schema.walk import SUBSCHEMA_KEYWORDS, Node, nodes


def public(schema: Any) -> Any:
    """The schema a provider sees: toolgen's own `x-` keywords and `$schema` removed."""
    if isinstance(schema, list):
        return [public(s) for s in schema]
    if not isinstance(schema, dict):
        return schema
    return {
        k: (public(v) if isinstance(v, (dict, list)) and k not in DATA_KEYWORDS else v)
        for k, v in schema.items()
        if not k.startswith("x-") and k != "$schema"
    }


def references(schema: Any) -> set[str]:
    """Names of the definitions a schema refers to directly (not through other definitions)."""
    found = set()
    for node in nodes(
        {k: v for k, v in schema.items() if k != "$defs"} if isinstance(schema, dict) else schema
    ):
        if isinstance(node.get("$ref"), str):
            found.add(ref_name(node["$ref"]))
    return found


def reachable(schema: Node) -> list[str]:
    """The definitions the body of `schema` uses, directly or through other definitions, in `$defs` order."""
    defs = schema.get("$defs") or {}
    seen: set[str] = set()
    stack = list(references(schema))
    while stack:
        name = stack.pop()
        if name in seen or name not in defs:
            continue
        seen.add(name)
        stack.extend(references(defs[name]))
    return [name for name in defs if name in seen]


def recursive(schema: Node) -> set[str]:
    """Definitions that reach themselves through `$ref`."""
    defs = schema.get("$defs") or {}
    edges = {name: references(body) for name, body in defs.items()}
    out = set()
    for start in edges:
        seen: set[str] = set()
        stack = list(edges[start])
        while stack:
            name = stack.pop()
            if name == start:
                out.add(start)
                break
            if name not in seen:
                seen.add(name)
                stack.extend(edges.get(name, ()))
    return out


def prune_defs(schema: Node) -> Node:
    """Drop the definitions nothing uses any more (and `$defs` itself when empty)."""
    if "$defs" not in schema:
        return schema
    used = reachable(schema)
    out = {k: v for k, v in schema.items() if k != "$defs"}
    if used:
        out["$defs"] = {name: schema["$defs"][name] for name in used}
    return out


@memoised_by_identity
def defs_free(schema: Any) -> bool:
    """Whether no `$defs` key is anywhere in `schema`, data included: then the expansions of
    references (`inline_refs`, Gemini's unrolling) have nothing to replace and nothing to
    drop, and every variant that expands the same lowering asks once."""
    return not _mentions_defs(schema)


def _mentions_defs(value: Any) -> bool:
    if isinstance(value, dict):
        if "$defs" in value:
            return True
        values: Any = value.values()
    elif isinstance(value, list):
        values = value
    else:
        return False
    return any(_mentions_defs(v) for v in values if isinstance(v, (dict, list)))


def accepts_null(schema: Any, defs: Node, seen: frozenset[str] = frozenset()) -> bool:
    """Whether null is a valid instance (the spec made it nullable, as opposed to optional)."""
    if not isinstance(schema, dict):
        return schema is True
    if isinstance(schema.get("$ref"), str):
        name = ref_name(schema["$ref"])
        if name in seen or not accepts_null(defs.get(name), defs, seen | {name}):
            return False
    kind = schema.get("type")
    if kind is not None and "null" not in (kind if isinstance(kind, list) else [kind]):
        return False
    if "enum" in schema and None not in schema["enum"]:
        return False
    if "const" in schema and schema["const"] is not None:
        return False
    for key in ("anyOf", "oneOf"):
        if isinstance(schema.get(key), list) and not any(
            accepts_null(s, defs, seen) for s in schema[key]
        ):
            return False
    if isinstance(schema.get("allOf"), list) and not all(
        accepts_null(s, defs, seen) for s in schema["allOf"]
    ):
        return False
    return True


def is_any(schema: Any) -> bool:
    """A schema that says nothing about its instances' type (`{}`, `true`, only annotations)."""
    if schema is True:
        return True
    if not isinstance(schema, dict):
        return False
    return _TYPING.isdisjoint(schema)


_TYPING = frozenset(
    {"type", "enum", "const", "$ref", "anyOf", "oneOf", "allOf", "properties", "items"}
)


# One encoder for every `compact` (`json.dumps` with options builds an encoder a call).
_COMPACT = json.JSONEncoder(ensure_ascii=False, separators=(", ", ": ")).encode


def compact(value: Any, limit: int = 300) -> str:
    """A JSON value as short text for a description."""
    # An integer (most moved values: bounds, lengths) is its digits, as the encoder writes it.
    text = int.__repr__(value) if type(value) is int else _COMPACT(value)
    return text if len(text) <= limit else text[: limit - 1] + "…"


def types_of(schema: Node) -> list[str]:
    kind = schema.get("type")
    if isinstance(kind, list):
        return [t for t in kind if isinstance(t, str)]
    return [kind] if isinstance(kind, str) else []


NOTHING: Node = {"not": {}}  # the `false` schema, where a target takes only objects
# Where `true`/`false` is the idiomatic value of a keyword rather than a subschema to write out
# (`items: true` is written `{}`: a target's arrays have item schemas).
BOOLEAN_KEYWORDS = frozenset(
    {"additionalProperties", "unevaluatedProperties", "unevaluatedItems", "items"}
)


def without_booleans(schema: Any) -> Any:
    """Boolean subschemas written as objects, meaning the same: `true` as `{}`; `false` dropped
    where that says the same (an `anyOf` branch, a property of a closed object, an `allOf`
    branch `true`), else `{"not": {}}`. Only `additionalProperties`, `unevaluated*` and
    `items` keep their booleans (every target takes `additionalProperties: false`)."""
    if schema is True:
        return {}
    if schema is False:
        return dict(NOTHING)
    if not isinstance(schema, dict):
        return schema
    out: Node = {}
    for key, value in schema.items():
        if (
            key in DATA_KEYWORDS
            or key in BOOLEAN_KEYWORDS
            and isinstance(value, bool)
            and not (key == "items" and value)
        ):
            out[key] = value
        elif key in ("anyOf", "oneOf") and isinstance(value, list):
            kept = [without_booleans(v) for v in value if v is not False]
            out[key] = kept or [dict(NOTHING)]
        elif key == "allOf" and isinstance(value, list):
            if any(v is False for v in value):
                return {**{k: v for k, v in schema.items() if k != "allOf"}, **NOTHING}
            kept = [without_booleans(v) for v in value if v is not True]
            if kept:
                out[key] = kept
        elif key == "not" and value is False:
            continue  # `not false` holds for every value
        elif key in (
            "properties",
            "patternProperties",
            "$defs",
            "definitions",
            "dependentSchemas",
        ) and isinstance(value, dict):
            closed = key == "properties" and schema.get("additionalProperties") is False
            listed = schema.get("required")
            required: list[Any] = listed if isinstance(listed, list) else []
            out[key] = {
                name: without_booleans(sub)
                for name, sub in value.items()
                if not (closed and sub is False and name not in required)
            }
        elif key in ("prefixItems",) and isinstance(value, list):
            out[key] = [without_booleans(v) for v in value]
        elif key in (
            "items",
            "additionalProperties",
            "unevaluatedProperties",
            "unevaluatedItems",
            "contains",
            "propertyNames",
            "not",
            "if",
            "then",
            "else",
            "contentSchema",
            "additionalItems",
        ):
            out[key] = without_booleans(value)
        else:
            out[key] = value
    return out


def rewrites_booleans(node: Node) -> bool:
    """Whether `without_booleans` rewrites a subschema right below `node` (a boolean it writes
    as an object or drops); a node with no boolean subschema it copies as it is."""
    if SUBSCHEMA_KEYWORDS.isdisjoint(node):
        return False
    for key, value in node.items():
        if isinstance(value, bool):
            if key in SCHEMA_VALUES and not (
                key in BOOLEAN_KEYWORDS and not (key == "items" and value)
            ):
                return True
        elif key in SCHEMA_MAPS and isinstance(value, dict):
            if any(isinstance(sub, bool) for sub in value.values()):
                return True
        elif key in SCHEMA_LISTS and isinstance(value, list):
            if any(isinstance(sub, bool) for sub in value):
                return True
    return False


def admits_nothing(schema: Any) -> bool:
    """`false`, or `{"not": {}}`."""
    return schema is False or isinstance(schema, dict) and schema.get("not") in ({}, True)
