"""example-invalid: every tool example's arguments (and result) satisfy the tool's schemas.

Arguments are checked the way the generated models check them: objects that declare
properties are closed, so a misspelt argument in an example is an error here too.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import jsonschema

from toolgen.check import patterns
from toolgen.check.context import CheckedTool, Context, describe, enum_hint, suggestion
from toolgen.diagnostics import Diagnostic, Severity
from toolgen.schema.pointer import child

ID = "example-invalid"
SUMMARY = "Tool examples are valid against `parameters` and `returns`."
SEVERITY = Severity.ERROR
PATTERN_UNCHECKED = "pattern-unchecked"  # patterns.UNCHECKED, declared with the examples rule
MORE = (patterns.UNCHECKED,)


def check(context: Context) -> Iterator[Diagnostic]:

    for tool in context.tools:
        for i, example in enumerate(tool.spec.examples):
            checks = [("arguments", "parameters", example.arguments)]
            if example.has_result:
                checks.append(("result", "returns", example.result))
            for key, schema_key, value in checks:
                schema = tool.schema(schema_key)
                if schema is None:
                    continue
                if key == "arguments":
                    schema = tool.closed_parameters
                here = tool.at(f"/examples/{i}/{key}")
                for pattern in dict.fromkeys(p for _, p in patterns.unchecked(schema)):
                    yield tool.doc.diagnostic(
                        here,
                        PATTERN_UNCHECKED,
                        f"example {key} are not checked against the pattern {pattern!r}",
                        hint=patterns.HINT,
                        severity=Severity.WARNING,
                    )
                for error in patterns.errors(patterns.validator(schema), value):
                    yield from _diagnose(tool, here, key, schema_key, error)


def _diagnose(
    tool: CheckedTool, pointer: str, key: str, schema_key: str, error: jsonschema.ValidationError
) -> Iterator[Diagnostic]:
    for part in error.absolute_path:
        pointer = child(pointer, part)
    closed = error.validator == "additionalProperties" and error.validator_value is False
    if closed and isinstance(error.instance, dict):
        allowed = list(error.schema.get("properties", {}))
        for name in _extra(error.instance, error.schema):
            yield tool.doc.diagnostic(
                child(pointer, name),
                ID,
                f"example {key} have an unknown argument {name!r}",
                hint=suggestion(name, allowed) or f"allowed: {', '.join(allowed)}",
                key=True,
            )
        return
    yield tool.doc.diagnostic(
        pointer,
        ID,
        f"example {key} do not match the {schema_key}: {describe(error)}",
        hint=enum_hint(error),
    )


def _extra(instance: dict[str, Any], schema: dict[str, Any]) -> list[str]:
    properties, pattern_keys = schema.get("properties", {}), schema.get("patternProperties", {})
    return [
        k
        for k in instance
        if k not in properties and not any(patterns.search(p, k) for p in pattern_keys)
    ]
