"""A JSON Schema as rows of a parameters table: name, type, required, default, constraints,
description, and the rows of what it nests (object properties, array items, `$ref`s followed)."""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from toolgen.runtime import pointer

# Keywords shown as constraints, in this order (the rest of a schema is its type or nesting).
CONSTRAINTS = (
    "const",
    "minimum",
    "exclusiveMinimum",
    "maximum",
    "exclusiveMaximum",
    "multipleOf",
    "minLength",
    "maxLength",
    "pattern",
    "format",
    "minItems",
    "maxItems",
    "uniqueItems",
    "minProperties",
    "maxProperties",
    "contentMediaType",
)
COMBINATORS = ("anyOf", "oneOf", "allOf")


@dataclass(frozen=True)
class Param:
    """One row: a property (or an item, a variant) and the rows under it."""

    name: str
    type: str
    required: bool
    default: str | None  # JSON text, or None: no default
    constraints: tuple[str, ...]
    description: str
    deprecated: bool = False
    ref: str | None = None  # the `$defs` name it was reached through
    children: tuple[Param, ...] = ()
    recursive: bool = False  # a `$ref` already open above: not expanded again


def _json(value: Any) -> str:
    return json.dumps(value, ensure_ascii=False, sort_keys=True)


def _resolve(schema: Any, root: Mapping[str, Any]) -> tuple[Any, str | None]:
    """A local `$ref` followed to its target (once), with the name it points at."""
    if not isinstance(schema, Mapping):
        return schema, None
    ref = schema.get("$ref")
    if not isinstance(ref, str) or not ref.startswith("#/"):
        return schema, None
    target: Any = root
    for part in pointer.tokens(ref[1:]):
        target = target.get(part) if isinstance(target, Mapping) else None
    if not isinstance(target, Mapping):
        return schema, ref
    merged = {**target, **{k: v for k, v in schema.items() if k != "$ref"}}
    return merged, ref.rsplit("/", 1)[-1]


def type_of(schema: Any, root: Mapping[str, Any]) -> str:
    """The type as a reader says it: `string`, `integer | null`, `array of string`, `one of ...`."""
    if schema is True or schema == {}:
        return "any"
    if schema is False:
        return "nothing"
    if not isinstance(schema, Mapping):
        return "any"
    schema, name = _resolve(schema, root)
    if "enum" in schema:
        return "one of " + ", ".join(_json(v) for v in schema["enum"])
    kind = schema.get("type")
    kinds = kind if isinstance(kind, list) else [kind] if isinstance(kind, str) else []
    shown = []
    for each in kinds:
        if each == "array" and isinstance(schema.get("items"), Mapping):
            shown.append("array of " + type_of(schema["items"], root))
        else:
            shown.append(str(each))
    for word in COMBINATORS:
        if isinstance(schema.get(word), list):
            parts = " | ".join(type_of(s, root) for s in schema[word])
            shown.append(f"{word}({parts})" if word == "allOf" else parts)
    if not shown:
        shown.append("object" if "properties" in schema else "any")
    text = " | ".join(shown)
    return f"{text} ({name})" if name and not text.endswith(f"({name})") else text


def constraints_of(schema: Mapping[str, Any]) -> tuple[str, ...]:
    found = [f"{key}: {_json(schema[key])}" for key in CONSTRAINTS if key in schema]
    if schema.get("additionalProperties") is False and "properties" in schema:
        found.append("no other keys")
    return tuple(found)


def rows(
    schema: Any, root: Mapping[str, Any] | None = None, open_refs: tuple[str, ...] = ()
) -> tuple[Param, ...]:
    """The rows of what a schema nests: its properties, its items' rows, its variants."""
    root = schema if root is None and isinstance(schema, Mapping) else root or {}
    schema, _ = _resolve(schema, root)
    if not isinstance(schema, Mapping):
        return ()
    properties = schema.get("properties")
    listed = schema.get("required")
    required: list[Any] = listed if isinstance(listed, list) else []
    out: list[Param] = []
    if isinstance(properties, Mapping):
        out += [row(str(n), s, n in required, root, open_refs) for n, s in properties.items()]
    items = schema.get("items")
    if isinstance(items, Mapping) and not isinstance(properties, Mapping):
        item = row("[item]", items, True, root, open_refs)
        if item.children or item.recursive:  # else its type says it all: "array of string"
            out.append(item)
    for word in COMBINATORS:
        variants = schema.get(word)
        if isinstance(variants, list):
            label = "[all of]" if word == "allOf" else "[variant]"
            out += [
                row(f"{label} {i + 1}", s, False, root, open_refs) for i, s in enumerate(variants)
            ]
    return tuple(out)


def row(
    name: str, schema: Any, required: bool, root: Mapping[str, Any], open_refs: tuple[str, ...] = ()
) -> Param:
    """One property's row, with the rows under it (a `$ref` open above is not expanded again)."""
    ref = schema.get("$ref") if isinstance(schema, Mapping) else None
    resolved, target = _resolve(schema, root)
    body = resolved if isinstance(resolved, Mapping) else {}
    description = body.get("description")
    recursive = isinstance(ref, str) and ref in open_refs
    nested = open_refs + ((ref,) if isinstance(ref, str) else ())
    return Param(
        name=name,
        type=type_of(schema, root),
        required=required,
        default=_json(body["default"]) if "default" in body else None,
        constraints=constraints_of(body),
        description=description if isinstance(description, str) else "",
        deprecated=body.get("deprecated") is True,
        ref=target,
        children=() if recursive else rows(resolved, root, nested),
        recursive=recursive,
    )


# A field of the playground's form per top-level parameter of one of these types (or an enum
# of scalars); anything else is written in the arguments' JSON.
SCALARS = ("string", "integer", "number", "boolean")


@dataclass(frozen=True)
class Field:
    """A top-level parameter the playground's form takes in one input."""

    name: str
    kind: str  # one of SCALARS, or "enum"
    required: bool
    choices: tuple[str, ...] = ()  # an enum's values (or a boolean's), as JSON text


def fields(schema: Any) -> tuple[Field, ...]:
    """The form's fields for a tool's `parameters`: its properties of one scalar type (`null`
    aside) or an enum of scalars, in order."""
    root = schema if isinstance(schema, Mapping) else {}
    schema, _ = _resolve(schema, root)
    properties = schema.get("properties") if isinstance(schema, Mapping) else None
    if not isinstance(properties, Mapping):
        return ()
    listed = schema.get("required")
    required = listed if isinstance(listed, list) else []
    out = []
    for name, each in properties.items():
        body, _ = _resolve(each, root)
        if not isinstance(body, Mapping):
            continue
        enum = body.get("enum")
        kind = body.get("type")
        kinds = [k for k in (kind if isinstance(kind, list) else [kind]) if k != "null"]
        if isinstance(enum, list) and enum and all(_scalar(v) for v in enum):
            out.append(Field(str(name), "enum", name in required, tuple(_json(v) for v in enum)))
        elif len(kinds) == 1 and kinds[0] in SCALARS:
            choices = ("true", "false") if kinds[0] == "boolean" else ()
            out.append(Field(str(name), kinds[0], name in required, choices))
    return tuple(out)


def _scalar(value: Any) -> bool:
    return isinstance(value, (str, int, float, bool)) or value is None
