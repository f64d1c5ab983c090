"""property-name-invalid: a property name must be text a model can send back (valid Unicode)."""

from __future__ import annotations

from collections.abc import Iterator

from toolgen.check.context import Context
from toolgen.diagnostics import Diagnostic, Severity
from toolgen.schema.pointer import child

ID = "property-name-invalid"
SUMMARY = "Property names are valid Unicode (no lone surrogates from JSON escapes)."
SEVERITY = Severity.ERROR


def _encodable(text: str) -> bool:
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        return False
    return True


def check(context: Context) -> Iterator[Diagnostic]:
    for tool in context.tools:
        for pointer, node in tool.subschemas:
            properties = node.get("properties")
            if not isinstance(properties, dict) or _encodable("".join(properties)):
                continue  # a lone surrogate stays one when names are joined
            for name in properties:
                if not _encodable(name):
                    shown = name.encode("utf-8", "backslashreplace").decode(
                        "ascii", "backslashreplace"
                    )
                    yield tool.doc.diagnostic(
                        child(f"{pointer}/properties", name),
                        ID,
                        f"property name {shown!r} is not valid Unicode (a lone surrogate)",
                        hint="escape whole characters: a surrogate pair, or the character itself",
                        key=True,
                    )
