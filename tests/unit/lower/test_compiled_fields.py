"""The exact check compiled into fields (runtime/validation/exact/fields.py, typemap.typed): an
ECMA-262 pattern Rust's engine reads otherwise, `uniqueItems` on JSON values, a number's
`multipleOf`. The class enforces them alone (no interpreted walk), with the exact check's words."""

from __future__ import annotations

import json
from typing import Any

import jsonschema
import pytest

from tests.support._generated import shared
from tests.unit.lower.test_typemap import obj
from toolgen.runtime.validation.exact.checker import Checker
from toolgen.runtime.validation.exact.values import is_multiple, multiple_test
from toolgen.schema.exactness import compiled_unique, exact

PARAMETERS = obj(
    {
        "code": {"type": "string", "pattern": "^\\d{3}$"},  # \d: ASCII in ECMA-262, not in Rust
        "tags": {"type": "array", "items": {"type": "string"}, "uniqueItems": True},
        "any": {"type": "array", "uniqueItems": True},
        "price": {"type": "number", "multipleOf": 0.01},
    }
)
ACCEPT: list[dict[str, Any]] = [
    {"code": "123", "tags": ["a", "b"], "price": 0.3},
    {"any": [1, True, [1], [True], {"a": 1}, {"a": 2}], "price": 120.5},
    {"price": 3, "code": "999"},
]
REJECT: list[dict[str, Any]] = [
    {"code": "12a"},
    {"tags": ["a", "b", "a"]},
    {"any": [{"a": 1, "b": [1.0]}, {"b": [1], "a": 1}]},  # JSON-equal: key order, 1.0 == 1
    {"price": 9.999},
]


def test_compiled_keywords_need_no_exact_check() -> None:
    oracle = jsonschema.Draft202012Validator(PARAMETERS)
    assert all(oracle.is_valid(e) for e in ACCEPT), "the test is wrong: JSON Schema refuses one"
    assert not any(oracle.is_valid(e) for e in REJECT), "the test is wrong: JSON Schema accepts one"
    spec = {"name": "t", "description": "A tool for tests.", "parameters": PARAMETERS}
    with shared("compiled_fields", [spec]) as p:
        for example in ACCEPT:
            assert p.validate_arguments("t", json.dumps(example)) == p.validate_arguments(
                "t", example
            )
        reference = Checker(PARAMETERS)
        for example in REJECT:  # refused in the checker's own words, from a dict and from text
            for sent in (example, json.dumps(example)):
                with pytest.raises(p.ToolArgumentsError) as refused:
                    p.validate_arguments("t", sent)
                got = [issue.to_dict() for issue in refused.value.issues]
                assert got == [issue.to_dict() for issue in reference.issues(example)], example
        # One pydantic-core pass, nothing walked after.
        assert p.tool_info("t").arguments.__exact__ is None


def test_unique_items_of_classes_stay_with_the_exact_check() -> None:
    items = obj({"sku": {"type": "string"}})
    assert not compiled_unique({"type": "array", "items": items, "uniqueItems": True})
    schema = obj({"lines": {"type": "array", "items": items, "uniqueItems": True}})
    assert not exact(schema, {})
    assert exact(PARAMETERS, {})


@pytest.mark.parametrize("step", [0.01, 0.1, 0.3, 2.5, 5, 7.25, 1e-5, 1e20])
def test_multiple_test_is_is_multiple(step: float) -> None:
    values = [0, 3, -7, 0.3, 0.03, 120.5, 9.999, 2.5e-5, 1e21, 7.25 * 3, -0.0, 1e-7, 12345.67]
    test = multiple_test(step)
    assert [test(v) for v in values] == [is_multiple(v, step) for v in values]
    assert test(step) and test(0) and not test(step * 1.5)
