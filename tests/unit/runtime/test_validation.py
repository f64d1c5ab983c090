"""The runtime's validation: suggestions, paths, unions, limits, secrets, repairs.

Exact messages live in test_validation_golden.py; agreement with jsonschema in
test_validation_differential.py; robustness on arbitrary input in test_validation_fuzz.py.
"""

from __future__ import annotations

import json
import logging
from collections.abc import Iterator
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from tests.support._generated import package, spec
from tests.support.generation import REPO, generate, imported
from toolgen.runtime.validation import suggest
from toolgen.runtime.validation.payload import depth

GOLDEN_SPECS = REPO / "tests" / "golden" / "errors" / "specs"
ORDER = {
    "customer": {"name": "Ada", "address": {"street": "1 Main St", "city": "Paris"}},
    "items": [{"sku": "A1", "quantity": 1}],
}


@pytest.fixture(scope="module")
def golden(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ModuleType]:
    out = tmp_path_factory.mktemp("validation") / "out"
    generate(GOLDEN_SPECS, out, "validation_pkg")
    with imported(out, "validation_pkg") as p:
        yield p


def issues(p: ModuleType, tool: str, arguments: Any, **options: Any) -> list[tuple[str, str]]:
    with pytest.raises(p.ToolArgumentsError) as caught:
        p.validate_arguments(tool, arguments, **options)
    return [(i.path, i.code) for i in caught.value.issues]


# --- suggestions ------------------------------------------------------------------------


@pytest.mark.parametrize(
    "name, candidates, expected",
    [
        ("Location", ["location", "days"], "location"),  # case
        ("fileName", ["file_name", "file"], "file_name"),  # camelCase for snake_case
        ("file-name", ["file_name"], "file_name"),
        ("loction", ["location", "days"], "location"),  # a deletion
        ("lcoation", ["location", "days"], "location"),  # a transposition
        ("celcius", ["celsius", "fahrenheit"], "celsius"),
        ("path", ["file_path", "mode"], "file_path"),  # one name's words hold the other's
        ("qty", ["quantity", "sku"], "quantity"),  # an abbreviation
        ("desc", ["description", "name"], "description"),
        ("verbose", ["location", "days", "units"], None),  # nothing close: silent
        ("a", ["b", "c"], None),  # too short to guess
        ("id", ["ip", "ids"], None),
        ("days", ["days"], None),  # the name itself is no suggestion
        ("qt", ["quantity"], None),
        ("x", [], None),
    ],
)
def test_nearest(name: str, candidates: list[str], expected: str | None) -> None:
    assert suggest.nearest(name, candidates) == expected


def osa(a: str, b: str) -> int:
    """The textbook optimal-string-alignment table, the reference for the banded search."""
    d = [[i + j if i * j == 0 else 0 for j in range(len(b) + 1)] for i in range(len(a) + 1)]
    for i in range(1, len(a) + 1):
        for j in range(1, len(b) + 1):
            d[i][j] = min(
                d[i - 1][j] + 1, d[i][j - 1] + 1, d[i - 1][j - 1] + (a[i - 1] != b[j - 1])
            )
            if i > 1 and j > 1 and a[i - 1] == b[j - 2] and a[i - 2] == b[j - 1]:
                d[i][j] = min(d[i][j], d[i - 2][j - 2] + 1)
    return d[-1][-1]


@given(st.text("abc", max_size=8), st.text("abc", max_size=8), st.integers(0, 3))
def test_distance_is_optimal_string_alignment(a: str, b: str, limit: int) -> None:
    assert suggest.distance(a, b, limit) == min(osa(a, b), limit + 1)


def test_suggestion_work_is_bounded(monkeypatch: pytest.MonkeyPatch) -> None:
    """Note 3 of the brief: `nearest("word "*800 + "!", ["word "*800])` took 6.6 s."""
    calls = 0
    within = suggest._within

    def counting(a: str, b: str, edits: int) -> bool:
        nonlocal calls
        calls += 1
        return within(a, b, edits)

    monkeypatch.setattr(suggest, "_within", counting)
    assert (
        suggest.nearest("word " * 800 + "!", ["word " * 800]) is None
    )  # too long for a typo search
    assert calls == 0
    assert (
        suggest.distance("ab" * 5000 + "x", "cd" * 5000, 3) == 4
    )  # far apart, long: still a few steps
    assert calls <= 1 + 4 + 16 + 64  # 4 branches a step, 3 steps, whatever the length


# --- paths, keys and unions -------------------------------------------------------------


def test_property_named_empty_is_listed_as_itself(tmp_path: Path) -> None:
    with package(tmp_path, spec("t", {"": {"type": "string"}, "b": {"type": "string"}})) as p:
        with pytest.raises(p.ToolArgumentsError) as caught:
            p.validate_arguments("t", {"zzz_unknown": 1})
        (issue,) = caught.value.issues
        assert issue.expected == '"", "b"' and "field" not in str(caught.value)


def test_union_labels_never_reach_paths(tmp_path: Path) -> None:
    """pydantic puts branch labels ('str', 'int', class names) in `loc`; properties may have those names."""
    either = {"anyOf": [{"type": "string"}, {"type": "integer"}]}
    inner = {"type": "object", "properties": {"int": {"type": "integer"}}, "required": ["int"]}
    properties = {"str": either, "int": {"anyOf": [inner, {"type": "array", "items": inner}]}}
    with package(tmp_path, spec("t", properties)) as p:
        assert issues(p, "t", {"str": [1]}) == [("str", "union")]
        assert issues(p, "t", {"int": {"int": "x"}}) == [("int.int", "type")]
        assert issues(p, "t", {"int": [{"int": 1}, {"int": "x"}]}) == [("int[1].int", "type")]
        assert issues(p, "t", {"int": [{}]}) == [("int[0]", "missing")]


def test_map_keys_that_break_a_pattern_are_unknown_keys(tmp_path: Path) -> None:
    headers = {
        "type": "object",
        "patternProperties": {"^x-": {"type": "integer"}},
        "additionalProperties": False,
    }
    with package(tmp_path, spec("t", {"h": headers})) as p:
        assert p.validate_arguments("t", {"h": {"x-a": 1}}).h.model_extra == {"x-a": 1}
        assert issues(p, "t", {"h": {"y-a": 1}}) == [("h.y-a", "unknown_key")]
        assert issues(p, "t", {"h": {"x-a": "1"}}) == [("h.x-a", "type")]


def test_issues_are_ordered_by_path_with_numeric_indexes(tmp_path: Path) -> None:
    items = {"type": "array", "items": {"type": "integer"}}
    with package(tmp_path, spec("t", {"a": items, "b": {"type": "string"}})) as p:
        found = issues(p, "t", {"b": 1, "a": [0] * 2 + ["x"] + [0] * 7 + ["y"]})
        assert found == [("a[2]", "type"), ("a[10]", "type"), ("b", "type")]


def test_union_reports_the_closest_branch_only(golden: ModuleType) -> None:
    sms = {**ORDER, "notify": {"channel": "sms", "phone": "0612"}}
    assert issues(golden, "create_order", sms) == [("notify.phone", "pattern")]
    email = {**ORDER, "notify": {"channel": "email"}}
    assert issues(golden, "create_order", email) == [("notify", "missing")]
    assert issues(golden, "create_order", {**ORDER, "label": True}) == [("label", "union")]


def test_a_misspelled_required_key_is_one_issue(golden: ModuleType) -> None:
    with pytest.raises(golden.ToolArgumentsError) as caught:
        golden.validate_arguments("get_weather", {"locaton": "Paris", "days": 3})
    (issue,) = caught.value.issues
    assert (issue.path, issue.code) == ("locaton", "unknown_key") and "required" in (
        issue.suggestion or ""
    )


# --- limits -----------------------------------------------------------------------------


def test_issue_count_is_limited_but_counted(golden: ModuleType) -> None:
    items = [{"sku": i, "quantity": 1} for i in range(30)]
    with pytest.raises(golden.ToolArgumentsError) as caught:
        golden.validate_arguments(
            "create_order", {**ORDER, "items": items}, limits=golden.Limits(max_issues=5)
        )
    error = caught.value
    assert len(error.issues) == 5 and error.total == 30
    assert str(error).splitlines()[-2] == "- … and 25 more"


def test_size_and_depth_limits_apply_to_text(golden: ModuleType) -> None:
    text = json.dumps({**ORDER, "customer": {**ORDER["customer"], "name": "x" * 500}})
    assert issues(golden, "create_order", text, limits=golden.Limits(max_bytes=400)) == [
        ("", "limit")
    ]
    nested = '{"items": ' + "[" * 10 + "]" * 10 + "}"
    assert issues(golden, "create_order", nested, limits=golden.Limits(max_depth=5)) == [
        ("", "limit")
    ]
    assert ("", "limit") not in issues(
        golden, "create_order", nested, limits=golden.Limits(max_depth=12)
    )


@pytest.mark.parametrize(
    "text, expected",
    [
        ("{}", 1),
        ('{"a": [1, {"b": []}]}', 4),
        ('{"a": "[[[{{{"}', 1),
        ('["\\"]["]', 1),
        ("", 0),
        ("[[[", 3),
    ],
)
def test_depth_skips_brackets_inside_strings(text: str, expected: int) -> None:
    assert depth(text) == expected


def test_limits_are_checked() -> None:
    from toolgen.runtime.validation.payload import Limits

    with pytest.raises(ValueError):
        Limits(max_issues=0)


# --- secrets ----------------------------------------------------------------------------


def test_secret_values_are_never_shown(golden: ModuleType) -> None:
    secret = "4111-1111-SECRET"
    for call in ({**ORDER, "coupon": [secret]}, {**ORDER, "coupon": {"code": secret}}):
        with pytest.raises(golden.ToolArgumentsError) as caught:
            golden.validate_arguments("create_order", call)
        assert secret not in str(caught.value) and secret not in json.dumps(caught.value.to_dict())
        assert caught.value.issues[0].value is None


def test_injected_secret_names_sent_as_arguments_are_never_shown(tmp_path: Path) -> None:
    tool = spec(
        "t", {"q": {"type": "string"}}, injected={"api_key": {"type": "string", "x-secret": True}}
    )
    with package(tmp_path, tool) as p:
        with pytest.raises(p.ToolArgumentsError) as caught:
            p.validate_arguments("t", {"q": "x", "api_key": "sk-SECRET"})
        assert "sk-SECRET" not in str(caught.value) and "sk-SECRET" not in json.dumps(
            caught.value.to_dict()
        )


# --- repairs ----------------------------------------------------------------------------


def test_declared_coercion_is_reported(golden: ModuleType) -> None:
    reports: list[Any] = []
    model = golden.validate_arguments(
        "set_thermostat", {"room": "hall", "celsius": "21"}, on_coerce=reports.append
    )
    assert model.celsius == 21.0
    assert [(r.path, r.kind, r.before, r.after) for r in reports] == [
        ("celsius", "numbers", '"21"', "21")
    ]


def test_coercion_is_logged_without_a_callback(
    golden: ModuleType, caplog: pytest.LogCaptureFixture
) -> None:
    with caplog.at_level(logging.INFO):
        golden.validate_arguments(
            "set_thermostat", {"room": "hall", "celsius": "21", "eco": "true"}
        )
    assert "celsius coerced (numbers)" in caplog.text and "eco coerced (booleans)" in caplog.text


def test_coercion_is_off_unless_declared(golden: ModuleType) -> None:
    assert issues(golden, "get_weather", {"location": "Paris", "days": "3"}) == [("days", "type")]
    # set_thermostat declares numbers and booleans at its root, and only json for `schedule`.
    assert issues(golden, "set_thermostat", {"room": "a", "celsius": 20, "schedule": ["7"]}) == [
        ("schedule[0]", "type")
    ]


def test_coercion_never_hides_a_secret(tmp_path: Path) -> None:
    pin = {"type": "integer", "x-secret": True}
    tool = spec("t", {"pin": pin}, required=["pin"])
    tool["parameters"]["x-coerce"] = True
    with package(tmp_path, tool) as p:
        reports: list[Any] = []
        assert p.validate_arguments("t", {"pin": "1234"}, on_coerce=reports.append).pin == 1234
        assert "1234" not in json.dumps([r.to_dict() for r in reports])


# --- the valid path does no other work -----------------------------------------------------


def test_valid_calls_never_reach_the_failure_path(
    golden: ModuleType, monkeypatch: pytest.MonkeyPatch
) -> None:
    validation = golden._runtime.validation.validate

    def boom(*args: Any) -> Any:
        raise AssertionError("the failure path ran for a valid call")

    monkeypatch.setattr(validation, "recover", boom)
    golden.validate_arguments("create_order", ORDER)
    golden.validate_arguments("create_order", json.dumps(ORDER))
    golden.validate_arguments("create_order", json.dumps(ORDER).encode())


def test_registry_reports_the_same_message(golden: ModuleType) -> None:
    class Weather(golden.tools.get_weather.GetWeatherTool):  # type: ignore[name-defined,misc]
        def run(self, arguments: Any) -> Any:
            return None

    registry = golden.build_registry(Weather())
    result = registry.call("get_weather", '{"loction": "Paris", "days": 3}')
    assert not result.ok and 'did you mean "location"?' in result.text()


# --- a key sent twice ---------------------------------------------------------------------


@pytest.mark.parametrize(
    "text, key",
    [
        ('{"location": "Paris", "location": "/"}', "location"),  # valid either way
        ('{"location": "Paris", "days": 3, "location": 5}', "location"),  # the last invalid
        ('{"location": "Paris", "loc\\u0061tion": "Oslo"}', "location"),  # an escape spells it
        ('{"location": "Paris", "days": 1, "days": 2}', "days"),
        ('{"location": "10:30", "days": 1, "location": "/"}', "location"),  # a colon in a value
        ('{"location" : "a:b", "location":"c"}', "location"),
        ('{"location": "x\\":", "location": "y"}', "location"),  # an escaped quote, a colon
    ],
)
def test_a_key_sent_twice_is_refused_by_name(golden: ModuleType, text: str, key: str) -> None:
    for sent in (text, text.encode()):
        with pytest.raises(golden.ToolArgumentsError) as caught:
            golden.validate_arguments("get_weather", sent)
        assert [(i.path, i.code, i.message) for i in caught.value.issues] == [
            (
                "",
                "json",
                f'the key "{key}" appears twice in one object; which value counts depends on '
                "who reads it",
            )
        ]
    nested = json.dumps(ORDER)[:-1] + ', "customer": {"name": "Eve"}}'
    assert issues(golden, "create_order", nested) == [("", "json")]
    inner = json.dumps(ORDER).replace('"city": "Paris"', '"city": "Paris", "city": "Rome"')
    assert issues(golden, "create_order", inner) == [("", "json")]


@pytest.mark.parametrize(
    "text",
    [
        '{"location": "Paris 10:30", "days": 3}',  # colons inside strings
        '{"location": "a\\":\\"b", "days": 3}',
        '{"location": "Paris", "units": "celsius", "days": 3}',
        '{"location": "https://example.org/a:b", "days": 3}',
        '{"location": ":", "days" :\n3}',
    ],
)
def test_keys_sent_once_are_valid(golden: ModuleType, text: str) -> None:
    assert golden.validate_arguments("get_weather", text).location == json.loads(text)["location"]
    same_key_in_two_objects = json.dumps(
        {**ORDER, "items": [{"sku": "A1", "quantity": 1}, {"sku": "B2", "quantity": 2}]}
    )
    assert golden.validate_arguments("create_order", same_key_in_two_objects).items[1].sku == "B2"
