"""name-collision: two tools may not share a name, a module, a class stem or a provider name."""

from __future__ import annotations

from collections.abc import Iterator

from ..diagnostics import Diagnostic
from ..naming import class_name, module_name, provider_name
from . import Context

ID = "name-collision"
SUMMARY = "Tool names are unique, also once turned into Python modules, classes and provider names."

DERIVED = (
    ("name", lambda n: n),
    ("Python module", module_name),
    ("Python class", class_name),
    ("provider name", provider_name),
)


def check(context: Context) -> Iterator[Diagnostic]:
    for label, derive in DERIVED:
        first: dict[str, str] = {}
        for tool in context.tools:
            name = tool.data.get("name")
            if not isinstance(name, str):
                continue
            key = derive(name)
            if key in first and first[key] != name or key in first and label == "name":
                yield tool.doc.diagnostic(
                    tool.source.at("/name"), ID,
                    f"tool {name!r} collides with tool {first[key]!r}" + ("" if label == "name" else f" as {label} {key!r}"),
                    hint="rename one of them",
                )
            first.setdefault(key, name)
