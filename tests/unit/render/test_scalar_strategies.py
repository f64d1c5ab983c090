"""A scalar schema's strategy, remembered per schema written alike, is the one made afresh."""

from __future__ import annotations

from typing import Any

import pytest

from toolgen.render import scalar_strategies
from toolgen.render.scalar_strategies import SCALARS, scalar

SCHEMAS: list[tuple[str, dict[str, Any]]] = [
    ("string", {"type": "string", "minLength": 1, "maxLength": 50}),
    ("string", {"type": "string", "pattern": "^[a-z]+$", "format": "email"}),
    ("integer", {"type": "integer", "minimum": 1, "multipleOf": 3}),
    ("number", {"type": "number", "minimum": 1}),
    ("number", {"type": "number", "minimum": 1.0}),  # equal to the one above, written otherwise
    ("number", {"type": "number", "minimum": True}),
    ("number", {"type": "number", "multipleOf": 0.5, "maximum": 10}),
    ("boolean", {"type": "boolean"}),
    ("null", {"type": "null"}),
]


@pytest.mark.parametrize(("kind", "schema"), SCHEMAS)
def test_the_remembered_strategy_is_the_one_made_afresh(kind: str, schema: dict[str, Any]) -> None:
    scalar_strategies._MADE.clear()
    first = scalar(kind, schema)
    assert first == SCALARS[kind](schema)
    for other_kind, other in SCHEMAS:  # every other schema remembered meanwhile
        scalar(other_kind, other)
    assert scalar(kind, dict(schema)) == SCALARS[kind](schema)


def test_equal_bounds_written_differently_keep_their_own_literal() -> None:
    whole = scalar("number", {"type": "number", "minimum": 1})
    decimal = scalar("number", {"type": "number", "minimum": 1.0})
    assert whole != decimal
    assert decimal == SCALARS["number"]({"type": "number", "minimum": 1.0})
