"""Gemini `functionDeclarations`: `parameters` (OpenAPI-3.0-subset Schema) or `parametersJsonSchema`.

Accepted containers: a declaration, a Tool (`{"functionDeclarations": [...]}`, also the
Python SDK's `function_declarations`), a request body with `tools: [Tool, ...]`.

The OpenAPI subset becomes JSON Schema here (upper-case types and `nullable` are left
to normalize.py, which handles them for every format):
- snake_case field names from Python dicts (`any_of`, `max_items`, ...) -> camelCase;
- Gemini's `ref: "#/defs/X"` and `defs` -> `$ref: "#/$defs/X"` and `$defs`;
- integer enums written as strings (`{type: INTEGER, format: enum, enum: ["101"]}`) -> numbers;
- `propertyOrdering` -> the order of `properties` (then removed).
"""

from __future__ import annotations

import re
from typing import Any

from toolgen.importers.common import UnsupportedSchema, show
from toolgen.schema.pointer import escape

SNAKE = re.compile(r"_([a-z])")
# Schema fields whose value is a schema, a list of schemas, or a map of schemas (after camelCase).
MAPS = ("properties", "defs", "$defs")
LISTS = ("anyOf",)
VALUES = ("items", "additionalProperties")


def unwrap(item: Any) -> list[Any]:
    """Declarations inside a Tool or a request; a declaration stands for itself."""
    if isinstance(item, dict):
        for key in ("functionDeclarations", "function_declarations"):
            if isinstance(item.get(key), list):
                return list(item[key])
        if isinstance(item.get("tools"), list):
            return [d for tool in item["tools"] for d in unwrap(tool)]
    return [item]


def record(item: Any) -> tuple[dict[str, Any], list[str]]:
    """A declaration as a record for normalize_tool, and the notes of the OpenAPI conversion."""
    if not isinstance(item, dict):
        raise UnsupportedSchema("/", f"a function declaration must be an object, not {show(item)}")
    item = {_camel(k): v for k, v in item.items()}
    notes: list[str] = []
    out: dict[str, Any] = {
        k: v
        for k, v in item.items()
        if k not in ("parameters", "parametersJsonSchema", "response", "responseJsonSchema")
    }
    if "parameters" in item and "parametersJsonSchema" in item:
        raise UnsupportedSchema(
            "/parameters",
            "both `parameters` and `parametersJsonSchema` are given",
            "Gemini accepts only one of them: keep one",
        )
    if "parametersJsonSchema" in item:
        out["parameters"] = item["parametersJsonSchema"]
    elif item.get("parameters") is not None:
        out["parameters"] = openapi_to_json_schema(item["parameters"], "/parameters", notes)
    if "responseJsonSchema" in item:
        out["returns"] = item["responseJsonSchema"]
    elif item.get("response") is not None:
        out["returns"] = openapi_to_json_schema(item["response"], "/returns", notes)
    return out, notes


def _camel(key: str) -> str:
    return key if key.startswith(("$", "_")) else SNAKE.sub(lambda m: m.group(1).upper(), key)


def openapi_to_json_schema(schema: Any, ptr: str, notes: list[str]) -> Any:
    """A Gemini `Schema` (OpenAPI 3.0 subset) as JSON Schema; notes name what changed."""
    if not isinstance(schema, dict):
        return schema
    out: dict[str, Any] = {}
    for raw_key, value in schema.items():
        key = _camel(raw_key)
        if key != raw_key:
            notes.append(f"{ptr}/{escape(key)}: Python SDK spelling {raw_key!r} written as {key!r}")
        here = f"{ptr}/{escape(key)}"
        if key == "defs" and isinstance(value, dict):
            out["$defs"] = {
                k: openapi_to_json_schema(v, f"{ptr}/$defs/{escape(k)}", notes)
                for k, v in value.items()
            }
            notes.append(f"{here}: Gemini `defs` written as `$defs`")
        elif key == "ref" and isinstance(value, str):
            out["$ref"] = value.replace("#/defs/", "#/$defs/")
            notes.append(f"{here}: Gemini `ref` written as `$ref`")
        elif key in MAPS and isinstance(value, dict):
            out[key] = {
                k: openapi_to_json_schema(v, f"{here}/{escape(k)}", notes) for k, v in value.items()
            }
        elif key in LISTS and isinstance(value, list):
            out[key] = [
                openapi_to_json_schema(v, f"{here}/{i}", notes) for i, v in enumerate(value)
            ]
        elif key in VALUES:
            out[key] = openapi_to_json_schema(value, here, notes)
        else:
            out[key] = value
    _string_enum(out, ptr, notes)
    _ordering(out, ptr, notes)
    return out


def _string_enum(out: dict[str, Any], ptr: str, notes: list[str]) -> None:
    """`{type: INTEGER, format: enum, enum: ["101", "201"]}`: Gemini's only way to write a number enum."""
    kind = str(out.get("type", "")).lower()
    enum = out.get("enum")
    if (
        kind not in ("integer", "number")
        or not isinstance(enum, list)
        or not all(isinstance(v, str) for v in enum)
    ):
        return
    try:
        values = [int(v) if kind == "integer" else float(v) for v in enum]
    except ValueError:
        return
    out["enum"] = values
    if out.get("format") == "enum":
        del out["format"]
    notes.append(f"{ptr}/enum: Gemini's string-written {kind} enum {show(enum)} written as numbers")


def _ordering(out: dict[str, Any], ptr: str, notes: list[str]) -> None:
    order = out.pop("propertyOrdering", None)
    if order is None:
        return
    props = out.get("properties")
    if isinstance(props, dict) and isinstance(order, list):
        ranked = [k for k in order if k in props] + [k for k in props if k not in order]
        if ranked != list(props):
            out["properties"] = {k: props[k] for k in ranked}
            notes.append(f"{ptr}/propertyOrdering: properties reordered to {show(ranked)}; removed")
            return
    notes.append(f"{ptr}/propertyOrdering: removed (the order of `properties` says the same)")
