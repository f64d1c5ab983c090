"""Stage 2, check: loaded specs -> diagnostics, and the tools fit to lower.

The envelope (spec format) and `$ref` bundling run first: the rules after them see
only well-formed tool entries (each parsed once into a ToolSpec) with self-contained
schemas. One rule per module under `rules/`: ID, SEVERITY, SUMMARY, check(context) ->
diagnostics; check/catalogue.py lists every rule ID. What the provider exporters say
about a spec is reported after lowering (providers/diagnostics.py), not here.
"""

from __future__ import annotations

from toolgen.check import envelope
from toolgen.check.context import CheckedTool, Context
from toolgen.check.rules import (
    defaults,
    descriptions,
    enforceable,
    enum_type,
    examples,
    keywords,
    meta_schema,
    names,
    property_names,
    required,
)
from toolgen.diagnostics import Diagnostic
from toolgen.load.refs import RefError, RefIndex, bundle, schema_roots
from toolgen.load.specs import SpecSet

RULES = (meta_schema, keywords, property_names, required, enforceable, enum_type, defaults, examples, descriptions,
         names)


def run(specs: SpecSet) -> tuple[list[Diagnostic], list[CheckedTool]]:
    """All diagnostics for a spec set, plus its tools with bundled schemas."""
    diagnostics = list(specs.diagnostics)
    for doc in specs.documents:
        diagnostics.extend(envelope.check_document(doc))
    bad_docs = {d.file for d in diagnostics if d.is_error}
    valid = [t for t in specs.tools if t.doc.display not in bad_docs]

    index = RefIndex.build(specs)
    tools: list[CheckedTool] = []
    for source in valid:
        checked = CheckedTool.of(source)
        try:
            for pointer, schema in schema_roots(source):
                checked.schemas[pointer] = bundle(index, source, pointer, schema)
        except RefError as exc:
            diagnostics.append(exc.doc.diagnostic(exc.pointer, exc.rule, exc.message, hint=exc.hint))
            continue
        tools.append(checked)

    context = Context(specs, tools)
    for rule in RULES:
        diagnostics.extend(rule.check(context))
    return sorted(set(diagnostics)), tools
