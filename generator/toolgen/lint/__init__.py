"""Checks on loaded specs. One rule per module: ID, SUMMARY, check(context) -> diagnostics.

The envelope (spec format) and `$ref` bundling run first: rules after them see only
well-formed tool entries with self-contained schemas.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field
from types import ModuleType
from typing import Any

import jsonschema

from ..diagnostics import Diagnostic, Severity
from ..load import Document
from ..refs import RefError, RefIndex, bundle, schema_roots
from ..runtime.suggest import nearest
from ..specs import SpecSet, ToolSource


@dataclass
class CheckedTool:
    source: ToolSource
    schemas: dict[str, Any] = field(default_factory=dict)  # pointer -> bundled schema

    @property
    def data(self) -> dict[str, Any]:
        return self.source.data

    @property
    def doc(self) -> Document:
        return self.source.doc

    def schema(self, key: str) -> Any:
        return self.schemas.get(self.source.at(f"/{key}"))


@dataclass
class Context:
    specs: SpecSet
    tools: list[CheckedTool]


Check = Callable[[Context], Iterable[Diagnostic]]


def suggestion(word: str, candidates: Iterable[str]) -> str:
    guess = nearest(word, candidates)
    return f"did you mean {guess!r}?" if guess else ""


def show(value: Any, limit: int = 60) -> str:
    """A value as the spec's author wrote it: JSON (`null`, `true`), not Python (`None`, `True`)."""
    text = json.dumps(value, ensure_ascii=False)
    return text if len(text) <= limit else text[: limit - 3] + "..."


def describe(error: jsonschema.ValidationError) -> str:
    """jsonschema's message, with values shown as JSON."""
    if error.validator == "type":
        expected = error.validator_value
        types = " or ".join(expected) if isinstance(expected, list) else expected
        return f"{show(error.instance)} is not of type {types}"
    if error.validator == "enum" and isinstance(error.validator_value, list):
        return f"{show(error.instance)} is not one of {', '.join(show(v) for v in error.validator_value)}"
    if error.validator == "const":
        return f"{show(error.instance)} is not {show(error.validator_value)}"
    return str(error.message)


def enum_hint(error: jsonschema.ValidationError) -> str:
    """'did you mean ...?' for a string that is close to one of an enum's strings."""
    if error.validator != "enum" or not isinstance(error.instance, str) or not isinstance(error.validator_value, list):
        return ""
    return suggestion(error.instance, [v for v in error.validator_value if isinstance(v, str)])


def walk_schemas(schema: Any, pointer: str) -> Iterator[tuple[str, dict[str, Any]]]:
    """Every subschema (pointer, dict) of a JSON Schema, in document order."""
    if not isinstance(schema, dict):
        return
    yield pointer, schema
    for key, value in schema.items():
        if key in ("properties", "$defs", "patternProperties", "dependentSchemas") and isinstance(value, dict):
            for name, sub in value.items():
                yield from walk_schemas(sub, f"{pointer}/{key}/{_escape(name)}")
        elif key in ("items", "additionalProperties", "not", "contains", "propertyNames", "if", "then", "else",
                     "unevaluatedItems", "unevaluatedProperties", "additionalItems"):
            yield from walk_schemas(value, f"{pointer}/{key}")
        elif key in ("anyOf", "oneOf", "allOf", "prefixItems") and isinstance(value, list):
            for i, sub in enumerate(value):
                yield from walk_schemas(sub, f"{pointer}/{key}/{i}")


def _escape(token: str) -> str:
    return token.replace("~", "~0").replace("/", "~1")


def rules(exports: bool = True) -> list[ModuleType]:
    """The semantic rules, in the order they run (imported late: they import this module).
    `exports=False` leaves out the rule that runs the exporters (the caller reports their notes)."""
    from . import defaults, descriptions, examples, keywords, meta_schema, names, property_names, providers, required

    found = [meta_schema, keywords, property_names, required, defaults, examples, descriptions, names, providers]
    return found if exports else found[:-1]


def run(specs: SpecSet, exports: bool = True) -> tuple[list[Diagnostic], list[CheckedTool]]:
    """All diagnostics for a spec set, plus its tools with bundled schemas."""
    from . import envelope

    diagnostics = list(specs.diagnostics)
    for doc in specs.documents:
        diagnostics.extend(envelope.check_document(doc))
    bad_docs = {d.file for d in diagnostics if d.is_error}
    valid = [t for t in specs.tools if t.doc.display not in bad_docs]

    index = RefIndex.build(specs)
    tools: list[CheckedTool] = []
    for source in valid:
        checked = CheckedTool(source)
        try:
            for pointer, schema in schema_roots(source):
                checked.schemas[pointer] = bundle(index, source, pointer, schema)
        except RefError as exc:
            diagnostics.append(exc.doc.diagnostic(exc.pointer, exc.rule, exc.message, hint=exc.hint))
            continue
        tools.append(checked)

    context = Context(specs, tools)
    for rule in rules(exports):
        diagnostics.extend(rule.check(context))
    return sorted(set(diagnostics)), tools


def warn(doc: Document, pointer: str, rule: str, message: str, hint: str = "", key: bool = False) -> Diagnostic:
    return doc.diagnostic(pointer, rule, message, hint=hint, key=key, severity=Severity.WARNING)
