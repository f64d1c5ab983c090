"""JSON Schema helpers of the provider checks: the meta-schema, TypedDict walking, subschemas."""

from __future__ import annotations

import functools
import json
import typing
from collections.abc import Iterator
from functools import cache
from typing import Any

import jsonschema
import jsonschema_rs
import typing_extensions
from pydantic import TypeAdapter, ValidationError


def check_json_schema(schema: Any, where: str = "schema") -> list[str]:
    """Draft 2020-12 meta-schema (catches `required: null`, `properties: []`, bad `type` values), and
    every `$ref` resolves within the schema."""
    if not isinstance(schema, (dict, bool)):
        return [f"{where}: not a schema: {schema!r}"[:100]]
    return [
        f"{where}: {message}" for message in _meta_schema_errors(json.dumps(schema, sort_keys=True))
    ]


DIALECT = "https://json-schema.org/draft/2020-12/schema"


@functools.lru_cache(maxsize=65536)
def _meta_schema_errors(text: str) -> tuple[str, ...]:
    """Meta-schema validation by jsonschema is slow (about 7 ms); variants share schemas, so results
    are cached by text. jsonschema-rs clears a 2020-12 schema first (in microseconds; it gives
    jsonschema's verdict on every corpus schema, tests/unit/check/test_meta_schema.py), jsonschema
    judges and explains the rest."""
    schema = json.loads(text)
    dialect = schema.get("$schema", DIALECT) if isinstance(schema, dict) else DIALECT
    if not (dialect in (DIALECT, DIALECT + "#") and jsonschema_rs.meta.is_valid(schema)):
        try:
            jsonschema.validators.validator_for(
                schema, default=jsonschema.Draft202012Validator
            ).check_schema(schema)
        except jsonschema.SchemaError as exc:
            return (f"meta-schema: {exc.message}",)
    return tuple(f"$ref {ref!r} does not resolve" for ref in unresolved_refs(schema))


def unresolved_refs(schema: Any) -> list[str]:
    """The `$ref`s of a schema that a JSON Schema resolver cannot follow inside the schema itself
    (RFC 6901 pointer escaping and URI percent-encoding as `referencing` reads them)."""
    import referencing
    import referencing.exceptions
    import referencing.jsonschema

    resource = referencing.jsonschema.DRAFT202012.create_resource(schema)
    resolver = (
        referencing.Registry()
        .with_resource("urn:toolgen:schema", resource)
        .resolver("urn:toolgen:schema")
    )
    found: list[str] = []
    for _, node in subschemas(schema):
        ref = node.get("$ref")
        if not isinstance(ref, str):
            continue
        try:
            resolver.lookup(ref)
        except referencing.exceptions.Unresolvable:
            found.append(ref)
    return found


def typed_dict_problems(cls: Any, value: Any, where: str = "$") -> list[str]:
    """`TypeAdapter(cls).validate_python(value, strict=True)` plus the unknown keys pydantic ignores."""
    problems: list[str] = []
    try:
        _adapter(cls).validate_python(value, strict=True)
    except ValidationError as exc:
        problems += [f"{'.'.join(map(str, e['loc']))}:{e['type']}" for e in exc.errors()]
    problems += [f"unknown {path}" for path in _unknown_keys(cls, value, where)]
    return problems


@cache
def _adapter(cls: Any) -> TypeAdapter[Any]:
    return TypeAdapter(cls)


@cache
def _hints(cls: Any) -> dict[str, Any]:
    return typing.get_type_hints(cls)


def _typed_dicts(annotation: Any) -> Iterator[Any]:
    """The TypedDicts an annotation allows (through Required, Optional, unions), unless it also
    allows a plain dict (Anthropic's `input_schema` is `InputSchemaTyped | Dict[str, object]`)."""
    if typing_extensions.is_typeddict(annotation):
        yield annotation
        return
    origin = typing.get_origin(annotation)
    if origin in (typing.Union, getattr(__import__("types"), "UnionType", None)) or origin in (
        typing_extensions.Required,
        typing_extensions.NotRequired,
    ):
        args = typing.get_args(annotation)
        if any(typing.get_origin(a) in (dict, dict) or a is dict for a in args):
            return
        for arg in args:
            yield from _typed_dicts(arg)


def _unknown_keys(cls: Any, value: Any, where: str) -> Iterator[str]:
    if not isinstance(value, dict):
        return
    hints = _hints(cls)
    for key, sub in value.items():
        if key not in hints:
            yield f"{where}.{key}"
            continue
        for nested in _typed_dicts(hints[key]):
            yield from _unknown_keys(nested, sub, f"{where}.{key}")


def subschemas(schema: Any, path: str = "") -> Iterator[tuple[str, dict[str, Any]]]:
    """Every subschema of a JSON Schema with its pointer."""
    if not isinstance(schema, dict):
        return
    yield path, schema
    for key, value in schema.items():
        if key in (
            "properties",
            "$defs",
            "definitions",
            "patternProperties",
            "dependentSchemas",
            "defs",
        ) and isinstance(value, dict):
            for name, sub in value.items():
                yield from subschemas(sub, f"{path}/{key}/{name}")
        elif key in ("anyOf", "oneOf", "allOf", "prefixItems", "any_of") and isinstance(
            value, list
        ):
            for i, sub in enumerate(value):
                yield from subschemas(sub, f"{path}/{key}/{i}")
        elif key in (
            "items",
            "additionalProperties",
            "not",
            "if",
            "then",
            "else",
            "contains",
            "propertyNames",
            "unevaluatedItems",
            "unevaluatedProperties",
            "additionalItems",
        ):
            yield from subschemas(value, f"{path}/{key}")


def recursive_refs(schema: dict[str, Any]) -> list[str]:
    """Names of `$defs` that reach themselves through `$ref` (recursion)."""
    defs = schema.get("$defs") or {}
    edges = {
        name: {
            s["$ref"].rsplit("/", 1)[-1]
            for _, s in subschemas(body)
            if isinstance(s.get("$ref"), str)
        }
        for name, body in defs.items()
    }
    out = []
    for start in edges:
        seen, stack = set(), list(edges[start])
        while stack:
            node = stack.pop()
            if node == start:
                out.append(start)
                break
            if node not in seen:
                seen.add(node)
                stack.extend(edges.get(node, ()))
    return sorted(out)


def root_object(schema: Any, where: str, combinators: bool = False) -> list[str]:
    """`type: object` at the root; no combinators there unless the target takes them (MCP)."""
    problems = []
    if not isinstance(schema, dict) or schema.get("type") != "object":
        problems.append(f"{where}: root type must be 'object'")
    elif not combinators and any(
        k in schema for k in ("anyOf", "oneOf", "allOf", "not", "if", "then", "else")
    ):
        problems.append(f"{where}: no anyOf/oneOf/allOf/not/if at the root")
    return problems


def nesting_depth(schema: dict[str, Any]) -> int:
    """Object/array nesting, following `$ref` once per definition (recursion counts one level)."""
    defs = schema.get("$defs") or {}

    def depth(node: Any, seen: frozenset[str]) -> int:
        if not isinstance(node, dict):
            return 0
        ref = node.get("$ref")
        if isinstance(ref, str):
            name = ref.rsplit("/", 1)[-1]
            return 0 if name in seen else depth(defs.get(name), seen | {name})
        children = [*(node.get("properties") or {}).values(), *(node.get("anyOf") or [])]
        if isinstance(node.get("items"), dict):
            children.append(node["items"])
        here = 1 if node.get("type") in ("object", "array") or "properties" in node else 0
        return here + max((depth(c, seen) for c in children), default=0)

    return depth(schema, frozenset())
