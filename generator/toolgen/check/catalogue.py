"""Every rule ID a toolgen diagnostic can carry, with its severity and summary: the one list.

The check rules declare their own (ID, SEVERITY, SUMMARY and MORE in each module); the
rules reported by other stages are declared here: loading and `$ref` bundling (before
the rules), the provider exporters' notes (after lowering, providers/diagnostics.py) and
`toolgen check`'s binding of implementations. docs/spec-format.md's rule table is
generated from this list (`python -m toolgen.check.catalogue --write`; a test keeps it
current).

`[tool.toolgen.lint] disable = [...]` silences the warnings of the rules it names.
Errors are never silenced: they are what keeps `generate` from writing a package that
does not import, or whose models and definitions disagree with the spec
(docs/decisions/0006-lint-disable-warnings-only.md).
"""

from __future__ import annotations

import sys
from collections.abc import Iterable
from types import ModuleType

from toolgen import doctable
from toolgen.check import RULES as CHECK_RULES
from toolgen.check import envelope
from toolgen.check.context import Rule, suggestion
from toolgen.diagnostics import Diagnostic, Severity

ERROR, WARNING, NOTE = Severity.ERROR, Severity.WARNING, Severity.NOTE

LOADING = (
    Rule(
        "syntax",
        ERROR,
        "The file is valid YAML 1.2 or JSON and UTF-8, within the size, depth and alias "
        "limits, with no duplicate key.",
    ),
    Rule(
        "file-refused",
        ERROR,
        "A spec file is a regular file inside the specs root once symlinks are followed: "
        "links out of the root, FIFOs, devices, sockets and `/proc` files are never read.",
    ),
    Rule(
        "file-too-large",
        ERROR,
        "A spec file is at most 4 MiB (`TOOLGEN_MAX_FILE_BYTES`), checked before it is read.",
    ),
    Rule(
        "input-too-large",
        ERROR,
        "All spec files together are at most 64 MiB and 10,000 files "
        "(`TOOLGEN_MAX_INPUT_BYTES`, `TOOLGEN_MAX_SPEC_FILES`).",
    ),
)
REFERENCES = (
    Rule("ref-unresolved", ERROR, "A `$ref` points at a file or a definition that exists."),
    Rule("ref-remote", ERROR, "A `$ref` is local: remote references are refused, never fetched."),
    Rule("ref-outside-root", ERROR, "A `$ref` stays under the specs root."),
    Rule(
        "ref-cycle",
        ERROR,
        "A recursive `$ref` recurses into a value inside the value (`properties`, `items`): "
        "one that loops in place (`A: {anyOf: [{$ref: A}]}`) describes nothing.",
    ),
    Rule(
        "schema-too-deep",
        ERROR,
        "A schema nests at most 64 levels, counting each `$ref` followed as one "
        "(a long chain of references included).",
    ),
    Rule(
        "unsupported-keyword",
        ERROR,
        "Tool schemas use no `$id`, `$dynamicRef`, ...: `$defs` and relative `$ref`s instead.",
    ),
)
# Reported from the exporters' notes (providers.base.RULES maps each kind of note to one), and from
# what their definitions cost (providers/tokens.py).
EXPORTS = (
    Rule(
        "provider-fallback",
        NOTE,
        "Every provider gets a definition it accepts; where that is a weaker one "
        "(strict off, recursion unrolled), the note names the target and why.",
    ),
    Rule(
        "provider-lossy",
        NOTE,
        "Where a provider cannot say what the spec says, the note names it; the runtime still enforces it.",
    ),
    Rule(
        "provider-refused",
        WARNING,
        "Where a provider variant gets no definition of the tool at all, the warning says why.",
    ),
    Rule(
        "description-too-long",
        WARNING,
        "Descriptions fit every provider's limit; a longer one is cut in that provider's definitions.",
    ),
    Rule(
        "provider-root-merged",
        WARNING,
        "`anyOf`, `oneOf`, `if`/`then`/`else` at the root of `parameters` are merged into "
        "one object for the providers that take only that (all but MCP); the warning "
        "names each provider and what its model is not told.",
    ),
    Rule(
        "catalog-tokens",
        WARNING,
        "The tool definitions a provider is sent up front (deferred tools left out) "
        "cost at most about 10,000 tokens, estimated from their JSON; the warning names "
        "the providers over it and the biggest tools (`toolgen tokens` lists them all).",
    ),
)
# Reported from the strategy compiler's findings (render/satisfiable.py).
STRATEGIES = (
    Rule(
        "unsatisfiable",
        WARNING,
        "Some value satisfies `parameters` and `returns`: where none can (`false`, "
        "`not: {}`, two `oneOf` branches that accept everything, a required key no value "
        "may fill), the tool can never be called or never return, and its generated "
        "strategies draw nothing.",
    ),
)
BINDING = (
    Rule(
        "binding",
        ERROR,
        "`toolgen check`: every tool has one implementing class, whose run() agrees with "
        "the generated interface.",
    ),
)


def rules_of(module: ModuleType) -> tuple[Rule, ...]:
    """A rule module's rules: its own ID, then the others it reports (MORE)."""
    main = Rule(module.ID, module.SEVERITY, module.SUMMARY, getattr(module, "ALSO_WARNS", ""))
    return (main, *getattr(module, "MORE", ()))


def catalogue() -> tuple[Rule, ...]:
    """Every rule, in the order the pipeline reports them."""
    rules = [*LOADING, *rules_of(envelope), *REFERENCES]
    for module in CHECK_RULES:
        rules.extend(rules_of(module))
    return (*rules, *EXPORTS, *STRATEGIES, *BINDING)


def by_id() -> dict[str, Rule]:
    return {rule.id: rule for rule in catalogue()}


def validate_disabled(
    ids: Iterable[str], where: str = "[tool.toolgen.lint] disable"
) -> tuple[str, ...]:
    """The IDs, checked: each names a rule that reports warnings. Raises ValueError otherwise."""
    rules = by_id()
    problems = []
    for rule_id in ids:
        rule = rules.get(rule_id)
        if rule is None:
            hint = suggestion(rule_id, rules) or "see the rule table in docs/spec-format.md"
            problems.append(f"unknown rule {rule_id!r} in {where}; {hint}")
        elif not rule.may_disable:
            problems.append(
                f"rule {rule_id!r} in {where} reports only errors, which cannot be disabled "
                "(generate would write a package that breaks); fix the specs instead"
            )
    if problems:
        raise ValueError("\n".join(problems))
    return tuple(ids)


def without_disabled(
    diagnostics: Iterable[Diagnostic], disabled: Iterable[str]
) -> list[Diagnostic]:
    """The diagnostics minus the warnings of disabled rules (errors always stay)."""
    quiet = frozenset(disabled)
    return [d for d in diagnostics if d.is_error or d.rule not in quiet]


BEGIN, END = "<!-- rule table: generated from check/catalogue.py -->", "<!-- end of rule table -->"


def table() -> str:
    lines = ["| rule | severity | what |", "|---|---|---|"]
    lines += [f"| `{r.id}` | {r.severity_text} | {doctable.cell(r.summary)} |" for r in catalogue()]
    return "\n".join(lines) + "\n"


def with_table(document: str) -> str:
    """A document with the text between the table's markers replaced by the current table."""
    return doctable.with_table(document, BEGIN, END, table())


def main(argv: list[str]) -> int:
    """`python -m toolgen.check.catalogue [--write] DOC`: print the table, or rewrite it in DOC."""
    return doctable.main(argv, BEGIN, END, table)


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
