"""Strict (grammar-constrained) schemas: OpenAI Structured Outputs and Anthropic strict tool use.

Both raise `Inexpressible` for what their target cannot say (maps, values of any type,
recursion under Anthropic, OpenAI's size limits); the exporter then emits the tool
non-strict and lint says why (rule 7: never a broken strict tool).
"""

from __future__ import annotations

from typing import Any

from toolgen.providers.base import Inexpressible
from toolgen.providers.describe import describe
from toolgen.providers.memo import memoised_by_identity
from toolgen.providers.portable import (
    nullable,
    portable,
    restrict,
    type_arrays_to_any_of,
    typed_enums,
)
from toolgen.providers.schema import admits_nothing, is_any, recursive, types_of
from toolgen.schema.walk import Node, nodes, transform, walk

OPENAI_FORMATS = frozenset(
    {"date-time", "time", "date", "duration", "email", "hostname", "ipv4", "ipv6", "uuid"}
)
OPENAI_KEYWORDS = frozenset(
    """type properties required additionalProperties items anyOf enum $ref $defs description title
    pattern format multipleOf maximum exclusiveMaximum minimum exclusiveMinimum minItems maxItems""".split()
)
ANTHROPIC_FORMATS = frozenset(
    {"date-time", "time", "date", "duration", "email", "hostname", "uri", "ipv4", "ipv6", "uuid"}
)
# OpenAI's documented limits for one strict schema
MAX_PROPERTIES = 5000
MAX_NESTING = 10
MAX_ENUM_VALUES = 1000
MAX_TEXT = 120_000
LONG_ENUM, LONG_ENUM_TEXT = 250, 15_000


def _closed_objects(node: Node, path: str) -> Node:
    """Checks shared by both strict modes, on one node: no value of any type, no maps, no allOf left."""
    if admits_nothing(node):
        raise Inexpressible(path, "a schema no value satisfies (`false`)")
    if is_any(node):
        raise Inexpressible(path, "a value of any type (no `type`)")
    shaped = "properties" in node, "items" in node
    if any(shaped) and not types_of(node) and "enum" not in node and "$ref" not in node:
        # `properties` or `items` without `type`: the model sends that kind of value
        if all(shaped):
            raise Inexpressible(path, "a schema without a `type` (both `properties` and `items`)")
        node = {"type": "object" if shaped[0] else "array", **node}
    if "allOf" in node:
        raise Inexpressible(path, "an `allOf` whose branches cannot be merged into one schema")
    if "$ref" in node and len(node) > 1:
        raise Inexpressible(path, "a `$ref` with constraining siblings")
    kinds = types_of(node)
    if "object" in kinds or "properties" in node:
        extra = node.get("additionalProperties")
        if "patternProperties" in node or extra not in (None, False):
            raise Inexpressible(
                path, "a map (an object with `additionalProperties` or `patternProperties`)"
            )
        if "properties" not in node and extra is not False:
            raise Inexpressible(path, "an object without declared properties (any keys)")
        node = {**node, "additionalProperties": False}
        node.setdefault("properties", {})
    return node


@memoised_by_identity
def openai_strict(parameters: Node) -> Node:
    """The parameters as OpenAI strict mode takes them, or Inexpressible."""
    schema = typed_enums(portable(parameters))
    defs = schema.get("$defs") or {}

    def one(node: Node, path: str) -> Node:
        node = _closed_objects(node, path)
        if "array" in types_of(node) and "items" not in node:
            raise Inexpressible(path, "an array whose items may be anything")
        properties = node.get("properties")
        if isinstance(properties, dict):
            required = set(node.get("required") or ())
            node = {
                **node,
                "properties": {
                    name: sub if name in required else nullable(sub, defs)
                    for name, sub in properties.items()
                },
                "required": list(properties),
            }
        return node

    schema = transform(schema, one)
    schema = restrict(schema, OPENAI_KEYWORDS, OPENAI_FORMATS)
    _openai_limits(
        schema
    )  # `default` is not among the keywords: restrict moved it (Azure rejects it)
    return schema


def _openai_limits(schema: Node) -> None:
    properties = enum_values = text = containers = 0
    for node in nodes(schema):
        if "properties" in node or {"object", "array"}.intersection(types_of(node)):
            containers += 1
        if isinstance(node.get("properties"), dict):
            properties += len(node["properties"])
            text += sum(len(name) for name in node["properties"])
        values = node.get("enum")
        if isinstance(values, list):
            enum_values += len(values)
            length = sum(len(str(v)) for v in values)
            text += length
            if len(values) > LONG_ENUM and length > LONG_ENUM_TEXT:
                raise Inexpressible(
                    next(path for path, found in walk(schema) if found is node),
                    f"an enum of {len(values)} values longer than {LONG_ENUM_TEXT:,} characters",
                )
    text += sum(len(name) for name in schema.get("$defs") or {})
    for count, limit, what in (
        (properties, MAX_PROPERTIES, "properties"),
        (enum_values, MAX_ENUM_VALUES, "enum values"),
        (text, MAX_TEXT, "characters of names and enum values"),
    ):
        if count > limit:
            raise Inexpressible("", f"{count:,} {what} (OpenAI strict allows {limit:,})")
    # Without definitions no path can nest more levels than there are objects and arrays.
    depth = nesting(schema) if containers > MAX_NESTING or "$defs" in schema else 0
    if depth > MAX_NESTING:
        raise Inexpressible("", f"{depth} levels of nesting (OpenAI strict allows {MAX_NESTING})")


def nesting(schema: Node) -> int:
    """Object and array levels, a recursive definition counted once."""
    defs = schema.get("$defs") or {}

    def depth(node: Any, seen: frozenset[str]) -> int:
        if not isinstance(node, dict):
            return 0
        ref = node.get("$ref")
        if isinstance(ref, str):
            name = ref.removeprefix("#/$defs/")
            return 0 if name in seen else depth(defs.get(name), seen | {name})
        children = [*(node.get("properties") or {}).values(), *(node.get("anyOf") or [])]
        if isinstance(node.get("items"), dict):
            children.append(node["items"])
        here = 1 if {"object", "array"} & set(types_of(node)) or "properties" in node else 0
        return here + max((depth(child, seen) for child in children), default=0)

    return depth(schema, frozenset())


# -- Anthropic ------------------------------------------------------------------------------------

ANTHROPIC_COMMON = ("description", "title")


@memoised_by_identity
def anthropic_strict(parameters: Node) -> Node:
    """The parameters as Anthropic strict tool use takes them (what `transform_schema` leaves as is)."""
    schema = type_arrays_to_any_of(portable(parameters))
    cycles = recursive(schema)
    if cycles:
        name = sorted(cycles)[0]
        raise Inexpressible(f"/$defs/{name}", f"a recursive definition ({name!r})")
    out: Node = transform(schema, _anthropic_node)
    return out


def _anthropic_node(node: Node, path: str) -> Node:
    if "$ref" in node:
        if len(node) > 1 and set(node) != {"$ref", "$defs"}:
            raise Inexpressible(path, "a `$ref` with constraining siblings")
        return node
    node = _closed_objects(node, path)
    values = node.get("enum")
    literal = isinstance(values, list) and bool(values) and all(_primitive(v) for v in values)
    if literal:
        keep: tuple[str, ...] = ("enum", *ANTHROPIC_COMMON)
    elif "anyOf" in node:
        keep = ("anyOf", *ANTHROPIC_COMMON)
    else:
        kinds = types_of(node)
        if len(kinds) != 1:
            raise Inexpressible(path, "a schema without a single `type`")
        kind = kinds[0]
        if kind == "object":
            keep = _KEEP_OBJECT
        elif kind == "string" and node.get("format") in ANTHROPIC_FORMATS:
            keep = _KEEP_FORMAT
        elif kind == "array":
            keep = _KEEP_MIN_ITEMS if node.get("minItems") in (0, 1) else _KEEP_ITEMS
        else:
            keep = _KEEP_TYPE
    root = path == ""
    dropped = "type" if literal or "anyOf" in node else None
    out: Node = {}
    moved: dict[str, Any] = {}
    for key, value in node.items():
        if key in keep or key == "$defs" and root:
            out[key] = value
        elif key != dropped and key not in _SILENT:
            moved[key] = value
    return describe(out, moved)


_KEEP_TYPE = ("type", *ANTHROPIC_COMMON)
_KEEP_OBJECT = (*_KEEP_TYPE, "properties", "additionalProperties", "required")
_KEEP_FORMAT = (*_KEEP_TYPE, "format")
_KEEP_ITEMS = (*_KEEP_TYPE, "items")
_KEEP_MIN_ITEMS = (*_KEEP_ITEMS, "minItems")
_SILENT = frozenset(
    {"$comment", "readOnly", "writeOnly", "deprecated", "contentMediaType", "contentEncoding"}
)


def _primitive(value: Any) -> bool:
    return value is None or isinstance(value, (str, int, float, bool))


@memoised_by_identity  # both strict variants (Anthropic, Bedrock) spend the same schemas
def anthropic_budget(schema: Node) -> tuple[int, int]:
    """(optional parameters, unions) one strict schema spends of the per-request budget."""
    optional = unions = 0
    for node in nodes(schema):
        if isinstance(node.get("properties"), dict):
            optional += len(set(node["properties"]) - set(node.get("required") or ()))
        if "anyOf" in node or isinstance(node.get("type"), list):
            unions += 1
    return optional, unions
