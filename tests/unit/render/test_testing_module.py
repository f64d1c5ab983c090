"""A testing module's texts: laid out once per schema content, the same as laid out afresh."""

from __future__ import annotations

import copy
from types import SimpleNamespace
from typing import Any

from toolgen.render import compiled, satisfiable, testing

PARAMETERS = {
    "type": "object",
    "properties": {
        "query": {"type": "string", "minLength": 1, "description": "What to look for " * 6},
        "limit": {"type": "integer", "minimum": 1, "maximum": 50},
    },
    "required": ["query"],
    "additionalProperties": False,
}
RETURNS = {
    "type": "object",
    "properties": {"items": {"type": "array", "items": {"$ref": "#/$defs/item"}}},
    "$defs": {"item": {"type": "object", "properties": {"id": {"type": "string"}}}},
}


def _tool(returns: Any) -> Any:  # what testing_module reads of a ToolIR
    return SimpleNamespace(parameters=copy.deepcopy(PARAMETERS), returns=returns, examples=())


def test_a_shared_returns_schema_is_laid_out_once() -> None:
    compiled._memo.clear()
    first = testing.testing_module(_tool(copy.deepcopy(RETURNS)))
    second = testing.testing_module(_tool(copy.deepcopy(RETURNS)))  # equal content, other objects
    assert second.result is first.result
    assert second.returns is first.returns
    assert second.definitions == first.definitions
    assert [f.name for f in first.definitions] == ["_result_item"]


def test_the_texts_laid_out_once_are_those_laid_out_afresh() -> None:
    compiled._memo.clear()
    kept = [testing.testing_module(_tool(r)) for r in (copy.deepcopy(RETURNS), None, RETURNS)]
    fresh = []
    for returns in (copy.deepcopy(RETURNS), None, RETURNS):
        compiled._memo.clear()
        fresh.append(testing.testing_module(_tool(returns)))
    assert kept == fresh
    assert kept[1].returns == "RETURNS: Any = None"
    assert kept[0].parameters.startswith("PARAMETERS: dict[str, Any] = {\n")


def test_validity_is_judged_once_per_content() -> None:
    satisfiable._VALID.clear()
    assert satisfiable._valid(RETURNS, '{"a": 1}')
    # The memo answers from the text alone: an invalid schema under a valid one's text.
    assert satisfiable._valid({"type": 5}, '{"a": 1}')
    assert not satisfiable._valid({"type": 5}, None)
    assert not satisfiable._valid({"type": 5}, '{"type": 5}')
