"""JSON schemas folded as the strategy compiler reads them (render/strategies.py): a schema's
constraints without its annotations (`constraints`), two schemas' constraints as one
(`merge`), and an `allOf` folded into one schema (`fold_all_of`)."""

from __future__ import annotations

from typing import Any

# Keywords that never constrain a value.
IGNORED = frozenset(
    {
        "$defs",
        "definitions",
        "$schema",
        "$id",
        "$anchor",
        "$comment",
        "title",
        "description",
        "default",
        "examples",
        "example",
        "deprecated",
        "readOnly",
        "writeOnly",
        "contentMediaType",
        "contentEncoding",
    }
)
OPEN_ENDED = frozenset(
    {"additionalProperties", "patternProperties", "unevaluatedProperties", "unevaluatedItems"}
)


def constraints(schema: dict[str, Any]) -> dict[str, Any]:
    return {k: v for k, v in schema.items() if k not in IGNORED and not k.startswith("x-")}


def merge(a: dict[str, Any], b: dict[str, Any]) -> dict[str, Any] | None:
    """Two schemas' constraints in one, for the common cases (None otherwise).

    Close rather than exact (an `additionalProperties` of one side is not re-read against
    the other's properties), so a merged allOf is still judged by the filter."""
    out = dict(a)
    for key, value in b.items():
        if key not in out or out[key] == value:
            out[key] = value
        elif key == "properties" and isinstance(value, dict) and isinstance(out[key], dict):
            both = dict(out[key])
            for name, sub in value.items():
                both[name] = {"allOf": [both[name], sub]} if name in both else sub
            out[key] = both
        elif key == "required" and isinstance(value, list) and isinstance(out[key], list):
            out[key] = list(dict.fromkeys([*out[key], *value]))
        elif key == "type":
            left = set(out[key]) if isinstance(out[key], list) else {out[key]}
            right = set(value) if isinstance(value, list) else {value}
            for wide, narrow in (("number", "integer"),):
                if wide in left and narrow in right:
                    left.add(narrow)
                if wide in right and narrow in left:
                    right.add(narrow)
            common = sorted(left & right)
            if not common:
                return None
            out[key] = common[0] if len(common) == 1 else common
        elif key in ("minimum", "minLength", "minItems", "minProperties", "exclusiveMinimum"):
            out[key] = max(out[key], value)
        elif key in ("maximum", "maxLength", "maxItems", "maxProperties", "exclusiveMaximum"):
            out[key] = min(out[key], value)
        elif (
            key in ("items", "contains", "propertyNames")
            and isinstance(value, dict)
            and isinstance(out[key], dict)
        ):
            out[key] = {"allOf": [out[key], value]}
        elif key == "prefixItems" and isinstance(value, list) and isinstance(out[key], list):
            short, long = sorted((out[key], value), key=len)
            out[key] = [{"allOf": [x, y]} for x, y in zip(short, long, strict=False)] + long[
                len(short) :
            ]
        elif key == "not":
            out[key] = {"anyOf": [out[key], value]}
        else:
            return None
    return out


def fold_all_of(schema: dict[str, Any], defs: dict[str, Any]) -> tuple[dict[str, Any] | None, bool]:
    """An allOf folded into one schema (None when the branches do not fold), and whether
    the fold is exact: a branch's own additionalProperties does not see the other
    branches' properties, so with one the filter has the last word."""
    out: dict[str, Any] | None = {k: v for k, v in schema.items() if k != "allOf"}
    exact = not OPEN_ENDED & schema.keys()  # the outer one does not see the branches' keys either
    for branch in schema["allOf"]:
        if branch is True:
            continue
        if not isinstance(branch, dict) or out is None:
            return None, False
        branch = constraints(branch)
        seen: set[str] = set()
        while set(branch) == {"$ref"} and isinstance(branch["$ref"], str):
            name = branch["$ref"].removeprefix("#/$defs/")
            if name in seen or name not in defs or not isinstance(defs[name], dict):
                return None, False
            seen.add(name)
            branch = constraints(defs[name])
        # A branch's `items` applies past its own `prefixItems` only, not past the other's.
        crossed = ("items" in branch and "prefixItems" in out) or (
            "prefixItems" in branch and "items" in out
        )
        exact = exact and not OPEN_ENDED & branch.keys() and not crossed
        out = merge(out, branch)
    return out, exact
