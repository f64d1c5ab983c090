"""Bounded work without a walk on the valid path (runtime/validation/bounds.py): the values
pydantic-core visits in a dict, read from the class where it bounds them; the first errors of a
large failure read from a cut copy, with the count of the others."""

from __future__ import annotations

from collections.abc import Iterator
from types import ModuleType
from typing import Any

import pytest

from tests.support._generated import package, spec
from tests.support.runtime_support import validation_module as runtime

ITEM = {
    "type": "object",
    "properties": {"id": {"type": "integer"}, "tag": {"type": "string"}},
    "required": ["id"],
}
TOOLS = [
    spec(
        "order",
        {
            "customer": {
                "type": "object",
                "properties": {"name": {"type": "string"}, "zip": {"type": "string"}},
                "required": ["name"],
            },
            "lines": {"type": "array", "items": ITEM},  # unbounded: its length is looked at
            "tags": {"type": "array", "items": {"type": "string"}, "maxItems": 5},
            "choice": {"anyOf": [{"type": "array", "items": ITEM}, {"type": "integer"}]},
        },
    ),
    spec("shared", {"a": {"$ref": "#/$defs/Item"}, "b": {"$ref": "#/$defs/Item"}}),
    spec("tree", {"root": {"$ref": "#/$defs/Node"}}),
    spec("open", {"o": {"type": "object"}}),
]
TOOLS[1]["parameters"]["$defs"] = {"Item": ITEM}
TOOLS[2]["parameters"]["$defs"] = {
    "Node": {
        "type": "object",
        "properties": {"children": {"type": "array", "items": {"$ref": "#/$defs/Node"}}},
    }
}


@pytest.fixture(scope="module")
def p(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ModuleType]:
    with package(tmp_path_factory.mktemp("visits"), TOOLS) as generated:
        yield generated


def walks(p: ModuleType, monkeypatch: pytest.MonkeyPatch) -> list[Any]:
    """The values payload.measured walks from now on, in order (`measure` walks through it)."""
    payload = runtime(p, "payload")
    walked: list[Any] = []
    measured = payload.measured
    monkeypatch.setattr(
        payload, "measured", lambda v, limits: walked.append(v) or measured(v, limits)
    )
    return walked


def model(p: ModuleType, tool: str) -> Any:
    return p.tool_info(tool).arguments


def test_visits_look_only_at_unbounded_arrays(p: ModuleType) -> None:
    visits = runtime(p, "bounds").visits
    count = visits(model(p, "order"))
    empty = count({})
    # customer: 1 + 2 fields; tags: 1 + 6 items at most; the union: its largest branch
    assert empty == count({"tags": ["x"] * 100}) == count({"customer": {"name": [1] * 10**6}})
    assert count({"lines": [{"id": 1}] * 10}) == empty + 1 + 10 * 3
    assert count({"choice": [{"id": 1}] * 10}) == empty + 1 + 10 * 3
    assert count({"lines": "not an array"}) == empty + 1
    assert visits(model(p, "shared"))({"a": {"id": 1}}) > 0  # a class used twice: bounded
    assert visits(model(p, "tree")) is None  # recursive: its dicts are walked
    assert visits(model(p, "open")) is None  # untyped values: walked


def test_a_dict_for_a_bounded_class_is_not_walked_unless_refused(
    p: ModuleType, monkeypatch: pytest.MonkeyPatch
) -> None:
    walked = walks(p, monkeypatch)
    call = {"customer": {"name": "Ada"}, "lines": [{"id": 1}, {"id": 2}], "tags": ["a"]}
    assert p.validate_arguments("order", call).lines[1].id == 2
    assert walked == []
    with pytest.raises(p.ToolArgumentsError):
        p.validate_arguments("order", {**call, "lines": [{"id": "1"}]})
    assert len(walked) == 1  # measured once refused, before any error is read
    many = {**call, "lines": [{"id": 1}] * 2000}  # more values than max_errors: walked first
    assert len(p.validate_arguments("order", many).lines) == 2000
    assert len(walked) == 2


def test_the_dict_limits_still_hold_for_a_bounded_class(p: ModuleType) -> None:
    small = p.Limits(max_bytes=100, max_depth=2)
    with pytest.raises(p.ToolArgumentsError) as caught:
        p.validate_arguments("order", {"lines": [{"id": 1}] * 40}, limits=small)
    assert [i.code for i in caught.value.issues] == ["limit"]
    with pytest.raises(p.ToolArgumentsError) as caught:  # deeper than max_depth: walked
        p.validate_arguments("order", {"lines": [{"id": 1}]}, limits=small)
    assert [i.code for i in caught.value.issues] == ["limit"]


def test_many_errors_are_read_from_a_cut_copy_and_counted(p: ModuleType) -> None:
    bounds = runtime(p, "bounds")
    copy, cut = bounds.pruned({"a": [1, 2, 3], "b": {"x": 1, "y": 2}, "c": 3}, 6)
    assert copy == {"a": [1, 2, 3], "b": {"x": 1}} and cut == {("b",), ()}
    text = '{"lines": [' + ",".join(['{"id": "1"}'] * 5000) + "]}"
    with pytest.raises(p.ToolArgumentsError) as caught:
        p.validate_arguments("order", text)
    error = caught.value
    assert [i.path for i in error.issues] == [f"lines[{i}].id" for i in range(20)]
    # `total`: the problems among the first max_errors values (1 + 2 per line: 499 lines)
    assert error.total == 499 and str(error).splitlines()[-2] == "- … and 479 more"


def test_a_key_of_a_cut_object_is_not_reported_missing(p: ModuleType) -> None:
    lines = [{"tag": "x", "id": "1"}] * 2000  # the last lines lose their `id` in the copy
    with pytest.raises(p.ToolArgumentsError) as caught:
        p.validate_arguments("order", {"lines": lines})
    assert {i.code for i in caught.value.issues} == {"type"}
    assert caught.value.total == 333  # the lines within the first max_errors values


def test_unknown_keys_past_the_limit_are_counted_not_searched(
    p: ModuleType, monkeypatch: pytest.MonkeyPatch
) -> None:
    translate = runtime(p, "translate")
    searched: list[Any] = []
    nearest = translate.nearest
    monkeypatch.setattr(
        translate, "nearest", lambda key, *a: searched.append(key) or nearest(key, *a)
    )
    text = "{" + ",".join(f'"key{i}": 1' for i in range(5000)) + "}"
    with pytest.raises(p.ToolArgumentsError) as caught:
        p.validate_arguments("order", text)
    assert len(caught.value.issues) == 20 and caught.value.total == 1000  # the first 1,000 keys
    assert len(searched) == 20  # one suggestion search per issue shown, not per key


def test_a_dict_with_more_keys_than_the_budget_is_walked_first(
    p: ModuleType, monkeypatch: pytest.MonkeyPatch
) -> None:
    walked = walks(p, monkeypatch)
    many = {f"key{i}": 1 for i in range(2000)}  # each unknown key is one error of the pass
    with pytest.raises(p.ToolArgumentsError) as caught:
        p.validate_arguments("order", many)
    assert len(walked) == 2  # before pydantic-core read it, and once it was refused
    assert caught.value.total == 1000  # the first max_errors keys
