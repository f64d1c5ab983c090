"""required-missing-property: every name in `required` is a declared property."""

from __future__ import annotations

from collections.abc import Iterator

from toolgen.check.context import Context, suggestion
from toolgen.diagnostics import Diagnostic, Severity

ID = "required-missing-property"
SUMMARY = "Names in `required` are declared in `properties` (toolgen closes objects that declare properties)."
SEVERITY = Severity.ERROR


def check(context: Context) -> Iterator[Diagnostic]:
    for tool in context.tools:
        for pointer, node in tool.subschemas:
            if "required" not in node:
                continue  # most nodes
            required, properties = node["required"], node.get("properties")
            if not isinstance(required, list) or not isinstance(properties, dict):
                continue
            for i, name in enumerate(required):
                if isinstance(name, str) and name not in properties:
                    yield tool.doc.diagnostic(
                        f"{pointer}/required/{i}",
                        ID,
                        f"required property {name!r} is not declared",
                        hint=suggestion(name, properties)
                        or "declare it under properties, or remove it",
                    )
