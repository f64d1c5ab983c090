"""provider-fallback, provider-lossy, provider-refused, description-too-long: what each provider gets instead
(and, through providers/tokens.py, catalog-tokens: what the definitions cost).

The exporters decide, and this rule reports their notes: a spec a target cannot express
(a map under OpenAI strict, recursion under Anthropic strict or Gemini `parameters`)
gets a warning naming the target and the reason, and the fallback taken. The notes come
from running the exporters themselves on the checked specs, so lint and the generated
definitions cannot disagree.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Iterator
from typing import TYPE_CHECKING, Any

from toolgen.check.catalogue import EXPORTS
from toolgen.check.context import CheckedTool
from toolgen.check.rules.meta_schema import is_valid_schema
from toolgen.diagnostics import Diagnostic
from toolgen.lower import view
from toolgen.providers.base import RULES
from toolgen.schema.pointer import ref_name

if TYPE_CHECKING:
    from toolgen.providers.base import Note

# The rules are catalogued in check/catalogue.py (EXPORTS); one hint each.
HINTS = {
    "provider-fallback": "the other providers and variants are unaffected (docs/providers.md lists the fallbacks)",
    "provider-lossy": "the runtime still enforces the spec; only that provider's model is told less",
    "provider-refused": "the tool is missing from that variant's definitions (docs/providers.md)",
    "description-too-long": "shorten the description; the full text stays in the generated module",
    "provider-root-merged": "the runtime still checks the root as written; say the alternatives in the description, "
    "or split the tool in one tool per alternative",
}


# Each rule's severity, as the catalogue declares it (notes: a provider is told less, and the
# runtime still enforces it all; warnings: the rest).
SEVERITY = {rule.id: rule.severity for rule in EXPORTS}


def _exportable(tool: CheckedTool) -> bool:
    """Tools other rules find broken are left to them (an export of a broken schema says nothing)."""
    for key in ("parameters", "returns"):
        schema = tool.schema(key)
        if schema is not None and not (is_valid_schema(schema) and _unicode(schema)):
            return False
    params = tool.schema("parameters")
    if isinstance(
        params, dict
    ):  # a root `$ref` to a boolean is no object schema (the check rules report it)
        for _ in range(8):
            target = params.get("$ref")
            defs = params.get("$defs") or {}
            if not isinstance(target, str) or not target.startswith("#/$defs/"):
                break
            body = defs.get(ref_name(target))
            if not isinstance(body, dict):
                return False
            params = {**body, "$defs": defs}
    return params is None or isinstance(params, dict) and params.get("type", "object") == "object"


def _unicode(schema: Any) -> bool:
    """No lone surrogates (property-name-invalid reports them)."""
    try:
        json.dumps(schema, ensure_ascii=False).encode("utf-8")
    except UnicodeEncodeError:
        return False
    return True


def warnings(
    checked: Iterable[CheckedTool], providers: tuple[str, ...] | None = None
) -> Iterator[Diagnostic]:
    """For `toolgen lint`, and for specs with errors elsewhere: `generate` reports the notes
    and the token budget of the exports it renders instead (pipeline.py), so it exports once."""
    from toolgen.providers import export_all, notes_of, tokens

    tools = sorted((t for t in checked if _exportable(t)), key=lambda t: t.name)
    exports = export_all([view(t) for t in tools], providers=providers)
    yield from report(notes_of(exports), tools)
    yield from tokens.warnings(exports, tools)


def report(notes: Iterable[Note], tools: Iterable[CheckedTool]) -> Iterator[Diagnostic]:
    """The exporters' notes as warnings, located in the specs. A note about the request as a
    whole (a budget the tools share) is one warning for all the tools it concerns, at the
    first of them."""
    by_name = {t.name: t for t in tools}
    shared: dict[tuple[str, str, str], list[str]] = {}
    for note in notes:
        if note.shared:
            shared.setdefault((note.target, note.kind, note.message), []).append(note.tool)
            continue
        tool = by_name[note.tool]
        pointer = tool.at("/parameters" + note.path) if note.path else tool.at("/name")
        yield _finding(tool, pointer, note.rule, note.text())
    for (target, kind, message), names in shared.items():
        rule = RULES[kind]
        listed = ", ".join(names[:10]) + (f" and {len(names) - 10} more" if len(names) > 10 else "")
        count = "1 tool is" if len(names) == 1 else f"{len(names)} tools are"
        tool = by_name[names[0]]
        yield _finding(
            tool, tool.at("/name"), rule, f"{target}: {message}: {count} sent non-strict: {listed}"
        )


def _finding(tool: CheckedTool, pointer: str, rule: str, message: str) -> Diagnostic:
    return tool.doc.diagnostic(pointer, rule, message, hint=HINTS[rule], severity=SEVERITY[rule])
