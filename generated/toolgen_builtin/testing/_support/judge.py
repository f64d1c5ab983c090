# Part of toolgen's runtime, copied verbatim into generated packages (edit toolgen, not a copy).
"""The judge of drawn values and results: jsonschema, reading the keywords the way JSON
Schema (and the package's own check) does where jsonschema's Python reading differs.

Needs jsonschema (the package's `testing` extra), not hypothesis: toolgen's generator uses
it too, to keep only the `enum` values a schema accepts.
"""

from __future__ import annotations

import functools
import importlib
from typing import Any

from ._link import ecma_pattern, is_multiple


def json_schema_validator(schema: Any) -> Any:
    """A jsonschema Draft 2020-12 validator that reads `pattern` and `patternProperties` as
    ECMA-262 (JSON Schema's dialect, not Python's `re`) and `multipleOf` on the decimal
    numbers written, as the package's own check does (jsonschema divides floats: it refuses
    0.0107 as a multiple of 0.0001). jsonschema ships no type information, hence Any."""
    return _validator_class()(_ecma_patterns(schema))


@functools.cache
def _validator_class() -> Any:
    jsonschema = importlib.import_module("jsonschema")

    def multiple_of(validator: Any, step: Any, instance: Any, schema: Any) -> Any:
        if validator.is_type(instance, "number") and not is_multiple(instance, step):
            yield jsonschema.ValidationError(f"{instance!r} is not a multiple of {step}")

    return jsonschema.validators.extend(
        jsonschema.Draft202012Validator, {"multipleOf": multiple_of}
    )


_DATA = frozenset({"const", "enum", "default", "examples"})  # values, not schemas
_NAMED = frozenset({"properties", "$defs", "definitions", "dependentSchemas"})  # name -> schema


def _ecma_patterns(schema: Any) -> Any:
    """`schema` without `$schema` (jsonschema would judge a subschema that has one by its
    stock class), each `pattern` and `patternProperties` key rewritten to the Python regex of
    the same meaning (ECMA's ASCII `\\d`, `$` the very end, ...); a pattern with no exact
    rewriting stays as written (lint refuses it)."""
    if isinstance(schema, list):
        return [_ecma_patterns(item) for item in schema]
    if not isinstance(schema, dict):
        return schema
    out: dict[str, Any] = {}
    for key, value in schema.items():
        if key == "$schema":
            continue
        if key in _DATA:
            out[key] = value
        elif key == "pattern" and isinstance(value, str):
            out[key] = _python_regex(value)
        elif key == "patternProperties" and isinstance(value, dict):
            out[key] = {_python_regex(k): _ecma_patterns(v) for k, v in value.items()}
        elif key in _NAMED and isinstance(value, dict):  # names are not keywords
            out[key] = {name: _ecma_patterns(v) for name, v in value.items()}
        else:
            out[key] = _ecma_patterns(value)
    return out


def _python_regex(pattern: str) -> str:
    compiled = ecma_pattern(pattern)
    return pattern if compiled is None else "(?a)" + compiled.pattern
