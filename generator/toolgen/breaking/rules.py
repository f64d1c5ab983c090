"""The rule table of `toolgen breaking`: every rule's ID, category, default severity and summary,
in the order docs/breaking.md lists them (the rules of a tool as a whole in rules_tools.py, of
its schemas in rules_schemas.py; the categories and severities in categories.py).
docs/breaking.md's rule table is generated from this list (`python -m toolgen.breaking.rules
--write docs/breaking.md`; a test keeps it current).
"""

from __future__ import annotations

import sys

from toolgen import doctable
from toolgen.breaking.categories import (
    BEHAVIOR,
    CATEGORIES,
    DEFAULT_USE,
    ERROR,
    FILE,
    INCLUDES,
    INFO,
    PROVIDER,
    SEVERITIES,
    SOURCE,
    WARNING,
    WIRE,
    Rule,
)
from toolgen.breaking.rules_schemas import PARAMETERS, RESULTS
from toolgen.breaking.rules_tools import BEHAVIOUR, PROVIDERS, TOOLS, VERSIONS

__all__ = [  # the categories and severities, for those who read them with the table
    "BEHAVIOR",
    "BY_ID",
    "CATEGORIES",
    "DEFAULT_USE",
    "ERROR",
    "FILE",
    "INCLUDES",
    "INFO",
    "PROVIDER",
    "RULES",
    "SEVERITIES",
    "SOURCE",
    "WARNING",
    "WIRE",
    "Rule",
    "main",
    "table",
    "with_table",
]

RULES: tuple[Rule, ...] = (
    *TOOLS,
    *PARAMETERS,
    *RESULTS,
    *PROVIDERS,
    *BEHAVIOUR,
    *VERSIONS,
)
BY_ID: dict[str, Rule] = {rule.id: rule for rule in RULES}
BEGIN, END = (
    "<!-- breaking rule table: generated from breaking/rules.py -->",
    "<!-- end of breaking rule table -->",
)


def table() -> str:
    lines = ["| rule | category | severity | what | the way out |", "|---|---|---|---|---|"]
    lines += [
        f"| `{r.id}` | {r.category} | {r.severity} | {doctable.cell(r.summary)} | {doctable.cell(r.hint)} |"
        for r in RULES
    ]
    return "\n".join(lines) + "\n"


def with_table(document: str) -> str:
    """A document with the text between the table's markers replaced by the current table."""
    return doctable.with_table(document, BEGIN, END, table())


def main(argv: list[str]) -> int:
    """`python -m toolgen.breaking.rules [--write DOC]`: print the table, or rewrite it in DOC."""
    return doctable.main(argv, BEGIN, END, table)


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
