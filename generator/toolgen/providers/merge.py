"""Two schemas as one (an `allOf` of two), where JSON Schema lets them be written so."""

from __future__ import annotations

from typing import Any

from toolgen.runtime.types import is_json_type, json_equal
from toolgen.schema.walk import Node

MINIMA = ("minimum", "exclusiveMinimum", "minLength", "minItems", "minProperties", "minContains")
MAXIMA = ("maximum", "exclusiveMaximum", "maxLength", "maxItems", "maxProperties", "maxContains")
FIRST_WINS = ("description", "title", "default", "examples", "example", "$comment", "deprecated")


def merge(a: Node, b: Node | bool | None) -> Node | None:
    """Both schemas at once (an `allOf` of two), or None where they cannot be written as one."""
    if b is None or b is False:
        return None
    if b is True:
        return dict(a)
    out = dict(a)
    for key, other in b.items():
        if key not in out:
            out[key] = other
            continue
        mine = out[key]
        if key in FIRST_WINS or json_equal(mine, other):
            continue
        if key == "properties" and isinstance(mine, dict) and isinstance(other, dict):
            properties = dict(mine)
            for name, sub in other.items():
                if name in properties:
                    both = (
                        merge(properties[name], sub)
                        if isinstance(properties[name], dict)
                        and isinstance(sub, dict)
                        and "$ref" not in properties[name]
                        and "$ref" not in sub
                        else None
                    )
                    if both is None:
                        return None
                    properties[name] = both
                else:
                    properties[name] = sub
            out[key] = properties
        elif key == "required" and isinstance(mine, list) and isinstance(other, list):
            out[key] = list(dict.fromkeys([*mine, *other]))
        elif key == "type":
            common = _type_intersection(mine, other)
            if not common:
                return None
            out[key] = common[0] if len(common) == 1 else common
        elif key == "enum" and isinstance(mine, list) and isinstance(other, list):
            out[key] = [v for v in mine if any(json_equal(v, w) for w in other)]
            if not out[key]:
                return None
        elif key in MINIMA and _numbers(mine, other):
            out[key] = max(mine, other)
        elif key in MAXIMA and _numbers(mine, other):
            out[key] = min(mine, other)
        elif key == "additionalProperties" and (mine is False or other is False):
            out[key] = False
        elif key == "items" and isinstance(mine, dict) and isinstance(other, dict):
            both = merge(mine, other)
            if both is None:
                return None
            out[key] = both
        elif key == "uniqueItems":
            out[key] = bool(mine or other)
        else:
            return None
    return out


def _numbers(a: Any, b: Any) -> bool:
    return all(is_json_type(v, "number") for v in (a, b))


def _type_intersection(a: Any, b: Any) -> list[str]:
    left = a if isinstance(a, list) else [a]
    right = b if isinstance(b, list) else [b]
    out = [t for t in left if t in right]
    out += [
        t
        for t in ("integer",)
        if t not in out and (t in left and "number" in right or t in right and "number" in left)
    ]
    return out
