# Part of toolgen's runtime, copied verbatim into generated packages (edit toolgen, not a copy).
"""The dict reader of a class whose only unbounded values are its own arrays: the class's
validator with each of those arrays capped by pydantic-core itself (`max_length`), so that
its pass over any dict is bounded by the schema, with nothing counted on the valid path.

Without it, such a class's pass is bounded per call by the lengths of its arrays
(bounds.visits), looked at before the dict is read: 0.2-0.4 µs, 8-11% of the valid path of
a call with one or two arrays. The caps are as large as keeps the bound a constant within
the budget (`bounds.budget`): pydantic-core stops one item past a cap, so the class's own
values plus, for each array, its brackets and `cap + 1` items are at most the budget.

The reader differs from the class only where an array is past its cap. A dict it refuses
whose arrays, as sent, are within their caps (`fits`: no function reads them first) has the
class's own errors, reported as they are; any other (an array past its cap may be valid) is
read again as before (validate.py). So what is accepted and reported does not change.

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
Fits = Callable[[dict[Any, Any]], bool]
Reader = tuple[Callable[[Any], Any], Fits]
# The wrappers under which the array validated is the value sent, and values never read as one.
_AFTER_ONLY = frozenset({"nullable", "default", "function-after"})
_NOT_ARRAYS = frozenset({str, int, float, bool, type(None), dict})
_LOCK = threading.Lock()
_MISSING = object()


class _Uncapped(Exception):
    """A schema this module does not know how to cap."""


def reader(model: type[BaseModel], budget: int) -> Reader | None:
    """The class's capped dict reader (its `validate_python`) and the test telling that a
    dict it refused is refused by the class too (`fits`); or None: the class leaves other
    values unbounded, has no unbounded array, its caps would be under MIN_CAP, or its own
    validator is wrapped (by a pydantic plugin)."""
    if type(model.__pydantic_validator__) is not SchemaValidator:
        return None  # (pydantic's plugins wrap it: what they observe is the class's own)
    found = bounds.own_arrays(model)
    if found is None or not found[1]:
        return None
    fixed, arrays = found
    # fixed + sum(1 + (cap + 1) * per) <= budget
    cap = (budget - fixed - len(arrays)) // sum(per for _, per in arrays) - 1
    if cap < MIN_CAP:
        return None
    keys = [key for key, _ in arrays]
    own: Any = model.__pydantic_core_schema__
    try:
        schema, plain = _capped(own, set(keys), cap)
        validator = _compiled(model, schema)
    except (_Uncapped, KeyError, TypeError, SchemaError):
        return None
    if not _holds(validator, keys[0], cap):
        return None
    return validator.validate_python, _fits(keys, cap) if plain else _never


def _capped(schema: dict[str, Any], keys: set[str], cap: int) -> tuple[dict[str, Any], bool]:
    """The class's core schema with the arrays at `keys` capped (only the path to them
    copied), and whether each capped array is the value sent at its key (no function reads
    it first, and the class reads its fields by their aliases only)."""
    if schema["type"] == "definitions":  # classes used twice, the class itself at the root
        inner, plain = _capped(schema["schema"], keys, cap)
        return {**schema, "schema": inner}, plain
    if schema["type"] != "model" or schema["schema"]["type"] != "model-fields":
        raise _Uncapped
    config = schema.get("config") or {}
    by_name = config.get("validate_by_name") or config.get("populate_by_name")
    fields = dict(schema["schema"]["fields"])
    plain = True
    for name, field in fields.items():
        alias = field.get("validation_alias", name)
        if alias in keys:
            fields[name] = {**field, "schema": _array(field["schema"], cap)}
            plain = plain and _sent(field["schema"]) and not (by_name and alias != name)
    return {**schema, "schema": {**schema["schema"], "fields": fields}}, plain


def _array(schema: dict[str, Any], cap: int) -> dict[str, Any]:
    kind = schema["type"]
    if kind in WRAPPERS:
        return {**schema, "schema": _array(schema["schema"], cap)}
    if kind in ("list", "set", "frozenset") and schema.get("max_length") is None:
        return {**schema, "max_length": cap}
    raise _Uncapped


def _sent(schema: dict[str, Any]) -> bool:
    """Whether the array under these wrappers is validated from the value sent as it is."""
    while schema["type"] in WRAPPERS:
        if schema["type"] not in _AFTER_ONLY:
            return False
        schema = schema["schema"]
    return True


def _fits(keys: list[str], cap: int) -> Fits:
    def fits(arguments: dict[Any, Any]) -> bool:
        """Whether every capped array, as sent, is within its cap: then the reader's verdict
        is the class's, its refusal the class's own."""
        for key in keys:
            item: Any = arguments.get(key)
            kind = type(item)
            if kind is list:
                if len(item) > cap:
                    return False
            elif kind not in _NOT_ARRAYS:  # (a tuple or a set may be read as an array)
                return False
        return True

    return fits


def _never(arguments: dict[Any, Any]) -> bool:
    return False


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
