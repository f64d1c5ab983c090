"""Tool names unique within one import, by the same rules as lint's `name-collision`.

Two tools collide when they share a name, or would share a Python module
(`calculate_BMI` / `calculate_bmi`), a class (`solve.quadratic_equation` /
`solve_quadratic_equation`) or a provider name. The first keeps its name; a later one
gets the first free suffix (`_2`, `_3`, ...) and a note saying why.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import Any

from toolgen.importers.common import show
from toolgen.naming import class_name, module_name, provider_name

DERIVED: tuple[tuple[str, Callable[[str], str]], ...] = (
    ("name", lambda n: n),
    ("Python module", module_name),
    ("Python class", class_name),
    ("provider name", provider_name),
)
MAX_NAME = 128


class NameTable:
    """The names (and derived names) taken so far in one import; `reserve` hands out free ones."""

    def __init__(self, taken: Iterable[str] = ()) -> None:
        self.owners: dict[tuple[str, str], str] = {}
        for name in taken:
            self._claim(name)

    def _clash(self, name: str) -> tuple[str, str, str] | None:
        for label, derive in DERIVED:
            other = self.owners.get((label, derive(name)))
            if other is not None:
                return label, derive(name), other
        return None

    def _claim(self, name: str) -> None:
        for label, derive in DERIVED:
            self.owners.setdefault((label, derive(name)), name)

    def reserve(self, name: str) -> tuple[str, str | None]:
        """A free name for `name` (itself when free), and a note when it had to change."""
        clash = self._clash(name)
        if clash is None:
            self._claim(name)
            return name, None
        n = 2
        while True:
            suffix = f"_{n}"
            candidate = name[: MAX_NAME - len(suffix)] + suffix
            if self._clash(candidate) is None:
                break
            n += 1
        self._claim(candidate)
        label, key, other = clash
        what = "name" if label == "name" else f"{label} {show(key)}"
        note = (
            f"/name: renamed {show(name)} to {show(candidate)}: the {what} is already used by "
            f"tool {show(other)} in this import"
        )
        return candidate, note


def assign_unique_names(
    tools: list[tuple[dict[str, Any], list[str]]], taken: Iterable[str] = ()
) -> list[tuple[dict[str, Any], list[str]]]:
    """The same tools, renamed where they collide with an earlier one (or with `taken`)."""
    table = NameTable(taken)
    out: list[tuple[dict[str, Any], list[str]]] = []
    for tool, notes in tools:
        name, note = table.reserve(tool["name"])
        if note is None:
            out.append((tool, notes))
        else:
            out.append(({**tool, "name": name}, [*notes, note]))
    return out
