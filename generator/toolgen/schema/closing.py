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

# Subschemas that apply to the object itself, whose keys are the object's keys (not `not`:
# the keys it names are the ones refused).
IN_PLACE_LISTS = ("allOf", "anyOf", "oneOf")
IN_PLACE_VALUES = ("if", "then", "else")


def closed(
    schema: Any,
    close: bool = True,
    open_defs: frozenset[str] | None = None,
    defs: dict[str, Any] | None = None,
    outer: tuple[str, ...] = (),
) -> Any:
    """Arguments are closed wherever properties are declared (no silent drops of a typo).

    Not an `allOf` branch, nor a definition an `allOf` branch refers to: closed, each
    branch would refuse the others' properties. (The Python model of a merged `allOf`
    is closed all the same: typemap merges the branches into one class.) An `anyOf` or
    `oneOf` branch is closed with `outer`, the keys of the object around it, declared: it
    says which of its own keys may come, not that the object's other keys may not.
    """
    if not isinstance(schema, dict):
        return schema
    if open_defs is None:
        open_defs = frozenset(_all_of_refs(schema))
    if defs is None:
        found = schema.get("$defs")
        defs = found if isinstance(found, dict) else {}
    out: dict[str, Any] = {}
    for key, value in schema.items():
        if key in SCHEMA_MAPS and isinstance(value, dict):
            out[key] = {
                name: closed(
                    sub,
                    key != "dependentSchemas" and not (key == "$defs" and name in open_defs),
                    open_defs,
                    defs,
                )
                for name, sub in value.items()
            }
        elif key in SCHEMA_LISTS and isinstance(value, list):
            around = _declared(schema) if key in ("anyOf", "oneOf") else ()
            out[key] = [closed(sub, key != "allOf", open_defs, defs, around) for sub in value]
        elif key in SCHEMA_VALUES:
            out[key] = closed(value, key not in PARTIAL, open_defs, defs)
        else:
            out[key] = value
    if close and isinstance(out.get("properties"), dict) and "additionalProperties" not in out:
        named = [
            k
            for k in dict.fromkeys([*_named_keys(schema, defs, frozenset()), *outer])
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
