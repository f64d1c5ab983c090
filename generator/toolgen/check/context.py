"""What every check rule works with: the checked tools, the context, and the wording helpers."""

from __future__ import annotations

import json
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from functools import cached_property
from typing import Any

import jsonschema

from toolgen.diagnostics import Diagnostic, Severity
from toolgen.load.document import Document
from toolgen.load.refs import schema_roots
from toolgen.load.specs import SpecSet, ToolSource
from toolgen.runtime.validation.suggest import nearest
from toolgen.schema.closing import closed
from toolgen.schema.exactness import exact, exact_root
from toolgen.schema.pointer import child
from toolgen.schema.walk import located
from toolgen.spec.model import ToolSpec


@dataclass
class CheckedTool:
    """A tool entry that passed the envelope: its typed spec, where it was written (for
    diagnostics), and its schemas with every `$ref` bundled."""

    spec: ToolSpec
    source: ToolSource  # the document and the entry's pointer in it
    schemas: dict[str, Any] = field(default_factory=dict)  # pointer -> bundled schema

    @classmethod
    def of(cls, source: ToolSource) -> CheckedTool:
        return cls(ToolSpec.parse(source.data), source)

    @property
    def name(self) -> str:
        return self.spec.name

    @property
    def doc(self) -> Document:
        return self.source.doc

    def at(self, relative: str) -> str:
        """A JSON pointer inside the tool entry, as a pointer into its document."""
        return self.source.at(relative)

    @cached_property
    def subschemas(self) -> list[tuple[str, dict[str, Any]]]:
        """Every subschema of the entry as written (parameters, returns, injected values), with
        its pointer into the document: walked once, read by every rule that looks at schemas."""
        return [
            found for root, schema in schema_roots(self.source) for found in located(schema, root)
        ]

    @cached_property
    def closed_parameters(self) -> Any:
        """The bundled `parameters` closed (schema/closing.py), as published and lowered:
        closed once for the rules and for lower, and never changed in place."""
        return closed(self.schema("parameters"))

    @cached_property
    def exact_parameters(self) -> bool:
        """Whether the arguments model enforces `closed_parameters` exactly (schema/exactness.py)."""
        schema = self.closed_parameters
        defs = schema.get("$defs", {}) if isinstance(schema, dict) else {}
        return exact(schema, defs if isinstance(defs, dict) else {})

    @cached_property
    def exact_returns(self) -> bool:
        """Whether the result model enforces the bundled `returns` exactly (True when there is
        none): judged once, for the rules and for lower."""
        schema = self.schema("returns")
        return True if schema is None else exact_root(schema, self.returns_text)

    @cached_property
    def returns_text(self) -> str:
        """The repr of the bundled `returns`: its content as a key, for what is worked out once
        per distinct result (its exactness; lower's result model). Results recur across a spec
        set's tools much more than parameters do."""
        return repr(self.schema("returns"))

    def schema(self, key: str) -> Any:
        """The bundled `parameters` or `returns` (None when the spec has none)."""
        return self.schemas.get(self.source.at(f"/{key}"))

    def injected_schema(self, name: str) -> Any:
        return self.schemas.get(child(self.source.at("/injected"), name))


@dataclass
class Context:
    specs: SpecSet
    tools: list[CheckedTool]


Check = Callable[[Context], Iterable[Diagnostic]]


@dataclass(frozen=True)
class Rule:
    """One rule ID in the catalogue (check/catalogue.py): what it reports and how loudly."""

    id: str
    severity: Severity  # the most severe finding it reports
    summary: str
    also_warns: str = ""  # an error rule that also reports warnings: which ones, for the docs

    @property
    def severity_text(self) -> str:
        return (
            f"{self.severity.value} (warning {self.also_warns})"
            if self.also_warns
            else self.severity.value
        )

    @property
    def may_disable(self) -> bool:
        """Only warnings can be disabled: errors are what stops generate from writing a broken package."""
        return self.severity is not Severity.ERROR or bool(self.also_warns)


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
    if (
        error.validator != "enum"
        or not isinstance(error.instance, str)
        or not isinstance(error.validator_value, list)
    ):
        return ""
    return suggestion(error.instance, [v for v in error.validator_value if isinstance(v, str)])


def warn(
    doc: Document, pointer: str, rule: str, message: str, hint: str = "", key: bool = False
) -> Diagnostic:
    return doc.diagnostic(pointer, rule, message, hint=hint, key=key, severity=Severity.WARNING)
