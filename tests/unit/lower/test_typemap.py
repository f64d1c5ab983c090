"""JSON Schema -> Python types, checked by behaviour: generate, import, validate examples.

Every example is first checked against jsonschema (the reference validator): the test
states what JSON Schema says, then that the generated model says the same.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import jsonschema
import pytest

from tests.support._generated import package
from toolgen.lower import closed
from toolgen.lower.typemap import TypeMapper

OK, BAD = "accept", "reject"


def check(
    tmp_path: Path,
    parameters: dict[str, Any],
    accept: list[Any],
    reject: list[Any],
    then: Callable[[Any], None] | None = None,
) -> Any:
    """Generate a tool with these parameters; each example must be accepted or refused, as jsonschema says."""
    oracle = jsonschema.Draft202012Validator(parameters)
    for example in accept:
        assert oracle.is_valid(example), f"the test is wrong: JSON Schema refuses {example!r}"
    for example in reject:
        assert not oracle.is_valid(example), f"the test is wrong: JSON Schema accepts {example!r}"
    tool = {"name": "t", "description": "A tool for tests.", "parameters": parameters}
    with package(tmp_path, tool) as p:
        # What the package publishes (closed, bundled) says the same as the spec's schema.
        (definition,) = p.tool_definitions("mcp")
        published = jsonschema.Draft202012Validator(definition["inputSchema"])
        assert [published.is_valid(e) for e in accept + reject] == [True] * len(accept) + [
            False
        ] * len(reject)
        for example in accept:
            model = p.validate_arguments("t", example)
            assert p.validate_arguments("t", json.dumps(example)) == model  # the JSON path agrees
            dumped = model.model_dump(mode="json", by_alias=True, exclude_unset=True)
            assert oracle.is_valid(dumped) and p.validate_arguments("t", dumped) == model, (
                "dump round trip"
            )
        for example in reject:
            with pytest.raises(p.ToolArgumentsError):
                p.validate_arguments("t", example)
            with pytest.raises(p.ToolArgumentsError):
                p.validate_arguments("t", json.dumps(example))
        if then is not None:
            then(p)
        return p.tool_info("t")


def obj(
    properties: dict[str, Any], required: list[str] | None = None, **extra: Any
) -> dict[str, Any]:
    schema: dict[str, Any] = {
        "type": "object",
        "properties": properties,
        "additionalProperties": False,
        **extra,
    }
    if required:
        schema["required"] = required
    return schema


def test_nested_objects(tmp_path: Path) -> None:
    geo = obj({"lat": {"type": "number"}, "lon": {"type": "number"}}, ["lat", "lon"])
    address = obj({"city": {"type": "string"}, "geo": geo}, ["city"])
    info = check(
        tmp_path,
        obj({"address": address}, ["address"]),
        accept=[
            {"address": {"city": "Oslo"}},
            {"address": {"city": "Oslo", "geo": {"lat": 59.9, "lon": 10}}},
        ],
        reject=[
            {},
            {"address": {}},
            {"address": {"city": "Oslo", "geo": {"lat": 1}}},
            {"address": {"city": "Oslo", "zip": "0150"}},
            {"address": {"city": 5}},
            {"address": "Oslo"},
        ],
    )
    model = info.arguments.model_validate(
        {"address": {"city": "Oslo", "geo": {"lat": 1.5, "lon": 2.0}}}
    )
    assert model.address.geo.lat == 1.5


def test_objects_without_additional_properties_are_closed_everywhere(tmp_path: Path) -> None:
    """lower.closed(): arguments refuse unknown keys at any depth (a typo is never silently dropped)."""
    schema = {
        "type": "object",
        "properties": {"a": {"type": "object", "properties": {"b": {"type": "string"}}}},
    }
    tool = {"name": "t", "description": "A tool for tests.", "parameters": schema}
    with package(tmp_path, tool) as p:
        assert p.validate_arguments("t", {"a": {"b": "x"}}).a.b == "x"
        for bad in ({"c": 1}, {"a": {"c": 1}}):
            with pytest.raises(p.ToolArgumentsError) as caught:
                p.validate_arguments("t", bad)
            assert [i.code for i in caught.value.issues] == ["unknown_key"]


def test_conditions_on_an_object_are_not_closed() -> None:
    """`if`, `then`, `else`, `not` and `dependentSchemas` add conditions to the object around
    them; closed, `if: {properties: {unit: ...}}` would refuse the object's other keys."""
    partial = {"properties": {"unit": {"const": "c"}}}
    schema = {
        "type": "object",
        "properties": {"unit": {"type": "string"}, "value": {"type": "number"}},
        "if": partial,
        "then": partial,
        "else": partial,
        "not": partial,
        "dependentSchemas": {"unit": partial},
    }
    out = closed(schema)
    assert out["additionalProperties"] is False
    for key in ("if", "then", "else", "not"):
        assert "additionalProperties" not in out[key], key
    assert "additionalProperties" not in out["dependentSchemas"]["unit"]
    nested = closed(
        {
            "type": "object",
            "properties": {
                "a": {
                    "then": {
                        "properties": {
                            "b": {"type": "object", "properties": {"c": {"type": "string"}}}
                        }
                    }
                }
            },
        }
    )
    assert (
        nested["properties"]["a"]["then"]["properties"]["b"]["additionalProperties"] is False
    )  # a whole value


def test_arrays_of_objects(tmp_path: Path) -> None:
    line = obj(
        {"sku": {"type": "string"}, "qty": {"type": "integer", "minimum": 1}}, ["sku", "qty"]
    )
    info = check(
        tmp_path,
        obj({"lines": {"type": "array", "items": line, "minItems": 1, "maxItems": 3}}, ["lines"]),
        accept=[
            {"lines": [{"sku": "a", "qty": 1}]},
            {"lines": [{"sku": "a", "qty": 1}, {"sku": "b", "qty": 9}]},
        ],
        reject=[
            {"lines": []},
            {"lines": [{"sku": "a"}]},
            {"lines": [{"sku": "a", "qty": 0}]},
            {"lines": [{"sku": "a", "qty": 1}] * 4},
            {"lines": {"sku": "a", "qty": 1}},
            {"lines": [{"sku": "a", "qty": 1, "extra": True}]},
        ],
    )
    with pytest.raises(ValueError) as caught:
        info.arguments.model_validate({"lines": [{"sku": "a", "qty": 1}, {"sku": "b", "qty": "2"}]})
    assert "lines" in str(caught.value)


def test_ref_and_defs(tmp_path: Path) -> None:
    point = obj({"x": {"type": "number"}, "y": {"type": "number"}}, ["x", "y"])
    color = {"enum": ["red", "green"]}
    parameters = {
        **obj(
            {
                "start": {"$ref": "#/$defs/Point"},
                "end": {"$ref": "#/$defs/Point"},
                "color": {"$ref": "#/$defs/Color"},
            },
            ["start", "end"],
        ),
        "$defs": {"Point": point, "Color": color},
    }
    info = check(
        tmp_path,
        parameters,
        accept=[{"start": {"x": 0, "y": 0}, "end": {"x": 1.5, "y": 2}, "color": "red"}],
        reject=[
            {"start": {"x": 0}, "end": {"x": 1, "y": 2}},
            {"start": {"x": 0, "y": 0}, "end": {"x": "1", "y": 2}},
            {"start": {"x": 0, "y": 0}, "end": {"x": 1, "y": 2}, "color": "blue"},
        ],
    )
    model = info.arguments.model_validate({"start": {"x": 0, "y": 0}, "end": {"x": 1, "y": 2}})
    assert type(model.start) is type(model.end), "one class per definition"


def test_recursive_ref_tree(tmp_path: Path) -> None:
    node = {
        "type": "object",
        "additionalProperties": False,
        "required": ["value"],
        "properties": {
            "value": {"type": "integer"},
            "children": {"type": "array", "items": {"$ref": "#/$defs/Node"}},
        },
    }
    parameters = {**obj({"root": {"$ref": "#/$defs/Node"}}, ["root"]), "$defs": {"Node": node}}
    deep = {"value": 0}
    for i in range(1, 30):
        deep = {"value": i, "children": [deep, {"value": -i}]}
    broken = {"value": 1, "children": [{"value": 2, "children": [{"value": "three"}]}]}

    def issue_paths(p: Any) -> None:
        with pytest.raises(p.ToolArgumentsError) as caught:
            p.validate_arguments("t", {"root": broken})
        assert [i.path for i in caught.value.issues] == ["root.children[0].children[0].value"]

    info = check(
        tmp_path,
        parameters,
        accept=[{"root": {"value": 1}}, {"root": {"value": 1, "children": []}}, {"root": deep}],
        reject=[
            {"root": broken},
            {"root": {"value": 1, "children": [{}]}},
            {"root": {"value": 1, "children": [{"value": 2, "extra": 1}]}},
        ],
        then=issue_paths,
    )
    model = info.arguments.model_validate({"root": deep})
    assert model.root.children[0].children[1].value == -28


def test_recursive_ref_in_result(tmp_path: Path) -> None:
    node = {
        "type": "object",
        "properties": {
            "name": {"type": "string"},
            "children": {"type": "array", "items": {"$ref": "#/$defs/Node"}},
        },
    }
    returns = {"type": "array", "items": {"$ref": "#/$defs/Node"}, "$defs": {"Node": node}}
    tool = {
        "name": "t",
        "description": "A tool for tests.",
        "parameters": obj({}),
        "returns": returns,
    }
    with package(tmp_path, tool) as p:
        result = p.tool_info("t").result
        value = [{"name": "a", "children": [{"name": "b", "children": []}]}]
        assert result.model_validate(value).model_dump(mode="json", exclude_unset=True) == value
        with pytest.raises(ValueError):
            result.model_validate([{"name": "a", "children": [{"name": 5}]}])


@pytest.mark.parametrize(
    "nullable",
    [
        {"anyOf": [{"type": "string"}, {"type": "null"}]},
        {"type": ["string", "null"]},
        {"oneOf": [{"type": "null"}, {"type": "string", "maxLength": 3}]},
    ],
    ids=["anyOf", "type-array", "oneOf-null-first"],
)
def test_nullable_required_string(nullable: dict[str, Any], tmp_path: Path) -> None:
    bad_long = ["abcd"] if nullable.get("oneOf") else []
    check(
        tmp_path,
        obj({"s": nullable}, ["s"]),
        accept=[{"s": None}, {"s": "abc"}],
        reject=[{}, {"s": 1}, {"s": True}, {"s": ["a"]}, *({"s": v} for v in bad_long)],
    )


def test_type_array_of_scalars(tmp_path: Path) -> None:
    check(
        tmp_path,
        obj({"v": {"type": ["integer", "string"]}}, ["v"]),
        accept=[{"v": 1}, {"v": "1"}, {"v": -(2**70)}],
        reject=[{"v": 1.5}, {"v": True}, {"v": None}, {"v": {}}],
    )


def test_integer_accepts_whole_floats(tmp_path: Path) -> None:
    """JSON Schema counts 2.0 as an integer; Gemini sends every number as a float."""
    info = check(
        tmp_path,
        obj({"n": {"type": "integer", "minimum": 0}, "m": {"type": ["integer", "null"]}}, ["n"]),
        accept=[{"n": 2}, {"n": 2.0}, {"n": 1e2}, {"n": 0, "m": 3.0}, {"n": 0, "m": None}],
        reject=[{"n": 2.5}, {"n": "2"}, {"n": True}, {"n": -1.0}, {"n": 0, "m": 0.5}],
    )
    model = info.arguments.model_validate({"n": 2.0})
    assert type(model.n) is int and model.n == 2


def test_enum_of_mixed_scalars(tmp_path: Path) -> None:
    check(
        tmp_path,
        obj({"e": {"enum": ["a", 1, True, None, "None"]}}, ["e"]),
        accept=[{"e": "a"}, {"e": 1}, {"e": True}, {"e": None}, {"e": "None"}, {"e": 1.0}],
        reject=[{"e": "b"}, {"e": 2}, {"e": False}, {"e": "1"}, {"e": "true"}, {"e": 0}, {}],
    )


def test_optional_enum_that_lists_the_string_none(tmp_path: Path) -> None:
    """`"None"` is a string value, not null: an optional field still takes an explicit null as absent."""
    tool = {
        "name": "t",
        "description": "A tool for tests.",
        "parameters": obj({"e": {"enum": ["None", "x"]}}),
    }
    with package(tmp_path, tool) as p:
        assert p.validate_arguments("t", {"e": None}).e is None
        assert p.validate_arguments("t", {"e": "None"}).e == "None"
        with pytest.raises(p.ToolArgumentsError):
            p.validate_arguments("t", {"e": "y"})


def test_enum_of_floats(tmp_path: Path) -> None:
    check(
        tmp_path,
        obj({"f": {"enum": [1.5, 2.5, 3.0]}, "g": {"type": "number", "enum": [0.1, 0.2]}}, ["f"]),
        accept=[{"f": 1.5}, {"f": 2.5}, {"f": 3}, {"f": 3.0}, {"f": 1.5, "g": 0.1}],
        reject=[
            {"f": 2},
            {"f": "1.5"},
            {"f": True},
            {"f": None},
            {"f": 1.5, "g": 0.3},
            {"f": [1.5]},
        ],
    )


def test_enum_with_floats_and_strings(tmp_path: Path) -> None:
    check(
        tmp_path,
        obj({"v": {"enum": ["auto", 0.5, 1]}}, ["v"]),
        accept=[{"v": "auto"}, {"v": 0.5}, {"v": 1}, {"v": 1.0}],
        reject=[{"v": "0.5"}, {"v": True}, {"v": 2}, {"v": "Auto"}],
    )


def test_enum_of_arrays_and_objects(tmp_path: Path) -> None:
    check(
        tmp_path,
        obj({"v": {"enum": [[1, 2], {"a": True}, "x"]}}, ["v"]),
        accept=[{"v": [1, 2]}, {"v": [1.0, 2]}, {"v": {"a": True}}, {"v": "x"}],
        reject=[
            {"v": [2, 1]},
            {"v": [1, 2, 3]},
            {"v": [True, 2]},
            {"v": {"a": 1}},
            {"v": {"a": True, "b": 1}},
            {"v": {}},
            {"v": "y"},
        ],
    )


def test_empty_enum_accepts_nothing(tmp_path: Path) -> None:
    check(tmp_path, obj({"v": {"enum": []}}), accept=[{}], reject=[{"v": 1}, {"v": "x"}, {"v": []}])


@pytest.mark.parametrize(
    "const, other",
    [
        ("fixed", "other"),
        (3, 4),
        (True, 1),
        (None, 0),
        (2.5, 2),
        ({"a": [1]}, {"a": [True]}),
        ([1, "x"], [1]),
    ],
    ids=repr,
)
def test_const(const: Any, other: Any, tmp_path: Path) -> None:
    check(
        tmp_path,
        obj({"c": {"const": const}}, ["c"]),
        accept=[{"c": const}],
        reject=[{"c": other}, {}],
    )


def test_all_of_merges_properties_and_required(tmp_path: Path) -> None:
    base = {"type": "object", "properties": {"id": {"type": "string"}}, "required": ["id"]}
    parameters = {
        "type": "object",
        "additionalProperties": False,
        "$defs": {"Base": base},
        "properties": {
            "item": {
                "allOf": [
                    {"$ref": "#/$defs/Base"},
                    {"properties": {"size": {"type": "integer"}}, "required": ["size"]},
                ],
                "unevaluatedProperties": False,
            }
        },
        "required": ["item"],
    }
    check(
        tmp_path,
        parameters,
        accept=[{"item": {"id": "a", "size": 1}}],
        reject=[
            {"item": {"id": "a"}},
            {"item": {"size": 1}},
            {"item": {"id": 1, "size": 1}},
            {"item": {"id": "a", "size": 1, "other": 2}},
        ],
    )


def test_additional_properties_schema_is_a_map(tmp_path: Path) -> None:
    info = check(
        tmp_path,
        obj(
            {"scores": {"type": "object", "additionalProperties": {"type": "integer"}}}, ["scores"]
        ),
        accept=[{"scores": {}}, {"scores": {"a": 1, "b c": -2, "": 0}}],
        reject=[{"scores": {"a": "1"}}, {"scores": {"a": 1.5}}, {"scores": []}, {"scores": None}],
    )
    assert info.arguments.model_validate({"scores": {"x": 1}}).scores == {"x": 1}


def test_declared_properties_with_typed_additional_properties(tmp_path: Path) -> None:
    item = obj({"n": {"type": "integer"}}, ["n"])
    labels = {
        "type": "object",
        "properties": {"name": {"type": "string"}},
        "additionalProperties": {"type": "string", "maxLength": 3},
        "required": ["name"],
    }
    nested = {"type": "object", "properties": {"first": item}, "additionalProperties": item}
    info = check(
        tmp_path,
        obj({"labels": labels, "nested": nested}),
        accept=[
            {"labels": {"name": "x"}},
            {"labels": {"name": "long name", "env": "dev", "": "a"}},
            {"nested": {"first": {"n": 1}, "other": {"n": 2}}},
        ],
        reject=[
            {"labels": {"name": "x", "env": 1}},
            {"labels": {"name": "x", "env": "prod"}},
            {"labels": {"env": "dev"}},
            {"nested": {"other": {"n": "2"}}},
            {"nested": {"other": {}}},
        ],
    )
    model = info.arguments.model_validate(
        {"labels": {"name": "x", "env": "dev"}, "nested": {"o": {"n": 2}}}
    )
    assert model.labels.model_extra == {"env": "dev"}
    assert model.nested.model_extra["o"].n == 2


def test_pattern_properties(tmp_path: Path) -> None:
    one = {
        "type": "object",
        "properties": {"id": {"type": "string"}},
        "additionalProperties": False,
        "patternProperties": {"^x-": {"type": "integer"}},
    }
    only = {
        "type": "object",
        "additionalProperties": False,
        "patternProperties": {"^[a-z]+$": {"type": "boolean"}},
    }
    check(
        tmp_path,
        obj({"one": one, "only": only}),
        accept=[{"one": {"id": "a", "x-a": 1, "x-": 2.0}}, {"only": {"abc": True}}, {"only": {}}],
        reject=[
            {"one": {"x-a": "1"}},
            {"one": {"y": 1}},
            {"only": {"abc": 1}},
            {"only": {"A": True}},
        ],
    )


@pytest.mark.parametrize(
    "schema",
    [
        {
            "type": "object",
            "patternProperties": {"^a": {"type": "integer"}, "^b": {"type": "string"}},
        },
        {"type": "object", "patternProperties": {"^a": {"type": "integer"}}},
    ],
    ids=["several-patterns", "pattern-and-other-keys"],
)
def test_pattern_properties_the_class_cannot_express_are_checked_exactly(
    schema: dict[str, Any], tmp_path: Path
) -> None:
    """The class takes the keys as they come (its type cannot say which pattern a key matches);
    the exact check beside it refuses a value its pattern's schema refuses."""
    tool = {"name": "t", "description": "A tool for tests.", "parameters": obj({"m": schema})}
    with package(tmp_path, tool) as p:
        assert p.validate_arguments("t", {"m": {"a1": 1, "b1": "x"}}).m.model_extra == {
            "a1": 1,
            "b1": "x",
        }
        with pytest.raises(p.ToolArgumentsError) as caught:
            p.validate_arguments("t", {"m": {"a1": "checked"}})
        assert [issue.location for issue in caught.value.issues] == [("m", "a1")]


def test_map_of_objects(tmp_path: Path) -> None:
    value = obj({"n": {"type": "integer"}}, ["n"])
    check(
        tmp_path,
        obj({"m": {"type": "object", "additionalProperties": value}}, ["m"]),
        accept=[{"m": {"a": {"n": 1}}}],
        reject=[{"m": {"a": {}}}, {"m": {"a": {"n": 1, "x": 2}}}, {"m": {"a": 1}}],
    )


def test_open_objects(tmp_path: Path) -> None:
    parameters = obj(
        {
            "anything": {"type": "object"},
            "partly": {
                "type": "object",
                "properties": {"a": {"type": "string"}},
                "additionalProperties": True,
            },
        },
        ["anything"],
    )
    info = check(
        tmp_path,
        parameters,
        accept=[
            {"anything": {}},
            {"anything": {"x": [1, {"y": None}]}},
            {"anything": {}, "partly": {"a": "x", "extra": 1}},
        ],
        reject=[{"anything": []}, {"anything": "x"}, {"anything": {}, "partly": {"a": 1}}],
    )
    model = info.arguments.model_validate({"anything": {}, "partly": {"a": "x", "extra": [1]}})
    assert model.model_dump(by_alias=True, exclude_unset=True)["partly"] == {"a": "x", "extra": [1]}


@pytest.mark.parametrize(
    "pattern, good, bad",
    [
        ("^(?=.*\\d)[a-z\\d]{3,}$", ["abc1", "1ab"], ["abcd", "ab1!", "a1"]),  # lookahead
        ("^(?!admin$)[a-z]+$", ["root", "admins"], ["admin", "Admin"]),  # negative lookahead
        ("^(a+)-\\1$", ["aa-aa"], ["aa-a"]),  # backreference
        (
            "^\\w+$",
            ["ano", "a_1"],
            ["a b"],
        ),  # ECMA-262's \\w is ASCII: the suite's ecmascript-regex tests it
        (
            "colou?r",
            ["the colour red", "color"],
            ["colr"],
        ),  # unanchored: a search, as JSON Schema says
    ],
)
def test_patterns(pattern: str, good: list[str], bad: list[str], tmp_path: Path) -> None:
    check(
        tmp_path,
        obj({"s": {"type": "string", "pattern": pattern}}, ["s"]),
        accept=[{"s": g} for g in good],
        reject=[{"s": b} for b in bad],
    )


def test_rust_and_python_patterns_in_one_tool(tmp_path: Path) -> None:
    """Only models with a pattern Rust's engine refuses switch to Python's."""
    inner = obj({"code": {"type": "string", "pattern": "^(?=[A-Z])\\w+$"}}, ["code"])
    check(
        tmp_path,
        obj({"plain": {"type": "string", "pattern": "^[0-9]+$"}, "inner": inner}),
        accept=[{"plain": "12", "inner": {"code": "Ab"}}],
        reject=[{"plain": "x"}, {"inner": {"code": "ab"}}],
    )


@pytest.mark.parametrize(
    "schema, good, bad",
    [
        ({"type": "number", "exclusiveMinimum": 0, "maximum": 1}, [0.5, 1], [0, 1.01, "0.5"]),
        ({"type": "integer", "multipleOf": 5}, [0, 10, -5], [3, 2.5]),
        ({"type": "number", "multipleOf": 0.5}, [1.5, 2], [1.2]),
        ({"type": "string", "minLength": 2, "maxLength": 3}, ["ab", "abc"], ["a", "abcd"]),
        ({"type": "boolean"}, [True, False], [0, 1, "true", None]),
        ({"type": "array", "items": {"type": "string"}, "minItems": 1}, [["a"]], [[], [1], "a"]),
        ({"type": "array", "items": {"type": ["string", "null"]}}, [["a", None]], [[1]]),
        ({}, [None, 1, "x", [1], {"a": 1}], []),
    ],
)
def test_scalar_constraints(
    schema: dict[str, Any], good: list[Any], bad: list[Any], tmp_path: Path
) -> None:
    check(
        tmp_path,
        obj({"v": schema}, ["v"]),
        accept=[{"v": g} for g in good],
        reject=[{"v": b} for b in bad],
    )


def test_defaults_are_applied(tmp_path: Path) -> None:
    parameters = obj(
        {
            "unit": {"enum": ["c", "f"], "default": "c"},
            "n": {"type": "integer", "default": 3},
            "tags": {"type": "array", "items": {"type": "string"}, "default": ["a"]},
        }
    )
    info = check(tmp_path, parameters, accept=[{}, {"unit": "f"}], reject=[{"unit": "k"}])
    model = info.arguments.model_validate({})
    assert (model.unit, model.n, model.tags) == ("c", 3, ["a"])
    assert info.arguments.model_validate({}).tags is not model.tags, (
        "mutable defaults are not shared"
    )


# --- the mapper itself (class naming, no generation) ------------------------------------------


def mapper() -> TypeMapper:
    return TypeMapper("TArguments", {}, role="arguments")


def test_annotation_texts_for_simple_types() -> None:
    m = mapper()
    assert m.annotation({"type": "string"}, "X").text == "str"
    assert m.annotation({"type": ["string", "null"]}, "X").text == "str | None"
    assert (
        m.annotation({"anyOf": [{"type": "null"}, {"type": "integer"}]}, "X").text
        == "Annotated[int, _types.Integer()] | None"
    )
    assert m.annotation({"enum": ["a", None]}, "X").nullable
    assert not m.annotation({"enum": ["None"]}, "X").nullable
    assert m.annotation({"type": "object"}, "X").text == "dict[str, Any]"
    assert (
        m.annotation({"type": "object", "additionalProperties": {"type": "integer"}}, "X").text
        == "dict[str, Annotated[int, _types.Integer()]]"
    )


def test_nested_class_names_are_unique_and_local() -> None:
    m = mapper()
    m.taken.add("TArguments")
    m.object_model(
        obj({"a": obj({"b": {"type": "string"}}), "A": obj({"c": {"type": "string"}})}),
        "TArguments",
    )
    names = [model.class_name for model in m.models]
    assert names == ["TArgumentsA", "TArgumentsA_2", "TArguments"]


def test_python_regex_patterns_search_like_json_schema(tmp_path: Path) -> None:
    """JSON Schema patterns are unanchored (a search), also when the Python engine stands in for Rust's."""
    check(
        tmp_path,
        obj({"s": {"type": "string", "pattern": "(?<=a)b"}}, ["s"]),
        accept=[{"s": "ab"}, {"s": "xxab"}],
        reject=[{"s": "b"}, {"s": "ba"}],
    )
