"""JSON Schema -> Python types, checked by behaviour: generate, import, validate examples.

Every example is first checked against jsonschema (the reference validator): the test
states what JSON Schema says, then that the generated model says the same. The tools of the
module are one package, generated once per session (`TOOLS`, declared beside their tests).
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterator
from types import ModuleType
from typing import Any

import jsonschema
import pytest

from tests.support._generated import shared
from toolgen.lower import closed
from toolgen.lower.typemap import TypeMapper

OK, BAD = "accept", "reject"
TOOLS: dict[str, dict[str, Any]] = {}  # tool name -> its spec: one package for the module


def tool(name: str, parameters: dict[str, Any], **extra: Any) -> str:
    """Declare a tool of the module's package (at import, before the package is made)."""
    assert name not in TOOLS, name
    TOOLS[name] = {"name": name, "description": "A tool for tests.", "parameters": parameters}
    TOOLS[name].update(extra)
    return name


@pytest.fixture(scope="module")
def pkg() -> Iterator[ModuleType]:
    with shared("typemap", list(TOOLS.values())) as module:
        yield module


def check(
    p: ModuleType,
    name: str,
    accept: list[Any],
    reject: list[Any],
    then: Callable[[Any], None] | None = None,
) -> Any:
    """The tool's examples must be accepted or refused, as jsonschema says."""
    parameters = TOOLS[name]["parameters"]
    oracle = jsonschema.Draft202012Validator(parameters)
    for example in accept:
        assert oracle.is_valid(example), f"the test is wrong: JSON Schema refuses {example!r}"
    for example in reject:
        assert not oracle.is_valid(example), f"the test is wrong: JSON Schema accepts {example!r}"
    # What the package publishes (closed, bundled) says the same as the spec's schema.
    (definition,) = [d for d in p.tool_definitions("mcp") if d["name"] == name]
    published = jsonschema.Draft202012Validator(definition["inputSchema"])
    assert [published.is_valid(e) for e in accept + reject] == [True] * len(accept) + [False] * len(
        reject
    )
    for example in accept:
        model = p.validate_arguments(name, example)
        assert p.validate_arguments(name, json.dumps(example)) == model  # the JSON path agrees
        dumped = model.model_dump(mode="json", by_alias=True, exclude_unset=True)
        assert oracle.is_valid(dumped) and p.validate_arguments(name, dumped) == model, (
            "dump round trip"
        )
    for example in reject:
        with pytest.raises(p.ToolArgumentsError):
            p.validate_arguments(name, example)
        with pytest.raises(p.ToolArgumentsError):
            p.validate_arguments(name, json.dumps(example))
    if then is not None:
        then(p)
    return p.tool_info(name)


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


_GEO = obj({"lat": {"type": "number"}, "lon": {"type": "number"}}, ["lat", "lon"])
NESTED = tool(
    "nested",
    obj({"address": obj({"city": {"type": "string"}, "geo": _GEO}, ["city"])}, ["address"]),
)


def test_nested_objects(pkg: ModuleType) -> None:
    info = check(
        pkg,
        NESTED,
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


UNCLOSED = tool(
    "unclosed",
    {
        "type": "object",
        "properties": {"a": {"type": "object", "properties": {"b": {"type": "string"}}}},
    },
)


def test_objects_without_additional_properties_are_closed_everywhere(pkg: ModuleType) -> None:
    """lower.closed(): arguments refuse unknown keys at any depth (a typo is never silently dropped)."""
    assert pkg.validate_arguments(UNCLOSED, {"a": {"b": "x"}}).a.b == "x"
    for bad in ({"c": 1}, {"a": {"c": 1}}):
        with pytest.raises(pkg.ToolArgumentsError) as caught:
            pkg.validate_arguments(UNCLOSED, bad)
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


_LINE = obj({"sku": {"type": "string"}, "qty": {"type": "integer", "minimum": 1}}, ["sku", "qty"])
ARRAYS = tool(
    "arrays",
    obj({"lines": {"type": "array", "items": _LINE, "minItems": 1, "maxItems": 3}}, ["lines"]),
)


def test_arrays_of_objects(pkg: ModuleType) -> None:
    info = check(
        pkg,
        ARRAYS,
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


REFS = tool(
    "refs",
    {
        **obj(
            {
                "start": {"$ref": "#/$defs/Point"},
                "end": {"$ref": "#/$defs/Point"},
                "color": {"$ref": "#/$defs/Color"},
            },
            ["start", "end"],
        ),
        "$defs": {
            "Point": obj({"x": {"type": "number"}, "y": {"type": "number"}}, ["x", "y"]),
            "Color": {"enum": ["red", "green"]},
        },
    },
)


def test_ref_and_defs(pkg: ModuleType) -> None:
    info = check(
        pkg,
        REFS,
        accept=[{"start": {"x": 0, "y": 0}, "end": {"x": 1.5, "y": 2}, "color": "red"}],
        reject=[
            {"start": {"x": 0}, "end": {"x": 1, "y": 2}},
            {"start": {"x": 0, "y": 0}, "end": {"x": "1", "y": 2}},
            {"start": {"x": 0, "y": 0}, "end": {"x": 1, "y": 2}, "color": "blue"},
        ],
    )
    model = info.arguments.model_validate({"start": {"x": 0, "y": 0}, "end": {"x": 1, "y": 2}})
    assert type(model.start) is type(model.end), "one class per definition"


_NODE = {
    "type": "object",
    "additionalProperties": False,
    "required": ["value"],
    "properties": {
        "value": {"type": "integer"},
        "children": {"type": "array", "items": {"$ref": "#/$defs/Node"}},
    },
}
TREE = tool("tree", {**obj({"root": {"$ref": "#/$defs/Node"}}, ["root"]), "$defs": {"Node": _NODE}})


def test_recursive_ref_tree(pkg: ModuleType) -> None:
    deep = {"value": 0}
    for i in range(1, 30):
        deep = {"value": i, "children": [deep, {"value": -i}]}
    broken = {"value": 1, "children": [{"value": 2, "children": [{"value": "three"}]}]}

    def issue_paths(p: Any) -> None:
        with pytest.raises(p.ToolArgumentsError) as caught:
            p.validate_arguments(TREE, {"root": broken})
        assert [i.path for i in caught.value.issues] == ["root.children[0].children[0].value"]

    info = check(
        pkg,
        TREE,
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


_NAMED = {
    "type": "object",
    "properties": {
        "name": {"type": "string"},
        "children": {"type": "array", "items": {"$ref": "#/$defs/Node"}},
    },
}
TREE_RESULT = tool(
    "tree_result",
    obj({}),
    returns={"type": "array", "items": {"$ref": "#/$defs/Node"}, "$defs": {"Node": _NAMED}},
)


def test_recursive_ref_in_result(pkg: ModuleType) -> None:
    result = pkg.tool_info(TREE_RESULT).result
    value = [{"name": "a", "children": [{"name": "b", "children": []}]}]
    assert result.model_validate(value).model_dump(mode="json", exclude_unset=True) == value
    with pytest.raises(ValueError):
        result.model_validate([{"name": "a", "children": [{"name": 5}]}])


NULLABLE = {
    "anyOf": {"anyOf": [{"type": "string"}, {"type": "null"}]},
    "type-array": {"type": ["string", "null"]},
    "oneOf-null-first": {"oneOf": [{"type": "null"}, {"type": "string", "maxLength": 3}]},
}
NULLABLE_TOOLS = {
    how: tool(f"nullable_{i}", obj({"s": schema}, ["s"]))
    for i, (how, schema) in enumerate(NULLABLE.items())
}


@pytest.mark.parametrize("how", list(NULLABLE))
def test_nullable_required_string(how: str, pkg: ModuleType) -> None:
    bad_long = ["abcd"] if NULLABLE[how].get("oneOf") else []
    check(
        pkg,
        NULLABLE_TOOLS[how],
        accept=[{"s": None}, {"s": "abc"}],
        reject=[{}, {"s": 1}, {"s": True}, {"s": ["a"]}, *({"s": v} for v in bad_long)],
    )


TYPE_ARRAY = tool("type_array", obj({"v": {"type": ["integer", "string"]}}, ["v"]))


def test_type_array_of_scalars(pkg: ModuleType) -> None:
    check(
        pkg,
        TYPE_ARRAY,
        accept=[{"v": 1}, {"v": "1"}, {"v": -(2**70)}],
        reject=[{"v": 1.5}, {"v": True}, {"v": None}, {"v": {}}],
    )


WHOLE = tool(
    "whole",
    obj({"n": {"type": "integer", "minimum": 0}, "m": {"type": ["integer", "null"]}}, ["n"]),
)


def test_integer_accepts_whole_floats(pkg: ModuleType) -> None:
    """JSON Schema counts 2.0 as an integer; Gemini sends every number as a float."""
    info = check(
        pkg,
        WHOLE,
        accept=[{"n": 2}, {"n": 2.0}, {"n": 1e2}, {"n": 0, "m": 3.0}, {"n": 0, "m": None}],
        reject=[{"n": 2.5}, {"n": "2"}, {"n": True}, {"n": -1.0}, {"n": 0, "m": 0.5}],
    )
    model = info.arguments.model_validate({"n": 2.0})
    assert type(model.n) is int and model.n == 2


MIXED_ENUM = tool("mixed_enum", obj({"e": {"enum": ["a", 1, True, None, "None"]}}, ["e"]))


def test_enum_of_mixed_scalars(pkg: ModuleType) -> None:
    check(
        pkg,
        MIXED_ENUM,
        accept=[{"e": "a"}, {"e": 1}, {"e": True}, {"e": None}, {"e": "None"}, {"e": 1.0}],
        reject=[{"e": "b"}, {"e": 2}, {"e": False}, {"e": "1"}, {"e": "true"}, {"e": 0}, {}],
    )


NONE_STRING = tool("none_string", obj({"e": {"enum": ["None", "x"]}}))


def test_optional_enum_that_lists_the_string_none(pkg: ModuleType) -> None:
    """`"None"` is a string value, not null: an optional field still takes an explicit null as absent."""
    assert pkg.validate_arguments(NONE_STRING, {"e": None}).e is None
    assert pkg.validate_arguments(NONE_STRING, {"e": "None"}).e == "None"
    with pytest.raises(pkg.ToolArgumentsError):
        pkg.validate_arguments(NONE_STRING, {"e": "y"})


FLOAT_ENUM = tool(
    "float_enum",
    obj({"f": {"enum": [1.5, 2.5, 3.0]}, "g": {"type": "number", "enum": [0.1, 0.2]}}, ["f"]),
)


def test_enum_of_floats(pkg: ModuleType) -> None:
    check(
        pkg,
        FLOAT_ENUM,
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


FLOAT_STRING_ENUM = tool("float_string_enum", obj({"v": {"enum": ["auto", 0.5, 1]}}, ["v"]))


def test_enum_with_floats_and_strings(pkg: ModuleType) -> None:
    check(
        pkg,
        FLOAT_STRING_ENUM,
        accept=[{"v": "auto"}, {"v": 0.5}, {"v": 1}, {"v": 1.0}],
        reject=[{"v": "0.5"}, {"v": True}, {"v": 2}, {"v": "Auto"}],
    )


STRUCTURED_ENUM = tool("structured_enum", obj({"v": {"enum": [[1, 2], {"a": True}, "x"]}}, ["v"]))


def test_enum_of_arrays_and_objects(pkg: ModuleType) -> None:
    check(
        pkg,
        STRUCTURED_ENUM,
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


EMPTY_ENUM = tool("empty_enum", obj({"v": {"enum": []}}))


def test_empty_enum_accepts_nothing(pkg: ModuleType) -> None:
    check(pkg, EMPTY_ENUM, accept=[{}], reject=[{"v": 1}, {"v": "x"}, {"v": []}])


CONSTS = [
    ("fixed", "other"),
    (3, 4),
    (True, 1),
    (None, 0),
    (2.5, 2),
    ({"a": [1]}, {"a": [True]}),
    ([1, "x"], [1]),
]
CONST_TOOLS = [
    tool(f"const_{i}", obj({"c": {"const": c}}, ["c"])) for i, (c, _) in enumerate(CONSTS)
]


@pytest.mark.parametrize(
    "const, other, name",
    [(*pair, name) for pair, name in zip(CONSTS, CONST_TOOLS, strict=True)],
    ids=repr,
)
def test_const(const: Any, other: Any, name: str, pkg: ModuleType) -> None:
    check(
        pkg,
        name,
        accept=[{"c": const}],
        reject=[{"c": other}, {}],
    )


ALL_OF = tool(
    "all_of",
    {
        "type": "object",
        "additionalProperties": False,
        "$defs": {
            "Base": {"type": "object", "properties": {"id": {"type": "string"}}, "required": ["id"]}
        },
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
    },
)


def test_all_of_merges_properties_and_required(pkg: ModuleType) -> None:
    check(
        pkg,
        ALL_OF,
        accept=[{"item": {"id": "a", "size": 1}}],
        reject=[
            {"item": {"id": "a"}},
            {"item": {"size": 1}},
            {"item": {"id": 1, "size": 1}},
            {"item": {"id": "a", "size": 1, "other": 2}},
        ],
    )


SCORES = tool(
    "scores",
    obj({"scores": {"type": "object", "additionalProperties": {"type": "integer"}}}, ["scores"]),
)


def test_additional_properties_schema_is_a_map(pkg: ModuleType) -> None:
    info = check(
        pkg,
        SCORES,
        accept=[{"scores": {}}, {"scores": {"a": 1, "b c": -2, "": 0}}],
        reject=[{"scores": {"a": "1"}}, {"scores": {"a": 1.5}}, {"scores": []}, {"scores": None}],
    )
    assert info.arguments.model_validate({"scores": {"x": 1}}).scores == {"x": 1}


_ITEM = obj({"n": {"type": "integer"}}, ["n"])
LABELS = tool(
    "labels",
    obj(
        {
            "labels": {
                "type": "object",
                "properties": {"name": {"type": "string"}},
                "additionalProperties": {"type": "string", "maxLength": 3},
                "required": ["name"],
            },
            "nested": {
                "type": "object",
                "properties": {"first": _ITEM},
                "additionalProperties": _ITEM,
            },
        }
    ),
)


def test_declared_properties_with_typed_additional_properties(pkg: ModuleType) -> None:
    info = check(
        pkg,
        LABELS,
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


PATTERN_PROPERTIES = tool(
    "pattern_properties",
    obj(
        {
            "one": {
                "type": "object",
                "properties": {"id": {"type": "string"}},
                "additionalProperties": False,
                "patternProperties": {"^x-": {"type": "integer"}},
            },
            "only": {
                "type": "object",
                "additionalProperties": False,
                "patternProperties": {"^[a-z]+$": {"type": "boolean"}},
            },
        }
    ),
)


def test_pattern_properties(pkg: ModuleType) -> None:
    check(
        pkg,
        PATTERN_PROPERTIES,
        accept=[{"one": {"id": "a", "x-a": 1, "x-": 2.0}}, {"only": {"abc": True}}, {"only": {}}],
        reject=[
            {"one": {"x-a": "1"}},
            {"one": {"y": 1}},
            {"only": {"abc": 1}},
            {"only": {"A": True}},
        ],
    )


INEXPRESSIBLE = {
    "several-patterns": tool(
        "several_patterns",
        obj(
            {
                "m": {
                    "type": "object",
                    "patternProperties": {"^a": {"type": "integer"}, "^b": {"type": "string"}},
                }
            }
        ),
    ),
    "pattern-and-other-keys": tool(
        "pattern_and_other_keys",
        obj({"m": {"type": "object", "patternProperties": {"^a": {"type": "integer"}}}}),
    ),
}


@pytest.mark.parametrize("how", list(INEXPRESSIBLE))
def test_pattern_properties_the_class_cannot_express_are_checked_exactly(
    how: str, pkg: ModuleType
) -> None:
    """The class takes the keys as they come (its type cannot say which pattern a key matches);
    the exact check beside it refuses a value its pattern's schema refuses."""
    name = INEXPRESSIBLE[how]
    assert pkg.validate_arguments(name, {"m": {"a1": 1, "b1": "x"}}).m.model_extra == {
        "a1": 1,
        "b1": "x",
    }
    with pytest.raises(pkg.ToolArgumentsError) as caught:
        pkg.validate_arguments(name, {"m": {"a1": "checked"}})
    assert [issue.location for issue in caught.value.issues] == [("m", "a1")]


MAP_OF_OBJECTS = tool(
    "map_of_objects", obj({"m": {"type": "object", "additionalProperties": _ITEM}}, ["m"])
)


def test_map_of_objects(pkg: ModuleType) -> None:
    check(
        pkg,
        MAP_OF_OBJECTS,
        accept=[{"m": {"a": {"n": 1}}}],
        reject=[{"m": {"a": {}}}, {"m": {"a": {"n": 1, "x": 2}}}, {"m": {"a": 1}}],
    )


OPEN = tool(
    "open",
    obj(
        {
            "anything": {"type": "object"},
            "partly": {
                "type": "object",
                "properties": {"a": {"type": "string"}},
                "additionalProperties": True,
            },
        },
        ["anything"],
    ),
)


def test_open_objects(pkg: ModuleType) -> None:
    info = check(
        pkg,
        OPEN,
        accept=[
            {"anything": {}},
            {"anything": {"x": [1, {"y": None}]}},
            {"anything": {}, "partly": {"a": "x", "extra": 1}},
        ],
        reject=[{"anything": []}, {"anything": "x"}, {"anything": {}, "partly": {"a": 1}}],
    )
    model = info.arguments.model_validate({"anything": {}, "partly": {"a": "x", "extra": [1]}})
    assert model.model_dump(by_alias=True, exclude_unset=True)["partly"] == {"a": "x", "extra": [1]}


PATTERNS = [
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
]
PATTERN_TOOLS = [
    tool(f"pattern_{i}", obj({"s": {"type": "string", "pattern": pattern}}, ["s"]))
    for i, (pattern, _, _) in enumerate(PATTERNS)
]


@pytest.mark.parametrize(
    "pattern, good, bad, name",
    [(*case, name) for case, name in zip(PATTERNS, PATTERN_TOOLS, strict=True)],
)
def test_patterns(
    pattern: str, good: list[str], bad: list[str], name: str, pkg: ModuleType
) -> None:
    check(
        pkg,
        name,
        accept=[{"s": g} for g in good],
        reject=[{"s": b} for b in bad],
    )


ENGINES = tool(
    "engines",
    obj(
        {
            "plain": {"type": "string", "pattern": "^[0-9]+$"},
            "inner": obj({"code": {"type": "string", "pattern": "^(?=[A-Z])\\w+$"}}, ["code"]),
        }
    ),
)


def test_rust_and_python_patterns_in_one_tool(pkg: ModuleType) -> None:
    """Only models with a pattern Rust's engine refuses switch to Python's."""
    check(
        pkg,
        ENGINES,
        accept=[{"plain": "12", "inner": {"code": "Ab"}}],
        reject=[{"plain": "x"}, {"inner": {"code": "ab"}}],
    )


SCALARS = [
    ({"type": "number", "exclusiveMinimum": 0, "maximum": 1}, [0.5, 1], [0, 1.01, "0.5"]),
    ({"type": "integer", "multipleOf": 5}, [0, 10, -5], [3, 2.5]),
    ({"type": "number", "multipleOf": 0.5}, [1.5, 2], [1.2]),
    ({"type": "string", "minLength": 2, "maxLength": 3}, ["ab", "abc"], ["a", "abcd"]),
    ({"type": "boolean"}, [True, False], [0, 1, "true", None]),
    ({"type": "array", "items": {"type": "string"}, "minItems": 1}, [["a"]], [[], [1], "a"]),
    ({"type": "array", "items": {"type": ["string", "null"]}}, [["a", None]], [[1]]),
    ({}, [None, 1, "x", [1], {"a": 1}], []),
]
SCALAR_TOOLS = [tool(f"scalar_{i}", obj({"v": s}, ["v"])) for i, (s, _, _) in enumerate(SCALARS)]


@pytest.mark.parametrize(
    "schema, good, bad, name",
    [(*case, name) for case, name in zip(SCALARS, SCALAR_TOOLS, strict=True)],
)
def test_scalar_constraints(
    schema: dict[str, Any], good: list[Any], bad: list[Any], name: str, pkg: ModuleType
) -> None:
    check(
        pkg,
        name,
        accept=[{"v": g} for g in good],
        reject=[{"v": b} for b in bad],
    )


DEFAULTS = tool(
    "defaults",
    obj(
        {
            "unit": {"enum": ["c", "f"], "default": "c"},
            "n": {"type": "integer", "default": 3},
            "tags": {"type": "array", "items": {"type": "string"}, "default": ["a"]},
        }
    ),
)


def test_defaults_are_applied(pkg: ModuleType) -> None:
    info = check(pkg, DEFAULTS, accept=[{}, {"unit": "f"}], reject=[{"unit": "k"}])
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


LOOKBEHIND = tool("lookbehind", obj({"s": {"type": "string", "pattern": "(?<=a)b"}}, ["s"]))


def test_python_regex_patterns_search_like_json_schema(pkg: ModuleType) -> None:
    """JSON Schema patterns are unanchored (a search), also when the Python engine stands in for Rust's."""
    check(
        pkg,
        LOOKBEHIND,
        accept=[{"s": "ab"}, {"s": "xxab"}],
        reject=[{"s": "b"}, {"s": "ba"}],
    )
