"""A generated tool module imports exactly the names it uses: the annotations' names are
collected while types are mapped (lower/typemap.py), never read back from generated text,
so spec text that happens to spell a name (`Literal`, `Any`, `Field`) imports nothing."""

from __future__ import annotations

import ast
from pathlib import Path
from typing import Any

import pytest

from tests.support._generated import build_specs, spec


def imported(tmp_path: Path, tool: dict[str, Any]) -> dict[str, set[str]]:
    """{module: names} of the `from X import ...` lines of the tool's generated module."""
    built = build_specs(tmp_path, [tool], "p")
    assert built.ok, built.diagnostics
    tree = ast.parse(built.files[f"p/tools/{tool['name']}.py"])
    out: dict[str, set[str]] = {}
    for node in tree.body:
        if isinstance(node, ast.ImportFrom):
            out.setdefault("." * node.level + (node.module or ""), set()).update(
                a.asname or a.name for a in node.names
            )
    return out


def used_names(tmp_path: Path, tool: dict[str, Any]) -> set[str]:
    built = build_specs(tmp_path, [tool], "p")
    tree = ast.parse(built.files[f"p/tools/{tool['name']}.py"])
    names = {n.id for n in ast.walk(tree) if isinstance(n, ast.Name)}
    # Forward references are strings: their names count too.
    for node in ast.walk(tree):
        if (
            isinstance(node, ast.Constant)
            and isinstance(node.value, str)
            and node.value.isidentifier()
        ):
            names.add(node.value)
    return names


WORDS = (
    "Returns a Literal, Any value, an Annotated Field or _types.OneOf, like typing.Literal['x']."
)


def test_spec_text_that_spells_a_name_imports_nothing(tmp_path: Path) -> None:
    tool = spec(
        "plain",
        {"city": {"type": "string", "description": WORDS}},
        required=["city"],
        description=WORDS,
        returns={"type": "string", "description": WORDS},
    )
    tool["parameters"]["properties"]["unit"] = {
        "type": "string",
        "pattern": "^(Any|Literal)$",
        "default": "Any",
    }
    names = imported(tmp_path, tool)
    assert names["typing"] == {"ClassVar"}
    assert (
        "Literal" not in names["typing"]
        and "Any" not in names["typing"]
        and "Annotated" not in names["typing"]
    )
    assert ".._runtime" in names and "_types" not in names[".._runtime"]


def test_enum_values_that_spell_names_import_only_literal(tmp_path: Path) -> None:
    tool = spec(
        "modes",
        {"mode": {"enum": ["Any", "Annotated", "Field"]}},
        required=["mode"],
        returns={"type": "null"},
    )
    assert imported(tmp_path, tool)["typing"] == {"ClassVar", "Literal"}


@pytest.mark.parametrize(
    "schema",
    [
        {"type": "integer", "minimum": 1},  # strict Integer in arguments: Annotated + _types
        {
            "type": "string",
            "maxLength": 3,
        },  # constraints lifted into the field's Field(): no Annotated
        {"type": ["string", "null"], "maxLength": 3},
        {
            "type": "array",
            "items": {"type": "string", "maxLength": 2},
        },  # Annotated inside list[...]
        {"type": "object", "additionalProperties": {"type": "integer"}},
        {"enum": [1, "a", None]},
        {"type": "object", "properties": {"x": {"type": "number", "x-coerce": True}}},
        {},  # Any
    ],
)
def test_every_imported_name_is_used_and_every_used_name_imported(
    schema: dict[str, Any], tmp_path: Path
) -> None:
    tool = spec(
        "shape", {"value": schema}, required=["value"], returns={"type": "array", "items": {}}
    )
    names = imported(tmp_path, tool)
    used = used_names(tmp_path, tool)
    for module in ("typing", "pydantic"):
        assert names[module] <= used, (module, names[module] - used)
    wanted = {"Annotated", "Any", "Literal", "Field"} & used
    assert wanted <= names["typing"] | names["pydantic"]
    assert ("_types" in names.get(".._runtime", set())) == ("_types" in used)
