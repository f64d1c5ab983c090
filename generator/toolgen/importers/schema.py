"""Normalise JSON Schemas written by others into Draft 2020-12, noting every change.

`normalize_schema` is a pure function: it returns a new schema (key order kept) and one
human-readable note per change, each starting with the JSON pointer it changed. What it
fixes is what the shared corpus of real tool definitions shows people write:

- type names from other languages (`dict`, `float`, `str`, `String`, `HashMap`, `long`, `tuple`, ...),
  `any` and the empty string (no type: any value), OpenAPI's upper-case names (`STRING`);
- OpenAPI's `nullable: true`; draft-04 boolean `exclusiveMinimum`/`exclusiveMaximum`;
  draft-07 `definitions`, `dependencies`, array-form `items`; foreign `$schema` declarations;
- BFCL's `optional` key (on a property, or a list at an object) and `required: true` on a property;
- `required` names that are not declared, or repeated;
- `enum` on an array instead of on its items, enums whose values the declared type refuses;
- defaults and examples their own schema refuses: coerced when a coercion is exact
  (`"false"` -> false, `"0"` -> 0, 5 -> "5"), otherwise removed. `default: null` on a
  non-nullable type is removed: toolgen already reads an absent optional property as
  None and accepts null for it, while widening the type would change what every
  provider is told.

Keywords no validator reads (a foreign vocabulary's `choices`, a typo such as `requried`) are
removed, each with a note that says so: the source's tools never enforced them, and a spec
must not carry a keyword that reads as a constraint nobody checks (lint refuses it). Anything
else is kept as written.
"""

from __future__ import annotations

from typing import Any

from toolgen.check.rules.keywords import explain, known
from toolgen.importers.common import UnsupportedSchema, show
from toolgen.importers.samples import fix_samples
from toolgen.runtime.types import is_json_type, json_type
from toolgen.schema.keywords import (
    JSON_TYPES,
    SCHEMA_LISTS,
    SCHEMA_MAPS,
    SCHEMA_VALUES,
    TYPE_ALIASES,
)
from toolgen.schema.pointer import escape

DRAFT_2020_12 = "https://json-schema.org/draft/2020-12/schema"
# Lower-cased foreign type name -> JSON Schema type; None means "any value" (no `type`).
TYPE_NAMES: dict[str, str | None] = {
    **{t: t for t in JSON_TYPES},
    **TYPE_ALIASES,
    "any": None,
    "": None,
    "object?": None,
    "type_unspecified": None,
    "mixed": None,
}
TRUE_WORDS = {"true", "yes", "1", "y", "on"}
FALSE_WORDS = {"false", "no", "0", "n", "off"}


def normalize_schema(schema: Any, pointer: str = "") -> tuple[Any, list[str]]:
    """A Draft 2020-12 version of `schema`, and a note per change (pointers relative to `pointer`)."""
    notes: list[str] = []
    return _schema(schema, pointer, notes), notes


def _schema(node: Any, ptr: str, notes: list[str]) -> Any:
    """One schema node, its subschemas first; then the fixes that need the whole node."""
    if isinstance(node, bool):
        return node
    if isinstance(node, str) and node.strip().lower() in TYPE_NAMES:
        mapped = TYPE_NAMES[node.strip().lower()]
        notes.append(
            f"{ptr or '/'}: schema written as the type name {show(node)}; "
            f"changed to {show({'type': mapped} if mapped else {})}"
        )
        return {"type": mapped} if mapped else {}
    if not isinstance(node, dict):
        raise UnsupportedSchema(
            ptr or "/", f"a schema must be an object or a boolean, not {show(node)}"
        )
    out: dict[str, Any] = {}
    pending: dict[str, Any] = {}  # what a fix below needs once the whole node is known
    for key, value in node.items():
        here = f"{ptr}/{escape(key)}"
        if key == "type":
            _type(out, value, here, notes)
        elif key == "$schema":
            if value != DRAFT_2020_12:
                notes.append(f"{here}: removed {show(value)}; the schema is now Draft 2020-12")
            else:
                out[key] = value
        elif key == "definitions" and isinstance(value, dict) and "$defs" not in node:
            notes.append(f"{here}: renamed to $defs (Draft 2020-12)")
            out["$defs"] = {
                k: _schema(v, f"{ptr}/$defs/{escape(k)}", notes) for k, v in value.items()
            }
        elif key == "$ref" and isinstance(value, str) and value.startswith("#/definitions/"):
            out[key] = value.replace("#/definitions/", "#/$defs/")
            notes.append(f"{here}: {show(value)} now points into $defs")
        elif key == "nullable" and isinstance(value, bool):
            pending["nullable"] = value
        elif key in ("exclusiveMinimum", "exclusiveMaximum") and isinstance(value, bool):
            pending[key] = value  # draft-04 boolean; resolved below with its bound
        elif key == "items" and isinstance(value, list):
            out["prefixItems"] = [
                _schema(v, f"{ptr}/prefixItems/{i}", notes) for i, v in enumerate(value)
            ]
            notes.append(f"{here}: a list of schemas is `prefixItems` in Draft 2020-12")
        elif key == "additionalItems" and isinstance(node.get("items"), list):
            out["items"] = _schema(value, f"{ptr}/items", notes)
            notes.append(f"{here}: `additionalItems` is `items` in Draft 2020-12")
        elif key == "dependencies" and isinstance(value, dict):
            _dependencies(out, value, ptr, notes)
        elif key in ("description", "title") and not isinstance(value, str):
            notes.append(f"{here}: removed {key} {show(value)} (not a string)")
        elif key == "properties" and isinstance(value, dict):
            out[key] = _properties(pending, value, here, notes)
        elif key in SCHEMA_MAPS and isinstance(value, dict):
            out[key] = {k: _schema(v, f"{here}/{escape(k)}", notes) for k, v in value.items()}
        elif key in SCHEMA_VALUES:
            out[key] = _schema(value, here, notes)
        elif key in SCHEMA_LISTS and isinstance(value, list):
            out[key] = [_schema(v, f"{here}/{i}", notes) for i, v in enumerate(value)]
        elif key == "examples" and not isinstance(value, list):
            out[key] = [value]
            notes.append(f"{here}: `examples` is a list in Draft 2020-12; wrapped the value")
        elif known(key) or key == "optional" and isinstance(value, list):
            out[key] = value  # (BFCL's `optional` list is read by `_optional` below)
        else:
            message, hint = explain(key)
            notes.append(f"{here}: removed: {message}" + (f" ({hint})" if "?" in hint else ""))
    _nullable(out, pending, ptr, notes)
    _exclusive(out, pending, ptr, notes)
    _optional(out, pending, ptr, notes)
    _required(out, ptr, notes)
    _array_enum(out, ptr, notes)
    _enum_type(out, ptr, notes)
    fix_samples(out, ptr, notes)
    return out


def _type(out: dict[str, Any], value: Any, here: str, notes: list[str]) -> None:
    names = value if isinstance(value, list) else [value]
    mapped: list[str] = []
    anything = False
    for name in names:
        if not isinstance(name, str) or name.strip().lower() not in TYPE_NAMES:
            raise UnsupportedSchema(
                here, f"unknown type {show(name)}", f"use one of {', '.join(JSON_TYPES)}"
            )
        target = TYPE_NAMES[name.strip().lower()]
        if target is None:
            anything = True
        elif target not in mapped:
            mapped.append(target)
    if anything:
        notes.append(f"{here}: type {show(value)} means any value; removed")
        return
    if not mapped:
        notes.append(f"{here}: an empty type list is not JSON Schema; removed (any value)")
        return
    # A list stays a list unless repeats collapsed it to one type: ["int", "integer"] -> "integer".
    result: Any = mapped[0] if isinstance(value, str) or len(mapped) == 1 < len(value) else mapped
    if result != value and isinstance(value, str) and result == value.lower():
        notes.append(f"{here}: type {show(value)} written in lower case, as JSON Schema has it")
    elif result != value:
        notes.append(f"{here}: type {show(value)} is not JSON Schema; changed to {show(result)}")
    out["type"] = result


def _types(node: dict[str, Any]) -> list[str] | None:
    value = node.get("type")
    if isinstance(value, str):
        return [value]
    if isinstance(value, list):
        return list(value)
    return None


def _nullable(out: dict[str, Any], pending: dict[str, Any], ptr: str, notes: list[str]) -> None:
    if "nullable" not in pending:
        return
    nullable = pending["nullable"]
    where = f"{ptr}/nullable"
    types = _types(out)
    if not nullable:
        notes.append(f"{where}: removed `nullable: false` (OpenAPI; the default in JSON Schema)")
    elif types is None:
        notes.append(
            f"{where}: removed `nullable: true`; the schema has no type, so null is already allowed"
        )
    else:
        if "null" not in types:
            types.append("null")
        out["type"] = types
        also = ""
        if isinstance(out.get("enum"), list) and None not in out["enum"]:
            out["enum"] = [*out["enum"], None]
            also = " and null joined the enum"
        notes.append(f"{where}: OpenAPI `nullable: true` became type {show(types)}{also}")


def _exclusive(out: dict[str, Any], pending: dict[str, Any], ptr: str, notes: list[str]) -> None:
    for key, bound in (("exclusiveMinimum", "minimum"), ("exclusiveMaximum", "maximum")):
        if key not in pending:
            continue
        flag = pending[key]
        where = f"{ptr}/{key}"
        if flag and is_json_type(out.get(bound), "number"):
            out[key] = out.pop(bound)
            notes.append(
                f"{where}: draft-04 `{key}: true` with `{bound}: {show(out[key])}` "
                f"became `{key}: {show(out[key])}`"
            )
        else:
            notes.append(
                f"{where}: removed draft-04 boolean `{key}: {show(flag)}`"
                + ("" if not flag else f" (no numeric `{bound}` beside it)")
            )


def _dependencies(out: dict[str, Any], value: dict[str, Any], ptr: str, notes: list[str]) -> None:
    for name, dep in value.items():
        if isinstance(dep, list):
            out.setdefault("dependentRequired", {})[name] = dep
        else:
            out.setdefault("dependentSchemas", {})[name] = _schema(
                dep, f"{ptr}/dependentSchemas/{escape(name)}", notes
            )
    notes.append(
        f"{ptr}/dependencies: split into dependentRequired/dependentSchemas (Draft 2020-12)"
    )


def _truth(value: Any) -> bool | None:
    if isinstance(value, bool):
        return value
    if isinstance(value, str) and value.strip().lower() in TRUE_WORDS | FALSE_WORDS:
        return value.strip().lower() in TRUE_WORDS
    return None


def _properties(
    pending: dict[str, Any], props: dict[str, Any], here: str, notes: list[str]
) -> dict[str, Any]:
    """Normalise each property; BFCL's `optional` and draft-03 `required: true` move to the parent."""
    result: dict[str, Any] = {}
    for name, sub in props.items():
        where = f"{here}/{escape(name)}"
        if isinstance(sub, dict) and ("optional" in sub or isinstance(sub.get("required"), bool)):
            sub = dict(sub)
            if "optional" in sub:
                flag = sub.pop("optional")
                pending.setdefault("optional", []).append(
                    (name, _truth(flag), f"{where}/optional", flag)
                )
            if isinstance(sub.get("required"), bool):
                flag = sub.pop("required")
                pending.setdefault("optional", []).append(
                    (name, not flag, f"{where}/required", flag)
                )
        result[name] = _schema(sub, where, notes)
    return result


def _optional(out: dict[str, Any], pending: dict[str, Any], ptr: str, notes: list[str]) -> None:
    marks = list(pending.get("optional", []))
    listed = out.pop("optional", None) if isinstance(out.get("optional"), list) else None
    if listed is not None:
        marks += [(n, True, f"{ptr}/optional", listed) for n in listed if isinstance(n, str)]
        if not listed:
            notes.append(f"{ptr}/optional: removed the empty non-standard `optional` list")
    if not marks:
        return
    required: list[Any] = list(out["required"]) if isinstance(out.get("required"), list) else []
    for name, optional, where, raw in marks:
        key = where.rsplit("/", 1)[-1]
        if optional is None:
            notes.append(f"{where}: removed non-standard `{key}: {show(raw)}` (not a yes/no value)")
        elif optional and name in required:
            required = [r for r in required if r != name]
            notes.append(
                f"{where}: non-standard `{key}: {show(raw)}`; removed {show(name)} from required"
            )
        elif not optional and name not in required:
            required = [*required, name]
            notes.append(
                f"{where}: non-standard `{key}: {show(raw)}`; added {show(name)} to required"
            )
        else:
            notes.append(
                f"{where}: removed non-standard `{key}: {show(raw)}` (required already says so)"
            )
    if required or "required" in out:
        out["required"] = required


def _required(out: dict[str, Any], ptr: str, notes: list[str]) -> None:
    required = out.get("required")
    if required is None:
        return
    if not isinstance(required, list):
        out.pop("required")
        notes.append(f"{ptr}/required: removed {show(required)} (must be a list of property names)")
        return
    props = out.get("properties")
    kept: list[str] = []
    for name in required:
        if not isinstance(name, str):
            notes.append(f"{ptr}/required: removed {show(name)} (not a property name)")
        elif name in kept:
            notes.append(f"{ptr}/required: removed the repeated {show(name)}")
        elif isinstance(props, dict) and name not in props:
            notes.append(f"{ptr}/required: removed {show(name)}, which is not a declared property")
        else:
            kept.append(name)
    out["required"] = kept


def _array_enum(out: dict[str, Any], ptr: str, notes: list[str]) -> None:
    enum = out.get("enum")
    if (
        _types(out) != ["array"]
        or not isinstance(enum, list)
        or all(isinstance(v, list) for v in enum)
    ):
        return
    items = out.get("items")
    if items is None:
        items = {}
    if not isinstance(items, dict) or "enum" in items:
        return
    values = [v for v in enum if not isinstance(v, list)]
    out["items"] = {**items, "enum": values}
    del out["enum"]
    notes.append(f"{ptr}/enum: an enum of single values on an array; moved to items/enum")
    _enum_type(out["items"], f"{ptr}/items", notes)
    fix_samples(out["items"], f"{ptr}/items", notes)  # the items' samples now meet the enum


def _admits(types: list[str], value: Any) -> bool:
    kind = json_type(value)
    return kind in types or kind == "integer" and "number" in types


def _enum_type(out: dict[str, Any], ptr: str, notes: list[str]) -> None:
    enum, types = out.get("enum"), _types(out)
    if (
        not isinstance(enum, list)
        or not enum
        or types is None
        or all(_admits(types, v) for v in enum)
    ):
        return
    kinds: list[str] = []
    for value in enum:
        kind = json_type(value)
        if kind not in kinds and not (kind == "integer" and "number" in kinds):
            kinds.append(kind)
    if "number" in kinds and "integer" in kinds:
        kinds.remove("integer")
    new: Any = kinds[0] if len(kinds) == 1 else kinds
    notes.append(
        f"{ptr}/type: type {show(out['type'])} refuses the enum's values {show(enum)}; "
        f"changed to {show(new)}"
    )
    out["type"] = new
