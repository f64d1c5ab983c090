"""default-invalid: a `default`, `example` or `examples` value satisfies the schema it sits in."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import jsonschema

from toolgen.check import patterns
from toolgen.check.context import Context, describe, enum_hint, show
from toolgen.diagnostics import Diagnostic, Severity

ID = "default-invalid"
SUMMARY = "A `default`, `example` or `examples` value satisfies its own schema (a null default needs a nullable type)."
SEVERITY = Severity.ERROR
PATTERN_UNCHECKED = "pattern-unchecked"  # patterns.UNCHECKED, declared with the examples rule


def _has_ref(node: Any) -> bool:
    if isinstance(node, dict):
        return "$ref" in node or any(_has_ref(v) for k, v in node.items() if k not in ("default", "examples", "example"))
    if isinstance(node, list):
        return any(_has_ref(v) for v in node)
    return False


def check(context: Context) -> Iterator[Diagnostic]:
    for tool in context.tools:
        for pointer, node in tool.subschemas:
            samples: list[tuple[str, Any]] = []
            if "default" in node:
                samples.append(("default", node["default"]))
            if "example" in node:
                samples.append(("example", node["example"]))
            if isinstance(node.get("examples"), list):
                samples.extend((f"examples/{i}", v) for i, v in enumerate(node["examples"]))
            if not samples or _has_ref(node):
                continue  # referenced parts are checked where they are defined
            subject = {k: v for k, v in node.items() if k not in ("default", "example", "examples")}
            validator = patterns.validator(subject)
            skipped = list(dict.fromkeys(p for _, p in patterns.unchecked(subject)))
            for where, value in samples:
                for pattern in skipped:
                    yield tool.doc.diagnostic(f"{pointer}/{where}", PATTERN_UNCHECKED,
                                              f"{where.split('/')[0]} is not checked against the pattern {pattern!r}",
                                              hint=patterns.HINT, severity=Severity.WARNING)
                error = jsonschema.exceptions.best_match(validator.iter_errors(value))
                if error is not None:
                    yield tool.doc.diagnostic(
                        f"{pointer}/{where}", ID,
                        f"{where.split('/')[0]} {show(value)} is not valid here: {describe(error)}",
                        hint=enum_hint(error) or _hint(value),
                    )


def _hint(value: Any) -> str:
    if value is None:
        return "a null default needs a nullable type (type: [string, 'null']); or remove the default"
    return "fix the value, or make the schema allow it"
