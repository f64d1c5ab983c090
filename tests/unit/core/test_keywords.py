"""schema/keywords.py's `BY_TYPE` is the one table of which keywords apply to which instance
type. The tables that hold a subset of it on purpose (what the typemap enforces, what the
strategies build, which changes `toolgen breaking` orders) stay within it."""

from __future__ import annotations

import pytest

from toolgen.breaking import constraints
from toolgen.render import strategies
from toolgen.schema import exactness
from toolgen.schema.keywords import BY_TYPE, JSON_TYPES, KEYWORDS


def test_the_table_covers_every_type_with_keywords_of_the_dialect() -> None:
    assert set(BY_TYPE) == set(JSON_TYPES)
    assert all(keys <= KEYWORDS for keys in BY_TYPE.values())
    assert BY_TYPE["integer"] == BY_TYPE["number"]  # an integer is a number


def test_no_keyword_belongs_to_two_types_but_the_numeric_ones() -> None:
    owners: dict[str, set[str]] = {}
    for kind, keys in BY_TYPE.items():
        for key in keys:
            owners.setdefault(key, set()).add(kind)
    assert {k: o for k, o in owners.items() if len(o) > 1} == {
        k: {"integer", "number"} for k in BY_TYPE["number"]
    }


@pytest.mark.parametrize(
    ("name", "table"),
    [
        ("exactness", exactness._BY_TYPE),
        ("strategies.BUILT", strategies.BUILT),
        (
            "constraints.COUNTS",
            {k: {w for pair in v for w in pair} for k, v in constraints.COUNTS.items()},
        ),
        ("constraints.PRESENCE", constraints.PRESENCE),
    ],
)
def test_each_partial_table_is_within_the_one_table(
    name: str, table: dict[str, set[str] | frozenset[str] | tuple[str, ...]]
) -> None:
    outside = {kind: set(keys) - BY_TYPE[kind] for kind, keys in table.items()}
    assert {kind: keys for kind, keys in outside.items() if keys} == {}, name


def test_a_schema_without_type_is_read_by_the_one_table() -> None:
    """The strategies infer a type from the same table (a planted `minContains` says array)."""
    assert dict(strategies.IMPLIED_TYPE)["array"] == BY_TYPE["array"]
    assert "minContains" in dict(strategies.IMPLIED_TYPE)["array"]
