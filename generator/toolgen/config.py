"""Settings from `[tool.toolgen]` in pyproject.toml (found upwards from the working directory)."""

from __future__ import annotations

import tomllib
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

DEFAULTS = {"specs": "schemas", "out": "generated", "package": "tools", "implementations": None, "templates": None,
            "lint": None}


@dataclass(frozen=True)
class Config:
    specs: Path
    out: Path
    package: str
    implementations: str | None  # "module:attribute" of a Registry or a function returning one
    templates: Path | None
    root: Path  # where paths are relative to: the pyproject's folder, or the working directory
    lint_disable: tuple[str, ...] = ()  # [tool.toolgen.lint] disable: rule IDs whose warnings are left out

    def override(self, **flags: Any) -> Config:
        given = {k: v for k, v in flags.items() if v is not None}
        for key in ("specs", "out", "templates"):
            if key in given:
                given[key] = Path(given[key]).resolve()
        return replace(self, **given)


def find_pyproject(start: Path) -> Path | None:
    for folder in (start, *start.parents):
        candidate = folder / "pyproject.toml"
        if candidate.is_file():
            return candidate
    return None


def load_config(start: Path | None = None) -> Config:
    start = (start or Path.cwd()).resolve()
    pyproject = find_pyproject(start)
    table: dict[str, Any] = {}
    root = start
    if pyproject is not None:
        with pyproject.open("rb") as handle:
            section = tomllib.load(handle).get("tool", {}).get("toolgen")
        if isinstance(section, dict):
            table, root = section, pyproject.parent
    unknown = sorted(set(table) - set(DEFAULTS))
    if unknown:
        raise ValueError(f"unknown setting(s) in [tool.toolgen]: {', '.join(unknown)}")
    merged = {**DEFAULTS, **table}
    return Config(
        specs=(root / merged["specs"]).resolve(),
        out=(root / merged["out"]).resolve(),
        package=merged["package"],
        implementations=merged["implementations"],
        templates=(root / merged["templates"]).resolve() if merged["templates"] else None,
        root=root,
        lint_disable=_lint_disable(table.get("lint")),
    )


def _lint_disable(lint: Any) -> tuple[str, ...]:
    """`[tool.toolgen.lint] disable = ["rule-id", ...]`, as written (check/catalogue.py checks the IDs)."""
    if lint is None:
        return ()
    if not isinstance(lint, dict) or set(lint) - {"disable"}:
        raise ValueError("[tool.toolgen.lint] takes one setting: disable = [\"rule-id\", ...]")
    disable = lint.get("disable", [])
    if not isinstance(disable, list) or not all(isinstance(rule, str) for rule in disable):
        raise ValueError("[tool.toolgen.lint] disable must be a list of rule IDs (strings)")
    return tuple(disable)
