"""The generated strategies draw valid values for every group of the JSON-Schema-Test-Suite.

For each group that generates (tests/support/suite_support.py: the group's schema is the schema of
one required parameter), `arguments_json()` must give 20 valid arguments, each judged twice:
by jsonschema against the published parameters and by the package's `validate_arguments`.
The only groups excused are those whose schema no value satisfies, and lint must say so
there (rule `unsatisfiable`). The counts are printed.

jsonschema reads `pattern` with Python's `re` and `multipleOf` by float division; JSON Schema
says ECMA-262 and the decimal numbers written. The judge is jsonschema with those two
keywords read as the spec says (runtime_testing/judge.py), as the package itself reads them.

Draws are made under fixed seeds (0, 1, ...), each run of up to 20 examples, until 20
valid values are in: a group with fewer than 20 distinct values is drawn from again.
"""

from __future__ import annotations

import collections
import importlib
import json
from typing import Any

import pytest
from hypothesis import HealthCheck, given, seed, settings

from toolgen.runtime_testing.judge import json_schema_validator

WANTED = 20
SEEDS = 20
DRAWS = settings(
    max_examples=WANTED,
    derandomize=False,
    database=None,
    deadline=None,
    suppress_health_check=list(HealthCheck),
)


def _testing(package: Any, tool: str) -> Any:
    return importlib.import_module(
        f"{package.__name__}.testing.tools.{package._index.MODULES[tool]}"
    )


def _draw(package: Any, tool: str) -> int:
    """How many valid arguments the strategies gave; a value either judge refuses fails."""
    module = _testing(package, tool)
    judge = json_schema_validator(module.PARAMETERS)
    drawn = 0

    def check(arguments: dict[str, Any]) -> None:
        nonlocal drawn
        errors = [e.message for e in judge.iter_errors(arguments)]
        assert not errors, (
            f"{tool}: jsonschema refuses drawn arguments {json.dumps(arguments)[:300]}: {errors[:3]}"
        )
        package.validate_arguments(tool, arguments)  # raises ToolArgumentsError with the details
        drawn += 1

    for number in range(SEEDS):
        if drawn >= WANTED:
            break
        seed(number)(DRAWS(given(module.arguments_json())(check)))()
    return drawn


# The groups are split into shards (every SHARDS-th group), so that xdist's workers share them.
SHARDS = 8


@pytest.mark.parametrize("shard", range(SHARDS))
def test_strategies_draw_twenty_valid_arguments_per_group(suite: Any, shard: int) -> None:
    package, generated, found = suite
    outcome: collections.Counter[str] = collections.Counter()
    short = []
    # Every group's module imported before the first draw: hypothesis reads the constants of
    # modules imported since its last draw, then sifts all of them again for each kind of draw.
    for group in generated[shard::SHARDS]:
        _testing(package, group.tool)
    for group in generated[shard::SHARDS]:
        warned = {d.rule for d in found.get(group.tool, ())}
        if "unsatisfiable" in warned:
            outcome["unsatisfiable (lint says so)"] += 1
            continue
        drawn = _draw(package, group.tool)
        if drawn >= WANTED:
            outcome["drawn"] += 1
        else:
            short.append((group.file, group.description, drawn))
    print(
        f"\nstrategies, shard {shard}: {len(generated)} groups generate; "
        + ", ".join(f"{n} {what}" for what, n in outcome.items())
    )
    assert not short, short


def test_lint_calls_unsatisfiable_only_what_nothing_satisfies(suite: Any) -> None:
    """The warning is never a false alarm: no instance the suite calls valid is in a group it marks."""
    _, generated, found = suite
    marked = [g for g in generated if "unsatisfiable" in {d.rule for d in found.get(g.tool, ())}]
    assert marked, "the suite has groups nothing satisfies (`not: {}`, `false`)"
    for group in marked:
        assert not any(case["valid"] for case in group.tests), (group.file, group.description)
