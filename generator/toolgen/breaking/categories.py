"""The vocabulary of `toolgen breaking`'s rules: the categories, the severities, and `Rule`,
one rule's record (the table of them is breaking/rules.py).

Categories, strictest first: FILE includes SOURCE, which includes WIRE; PROVIDER and
BEHAVIOR stand beside them. A rule belongs to one category; `[tool.toolgen.breaking] use`
names the categories a project checks (default: SOURCE, PROVIDER and BEHAVIOR, since a
generated package ships typed classes as well as a wire format).
"""

from __future__ import annotations

from dataclasses import dataclass

FILE, SOURCE, WIRE, PROVIDER, BEHAVIOR = "FILE", "SOURCE", "WIRE", "PROVIDER", "BEHAVIOR"
CATEGORIES = (FILE, SOURCE, WIRE, PROVIDER, BEHAVIOR)
# What naming a category in `use` turns on.
INCLUDES: dict[str, tuple[str, ...]] = {
    FILE: (FILE, SOURCE, WIRE),
    SOURCE: (SOURCE, WIRE),
    WIRE: (WIRE,),
    PROVIDER: (PROVIDER,),
    BEHAVIOR: (BEHAVIOR,),
}
DEFAULT_USE = (SOURCE, PROVIDER, BEHAVIOR)
ERROR, WARNING, INFO = "error", "warning", "info"
SEVERITIES = (ERROR, WARNING, INFO)


@dataclass(frozen=True)
class Rule:
    id: str
    category: str
    severity: str  # the default; `[tool.toolgen.breaking] severity` overrides it
    summary: str
    hint: str = ""  # the usual way out, when a finding has no better one
    adds: bool = False  # an addition: the release needs at least a minor version

    @property
    def slug(self) -> str:
        """The rule's case folder under tests/golden/breaking/."""
        return self.id.lower()
