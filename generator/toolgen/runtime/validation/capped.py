# Part of toolgen's runtime, copied verbatim into generated packages (edit toolgen, not a copy).
"""The dict reader of a class whose only unbounded values are its own arrays: the class's
validator with each of those arrays capped by pydantic-core itself (`max_length`), so that
its pass over any dict is bounded by the schema, with nothing counted on the valid path.

Without it, such a class's pass is bounded per call by the lengths of its arrays
(bounds.visits), looked at before the dict is read: 0.2-0.4 µs, 8-11% of the valid path of
a call with one or two arrays. The caps are as large as keeps the bound a constant within
the budget (`bounds.budget`): pydantic-core stops one item past a cap, so the class's own
values plus, for each array, its brackets and `cap + 1` items are at most the budget. An
array past its cap may be valid: whatever this reader refuses is read again as before
(validate.py), so its refusals are never reported and what is accepted does not change.

What it builds is the class's own instance: its schema is the class's, with the class as
its root. pydantic-core compiles a `model` schema of a complete class as that class's
prebuilt validator (it would ignore the caps), so the class is marked incomplete while the
reader is compiled (under a lock; pydantic reads the mark only to rebuild a class), and the
caps are tried on the compiled reader (one item past a cap), else the class has no reader.
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from typing import Any

from pydantic import BaseModel
from pydantic_core import SchemaError, SchemaValidator, ValidationError

from . import bounds
from .nesting import WRAPPERS

# The least cap worth a reader: below it, calls with a longer array would often be read twice.
MIN_CAP = 100
_LOCK = threading.Lock()
_MISSING = object()


class _Uncapped(Exception):
    """A schema this module does not know how to cap."""


def reader(model: type[BaseModel], budget: int) -> Callable[[Any], Any] | None:
    """The class's capped dict reader (its `validate_python`), or None: the class leaves
    other values unbounded, has no unbounded array, or its caps would be under MIN_CAP."""
    found = bounds.own_arrays(model)
    if found is None or not found[1]:
        return None
    fixed, arrays = found
    # fixed + sum(1 + (cap + 1) * per) <= budget
    cap = (budget - fixed - len(arrays)) // sum(per for _, per in arrays) - 1
    if cap < MIN_CAP:
        return None
    own: Any = model.__pydantic_core_schema__
    try:
        schema = _capped(own, {key for key, _ in arrays}, cap)
        validator = _compiled(model, schema)
    except (_Uncapped, KeyError, TypeError, SchemaError):
        return None
    return validator.validate_python if _holds(validator, arrays[0][0], cap) else None


def _capped(schema: dict[str, Any], keys: set[str], cap: int) -> dict[str, Any]:
    """The class's core schema with the arrays at `keys` capped (only the path to them copied)."""
    if schema["type"] == "definitions":  # classes used twice, the class itself at the root
        return {**schema, "schema": _capped(schema["schema"], keys, cap)}
    if schema["type"] != "model" or schema["schema"]["type"] != "model-fields":
        raise _Uncapped
    fields = dict(schema["schema"]["fields"])
    for name, field in fields.items():
        if field.get("validation_alias", name) in keys:
            fields[name] = {**field, "schema": _array(field["schema"], cap)}
    return {**schema, "schema": {**schema["schema"], "fields": fields}}


def _array(schema: dict[str, Any], cap: int) -> dict[str, Any]:
    kind = schema["type"]
    if kind in WRAPPERS:
        return {**schema, "schema": _array(schema["schema"], cap)}
    if kind in ("list", "set", "frozenset") and schema.get("max_length") is None:
        return {**schema, "max_length": cap}
    raise _Uncapped


def _compiled(model: type[BaseModel], schema: dict[str, Any]) -> SchemaValidator:
    """`schema` compiled, the class's own `model` schema from the schema (not prebuilt)."""
    root = schema["schema"] if schema["type"] == "definitions" else schema
    with _LOCK:
        complete = model.__dict__.get("__pydantic_complete__", _MISSING)
        model.__pydantic_complete__ = False
        try:
            return SchemaValidator(schema, root.get("config"))
        finally:
            if complete is _MISSING:
                delattr(model, "__pydantic_complete__")
            else:
                model.__pydantic_complete__ = complete


def _holds(validator: SchemaValidator, key: str, cap: int) -> bool:
    """Whether the compiled reader caps the array at `key`: one item past the cap is refused
    as too long (not as that many items)."""
    try:
        validator.validate_python({key: [None] * (cap + 1)})
    except ValidationError as exc:
        return exc.error_count() <= cap and any(
            e["type"] == "too_long" and tuple(e["loc"]) == (key,)
            for e in exc.errors(include_url=False)
        )
    return False
