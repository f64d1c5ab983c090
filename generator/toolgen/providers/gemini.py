"""Gemini `functionDeclarations`: `parametersJsonSchema` (the default) or OpenAPI-subset `parameters`.

`parametersJsonSchema` takes JSON Schema with references and type arrays; keywords
outside its documented set move into descriptions. `parameters` (rule 9, for clients
that need it) has upper-case types, `nullable`, string enums and no references: a
recursive definition is unrolled a few levels, maps become objects without declared
keys, and both are said in a lint note. A property name Gemini's `parameters` refuses
(say `Content-Type`) cannot be renamed without breaking the call: the tool is left
out of that form, with a note.
"""

from __future__ import annotations

import re
from typing import Any

from toolgen.providers import dropped, patterns, root
from toolgen.providers.base import FALLBACK, LOSSY, REFUSED, Export, Note, ToolLike, Tools
from toolgen.providers.describe import describe
from toolgen.providers.memo import memoised_by_identity
from toolgen.providers.portable import (
    portable,
    restrict,
    type_arrays_to_any_of,
    typed_enums,
)
from toolgen.providers.schema import admits_nothing, defs_free, is_any, recursive, types_of
from toolgen.runtime import kinds
from toolgen.schema.pointer import ref_name
from toolgen.schema.walk import Node, nodes, transform, walk

JSON_KEYWORDS = frozenset(
    """anyOf $ref $defs enum format minimum maximum items prefixItems minItems maxItems additionalProperties
    type required properties title description default""".split()
)
OPENAPI_KEYWORDS = frozenset(
    """type format description nullable enum maxItems minItems properties required minProperties maxProperties
    minLength maxLength pattern default anyOf items minimum maximum title""".split()
)
OPENAPI_FORMATS = frozenset({"enum", "date-time"})
PROPERTY_NAME = re.compile(r"^[A-Za-z_][A-Za-z0-9_]{0,63}$")
UNROLL = 3  # levels of a recursive definition spelled out in `parameters`


def declarations(tools: Tools, *, openapi: bool = False) -> Export:
    out = Export()
    for tool in tools:
        declaration: dict[str, Any] = {"name": tool.provider_name}
        if tool.description:
            declaration["description"] = tool.description
        root.notes(tool, kinds.GEMINI, out.notes)
        patterns.notes(tool, kinds.GEMINI, out.notes)
        if not openapi:
            declaration["parametersJsonSchema"] = json_schema(tool, out.notes)
            dropped.notes(tool, kinds.GEMINI, declaration["parametersJsonSchema"], out.notes)
        else:
            schema = openapi_schema(tool, out.notes)
            if schema is False:
                continue
            if (
                schema is not None
            ):  # None: no parameters (Gemini refuses an OBJECT with empty properties)
                declaration["parameters"] = schema
                dropped.notes(tool, "gemini parameters (OpenAPI)", schema, out.notes)
        out.definitions.append(declaration)
    return out


def json_schema(tool: ToolLike, notes: list[Note]) -> Node:
    schema = portable(tool.parameters)
    for path, node in walk(schema) if _findings(schema)[0] else ():
        if "allOf" in node:
            notes.append(
                Note(
                    tool.name,
                    kinds.GEMINI,
                    LOSSY,
                    "an `allOf` that cannot be merged is described in text",
                    path,
                )
            )
    return restrict(schema, JSON_KEYWORDS)


def openapi_schema(tool: ToolLike, notes: list[Note]) -> Node | None | bool:
    """The OpenAPI-subset schema; None for no parameters; False when the tool is refused."""
    target = "gemini parameters (OpenAPI)"
    schema = portable(tool.parameters)
    for path, node in walk(schema) if _findings(schema)[1] else ():
        properties = node.get("properties")
        for name in properties if isinstance(properties, dict) else ():
            if not PROPERTY_NAME.match(name):
                notes.append(
                    Note(
                        tool.name,
                        target,
                        REFUSED,
                        f"property name {name!r} is not accepted there (letters, digits, `_`); "
                        "the tool is left out: use the default parametersJsonSchema",
                        path,
                    )
                )
                return False
    schema = _unroll(schema, tool.name, target, notes)
    schema = typed_enums(type_arrays_to_any_of(schema))
    lossy: list[tuple[str, str]] = []
    schema = transform(schema, lambda node, path: _openapi_node(node, path, lossy))
    for path, what in lossy:
        notes.append(Note(tool.name, target, LOSSY, what, path))
    schema = restrict(schema, OPENAPI_KEYWORDS, OPENAPI_FORMATS)
    for node in nodes(schema):  # every subschema is restrict's new dict, this function's own
        if isinstance(node.get("type"), str):
            node["type"] = node["type"].upper()
    return schema if schema.get("properties") else None


@memoised_by_identity
def _findings(schema: Node) -> tuple[bool, bool]:
    """Whether `schema` (the portable form both variants start from) has an `allOf` left, and
    a property name `parameters` refuses: one look, no pointer (most schemas have neither)."""
    all_of = refused = False
    for node in nodes(schema):
        all_of = all_of or "allOf" in node
        properties = node.get("properties")
        if not refused and isinstance(properties, dict):
            refused = any(not PROPERTY_NAME.match(name) for name in properties)
    return all_of, refused


def _unroll(schema: Node, tool: str, target: str, notes: list[Note]) -> Node:
    """References inlined; a recursive definition spelled out UNROLL levels deep, then cut.
    A schema with no `$defs` anywhere is returned as it is (the same object as `portable`'s,
    whose memoised rewrites it then shares)."""
    if defs_free(schema):
        return schema
    defs = schema.get("$defs") or {}
    cycles = recursive(schema)
    for name in sorted(cycles):
        notes.append(
            Note(
                tool,
                target,
                FALLBACK,
                f"the definition {name!r} is recursive: spelled out {UNROLL} levels deep, deeper levels "
                "are described as objects without declared keys",
                f"/$defs/{name}",
            )
        )

    def expand(node: Any, depth: dict[str, int]) -> Any:
        if isinstance(node, list):
            return [expand(item, depth) for item in node]
        if not isinstance(node, dict):
            return node
        ref = node.get("$ref")
        if isinstance(ref, str) and ref_name(ref) in defs:
            name = ref_name(ref)
            body = defs[name]
            if depth.get(name, 0) >= UNROLL:
                cut = {"type": types_of(body)[0] if types_of(body) else "object"}
                return describe(
                    {
                        **cut,
                        **({"description": body["description"]} if "description" in body else {}),
                    },
                    {"nesting": "deeper levels are not described"},
                )
            return expand(body, {**depth, name: depth.get(name, 0) + 1})
        return {
            k: (v if k in ("enum", "default", "examples", "example") else expand(v, depth))
            for k, v in node.items()
            if k != "$defs"
        }

    out: Node = expand(schema, {})
    return out


def _openapi_node(node: Node, path: str, lossy: list[tuple[str, str]]) -> Node:
    if path.endswith("/not") and not node:
        return node  # `{"not": {}}` (the `false` schema): its parent describes it
    node = dict(node)
    every = (
        [{} if b is True else b for b in node["anyOf"] if b is not False]
        if isinstance(node.get("anyOf"), list)
        else []
    )
    if every:
        # Boolean branches: `false` admits nothing (dropped), `true` anything (an empty schema).
        node["anyOf"] = every
        branches = [b for b in every if not _null(b)]
        if len(branches) < len(every):
            branches = [{**b, "nullable": True} for b in branches]
            if len(branches) == 1:
                rest = {k: v for k, v in node.items() if k != "anyOf"}
                node = {**branches[0], **rest}
            else:
                node["anyOf"] = branches
    if node.get("type") == "null":
        node = {k: v for k, v in node.items() if k != "type"}
        node["nullable"] = True
    if isinstance(node.get("enum"), list):
        values = node["enum"]
        if None in values:
            node["nullable"] = True
            values = [v for v in values if v is not None]
        kinds = types_of(node)
        if kinds and kinds[0] == "boolean" or not values:
            node = describe({k: v for k, v in node.items() if k != "enum"}, {"enum": node["enum"]})
        elif kinds and kinds[0] in ("integer", "number"):
            node = {**node, "format": "enum", "enum": [_number_text(v) for v in values]}
        else:
            node = {**node, "enum": [str(v) for v in values]}
    if "object" in types_of(node) or "properties" in node:
        extra = node.pop("additionalProperties", None)
        if extra not in (None, False) or "patternProperties" in node:
            lossy.append(
                (path, "a map (additionalProperties) is sent as an object without declared keys")
            )
            node = describe(
                node, {"additionalProperties": extra} if isinstance(extra, dict) else {}
            )
        if node.get("properties") == {}:
            node.pop("properties")
            node.pop("required", None)
    if "array" in types_of(node) and "items" not in node:
        lossy.append((path, "an array of items of any type is described as an array of strings"))
        node["items"] = {"type": "string"}
    if admits_nothing(node):
        lossy.append(
            (path, "a schema no value satisfies (`false`) is described in text, as a string")
        )
        node = describe(
            {"type": "string", **{k: v for k, v in node.items() if k != "not"}},
            {"not": "no value is valid here"},
        )
    elif is_any(node) and "nullable" not in node:
        lossy.append((path, "a value of any type is described as a string"))
        node = {"type": "string", **node}
    if "allOf" in node:
        lossy.append((path, "an `allOf` that cannot be merged is described in text"))
    return node


def _null(schema: Any) -> bool:
    """A branch that only admits null (already lowered to `nullable`, or not yet)."""
    return isinstance(schema, dict) and (
        schema.get("type") == "null"
        or bool(schema.get("nullable"))
        and not (set(schema) - {"nullable", "description", "title"})
    )


def _number_text(value: Any) -> str:
    return str(int(value)) if isinstance(value, float) and value.is_integer() else str(value)
