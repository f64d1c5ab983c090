"""Close argument objects: wherever properties are declared, undeclared keys are refused.

A model's typo must never be dropped silently, so every object that declares
`properties` gets `additionalProperties: false` unless the spec says otherwise.
Keys the object's own combinators name (`allOf`/`anyOf`/`oneOf` branches, `if`/`then`/
`else`, `dependentSchemas`, `dependentRequired`, a `$ref` beside `properties`) count
as declared: closing adds each one missing from `properties` as `{}` (any value; the
combinator that names it still says what it takes), so no key is both required and
refused.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from toolgen.schema.keywords import PARTIAL, SCHEMA_LISTS, SCHEMA_MAPS, SCHEMA_VALUES

_SUBSCHEMAS = SCHEMA_MAPS | SCHEMA_LISTS | SCHEMA_VALUES
# Subschemas that apply to the object itself, whose keys are the object's keys (not `not`:
# the keys it names are the ones refused).
IN_PLACE_LISTS = ("allOf", "anyOf", "oneOf")
IN_PLACE_VALUES = ("if", "then", "else")


def closed(schema: Any) -> Any:
    """Arguments are closed wherever properties are declared (no silent drops of a typo).

    Not an `allOf` branch, nor a definition an `allOf` branch refers to: closed, each
    branch would refuse the others' properties. (The Python model of a merged `allOf`
    is closed all the same: typemap merges the branches into one class.) An `anyOf` or
    `oneOf` branch is closed with `outer`, the keys of the object around it, declared: it
    says which of its own keys may come, not that the object's other keys may not.
    """
    if not isinstance(schema, dict):
        return schema
    found = schema.get("$defs")
    return _Closing(schema, found if isinstance(found, dict) else {}).closed(schema, True, ())


class _Closing:
    """One closing of a root schema: its `$defs`, and which of them stay open."""

    def __init__(self, root: dict[str, Any], defs: dict[str, Any]) -> None:
        self.root = root
        self.defs = defs
        self._open_defs: frozenset[str] | None = None

    @property
    def open_defs(self) -> frozenset[str]:
        """The definitions some `allOf` refers to: found when a `$defs` is first met (the
        walk for them is skipped where there are none, as in most schemas)."""
        if self._open_defs is None:
            self._open_defs = frozenset(_all_of_refs(self.root))
        return self._open_defs

    def closed(self, schema: Any, close: bool, outer: tuple[str, ...]) -> Any:
        if not isinstance(schema, dict):
            return schema
        if _SUBSCHEMAS.isdisjoint(schema):  # a leaf (most nodes): no properties to close
            return dict(schema)
        out: dict[str, Any] = {}
        for key, value in schema.items():
            if not isinstance(value, (dict, list)):
                out[key] = value  # a keyword's value, or a boolean schema: as it is
            elif key in SCHEMA_MAPS and isinstance(value, dict):
                out[key] = {
                    name: self.closed(
                        sub,
                        key != "dependentSchemas"
                        and not (key == "$defs" and name in self.open_defs),
                        (),
                    )
                    for name, sub in value.items()
                }
            elif key in SCHEMA_LISTS and isinstance(value, list):
                around = _declared(schema) if key in ("anyOf", "oneOf") else ()
                out[key] = [self.closed(sub, key != "allOf", around) for sub in value]
            elif key in SCHEMA_VALUES:
                out[key] = self.closed(value, key not in PARTIAL, ())
            else:
                out[key] = value
        if close and isinstance(out.get("properties"), dict) and "additionalProperties" not in out:
            named = [
                k
                for k in dict.fromkeys([*_named_keys(schema, self.defs, frozenset()), *outer])
                if k not in out["properties"]
            ]
            if named:
                out["properties"] = {**out["properties"], **{k: {} for k in named}}
            out["additionalProperties"] = False
        return out


def _declared(schema: dict[str, Any]) -> tuple[str, ...]:
    """The keys an object declares itself (not those its other branches name: a branch that
    does not declare a sibling branch's key still refuses it, as its author wrote)."""
    own = schema.get("properties")
    return tuple(own) if isinstance(own, dict) else ()


def _named_keys(
    schema: dict[str, Any], defs: dict[str, Any], seen: frozenset[str]
) -> Iterator[str]:
    """Keys the combinators of an object schema declare or require, in document order."""
    for key in IN_PLACE_LISTS:
        branches = schema.get(key)
        for branch in branches if isinstance(branches, list) else ():
            yield from _keys_of(branch, defs, seen)
    for key in IN_PLACE_VALUES:
        yield from _keys_of(schema.get(key), defs, seen)
    dependent = schema.get("dependentSchemas")
    for sub in dependent.values() if isinstance(dependent, dict) else ():
        yield from _keys_of(sub, defs, seen)
    required = schema.get("dependentRequired")
    for trigger, names in required.items() if isinstance(required, dict) else ():
        yield trigger
        yield from (
            (name for name in names if isinstance(name, str)) if isinstance(names, list) else ()
        )
    ref = schema.get("$ref")
    if isinstance(ref, str) and "properties" in schema:
        yield from _keys_of({"$ref": ref}, defs, seen)


def _keys_of(branch: Any, defs: dict[str, Any], seen: frozenset[str]) -> Iterator[str]:
    """The keys one in-place subschema declares or requires, through its own combinators and `$ref`s."""
    if not isinstance(branch, dict):
        return
    ref = branch.get("$ref")
    if isinstance(ref, str) and ref.startswith("#/$defs/"):
        name = ref.removeprefix("#/$defs/")
        if name not in seen and isinstance(defs.get(name), dict):
            yield from _keys_of(defs[name], defs, seen | {name})
    properties = branch.get("properties")
    if isinstance(properties, dict):
        yield from properties
    required = branch.get("required")
    if isinstance(required, list):
        yield from (name for name in required if isinstance(name, str))
    yield from _named_keys({k: v for k, v in branch.items() if k != "$ref"}, defs, seen)


def _all_of_refs(schema: Any) -> Iterator[str]:
    """Names of the `#/$defs/...` that some `allOf` lists as a branch."""
    if not isinstance(schema, dict):
        return
    for key, value in schema.items():
        if key in SCHEMA_MAPS and isinstance(value, dict):
            for sub in value.values():
                yield from _all_of_refs(sub)
        elif key in SCHEMA_LISTS and isinstance(value, list):
            for sub in value:
                if key == "allOf" and isinstance(sub, dict) and isinstance(sub.get("$ref"), str):
                    yield sub["$ref"].removeprefix("#/$defs/")
                yield from _all_of_refs(sub)
        elif key in SCHEMA_VALUES:
            yield from _all_of_refs(value)
