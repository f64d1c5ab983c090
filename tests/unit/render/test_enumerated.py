"""The listed values of a plain enum, decided without the judge, are those the judge keeps."""

from __future__ import annotations

from typing import Any

import pytest

from toolgen.render import strategies
from toolgen.render.strategies import StrategyCompiler
from toolgen.runtime_testing.judge import json_schema_validator

SCHEMAS: list[dict[str, Any]] = [
    {"type": "string", "enum": ["a", "b", "a b"]},
    {"enum": ["x", "y"], "description": "no type"},
    {"const": "only", "title": "T", "default": "only", "examples": ["only"]},
    {"type": "string", "enum": ["\ud800", "ok"], "deprecated": True, "$comment": "c"},
    {"type": "string", "enum": []},
]
# Shapes the shortcut leaves to the judge.
JUDGED: list[dict[str, Any]] = [
    {"type": "string", "enum": ["a", "bb"], "minLength": 2},
    {"type": "integer", "enum": [1, 2]},
    {"enum": ["a", 1]},
    {"type": ["string", "null"], "enum": ["a", None]},
    {"const": "a", "enum": ["b"]},
    {"type": "string", "enum": ["a"], "pattern": "^b"},
]


@pytest.mark.parametrize("schema", SCHEMAS)
def test_plain_enums_are_decided_as_the_judge_decides(schema: dict[str, Any]) -> None:
    values = [schema["const"]] if "const" in schema else schema["enum"]
    judge = json_schema_validator(schema)
    expected = [v for v in values if strategies._json_literal(v) and judge.is_valid(v)]
    assert strategies._plainly_valid(schema, values) == expected


@pytest.mark.parametrize("schema", JUDGED)
def test_other_enums_are_left_to_the_judge(schema: dict[str, Any]) -> None:
    values = [schema["const"]] if "const" in schema else schema["enum"]
    assert strategies._plainly_valid(schema, values) is None


def test_the_compiled_strategy_is_the_same_either_way(monkeypatch: pytest.MonkeyPatch) -> None:
    schema = {"type": "string", "enum": ["red", "green"], "description": "a colour"}
    quick = StrategyCompiler(schema, "PARAMETERS", "_a_").compile(schema)
    monkeypatch.setattr(strategies, "_plainly_valid", lambda schema, values: None)
    assert StrategyCompiler(schema, "PARAMETERS", "_a_").compile(schema) == quick
