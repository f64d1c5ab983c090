"""The check stage on imported tools, in memory: what lint would refuse is found before anything is written.

normalize.py repairs everything the corpus shows; this is the guarantee for the rest (a
`$ref` that does not resolve, a remote reference, a keyword used with a value of the wrong
shape): such a tool is refused with lint's own message instead of being written broken.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from toolgen.diagnostics import Diagnostic
from toolgen.load.document import Document
from toolgen.load.source_map import SourceMap
from toolgen.load.specs import SpecSet, ToolSource

DISPLAY = "<import>"


def lint_errors(tools: list[dict[str, Any]]) -> dict[int, list[Diagnostic]]:
    """Index in `tools` -> lint's errors for that tool (pointers relative to the tool); none for most."""
    from toolgen.pipeline import (
        lint,
    )  # the check stage is heavy to import: only when an import runs

    doc = Document(Path(DISPLAY), DISPLAY, {"tools": tools}, SourceMap())
    specs = SpecSet(
        root=Path("."),
        documents=[doc],
        tools=[ToolSource(doc, f"/tools/{i}", tool) for i, tool in enumerate(tools)],
        diagnostics=[],
    )
    diagnostics, _ = lint(specs)
    errors: dict[int, list[Diagnostic]] = {}
    for diagnostic in diagnostics:
        if diagnostic.is_error:
            parts = diagnostic.pointer.split("/", 3)
            index = (
                int(parts[2])
                if len(parts) > 2 and parts[1] == "tools" and parts[2].isdigit()
                else -1
            )
            errors.setdefault(index, []).append(diagnostic)
    return errors


def reason(diagnostic: Diagnostic) -> str:
    """A lint error as a refusal: the pointer inside the tool, the message, the hint."""
    parts = diagnostic.pointer.split("/", 3)
    pointer = "/" + parts[3] if len(parts) > 3 else "/"
    hint = f" ({diagnostic.hint})" if diagnostic.hint else ""
    return f"{pointer}: {diagnostic.message}{hint} [lint: {diagnostic.rule}]"
