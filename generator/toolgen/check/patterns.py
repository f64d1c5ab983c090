"""Checking examples and defaults with patterns read as ECMA-262, as the generated package reads them.

A spec's patterns are ECMA-262 (`\\d` is ASCII, `\\p{L}` is valid); jsonschema would read
them as Python's `re` (or raise `re.error`). Here they take the runtime's exact translation
(schema/patterns.py `ecma`); a pattern with none is skipped (it constrains nothing in the
check) and reported once, located, as `pattern-unchecked`.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import jsonschema
import jsonschema.validators
from referencing.exceptions import Unresolvable

from toolgen.check.context import Rule
from toolgen.diagnostics import Severity
from toolgen.schema.patterns import ecma
from toolgen.schema.walk import walk

UNCHECKED = Rule(
    "pattern-unchecked",
    Severity.WARNING,
    "An example or default is checked against every `pattern`; one Python's `re` cannot compile "
    "(`\\p{L}`) is skipped in that check, with this warning at the pattern.",
)

HINT = "Python's `re` cannot compile it; an equivalent it accepts (`[^\\W\\d_]` for `\\p{L}`) gets it checked"


def compiles(pattern: str) -> bool:
    return ecma(pattern) is not None


def search(pattern: str, text: str) -> bool:
    """ECMA-262's search, except that a pattern with no exact reading matches (it is not checked)."""
    compiled = ecma(pattern)
    return compiled is None or compiled.search(text) is not None


def _pattern(
    validator: Any, pattern: Any, instance: Any, schema: Any
) -> Iterator[jsonschema.ValidationError]:
    if isinstance(instance, str) and isinstance(pattern, str) and not search(pattern, instance):
        yield jsonschema.ValidationError(f"{instance!r} does not match {pattern!r}")


def _pattern_properties(
    validator: Any, patterns: Any, instance: Any, schema: Any
) -> Iterator[jsonschema.ValidationError]:
    if not isinstance(instance, dict) or not isinstance(patterns, dict):
        return
    for pattern, subschema in patterns.items():
        if not compiles(pattern):
            continue
        for key, value in instance.items():
            if search(pattern, key):
                yield from validator.descend(value, subschema, path=key, schema_path=pattern)


def _additional_properties(
    validator: Any, extra: Any, instance: Any, schema: Any
) -> Iterator[jsonschema.ValidationError]:
    if not isinstance(instance, dict):
        return
    properties, patterns = schema.get("properties", {}), schema.get("patternProperties", {})
    unknown = [
        k for k in instance if k not in properties and not any(search(p, k) for p in patterns)
    ]
    if isinstance(extra, dict):
        for key in unknown:
            yield from validator.descend(instance[key], extra, path=key)
    elif extra is False and unknown:
        yield jsonschema.ValidationError(
            f"Additional properties are not allowed ({', '.join(map(repr, unknown))} "
            f"{'was' if len(unknown) == 1 else 'were'} unexpected)"
        )


Validator = jsonschema.validators.extend(
    jsonschema.Draft202012Validator,
    {
        "pattern": _pattern,
        "patternProperties": _pattern_properties,
        "additionalProperties": _additional_properties,
    },
)


def validator(schema: Any) -> Any:
    """A Draft 2020-12 validator for samples that never raises `re.error`."""
    return Validator(schema)


def unchecked(schema: Any, pointer: str = "") -> Iterator[tuple[str, str]]:
    """(pointer, pattern) of each pattern in schema that `re` cannot compile."""
    for here, node in walk(schema, pointer):
        if isinstance(node.get("pattern"), str) and not compiles(node["pattern"]):
            yield f"{here}/pattern", node["pattern"]
        if isinstance(node.get("patternProperties"), dict):
            for key in node["patternProperties"]:
                if not compiles(key):
                    yield f"{here}/patternProperties", key


def errors(validator: Any, value: Any) -> list[jsonschema.ValidationError]:
    """The validation errors of a sample; none when the schema itself is broken (an unknown
    `type`, a keyword of the wrong kind): the meta-schema rule reports that, located."""
    try:
        return list(validator.iter_errors(value))
    except (
        jsonschema.exceptions.UnknownType,
        jsonschema.exceptions.SchemaError,
        Unresolvable,
        TypeError,
        ValueError,
        RecursionError,
    ):
        return []
