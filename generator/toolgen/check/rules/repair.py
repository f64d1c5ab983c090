"""repair-misplaced: `x-repair` is read on the root of `parameters` only.

Repairs of malformed argument text (runtime/validation/repair.py) are about the whole call's text: a
Markdown fence around it, prose after it, Python literals or single quotes anywhere in it, a
cut-off end, two calls glued together. So the keyword is read where the tool's arguments
begin, on `parameters` itself, and nowhere else: not on a property or any schema inside, not on
`returns` or an injected value, not in a file's shared `$defs` (not even one that `parameters`
refers to with `$ref`: write it beside the `$ref`). Written anywhere else, it would be ignored;
that is an error, located at the keyword.
"""

from __future__ import annotations

from collections.abc import Iterator

from toolgen.check.context import Context
from toolgen.diagnostics import Diagnostic, Severity
from toolgen.load.document import Document
from toolgen.schema.pointer import child
from toolgen.schema.walk import walk

ID = "repair-misplaced"
SUMMARY = "`x-repair` sits on the root of `parameters`, the only place it is read."
SEVERITY = Severity.ERROR

KEYWORD = "x-repair"
_HINT = "write `x-repair` on `parameters` itself, for the whole call's text"


def check(context: Context) -> Iterator[Diagnostic]:
    for tool in context.tools:
        root = tool.at("/parameters")
        for pointer, node in tool.subschemas:
            if KEYWORD in node and pointer != root:
                yield _misplaced(tool.doc, pointer)
    for doc in context.specs.documents:
        defs = doc.data.get("$defs") if isinstance(doc.data, dict) else None
        if not isinstance(defs, dict):
            continue
        for name, schema in defs.items():
            for pointer, node in walk(schema, child("/$defs", name)):
                if KEYWORD in node:
                    yield _misplaced(doc, pointer)


def _misplaced(doc: Document, pointer: str) -> Diagnostic:
    return doc.diagnostic(
        child(pointer, KEYWORD),
        ID,
        "x-repair is read only on the root of `parameters`",
        hint=_HINT,
        key=True,
    )
