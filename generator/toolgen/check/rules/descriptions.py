"""description-missing: tools need a description (models read it; Bedrock requires it); properties should have one."""

from __future__ import annotations

from collections.abc import Iterator

from toolgen.check.context import Context, warn
from toolgen.diagnostics import Diagnostic, Severity
from toolgen.schema.pointer import child

ID = "description-missing"
SUMMARY = "Every tool has a description; every parameter should."
SEVERITY = Severity.ERROR
ALSO_WARNS = "for parameters"


def check(context: Context) -> Iterator[Diagnostic]:
    for tool in context.tools:
        if not tool.spec.description.strip():
            yield tool.doc.diagnostic(
                tool.at("/name"),
                ID,
                f"tool {tool.name!r} has no description",
                hint="say what the tool does and when to use it",
            )
        root = tool.at("/parameters")
        inside = f"{root}/"
        for pointer, node in tool.subschemas:  # those of `parameters` come first
            if pointer != root and not pointer.startswith(inside):
                break
            if "properties" not in node:
                continue
            for name, sub in (node["properties"] or {}).items():
                if (
                    isinstance(sub, dict)
                    and not str(sub.get("description", "")).strip()
                    and "$ref" not in sub
                ):
                    yield warn(
                        tool.doc,
                        child(f"{pointer}/properties", name),
                        ID,
                        f"parameter {name!r} has no description",
                        key=True,
                    )
