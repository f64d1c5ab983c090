"""`[tool.toolgen.breaking]`: which rules run, where, and how severe their findings are.

```toml
[tool.toolgen.breaking]
use = ["SOURCE", "PROVIDER", "BEHAVIOR"]   # categories (FILE > SOURCE > WIRE; PROVIDER, BEHAVIOR)
except = ["PARAM_ADDED"]                   # rules left out
ignore_only = {PARAM_NO_DELETE = ["legacy/"]}  # a rule left out for these spec files or folders
severity = {TOOL_SAME_FLAGS = "error"}     # error, warning or info
fail_on = "error"                          # or "warning"
```

Every name is checked: an unknown rule, category, severity or key is an error with the
nearest known one.
"""

from __future__ import annotations

import fnmatch
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any

from toolgen.breaking.categories import (
    CATEGORIES,
    DEFAULT_USE,
    ERROR,
    INCLUDES,
    SEVERITIES,
    WARNING,
    Rule,
)
from toolgen.breaking.rules import BY_ID
from toolgen.runtime.validation.suggest import nearest

KEYS = ("use", "except", "ignore_only", "severity", "fail_on")
FAIL_ON = (ERROR, WARNING)
WHERE = "[tool.toolgen.breaking]"


@dataclass(frozen=True)
class Settings:
    use: tuple[str, ...] = DEFAULT_USE
    excepted: frozenset[str] = frozenset()
    ignore_only: Mapping[str, tuple[str, ...]] = field(default_factory=dict)
    severity: Mapping[str, str] = field(default_factory=dict)
    fail_on: str = ERROR

    @property
    def categories(self) -> frozenset[str]:
        return frozenset(c for name in self.use for c in INCLUDES[name])

    def active(self, rule: Rule) -> bool:
        return rule.category in self.categories and rule.id not in self.excepted

    def severity_of(self, rule: Rule) -> str:
        return self.severity.get(rule.id, rule.severity)

    def ignored(self, rule: str, files: Iterable[str]) -> bool:
        """Whether `ignore_only` leaves the rule out for any of these files (relative to the specs root)."""
        patterns = self.ignore_only.get(rule, ())
        return any(_matches(file, pattern) for file in files if file for pattern in patterns)

    def fails(self, severity: str) -> bool:
        return severity == ERROR or (severity == WARNING and self.fail_on == WARNING)


def _matches(file: str, pattern: str) -> bool:
    """A spec file's path against a file, a folder (`legacy/` or `legacy`) or a glob."""
    pattern = pattern.strip("/") if pattern not in ("/", "") else ""
    return (
        not pattern
        or file == pattern
        or file.startswith(pattern + "/")
        or fnmatch.fnmatchcase(file, pattern)
    )


def _unknown(what: str, name: str, known: Iterable[str]) -> str:
    guess = nearest(name, list(known))
    return f"unknown {what} {name!r} in {WHERE}" + (f"; did you mean {guess!r}?" if guess else "")


def _strings(value: Any, key: str) -> list[str]:
    if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
        raise ValueError(f"{WHERE} {key} must be a list of strings")
    return list(value)


def _rule(name: str) -> str:
    if name not in BY_ID:
        raise ValueError(_unknown("rule", name, BY_ID) + " (the rules: docs/breaking.md)")
    return name


def parse(table: Mapping[str, Any], fail_on: str | None = None) -> Settings:
    """The settings a table states (defaults for the rest); ValueError names what is wrong.
    `fail_on`, when given (the command line's), overrides the table's."""
    for key in table:
        if key not in KEYS:
            raise ValueError(_unknown("setting", key, KEYS))
    use = tuple(_strings(table.get("use", list(DEFAULT_USE)), "use"))
    for name in use:
        if name not in CATEGORIES:
            raise ValueError(_unknown("category", name, CATEGORIES))
    excepted = frozenset(_rule(name) for name in _strings(table.get("except", []), "except"))
    ignore_only = table.get("ignore_only", {})
    if not isinstance(ignore_only, dict):
        raise ValueError(f"{WHERE} ignore_only must be a table of rule IDs to lists of paths")
    ignored = {
        _rule(name): tuple(_strings(paths, f"ignore_only.{name}"))
        for name, paths in ignore_only.items()
    }
    severity = table.get("severity", {})
    if not isinstance(severity, dict):
        raise ValueError(f"{WHERE} severity must be a table of rule IDs to error, warning or info")
    for name, level in severity.items():
        _rule(name)
        if level not in SEVERITIES:
            raise ValueError(
                f"{WHERE} severity.{name} is one of {', '.join(SEVERITIES)}, not {level!r}"
            )
    chosen = fail_on if fail_on is not None else table.get("fail_on", ERROR)
    if chosen not in FAIL_ON:
        raise ValueError(f"{WHERE} fail_on is one of {', '.join(FAIL_ON)}, not {chosen!r}")
    return Settings(use, excepted, ignored, dict(severity), chosen)


def everything(**changes: Any) -> Settings:
    """Every category on (the tests' and the benchmark's settings)."""
    return Settings(use=CATEGORIES, **changes)
