"""enum-type-mismatch: `enum` or `const` values the schema's own `type` refuses can never be sent."""

from __future__ import annotations

from collections.abc import Iterator

from toolgen.check.context import Context, show
from toolgen.diagnostics import Diagnostic, Severity
from toolgen.runtime.types import is_json_type
from toolgen.schema.keywords import JSON_TYPES

ID = "enum-type-mismatch"
SUMMARY = (
    "`enum` and `const` values fit the schema's `type`: a value the type refuses can never be sent "
    "(and with none left, nothing can)."
)
SEVERITY = Severity.WARNING


def check(context: Context) -> Iterator[Diagnostic]:
    for tool in context.tools:
        for pointer, node in tool.subschemas:
            if "enum" not in node and "const" not in node:
                continue  # most nodes: nothing to compare with the type
            types = node.get("type")
            kinds = (
                [types] if isinstance(types, str) else types if isinstance(types, list) else None
            )
            if not kinds or not all(isinstance(k, str) and k in JSON_TYPES for k in kinds):
                continue
            for keyword in ("enum", "const"):
                if keyword not in node:
                    continue
                values = node[keyword] if keyword == "enum" else [node[keyword]]
                if not isinstance(values, list):
                    continue
                refused = [v for v in values if not any(is_json_type(v, k) for k in kinds)]
                if not refused:
                    continue
                shown = ", ".join(show(v) for v in refused[:5]) + (" …" if len(refused) > 5 else "")
                if len(refused) == len(values):
                    message = (
                        f"no value of {keyword} is of type {show(types)}: no value can be sent"
                    )
                else:
                    message = f"{keyword} values of another type than {show(types)} can never be sent: {shown}"
                yield tool.doc.diagnostic(
                    f"{pointer}/{keyword}",
                    ID,
                    message,
                    severity=SEVERITY,
                    hint="make the values and the type agree (or widen the type)",
                )
