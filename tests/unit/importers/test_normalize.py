"""normalize_schema / normalize_tool: each repair on its own, and the whole corpus through lint."""

from __future__ import annotations

import collections
import json
import time
from pathlib import Path
from typing import Any

import jsonschema
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tests.support.generation import CORPUS, NO_CORPUS
from toolgen.importers.emit import dump_tools
from toolgen.importers.names import assign_unique_names
from toolgen.importers.normalize import UnsupportedSchema, normalize_schema, normalize_tool
from toolgen.importers.schema import TYPE_NAMES
from toolgen.importers.verify import lint_errors
from toolgen.load.specs import load_specs
from toolgen.pipeline import lint


def norm(schema: Any) -> tuple[Any, list[str]]:
    out, notes = normalize_schema(schema)
    jsonschema.Draft202012Validator.check_schema(out)
    return out, notes


# --- types -----------------------------------------------------------------------


@pytest.mark.parametrize(
    ("written", "expected"),
    [
        ("dict", "object"),
        ("HashMap", "object"),
        ("float", "number"),
        ("double", "number"),
        ("long", "integer"),
        ("int", "integer"),
        ("str", "string"),
        ("String", "string"),
        ("char", "string"),
        ("bool", "boolean"),
        ("Boolean", "boolean"),
        ("tuple", "array"),
        ("Array", "array"),
        ("ArrayList", "array"),
        ("STRING", "string"),
        ("OBJECT", "object"),
    ],
)
def test_foreign_type_names_become_json_schema_types(written: str, expected: str) -> None:
    out, notes = norm({"type": "dict", "properties": {"x": {"type": written}}})
    assert out == {"type": "object", "properties": {"x": {"type": expected}}}
    assert [n.split(":")[0] for n in notes] == ["/type", "/properties/x/type"]
    assert json.dumps(written) in notes[1]
    assert (
        json.dumps(expected) in notes[1] or written.lower() == expected and "lower case" in notes[1]
    )


@pytest.mark.parametrize("written", ["any", "", "Any", "TYPE_UNSPECIFIED"])
def test_any_and_the_empty_type_mean_no_type(written: str) -> None:
    out, notes = norm({"type": written, "description": "anything"})
    assert out == {"description": "anything"}
    assert notes == [f"/type: type {json.dumps(written)} means any value; removed"]


def test_keywords_no_validator_reads_are_removed_with_a_note_naming_a_near_miss() -> None:
    out, notes = norm(
        {
            "type": "object",
            "properties": {"a": {"type": "string", "choices": ["x"], "x-secert": True}},
            "requried": ["a"],
        }
    )
    assert out == {"type": "object", "properties": {"a": {"type": "string"}}}
    assert notes == [
        "/properties/a/choices: removed: unknown schema keyword 'choices' would be ignored "
        "by every validator",
        "/properties/a/x-secert: removed: unknown toolgen keyword 'x-secert' would be ignored "
        "(did you mean 'x-secret'?)",
        "/requried: removed: unknown schema keyword 'requried' would be ignored by every "
        "validator (did you mean 'required'?)",
    ]


def test_type_lists_are_mapped_and_deduplicated() -> None:
    out, notes = norm({"type": ["int", "integer", "None"]})
    assert out == {"type": ["integer", "null"]}
    assert len(notes) == 1


def test_standard_schemas_come_back_unchanged_and_without_notes() -> None:
    schema = {
        "type": "object",
        "properties": {
            "q": {"type": "string", "minLength": 1, "default": "x"},
            "n": {
                "anyOf": [{"type": "integer", "exclusiveMinimum": 0}, {"type": "null"}],
                "default": None,
            },
            "tags": {"type": "array", "items": {"type": "string", "enum": ["a", "b"]}},
            "unit": {"type": "string", "x-unit": "cm", "example": "m"},  # extensions, allow-list
        },
        "required": ["q"],
        "additionalProperties": False,
    }
    assert normalize_schema(schema) == (schema, [])


def test_an_unknown_type_name_is_refused_with_its_pointer() -> None:
    with pytest.raises(UnsupportedSchema) as caught:
        normalize_schema({"type": "object", "properties": {"when": {"type": "datetime"}}})
    assert caught.value.pointer == "/properties/when/type"
    assert "datetime" in caught.value.message


# --- draft-04/07 and OpenAPI -------------------------------------------------------


def test_boolean_exclusive_minimum_takes_the_bound() -> None:
    out, notes = norm(
        {
            "type": "number",
            "minimum": 0,
            "exclusiveMinimum": True,
            "maximum": 9,
            "exclusiveMaximum": False,
        }
    )
    assert out == {"type": "number", "maximum": 9, "exclusiveMinimum": 0}
    assert [n.split(":")[0] for n in notes] == ["/exclusiveMinimum", "/exclusiveMaximum"]


def test_nullable_becomes_a_type_list() -> None:
    out, notes = norm({"type": "STRING", "nullable": True})
    assert out == {"type": ["string", "null"]}
    assert any(n.startswith("/nullable:") for n in notes)


def test_definitions_items_lists_and_foreign_schema_declarations() -> None:
    out, notes = norm(
        {
            "$schema": "http://json-schema.org/draft-07/schema#",
            "type": "object",
            "properties": {
                "p": {"$ref": "#/definitions/P"},
                "t": {"type": "array", "items": [{"type": "int"}], "additionalItems": False},
            },
            "definitions": {"P": {"type": "str"}},
        }
    )
    assert out == {
        "type": "object",
        "properties": {
            "p": {"$ref": "#/$defs/P"},
            "t": {"type": "array", "prefixItems": [{"type": "integer"}], "items": False},
        },
        "$defs": {"P": {"type": "string"}},
    }
    assert notes[0].startswith("/$schema:")
    assert len(notes) == 7


# --- required and BFCL's `optional` -------------------------------------------------


def test_optional_true_on_a_property_removes_it_from_required() -> None:
    out, notes = norm(
        {
            "type": "dict",
            "properties": {"a": {"type": "str", "optional": "True"}, "b": {"type": "str"}},
            "required": ["a", "b"],
        }
    )
    assert out["required"] == ["b"] and "optional" not in out["properties"]["a"]
    assert any(
        n.startswith("/properties/a/optional:") and 'removed "a" from required' in n for n in notes
    )


def test_optional_list_at_the_object_and_required_true_on_a_property() -> None:
    out, notes = norm(
        {
            "type": "object",
            "properties": {"a": {"type": "string", "required": True}, "b": {"type": "string"}},
            "required": ["b"],
            "optional": ["b"],
        }
    )
    assert out == {
        "type": "object",
        "properties": {"a": {"type": "string"}, "b": {"type": "string"}},
        "required": ["a"],
    }
    assert len(notes) == 2


def test_required_names_that_are_not_declared_or_repeated_are_removed() -> None:
    out, notes = norm({"type": "object", "properties": {"a": {}}, "required": ["a", "a", "ghost"]})
    assert out["required"] == ["a"]
    assert len(notes) == 2 and all(n.startswith("/required:") for n in notes)


# --- enums, defaults, examples ---------------------------------------------------


def test_an_enum_on_an_array_moves_to_its_items() -> None:
    out, notes = norm({"type": "array", "items": {"type": "string"}, "enum": ["a", "b"]})
    assert out == {"type": "array", "items": {"type": "string", "enum": ["a", "b"]}}
    assert notes and notes[0].startswith("/enum:")


def test_samples_of_the_items_are_checked_again_once_the_enum_moved_there() -> None:
    out, notes = norm(
        {"type": "array", "items": {"example": "x", "default": "true"}, "enum": [True, False]}
    )
    assert out == {"type": "array", "items": {"default": True, "enum": [True, False]}}
    assert [n.split(":")[0] for n in notes] == ["/enum", "/items/default", "/items/example"]


def test_an_enum_of_arrays_on_an_array_is_left_alone() -> None:
    schema = {"type": "array", "enum": [["a"], ["b", "c"]]}
    assert normalize_schema(schema) == (schema, [])


def test_a_type_that_refuses_its_enum_takes_the_enum_values_type() -> None:
    out, notes = norm(
        {"type": "boolean", "enum": ["True", "False", "dontcare"], "default": "dontcare"}
    )
    assert out == {"type": "string", "enum": ["True", "False", "dontcare"], "default": "dontcare"}
    assert len(notes) == 1


@pytest.mark.parametrize(
    ("schema", "written", "default"),
    [
        ({"type": "boolean"}, "false", False),
        ({"type": "integer"}, "0", 0),
        ({"type": "number"}, "1.2", 1.2),
        ({"type": "string"}, 5, "5"),
        ({"type": "array", "items": {"type": "string"}}, "Parking", ["Parking"]),
    ],
)
def test_defaults_of_the_wrong_type_are_coerced_exactly(
    schema: dict[str, Any], written: Any, default: Any
) -> None:
    out, notes = norm({**schema, "default": written})
    assert out["default"] == default and type(out["default"]) is type(default)
    assert notes == [
        f"/default: {json.dumps(written)} does not match the schema; changed to {json.dumps(default)}"
    ]


def test_null_default_on_a_non_nullable_type_is_removed_and_kept_where_null_is_allowed() -> None:
    out, notes = norm(
        {
            "type": "object",
            "properties": {
                "a": {"type": "string", "default": None},
                "b": {"type": ["string", "null"], "default": None},
                "c": {"anyOf": [{"type": "string"}, {"type": "null"}], "default": None},
                "d": {"type": "array", "items": {"type": "string"}, "default": "None"},
            },
        }
    )
    assert "default" not in out["properties"]["a"] and "default" not in out["properties"]["d"]
    assert out["properties"]["b"]["default"] is None and out["properties"]["c"]["default"] is None
    assert [n.split(":")[0] for n in notes] == ["/properties/a/default", "/properties/d/default"]


def test_a_default_no_coercion_fixes_is_removed_and_examples_are_filtered() -> None:
    out, notes = norm(
        {"type": "string", "enum": ["s", "ms"], "default": "N/A", "examples": ["s", 5, "x"]}
    )
    assert out == {"type": "string", "enum": ["s", "ms"], "examples": ["s"]}
    assert [n.split(":")[0] for n in notes] == ["/default", "/examples/1", "/examples/2"]


def test_notes_name_escaped_pointers() -> None:
    _, notes = norm({"type": "object", "properties": {"a/b~c": {"type": "dict"}}})
    assert notes[0].startswith("/properties/a~1b~0c/type:")


def test_normalize_schema_does_not_touch_its_input() -> None:
    schema = {
        "type": "dict",
        "properties": {"a": {"type": "str", "optional": True, "default": None}},
        "required": ["a"],
    }
    before = json.dumps(schema)
    normalize_schema(schema)
    assert json.dumps(schema) == before


# --- tools -----------------------------------------------------------------------


def test_an_mcp_record_keeps_title_annotations_and_output_schema() -> None:
    tool, notes = normalize_tool(
        {
            "name": "list_issues",
            "description": "List issues.",
            "inputSchema": {
                "type": "object",
                "properties": {"repo": {"type": "string"}},
                "required": ["repo"],
            },
            "outputSchema": {"type": "object", "properties": {"n": {"type": "integer"}}},
            "annotations": {"title": "List issues", "readOnlyHint": True, "openWorldHint": False},
            "icons": [{"src": "x.png"}],
        }
    )
    assert list(tool) == ["name", "title", "description", "parameters", "returns", "annotations"]
    assert tool["title"] == "List issues" and tool["annotations"] == {
        "read_only": True,
        "open_world": False,
    }
    assert tool["returns"] == {"type": "object", "properties": {"n": {"type": "integer"}}}
    assert any(n.startswith("/icons:") for n in notes) and any(
        n.startswith("/annotations/title:") for n in notes
    )


def test_names_with_spaces_and_missing_descriptions_are_repaired_with_notes() -> None:
    tool, notes = normalize_tool(
        {
            "name": "requestFirst Aid Assistance",
            "description": " ",
            "parameters": {"type": "dict", "properties": {}},
        }
    )
    assert tool["name"] == "requestFirst_Aid_Assistance"
    assert tool["description"] == "Request first aid assistance."
    assert [n.split(":")[0] for n in notes] == ["/name", "/description", "/parameters/type"]


def test_a_tool_without_a_name_or_with_non_object_parameters_is_refused() -> None:
    with pytest.raises(UnsupportedSchema, match="needs a name"):
        normalize_tool({"description": "x"})
    with pytest.raises(UnsupportedSchema) as caught:
        normalize_tool({"name": "f", "description": "x", "parameters": {"type": "string"}})
    assert caught.value.pointer == "/parameters/type"


def test_unique_names_suffix_collisions_of_derived_names() -> None:
    tools = [
        ({"name": n, "description": "d"}, [])
        for n in (
            "math.factorial",
            "math_factorial",
            "calculate_BMI",
            "calculate_bmi",
            "math.factorial",
        )
    ]
    renamed = assign_unique_names(tools)
    # the second math.factorial gets _3: math.factorial_2 would share math_factorial_2's module
    assert [t["name"] for t, _ in renamed] == [
        "math.factorial",
        "math_factorial_2",
        "calculate_BMI",
        "calculate_bmi_2",
        "math.factorial_3",
    ]
    assert (
        renamed[0][1] == []
        and "Python module" in renamed[1][1][0]
        and "name is already used" in renamed[4][1][0]
    )


# --- property: whatever people write in this dialect, import gives a spec lint accepts ---------

SCALARS = (
    st.none()
    | st.booleans()
    | st.integers(-5, 5)
    | st.sampled_from([1.5, 0.0])
    | st.sampled_from(["", "a", "true", "False", "None", "0", "1.2", "yes", "[1]", "dontcare"])
)
VALUES = st.recursive(
    SCALARS,
    lambda c: st.lists(c, max_size=3) | st.dictionaries(st.sampled_from("ab"), c, max_size=2),
    max_leaves=4,
)
TYPES = st.sampled_from(sorted(TYPE_NAMES) + ["STRING", "Integer", "Dict"])
NAMES = st.sampled_from(["a", "b", "c", "from", "Content-Type", "a b"])


@st.composite
def foreign_schema(draw: st.DrawFn, depth: int = 2) -> dict[str, Any]:
    node: dict[str, Any] = {}
    if draw(st.booleans()):
        node["type"] = draw(TYPES | st.lists(TYPES, min_size=1, max_size=3))
    if depth and draw(st.booleans()):
        node["properties"] = draw(st.dictionaries(NAMES, foreign_schema(depth - 1), max_size=3))
        for sub in node["properties"].values():
            if draw(st.booleans()):
                sub["optional"] = draw(st.sampled_from([True, False, "True", "yes", "maybe"]))
        node["required"] = draw(st.lists(NAMES, max_size=3))
    if depth and draw(st.booleans()):
        node["items"] = draw(foreign_schema(depth - 1))
    for key in ("default", "example"):
        if draw(st.booleans()):
            node[key] = draw(VALUES)
    if draw(st.booleans()):
        node["enum"] = draw(
            st.lists(SCALARS, min_size=1, max_size=4, unique_by=lambda v: json.dumps(v))
        )
    if draw(st.booleans()):
        node["nullable"] = draw(st.booleans())
    if draw(st.booleans()):
        node["minimum"], node["exclusiveMinimum"] = draw(st.integers(-3, 3)), draw(st.booleans())
    return node


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    st.dictionaries(NAMES, foreign_schema(), max_size=4),
    st.lists(NAMES, max_size=3),
    st.text(min_size=1, max_size=12).filter(str.strip),
    st.text(max_size=20),
)
def test_import_gives_a_spec_lint_accepts_or_a_precise_refusal(
    properties: dict[str, Any], required: list[str], name: str, description: str
) -> None:
    params = {"type": "dict", "properties": properties, "required": required}
    try:
        tool, notes = normalize_tool(
            {"name": name, "description": description, "parameters": params}
        )
    except UnsupportedSchema as exc:
        assert exc.pointer.startswith("/") and exc.message
        return
    assert lint_errors([tool]) == {}, (tool, notes)
    assert all(note.startswith("/") for note in notes)


# --- the corpus --------------------------------------------------------------------


@pytest.mark.slow
@pytest.mark.skipif(not CORPUS.is_dir(), reason=NO_CORPUS)
def test_every_corpus_record_imports_to_specs_lint_accepts(tmp_path: Path) -> None:
    """All 8,406 records: normalised, uniquely named per source file, written as YAML, read back
    unchanged, and checked by lint with no error. One spec set per source file, 400 tools a file."""
    started = time.perf_counter()
    totals: collections.Counter[str] = collections.Counter()
    warnings: collections.Counter[str] = collections.Counter()
    errors: list[str] = []
    for path in sorted(CORPUS.glob("*.jsonl")):
        records = [json.loads(line) for line in path.read_text().splitlines()]
        tools = assign_unique_names([normalize_tool(record) for record in records])
        totals["tools"] += len(tools)
        totals["changed"] += sum(1 for _, notes in tools if notes)
        totals["renamed"] += sum(1 for t, _ in tools for n in _ if n.startswith("/name: renamed"))
        root = tmp_path / path.stem
        root.mkdir()
        for start in range(0, len(tools), 400):
            (root / f"tools_{start:05}.yaml").write_text(
                dump_tools(tools[start : start + 400]), encoding="utf-8"
            )
        specs = load_specs(root)
        read_back = [t for doc in specs.documents for t in doc.data["tools"]]
        assert read_back == [tool for tool, _ in tools], (
            f"{path.name}: YAML did not read back as written"
        )
        diagnostics, checked = lint(specs)
        assert len(checked) == len(tools)
        for d in diagnostics:
            if d.is_error:
                errors.append(f"{path.name}: {d.text()}")
            else:
                warnings[d.rule] += 1
        totals["with warnings"] += len(
            {(d.file, d.pointer.split("/")[2]) for d in diagnostics if not d.is_error}
        )
    print(
        f"\ncorpus import: {dict(totals)}; warnings by rule {dict(warnings)}; "
        f"{time.perf_counter() - started:.1f}s"
    )
    assert totals["tools"] == 8406
    assert errors == []
