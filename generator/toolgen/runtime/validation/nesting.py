# Part of toolgen's runtime, copied verbatim into generated packages (edit toolgen, not a copy).
"""How deeply the values a pydantic class accepts can nest, read from its core schema; and
the core-schema types the modules reading core schemas share (bounds.py, duplicates.py).
"""

from __future__ import annotations

from typing import Any

# Core-schema types of one JSON value that holds nothing inside.
SCALARS = frozenset(
    {
        "str",
        "int",
        "float",
        "bool",
        "none",
        "literal",
        "enum",
        "function-plain",
        "date",
        "datetime",
        "time",
        "timedelta",
        "decimal",
        "uuid",
        "url",
        "multi-host-url",
        "bytes",
    }
)
# Types that only wrap another schema (`schema`), or choose among several.
WRAPPERS = frozenset({"nullable", "default", "function-after", "function-before", "function-wrap"})
_CONTAINERS = frozenset({"list", "set", "frozenset", "tuple", "dict", "model-fields", "typed-dict"})


def shallow(model: type[Any]) -> int | None:
    """How deeply the values a pydantic class accepts can nest, when it bounds that and types
    every value inside (no untyped `Any`, no open extras, no recursion: a class used twice
    is read through its shared definition), else None.

    Such a class refuses anything deeper than its depth, and `NaN`/`Infinity` (its floats
    are finite: `allow_inf_nan=False`) on its own: text or a dict for it can be read before
    being measured. Unknown schema types count as unbounded.
    """
    try:
        return _depth(model.__pydantic_core_schema__, {}, {})
    except (AttributeError, KeyError, TypeError, RecursionError):
        return None


def _depth(schema: Any, config: dict[str, Any], defs: dict[str, Any]) -> int | None:
    kind = schema.get("type")
    if kind in SCALARS:
        return 0
    if kind in WRAPPERS:
        return _depth(schema["schema"], config, defs)
    if kind == "model":
        return _depth(schema["schema"], schema.get("config") or {}, defs)
    if kind == "definitions":  # classes used more than once, shared by reference
        defs.update((d["ref"], d) for d in schema["definitions"])
        return _depth(schema["schema"], config, defs)
    if kind == "definition-ref":
        ref = schema["schema_ref"]
        if defs.get(ref) is None:
            return None  # recursion (the definition is being read), or unknown
        definition, defs[ref] = defs[ref], None
        try:
            return _depth(definition, config, defs)
        finally:
            defs[ref] = definition
    parts: list[Any] | None
    if kind == "union":
        parts = [c[0] if isinstance(c, tuple) else c for c in schema["choices"]]
    elif kind == "tagged-union":
        parts = list(schema["choices"].values())
    elif kind == "chain":
        parts = list(schema["steps"])
    elif kind == "lax-or-strict":
        parts = [schema["lax_schema"], schema["strict_schema"]]
    elif kind in _CONTAINERS:
        parts = _members(kind, schema, config)
    else:
        return None  # any, or a type this does not know
    if parts is None:
        return None
    deepest = 0
    for part in parts:
        found = _depth(part, config, defs)
        if found is None:
            return None
        deepest = max(deepest, found)
    return deepest + 1 if kind in _CONTAINERS else deepest


def _members(kind: str, schema: dict[str, Any], config: dict[str, Any]) -> list[Any] | None:
    """The schemas inside a container's values, or None when some value is untyped."""
    if kind in ("model-fields", "typed-dict"):
        fields = [field["schema"] for field in schema["fields"].values()]
        extra = schema.get("extra_behavior") or config.get("extra_fields_behavior")
        if extra == "allow":
            if "extras_schema" not in schema:
                return None
            fields.append(schema["extras_schema"])
        return fields
    if kind == "tuple":
        items = list(schema.get("items_schema") or [])
        return items if "variadic_item_index" not in schema or items else None
    keys = [schema.get("keys_schema")] if kind == "dict" else []
    values = [schema.get("values_schema" if kind == "dict" else "items_schema")]
    parts = keys + values
    return None if None in parts else parts
