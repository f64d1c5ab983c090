"""providers/strict.py: OpenAI strict's nesting limit, counted only where it can be broken, and
the short texts of moved values."""

from __future__ import annotations

from typing import Any

import pytest

from toolgen.providers.base import Inexpressible
from toolgen.providers.schema import compact
from toolgen.providers.strict import MAX_NESTING, _openai_limits, nesting


def nested(levels: int) -> dict[str, Any]:
    schema: dict[str, Any] = {"type": "string"}
    for _ in range(levels):
        schema = {"type": "object", "properties": {"x": schema}, "required": ["x"]}
    return schema


def test_nesting_deeper_than_the_limit_is_refused() -> None:
    _openai_limits(nested(MAX_NESTING))
    with pytest.raises(Inexpressible, match=f"{MAX_NESTING + 1} levels of nesting"):
        _openai_limits(nested(MAX_NESTING + 1))


def test_nesting_through_a_definition_is_counted_even_with_few_objects() -> None:
    schema = {
        "type": "object",
        "properties": {"a": {"$ref": "#/$defs/A"}},
        "$defs": {"A": nested(MAX_NESTING)},
    }
    assert nesting(schema) == MAX_NESTING + 1
    with pytest.raises(Inexpressible, match="levels of nesting"):
        _openai_limits(schema)


def test_compact_writes_integers_and_booleans_as_json() -> None:
    values = (3, -12, True, False, 2.5, 'a"b', [1, None])
    assert [compact(v) for v in values] == [
        "3",
        "-12",
        "true",
        "false",
        "2.5",
        '"a\\"b"',
        "[1, null]",
    ]
