"""deprecation-invalid: deprecations, sunsets and renamed parameters that the runtime can honour.

A tool's `sunset` needs its `deprecated` (and `deprecated` implies `stability: deprecated`:
another stability beside it contradicts it). A schema's `x-sunset` needs `deprecated: true`
beside it. Every date is a day of the calendar. `x-renamed-from` is read on a property of
the root of `parameters` only, its old name is declared by no property there (nor claimed
by another rename), and the root is closed, so that the old name reaches the validator as
an unknown key instead of being taken as an undeclared one. A `replacement` that names no
tool of the specs is a warning (it may live in another package).
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from datetime import date
from typing import Any

from toolgen.check.context import CheckedTool, Context, suggestion, warn
from toolgen.diagnostics import Diagnostic, Severity
from toolgen.load.document import Document
from toolgen.schema.pointer import child
from toolgen.schema.walk import walk

ID = "deprecation-invalid"
SUMMARY = (
    "A `sunset` (tool) or `x-sunset` (schema) comes with `deprecated`, every date is a day of the calendar, "
    "and `x-renamed-from` sits on a property of the closed root of `parameters`, naming no declared property."
)
SEVERITY = Severity.ERROR
ALSO_WARNS = "for a `replacement` that names no tool of the specs"

_DATE = re.compile(r"[0-9]{4}-[0-9]{2}-[0-9]{2}")
_HINT_DATE = "write a day of the calendar as YYYY-MM-DD, e.g. 2026-06-30"


def check(context: Context) -> Iterator[Diagnostic]:
    names = {tool.name for tool in context.tools}
    for tool in context.tools:
        yield from _tool(tool, names)
        yield from _schemas(tool)
    for doc in context.specs.documents:
        yield from _shared(doc)


def not_a_day(value: Any) -> bool:
    """A date string of the right shape (the spec format checks the shape) that names no day."""
    if not isinstance(value, str) or not _DATE.fullmatch(value):
        return False
    try:
        date.fromisoformat(value)
    except ValueError:
        return True
    return False


def _tool(tool: CheckedTool, names: set[str]) -> Iterator[Diagnostic]:
    entry, doc = tool.source.data, tool.doc
    deprecated = entry.get("deprecated")
    if "sunset" in entry and deprecated is None:
        yield doc.diagnostic(
            tool.at("/sunset"),
            ID,
            f"tool {tool.name!r} has a sunset but is not deprecated",
            hint="add `deprecated: {reason: ..., replacement: ...}`, or remove `sunset`",
            key=True,
        )
    if not_a_day(entry.get("sunset")):
        yield doc.diagnostic(
            tool.at("/sunset"), ID, f"sunset {entry['sunset']!r} is not a date", hint=_HINT_DATE
        )
    if not isinstance(deprecated, dict):
        return
    stability = entry.get("stability")
    if stability is not None and stability != "deprecated":
        yield doc.diagnostic(
            tool.at("/stability"),
            ID,
            f"stability {stability!r} contradicts `deprecated`",
            hint="remove `stability`: `deprecated` implies `stability: deprecated`",
        )
    replacement = deprecated.get("replacement")
    if not isinstance(replacement, str):
        return
    if replacement == tool.name:
        yield doc.diagnostic(
            tool.at("/deprecated/replacement"),
            ID,
            f"tool {tool.name!r} is its own replacement",
            hint="name the tool to use instead, or leave `replacement` out",
        )
    elif replacement not in names:
        yield warn(
            doc,
            tool.at("/deprecated/replacement"),
            ID,
            f"replacement {replacement!r} names no tool of these specs",
            suggestion(replacement, names)
            or "a tool of another package is fine; else name one of these specs",
        )


def _schemas(tool: CheckedTool) -> Iterator[Diagnostic]:
    doc = tool.doc
    root = tool.at("/parameters")
    parameters = tool.source.data.get("parameters")
    declared = parameters.get("properties") if isinstance(parameters, dict) else None
    declared = declared if isinstance(declared, dict) else {}
    at_root: dict[str, str] | None = None  # made at the first rename (most tools have none)
    claimed: dict[str, str] = {}  # old name -> the property that claims it
    for pointer, node in tool.subschemas:
        if "x-sunset" in node:  # rare: no generator made for the other nodes
            yield from _sunset(doc, pointer, node)
        if "x-renamed-from" not in node:
            continue
        renamed = node["x-renamed-from"]
        if not isinstance(renamed, dict):
            continue
        if at_root is None:
            at_root = {child(child(root, "properties"), name): name for name in declared}
        if pointer not in at_root:
            yield _misplaced(doc, pointer)
            continue
        yield from _rename(doc, pointer, at_root[pointer], renamed, parameters, declared, claimed)


def _sunset(doc: Document, pointer: str, node: dict[str, Any]) -> Iterator[Diagnostic]:
    if "x-sunset" not in node:
        return
    if node.get("deprecated") is not True:
        yield doc.diagnostic(
            child(pointer, "x-sunset"),
            ID,
            "x-sunset without `deprecated: true` beside it",
            hint="add `deprecated: true`, or remove `x-sunset`",
            key=True,
        )
    if not_a_day(node["x-sunset"]):
        yield doc.diagnostic(
            child(pointer, "x-sunset"),
            ID,
            f"x-sunset {node['x-sunset']!r} is not a date",
            hint=_HINT_DATE,
        )


def _misplaced(doc: Document, pointer: str) -> Diagnostic:
    return doc.diagnostic(
        child(pointer, "x-renamed-from"),
        ID,
        "x-renamed-from is read only on a property of the root of `parameters`",
        hint="declare the rename on the new property, directly under `parameters.properties`",
        key=True,
    )


def _rename(
    doc: Document,
    pointer: str,
    name: str,
    renamed: dict[str, Any],
    parameters: Any,
    declared: dict[str, Any],
    claimed: dict[str, str],
) -> Iterator[Diagnostic]:
    old, here = renamed.get("name"), child(pointer, "x-renamed-from")
    if not_a_day(renamed.get("sunset")):
        yield doc.diagnostic(
            child(here, "sunset"),
            ID,
            f"sunset {renamed['sunset']!r} is not a date",
            hint=_HINT_DATE,
        )
    if not isinstance(old, str):
        return
    if old in declared:
        what = (
            "its own name"
            if old == name
            else f"{old!r}, which is declared: a call sending it means that one"
        )
        yield doc.diagnostic(
            child(here, "name"),
            ID,
            f"x-renamed-from of {name!r} names {what}",
            hint="name the property's old name, one no property declares any more",
        )
        return
    if old in claimed:
        yield doc.diagnostic(
            child(here, "name"),
            ID,
            f"{old!r} is already the old name of {claimed[old]!r}",
            hint="an old name leads to one property: remove one of the renames",
        )
        return
    claimed[old] = name
    extra = parameters.get("additionalProperties", False) if isinstance(parameters, dict) else False
    patterns = parameters.get("patternProperties") if isinstance(parameters, dict) else None
    matched = [p for p in (patterns if isinstance(patterns, dict) else {}) if _matches(p, old)]
    if extra is not False or matched:
        why = f"its pattern {matched[0]!r}" if matched else "additionalProperties"
        yield doc.diagnostic(
            here,
            ID,
            f"the root of parameters takes {old!r} as an undeclared key ({why}): "
            f"it would never be read as {name!r}",
            hint="close the root (no additionalProperties), or keep the old name declared",
            key=True,
        )


def _matches(pattern: str, name: str) -> bool:
    try:
        return re.search(pattern, name) is not None
    except re.error:
        return True  # a pattern Python cannot read: it may match


def _shared(doc: Document) -> Iterator[Diagnostic]:
    """A file's shared `$defs`: no rename is read there (a root property is never one)."""
    defs = doc.data.get("$defs") if isinstance(doc.data, dict) else None
    if not isinstance(defs, dict):
        return
    for name, schema in defs.items():
        for pointer, node in walk(schema, child("/$defs", name)):
            yield from _sunset(doc, pointer, node)
            if "x-renamed-from" in node:
                yield _misplaced(doc, pointer)
