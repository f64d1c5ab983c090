"""default-invalid: a `default`, `example` or `examples` value satisfies the schema it sits in."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import jsonschema

from toolgen.check import patterns
from toolgen.check.context import Context, describe, enum_hint, show
from toolgen.diagnostics import Diagnostic, Severity
from toolgen.schema.pointer import unescape

ID = "default-invalid"
SUMMARY = "A `default`, `example` or `examples` value satisfies its own schema (a null default needs a nullable type)."
SEVERITY = Severity.ERROR
PATTERN_UNCHECKED = "pattern-unchecked"  # patterns.UNCHECKED, declared with the examples rule


def _has_ref(node: Any) -> bool:
    if isinstance(node, dict):
        return "$ref" in node or any(
            _has_ref(v) for k, v in node.items() if k not in ("default", "examples", "example")
        )
    if isinstance(node, list):
        return any(_has_ref(v) for v in node)
    return False


_SAMPLE_KEYS = frozenset(("default", "example", "examples"))
_PROSE = frozenset(("description", "title"))  # read by no validator


def check(context: Context) -> Iterator[Diagnostic]:
    # Equal subjects recur across tools (`type: integer, minimum: 1` with a default): each
    # distinct one, by the repr of what validation reads (1, 1.0 and True told apart; not
    # its description or title), gets one validator, and each distinct sample one verdict.
    judged: dict[str, tuple[Any, list[str]]] = {}  # subject -> validator, unchecked patterns
    verdicts: dict[tuple[str, str], Any] = {}  # (subject, sample) -> the best error, or None
    for tool in context.tools:
        for pointer, node in tool.subschemas:
            if _SAMPLE_KEYS.isdisjoint(node):
                continue  # most nodes: no sample to check
            samples: list[tuple[str, Any]] = []
            if "default" in node:
                samples.append(("default", node["default"]))
            if "example" in node:
                samples.append(("example", node["example"]))
            if isinstance(node.get("examples"), list):
                samples.extend((f"examples/{i}", v) for i, v in enumerate(node["examples"]))
            if not samples:
                continue
            subject: Any = {
                k: v for k, v in node.items() if k not in ("default", "example", "examples")
            }
            if _has_ref(node):
                subject = _bundled(
                    tool, pointer
                )  # its references resolved, as the package reads them
                if subject is None:
                    continue
            text = repr({k: v for k, v in subject.items() if k not in _PROSE})
            if text not in judged:
                judged[text] = (
                    patterns.validator(subject),
                    list(dict.fromkeys(p for _, p in patterns.unchecked(subject))),
                )
            validator, skipped = judged[text]
            for where, value in samples:
                for pattern in skipped:
                    yield tool.doc.diagnostic(
                        f"{pointer}/{where}",
                        PATTERN_UNCHECKED,
                        f"{where.split('/')[0]} is not checked against the pattern {pattern!r}",
                        hint=patterns.HINT,
                        severity=Severity.WARNING,
                    )
                sample = (text, repr(value))
                if sample not in verdicts:
                    verdicts[sample] = jsonschema.exceptions.best_match(
                        patterns.errors(validator, value)
                    )
                error = verdicts[sample]
                if error is not None:
                    yield tool.doc.diagnostic(
                        f"{pointer}/{where}",
                        ID,
                        f"{_SAMPLE[where.split('/')[0]]} {show(value)} is not valid here: {describe(error)}",
                        hint=enum_hint(error) or _hint(value),
                    )


_SAMPLE = {"default": "default", "example": "example", "examples": "example"}  # one value each


def _bundled(tool: Any, pointer: str) -> Any:
    """The subschema at `pointer` in the tool's bundled schema, without its samples and with the
    bundle's `$defs` beside it (the subschema's `#/$defs/...` references then resolve); None
    when the pointer is not in the bundle (inside a definition: checked where it is used)."""
    for root, schema in tool.schemas.items():
        if pointer != root and not pointer.startswith(root + "/"):
            continue
        node: Any = schema
        for token in pointer[len(root) :].split("/")[1:]:
            key = unescape(token)
            if isinstance(node, dict) and key in node:
                node = node[key]
            elif isinstance(node, list) and key.isdigit() and int(key) < len(node):
                node = node[int(key)]
            else:
                return None
        if not isinstance(node, dict):
            return None
        subject = {k: v for k, v in node.items() if k not in ("default", "example", "examples")}
        defs = schema.get("$defs") if isinstance(schema, dict) else None
        if isinstance(defs, dict):
            subject["$defs"] = defs
        return subject
    return None


def _hint(value: Any) -> str:
    if value is None:
        return (
            "a null default needs a nullable type (type: [string, 'null']); or remove the default"
        )
    return "fix the value, or make the schema allow it"
