"""Close argument objects: wherever properties are declared, undeclared keys are refused.

A model's typo must never be dropped silently, so every object that declares
`properties` gets `additionalProperties: false` unless the spec says otherwise.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from toolgen.schema.keywords import PARTIAL, SCHEMA_LISTS, SCHEMA_MAPS, SCHEMA_VALUES


def closed(schema: Any, close: bool = True, open_defs: frozenset[str] | None = None) -> Any:
    """Arguments are closed wherever properties are declared (no silent drops of a typo).

    Not an `allOf` branch, nor a definition an `allOf` branch refers to: closed, each
    branch would refuse the others' properties. (The Python model of a merged `allOf`
    is closed all the same: typemap merges the branches into one class.)
    """
    if not isinstance(schema, dict):
        return schema
    if open_defs is None:
        open_defs = frozenset(_all_of_refs(schema))
    out: dict[str, Any] = {}
    for key, value in schema.items():
        if key in SCHEMA_MAPS and isinstance(value, dict):
            out[key] = {name: closed(sub, key != "dependentSchemas" and not (key == "$defs" and name in open_defs),
                                     open_defs) for name, sub in value.items()}
        elif key in SCHEMA_LISTS and isinstance(value, list):
            out[key] = [closed(sub, key != "allOf", open_defs) for sub in value]
        elif key in SCHEMA_VALUES:
            out[key] = closed(value, key not in PARTIAL, open_defs)
        else:
            out[key] = value
    if close and "properties" in out and "additionalProperties" not in out:
        out["additionalProperties"] = False
    return out


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
