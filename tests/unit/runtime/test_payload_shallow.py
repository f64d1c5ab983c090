"""Text for a class that bounds what it accepts is read before it is measured (nesting.shallow).

The fast path is only sound if the bound is true: whatever such a class accepts nests no
deeper than `shallow(cls)` and holds no NaN or Infinity. These tests state the bound for
the shapes the typemap emits, check it against what classes actually accept (hypothesis,
derandomized), and check that text refused on the fast path gets the same issues as before.
"""

from __future__ import annotations

import json
import math
from collections.abc import Iterator
from types import ModuleType
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tests.support._generated import package, spec

ITEM = {
    "type": "object",
    "properties": {"id": {"type": "integer"}, "score": {"type": "number"}},
    "required": ["id"],
}
TOOLS = [
    spec("flat", {"a": {"type": "string"}, "n": {"type": "number"}}),
    spec(
        "lists",
        {
            "grid": {"type": "array", "items": {"type": "array", "items": {"type": "number"}}},
            "rows": {"type": "array", "items": ITEM},
        },
    ),
    spec("table", {"counts": {"type": "object", "additionalProperties": {"type": "integer"}}}),
    spec(
        "either",
        {"v": {"anyOf": [{"type": "array", "items": {"type": "integer"}}, {"type": "string"}]}},
    ),
    spec("untyped", {"anything": {}}),
    spec("open", {"o": {"type": "object"}}),
    spec("tree", {"root": {"$ref": "#/$defs/Node"}}, **{}),
]
TOOLS[-1]["parameters"]["$defs"] = {
    "Node": {
        "type": "object",
        "properties": {"children": {"type": "array", "items": {"$ref": "#/$defs/Node"}}},
    }
}
EXPECTED = {
    "flat": 1,
    "lists": 3,
    "table": 2,
    "either": 2,
    "untyped": None,
    "open": None,
    "tree": None,
}


@pytest.fixture(scope="module")
def p(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ModuleType]:
    with package(tmp_path_factory.mktemp("shallow"), TOOLS) as generated:
        yield generated


def shallow(p: ModuleType, name: str) -> int | None:
    nesting = __import__(f"{p.__name__}._runtime.validation.nesting", fromlist=["shallow"])
    return nesting.shallow(p.tool_info(name).arguments)  # type: ignore[no-any-return]


@pytest.mark.parametrize("name", sorted(EXPECTED))
def test_the_bound_of_each_shape(p: ModuleType, name: str) -> None:
    assert shallow(p, name) == EXPECTED[name]


def depth(value: Any) -> int:
    if isinstance(value, dict):
        return 1 + max(map(depth, value.values()), default=0)
    if isinstance(value, list):
        return 1 + max(map(depth, value), default=0)
    return 0


def finite(value: Any) -> bool:
    if isinstance(value, float):
        return math.isfinite(value)
    if isinstance(value, dict):
        return all(map(finite, value.values()))
    if isinstance(value, list):
        return all(map(finite, value))
    return True


KEYS = st.sampled_from(["a", "n", "grid", "rows", "id", "score", "counts", "v", "x"])
NUMBERS = st.one_of(st.integers(-3, 3), st.floats(allow_nan=True, allow_infinity=True))
JSON = st.recursive(
    st.one_of(st.none(), st.booleans(), NUMBERS, st.text(max_size=3)),
    lambda inner: st.one_of(st.lists(inner, max_size=3), st.dictionaries(KEYS, inner, max_size=3)),
    max_leaves=12,
)


@settings(
    max_examples=300, derandomize=True, database=None, suppress_health_check=[HealthCheck.too_slow]
)
@given(
    name=st.sampled_from(["flat", "lists", "table", "either"]),
    arguments=st.dictionaries(KEYS, JSON, max_size=3),
)
def test_what_a_shallow_class_accepts_is_within_its_bound(
    p: ModuleType, name: str, arguments: Any
) -> None:
    bound = shallow(p, name)
    assert bound is not None
    text = json.dumps(arguments)  # NaN and Infinity written as JSON's missing words
    try:
        accepted = p.validate_arguments(name, text)
    except p.ToolArgumentsError:
        return
    data = accepted.model_dump(mode="python")
    assert depth(data) <= bound
    assert finite(data)


@pytest.mark.parametrize(
    ("text", "code", "words"),
    [
        ('{"grid": [[1, NaN]]}', "json", "NaN and Infinity"),
        ('{"rows": [{"id": 1, "score": Infinity}]}', "json", "NaN and Infinity"),
        ('{"rows": [{"id": 1, "score": 1e400}]}', "invalid", "finite number"),
        ('{"grid": ' + "[" * 80 + "]" * 80 + "}", "limit", "nested more than 64"),
    ],
)
def test_text_refused_on_the_fast_path_gets_the_measured_issue(
    p: ModuleType, text: str, code: str, words: str
) -> None:
    with pytest.raises(p.ToolArgumentsError) as caught:
        p.validate_arguments("lists", text)
    assert [issue.code for issue in caught.value.issues][:1] == [code], str(caught.value)
    assert words in str(caught.value)


def test_a_deep_value_for_an_untyped_key_is_still_measured_first(p: ModuleType) -> None:
    text = '{"anything": ' + "[" * 80 + "]" * 80 + "}"
    with pytest.raises(p.ToolArgumentsError) as caught:
        p.validate_arguments("untyped", text)
    assert [issue.code for issue in caught.value.issues] == ["limit"]
    with pytest.raises(p.ToolArgumentsError, match="NaN and Infinity"):
        p.validate_arguments("untyped", '{"anything": [NaN]}')


def test_limits_narrower_than_the_bound_measure_first(p: ModuleType) -> None:
    small = p.Limits(max_depth=2)
    with pytest.raises(p.ToolArgumentsError) as caught:
        p.validate_arguments("lists", '{"grid": [[1]]}', limits=small)
    assert [issue.code for issue in caught.value.issues] == ["limit"]
    assert p.validate_arguments("lists", '{"grid": [[1]]}').grid == [[1]]
