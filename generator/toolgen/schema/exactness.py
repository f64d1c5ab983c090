"""Whether a tool's generated model enforces its schema exactly, or needs the exact check too.

The typemap (typemap.py) maps every schema to a pydantic type that accepts at least what
the schema accepts: a keyword it cannot express is left out of the model. A schema the
model expresses exactly needs nothing more (the valid path stays one pydantic-core call);
any other gets the runtime's exact check (runtime/validation/exact/checker.py), run once the model accepted
the value. This module is the list of what the model expresses exactly. It is
conservative on purpose: a keyword missing here costs the exact check's run time; a
keyword wrongly listed here would let through what the schema refuses.

Read together with typemap.py: each rule here names the typemap line it relies on.
"""

from __future__ import annotations

import json
import math
from typing import Any

from toolgen.memo import Bounded
from toolgen.runtime.types import is_json_type
from toolgen.schema.keywords import ANNOTATIONS
from toolgen.schema.patterns import ecma, pydantic_exact

# Keywords with no effect on validity (2020-12 annotations, toolgen's extensions).
_INERT = ANNOTATIONS | {
    "title",
    "description",
    "default",
    "examples",
    "example",
    "format",
    "$schema",
    "$defs",
    "definitions",
    "x-secret",
    "x-coerce",
    "x-repair",
}
# Per type, the keywords the typemap turns into exact pydantic constraints (a subset of
# keywords.BY_TYPE, which says why).
_STRING = {"minLength", "maxLength", "pattern"}
_INTEGER = {"minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum", "multipleOf"}
_BOUNDS = {"minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum"}
_NUMBER = _BOUNDS | {"multipleOf"}  # multipleOf: exact when compiled_multiple
_ARRAY = {"items", "minItems", "maxItems", "uniqueItems"}  # uniqueItems: when compiled_unique
_OBJECT = {"properties", "required", "additionalProperties"}
_BY_TYPE = {
    "string": _STRING,
    "integer": _INTEGER,
    "number": _NUMBER,
    "boolean": set(),
    "null": set(),
    "array": _ARRAY,
    "object": _OBJECT,
}
_EVERY_TYPE_KEYWORD = set().union(*_BY_TYPE.values())
# What an array's items may be for `uniqueItems` to be compiled (typemap: JSON values, no class).
_SCALAR_TYPES = {"string", "integer", "number", "boolean", "null"}
_SCALAR_ITEM_KEYS = _INERT | _STRING | _BOUNDS | {"type", "enum", "const", "multipleOf"}
_FLOAT_EXACT = (
    2.0**53
)  # a bound below this compares exactly with any int pydantic turns into a float


def compiled_pattern(pattern: Any) -> bool:
    """A `pattern` Rust's engine reads otherwise, with an exact Python reading: typemap.typed
    compiles it into the field (`_fields.Pattern`, runtime/validation/exact/fields.py)."""
    return isinstance(pattern, str) and not pydantic_exact(pattern) and ecma(pattern) is not None


def compiled_multiple(step: Any) -> bool:
    """A number's `multipleOf` that typemap.typed compiles into the field (`_fields.MultipleOf`)."""
    return is_json_type(step, "number") and math.isfinite(step) and step > 0


def compiled_unique(schema: dict[str, Any]) -> bool:
    """`uniqueItems: true` on an array whose items the typemap maps to JSON values (absent
    `items`, or scalar items: never a generated class, whose instances are not JSON): typemap.typed
    compiles it into the field (`_fields.Unique`)."""
    if schema.get("uniqueItems") is not True or "prefixItems" in schema:
        return False
    items = schema.get("items")
    if items is None or items is True:
        return True
    if not isinstance(items, dict) or not set(items) <= _SCALAR_ITEM_KEYS:
        return False
    types = items.get("type")
    kinds = types if isinstance(types, list) else [types]
    return ("enum" in items or "const" in items or types is not None) and all(
        k is None or k in _SCALAR_TYPES for k in kinds
    )


def exact(schema: Any, defs: dict[str, Any]) -> bool:
    """True when the model the typemap builds for `schema` accepts exactly what `schema` accepts."""
    return _Exactness(defs).schema(schema)


# `exact_root`'s answers, by the repr of the schema (which tells 1, 1.0 and True apart).
_ROOTS: Bounded[str, bool] = Bounded(4096)


def exact_root(schema: Any, text: str | None = None) -> bool:
    """`exact` of a self-contained schema (its references into its own `$defs`), judged once
    per distinct content: `text` is `repr(schema)` when the caller has it. Worth it where
    contents recur (a spec set's `returns` repeat a few shapes), not where each is new."""
    key = repr(schema) if text is None else text
    found = _ROOTS.get(key)
    if found is None:
        defs = schema.get("$defs", {}) if isinstance(schema, dict) else {}
        found = _ROOTS.keep(key, exact(schema, defs if isinstance(defs, dict) else {}))
    return found


class _Exactness:
    def __init__(self, defs: dict[str, Any]) -> None:
        self.defs = defs
        self.seen: set[str] = set()

    def schema(self, schema: Any) -> bool:
        if schema is False:
            return False  # the typemap gives Any: the exact check refuses
        if not isinstance(schema, dict):
            return (
                True  # `true`: Any (NaN and Infinity are refused where JSON is read: validation.py)
            )
        keys = {k for k in schema if k not in _INERT and not k.startswith("x-")}
        if not keys:
            return True
        if "$ref" in schema:  # typemap.reference: the target only, siblings left out
            return keys == {"$ref"} and self.reference(schema["$ref"])
        if "const" in schema or "enum" in schema:
            return self.values(schema, keys)
        types = schema.get("type")
        if isinstance(types, str):
            return self.typed(types, schema, keys - {"type"})
        if isinstance(types, list) and types and all(isinstance(t, str) for t in types):
            if len(set(types)) != len(types):
                return False
            return all(self.typed(t, schema, keys - {"type"}) for t in types)
        if (
            len(keys) == 1
            and keys <= {"anyOf", "oneOf"}
            and isinstance(schema[next(iter(keys))], list)
        ):
            # typemap.union: a value one branch takes; exact when branches do not overlap
            # by type (then the branch pydantic picks is the one that takes the value).
            keyword = next(iter(keys))
            return self.disjoint(schema[keyword], exclusive=keyword == "oneOf")
        return False

    def typed(self, kind: str, schema: dict[str, Any], keys: set[str]) -> bool:
        # Another type's keywords are ignored on this type (keywords.BY_TYPE): any of them may be here.
        if kind not in _BY_TYPE or not keys <= _EVERY_TYPE_KEYWORD:
            return False
        if kind == "string":
            pattern = schema.get("pattern")
            return pattern is None or (
                isinstance(pattern, str) and (pydantic_exact(pattern) or compiled_pattern(pattern))
            )
        if kind == "number":
            if "multipleOf" in keys and not compiled_multiple(schema["multipleOf"]):
                return False
            return all(
                isinstance(schema[k], (int, float)) and abs(schema[k]) < _FLOAT_EXACT
                for k in keys & _BOUNDS
            )
        if kind == "array":
            if schema.get("uniqueItems", False) is not False and not compiled_unique(schema):
                return False
            return "items" not in schema or self.schema(schema["items"])
        if kind == "object":
            return self.object(schema)
        return True

    def object(self, schema: dict[str, Any]) -> bool:
        properties = schema.get("properties")
        additional = schema.get("additionalProperties", True)
        if not isinstance(properties, dict) or not properties:
            # typemap.object: `dict[str, X]` (X: Any when additionalProperties is absent or true)
            # or a class without fields, closed (additionalProperties: false)
            return (
                not properties
                and not schema.get("required")
                and (
                    isinstance(additional, bool)
                    or isinstance(additional, dict)
                    and self.schema(additional)
                )
            )
        required = schema.get("required", [])
        if not isinstance(required, list) or not set(required) <= set(properties):
            return False  # a required key the model does not declare
        if (
            additional is not False
            and additional is not True
            and not (isinstance(additional, dict) and self.schema(additional))
        ):
            return False
        # An optional key takes `null` as absent (a documented repair): exact only where null is valid.
        for sub in properties.values():
            if not self.schema(sub):
                return False
        return True

    def values(self, schema: dict[str, Any], keys: set[str]) -> bool:
        """typemap.literal: JSON-equality membership; the type and other keywords are left out."""
        values = [schema["const"]] if "const" in schema else schema["enum"]
        if not isinstance(values, list) or not keys <= {"const", "enum", "type"}:
            return False
        types = schema.get("type")
        if types is None:
            return True
        kinds = [types] if isinstance(types, str) else types
        return isinstance(kinds, list) and all(
            any(is_json_type(v, k) for k in kinds) for v in values
        )

    def reference(self, ref: Any) -> bool:
        if not isinstance(ref, str) or not ref.startswith("#/$defs/"):
            return False
        name = ref.removeprefix("#/$defs/")
        if name in self.seen:
            return True  # recursion: judged where it started
        self.seen.add(name)
        return self.schema(self.defs.get(name, False))

    def disjoint(self, branches: list[Any], exclusive: bool) -> bool:
        """Branches no value can match two of (each by its own type, or objects told apart by
        a required key's distinct `const`): then the branch pydantic picks is the one that
        takes the value, and `oneOf` holds whenever `anyOf` does. An `anyOf` of `integer` and
        `number` is `number` (its union takes what either takes)."""
        kinds: list[str] = []
        for branch in branches:
            if (
                not isinstance(branch, dict)
                or not isinstance(branch.get("type"), str)
                or not self.schema(branch)
            ):
                return False
            kinds.append(branch["type"])
        if exclusive and {"integer", "number"} <= set(kinds):
            return False
        objects = [b for b in branches if b["type"] == "object"]
        others = [k for k in kinds if k != "object"]
        return len(set(others)) == len(others) and (len(objects) <= 1 or _tagged(objects))


def _tagged(objects: list[dict[str, Any]]) -> bool:
    """Object branches that share a required key whose `const` differs in each."""
    shared = set.intersection(*(set(b.get("required") or []) for b in objects))
    for key in sorted(shared, key=str):
        values = [((b.get("properties") or {}).get(key) or {}) for b in objects]
        if all(isinstance(v, dict) and "const" in v for v in values):
            consts = [json.dumps(v["const"], sort_keys=True) for v in values]
            if len(set(consts)) == len(consts):
                return True
    return False
