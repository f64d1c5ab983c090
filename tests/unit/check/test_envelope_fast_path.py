"""The spec-format check's fast path (jsonschema-rs) clears exactly what jsonschema accepts."""

from __future__ import annotations

from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from toolgen.check.envelope import _cleared, _fast, _validator

KEYS = [
    "name",
    "description",
    "parameters",
    "returns",
    "category",
    "kind",
    "stability",
    "version",
    "timeout_s",
    "flags",
    "annotations",
    "injected",
    "errors",
    "examples",
    "title",
    "desciption",
    "x-extra",
]
json_values = st.recursive(
    st.none()
    | st.booleans()
    | st.integers(-3, 3)
    | st.floats(-2, 2)
    | st.sampled_from(
        ["x", "get_weather", "utility", "stable", "idempotent", "object", "", "1.0", "bad name"]
    ),
    lambda children: (
        st.lists(children, max_size=3)
        | st.dictionaries(st.sampled_from(KEYS + ["type"]), children, max_size=3)
    ),
    max_leaves=12,
)
tools = st.dictionaries(st.sampled_from(KEYS), json_values, max_size=6).map(
    lambda d: {"name": "get_weather", "description": "d", **d}
)


def agree(definition: str, data: Any) -> None:
    assert _cleared(_fast(definition), data) == _validator(definition).is_valid(data)


@given(tools)
@settings(max_examples=400, deadline=None)
def test_fast_path_gives_jsonschemas_verdict_on_tools(data: dict[str, Any]) -> None:
    agree("tool", data)


@given(st.lists(tools, max_size=3))
@settings(max_examples=150, deadline=None)
def test_fast_path_gives_jsonschemas_verdict_on_tool_lists(entries: list[dict[str, Any]]) -> None:
    agree("toolList", {"tools": entries})


def test_both_verdicts_are_exercised() -> None:
    assert _cleared(_fast("tool"), {"name": "t", "description": "d"})
    assert not _cleared(_fast("tool"), {"name": "t", "desciption": "d"})
    assert not _cleared(
        _fast("tool"), {"name": "t\ud800", "description": "d"}
    )  # unreadable: left to jsonschema
