"""name-collision: two tools may not share a name, a module, a class stem or a provider name."""

from __future__ import annotations

from collections.abc import Iterator

from toolgen.check.context import CheckedTool, Context
from toolgen.diagnostics import Diagnostic, Severity
from toolgen.naming import class_prefix, module_name, provider_name

ID = "name-collision"
SUMMARY = "Tool names are unique, also once turned into Python modules, classes and provider names."
SEVERITY = Severity.ERROR

DERIVED = (
    ("name", lambda n: n),
    ("Python module", module_name),
    ("Python class", class_prefix),
    ("provider name", provider_name),
)


def _where(tool: CheckedTool) -> str:
    line, col = tool.doc.source.position(tool.at("/name"))
    return f"{tool.doc.display}:{line}:{col}"


def check(context: Context) -> Iterator[Diagnostic]:
    for label, derive in DERIVED:
        first: dict[str, CheckedTool] = {}
        for tool in context.tools:
            name = tool.name
            key = derive(name)
            other = first.setdefault(key, tool)
            if other is tool or label != "name" and other.name == name:
                continue  # the same name is reported once, as a name
            if label == "name":
                message = f"tool name {name!r} is already used at {_where(other)}"
            else:
                message = (
                    f"tool {name!r} collides with tool {other.name!r} ({_where(other)}) "
                    f"as {label} {key!r}"
                )
            yield tool.doc.diagnostic(tool.at("/name"), ID, message, hint="rename one of them")
