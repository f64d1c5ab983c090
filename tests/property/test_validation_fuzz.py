"""Fuzz: whatever a model sends, validation returns arguments or raises ToolArgumentsError, with a
bounded message, in bounded work.

"Bounded" is shown without clocks: the inputs include the shapes that cost the most (deep
nesting, huge keys and strings, thousands of errors, long near-miss names), the message is
capped, and the suggestion search has its own work bound (test_validation.py).
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from types import ModuleType
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tests.support.generation import REPO, generate, imported

SPECS = [
    REPO / "tests" / "golden" / "errors" / "specs",
    REPO / "tests" / "golden" / "cases" / "refs" / "specs",
]
KEYS = [
    "location",
    "days",
    "units",
    "customer",
    "items",
    "label",
    "notify",
    "coupon",
    "celsius",
    "eco",
    "schedule",
    "root",
    "value",
    "children",
    "name",
    "address",
    "sku",
    "quantity",
    "channel",
]

json_values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text(max_size=30),
    lambda inner: (
        st.lists(inner, max_size=5)
        | st.dictionaries(st.sampled_from(KEYS) | st.text(max_size=12), inner, max_size=5)
    ),
    max_leaves=30,
)
# Objects that look like real calls: the tools' own keys, near misses, and any values.
calls = st.dictionaries(
    st.sampled_from(KEYS) | st.text(max_size=20) | st.sampled_from([k.upper() for k in KEYS]),
    json_values,
    max_size=8,
)


@pytest.fixture(scope="module")
def tools(tmp_path_factory: pytest.TempPathFactory) -> Iterator[list[tuple[ModuleType, str]]]:
    contexts = []
    found: list[tuple[ModuleType, str]] = []
    for i, specs in enumerate(SPECS):
        out = tmp_path_factory.mktemp(f"fuzz{i}")
        generate(specs, out, f"fuzz_pkg_{i}")
        context = imported(out, f"fuzz_pkg_{i}")
        p = context.__enter__()
        contexts.append(context)
        found += [(p, name) for name in p.TOOL_NAMES]
    yield found
    for context in reversed(contexts):
        context.__exit__(None, None, None)


def check(p: ModuleType, name: str, arguments: Any) -> None:
    try:
        p.validate_arguments(name, arguments)
    except p.ToolArgumentsError as error:
        lines = str(error).splitlines()
        assert 3 <= len(lines) <= p.Limits().max_issues + 3
        assert all(len(line) <= 300 for line in lines)
        json.dumps(error.to_dict())  # always serialisable
        assert error.issues and all(i.code != "invalid" for i in error.issues), str(error)


SETTINGS = settings(
    max_examples=150, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)


@SETTINGS
@given(data=st.data(), value=json_values)
def test_any_json_value(
    tools: list[tuple[ModuleType, str]], data: st.DataObject, value: Any
) -> None:
    p, name = data.draw(st.sampled_from(tools))
    check(p, name, value)
    check(p, name, json.dumps(value))


@SETTINGS
@given(data=st.data(), value=calls)
def test_any_call_shaped_object(
    tools: list[tuple[ModuleType, str]], data: st.DataObject, value: dict[str, Any]
) -> None:
    p, name = data.draw(st.sampled_from(tools))
    check(p, name, value)
    check(p, name, json.dumps(value))


@SETTINGS
@given(data=st.data(), text=st.text(max_size=200) | st.binary(max_size=100))
def test_any_text(
    tools: list[tuple[ModuleType, str]], data: st.DataObject, text: str | bytes
) -> None:
    p, name = data.draw(st.sampled_from(tools))
    check(p, name, text)


def _deep(levels: int) -> Any:
    value: Any = 1
    for _ in range(levels):
        value = {"value": 1, "children": [value]}
    return value


@pytest.mark.parametrize(
    "make",
    [
        lambda: "[" * 100_000 + "]" * 100_000,  # deeper than any parser allows
        lambda: '{"items": ' + "[" * 500 + "]" * 500 + "}",
        lambda: {"root": _deep(5000)},  # a recursive schema, deeper than pydantic goes
        lambda: json.dumps({"root": _deep(150)}),
        lambda: {"k" * 100_000: 1, "location" + "x" * 50_000: 2},  # huge near-miss keys
        lambda: {"location": "x" * 500_000, "days": "y" * 500_000},
        lambda: {"items": [{"sku": i, "quantity": "x"} for i in range(20_000)]},  # 40,000 errors
        lambda: "x" * 2_000_000,  # over the size limit
        lambda: {"notify": [{"channel": "sms"}] * 1000, "label": [[[]]] * 1000},
        lambda: '{"a": 1, ' * 10_000,
        lambda: "\udcff\ud800",
        lambda: {1: 2, None: 3},  # keys no JSON object has
        lambda: 10**5000,
        lambda: float("nan"),
        lambda: object(),
    ],
)
def test_pathological_inputs(tools: list[tuple[ModuleType, str]], make: Any) -> None:
    for p, name in tools:
        check(p, name, make())
