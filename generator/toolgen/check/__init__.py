"""Stage 2, check: loaded specs -> diagnostics, and the tools fit to lower.

The envelope (spec format) and `$ref` bundling run first: the rules after them see
only well-formed tool entries (each parsed once into a ToolSpec) with self-contained
schemas. One rule per module under `rules/`: ID, SEVERITY, SUMMARY, check(context) ->
diagnostics; check/catalogue.py lists every rule ID. What the provider exporters say
about a spec is reported after lowering (providers/diagnostics.py), not here.
"""

from __future__ import annotations

from types import ModuleType

from toolgen.check import envelope
from toolgen.check.context import CheckedTool, Context
from toolgen.check.rules import (
    content,
    defaults,
    deprecation,
    description_quality,
    descriptions,
    enforceable,
    enum_type,
    examples,
    guards,
    keywords,
    meta_schema,
    names,
    namespaces,
    pattern_syntax,
    policies,
    property_names,
    repair,
    required,
    search,
)
from toolgen.diagnostics import Diagnostic, Severity, ordered
from toolgen.load.refs import RefError, RefIndex, bundle, schema_roots
from toolgen.load.specs import SpecSet, ToolSource
from toolgen.schema.pointer import unescape
from toolgen.spec.model import SpecModelError, ToolSpec

RULES = (
    meta_schema,
    keywords,
    property_names,
    pattern_syntax,
    required,
    enforceable,
    enum_type,
    defaults,
    examples,
    descriptions,
    description_quality,
    names,
    namespaces,
    policies,
    content,
    deprecation,
    search,
    repair,
    guards,
)


def _warns_only(rule: ModuleType) -> bool:
    severities = (rule.SEVERITY, *(more.severity for more in getattr(rule, "MORE", ())))
    return all(severity is Severity.WARNING for severity in severities)


# The rules that report only warnings: whether a build renders does not wait for them, so a
# large build runs them on its second core (pipeline.py, parallel.py) with `later`.
WARNING_RULES = tuple(rule for rule in RULES if _warns_only(rule))

# What the schemas of a tool whose envelope has errors are still checked by (all problems at once).
SCHEMA_RULES = (
    meta_schema,
    keywords,
    property_names,
    required,
    enforceable,
    enum_type,
    defaults,
    examples,
)
_SCHEMA_KEYS = frozenset({"parameters", "returns", "injected"})


def run(specs: SpecSet, every: bool = True) -> tuple[list[Diagnostic], list[CheckedTool]]:
    """All diagnostics for a spec set, plus its tools with bundled schemas. `every=False`:
    without WARNING_RULES, which `later` runs on the same tools.

    A tool whose envelope has errors is not lowered, but its schemas are still checked
    (SCHEMA_RULES) so that one run reports every problem, not one round at a time."""
    diagnostics = list(specs.diagnostics)
    for doc in specs.documents:
        diagnostics.extend(envelope.check_document(doc))
    envelope_errors = [d for d in diagnostics if d.is_error]
    bad_docs = {d.file for d in envelope_errors}

    index = RefIndex.build(specs)
    tools: list[CheckedTool] = []
    partial: list[CheckedTool] = []
    for source in specs.tools:
        if source.doc.display in bad_docs:
            checked = _stand_in(
                source, [d for d in envelope_errors if d.file == source.doc.display]
            )
            if checked is None:
                continue
        else:
            checked = CheckedTool.of(source)
        try:
            for pointer, schema in schema_roots(source):
                checked.schemas[pointer] = bundle(index, source, pointer, schema)
        except RefError as exc:
            diagnostics.append(
                exc.doc.diagnostic(exc.pointer, exc.rule, exc.message, hint=exc.hint)
            )
            continue
        (partial if source.doc.display in bad_docs else tools).append(checked)

    context = Context(specs, tools)
    for rule in RULES if every else (r for r in RULES if r not in WARNING_RULES):
        diagnostics.extend(rule.check(context))
    if partial:
        context = Context(specs, partial)
        for rule in SCHEMA_RULES:
            diagnostics.extend(rule.check(context))
    return ordered(diagnostics), tools


def later(specs: SpecSet, tools: list[CheckedTool]) -> list[Diagnostic]:
    """What WARNING_RULES report on the tools `run(specs, every=False)` returned."""
    context = Context(specs, tools)
    return [found for rule in WARNING_RULES for found in rule.check(context)]


def _stand_in(source: ToolSource, errors: list[Diagnostic]) -> CheckedTool | None:
    """A tool entry the envelope refused, with its schemas as written and the refused keys
    left out, for SCHEMA_RULES alone; None when a schema itself is what was refused."""
    entry = dict(source.data)
    prefix = source.pointer.rstrip("/")
    for error in errors:
        if error.pointer != prefix and not error.pointer.startswith(prefix + "/"):
            continue
        key = (
            unescape(error.pointer[len(prefix) :].split("/")[1]) if error.pointer != prefix else ""
        )
        if key in _SCHEMA_KEYS:
            return None
        entry.pop(key, None)
    entry.setdefault("name", "unnamed")
    try:
        return CheckedTool(ToolSpec.parse(entry), source)
    except SpecModelError:
        return None
