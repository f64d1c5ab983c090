"""What is worked out once per distinct content (a `returns`: lower/results.py,
exactness.exact_root; a leaf field: TypeMapper.field) gives what working it out for each
tool gives."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from toolgen.check.context import CheckedTool
from toolgen.diagnostics import Severity
from toolgen.lower import lower, lower_tool
from toolgen.pipeline import check_specs
from toolgen.schema.exactness import exact, exact_root

SIMPLE = {
    "type": "object",
    "properties": {"id": {"type": "string"}, "ok": {"type": "boolean"}},
    "required": ["ok"],
}
NESTED = {
    "type": "object",
    "properties": {
        "items": {"type": "array", "items": {"type": "object", "properties": {"n": {}}}}
    },
}
RECURSIVE = {
    "type": "object",
    "properties": {"next": {"$ref": "#/$defs/Node"}},
    "$defs": {"Node": {"type": "object", "properties": {"next": {"$ref": "#/$defs/Node"}}}},
}
# A property named like the class of another tool's arguments: its Python name changes there.
CLASHING = {"type": "object", "properties": {"BArguments": {"type": "integer"}}}
LIST = {"type": "array", "items": {"type": "string"}}
LIST_OF_OBJECTS = {"type": "array", "items": {"type": "object", "properties": {"a": {}}}}
RETURNS = [SIMPLE, NESTED, RECURSIVE, CLASHING, LIST, LIST_OF_OBJECTS, None, {}]
# The same leaf fields, required or not, with coercions or not, and as injected values.
LEAVES = {
    "n": {"type": "integer", "minimum": 1, "description": "A number."},
    "s": {"type": "string", "default": "x"},
    "e": {"enum": ["a", "b"]},
}
PARAMETERS = [
    {"type": "object", "properties": LEAVES, "required": ["n"]},
    {"type": "object", "properties": LEAVES},
    {"type": "object", "properties": LEAVES, "required": ["n", "s"], "x-coerce": ["numbers"]},
    {"type": "object", "properties": {"o": {"type": "object", "properties": LEAVES}}},
]


def _checked(tmp_path: Path, returns: list[Any]) -> list[CheckedTool]:
    for name in ("a", "b", "c"):
        for i, schema in enumerate(returns):
            spec: dict[str, Any] = {
                "name": f"{name}{i}",
                "description": "A tool for tests.",
                "parameters": PARAMETERS[i % len(PARAMETERS)],
            }
            if i % 3 == 0:
                spec["injected"] = {"n": LEAVES["n"]}
            if schema is not None:
                spec["returns"] = schema
            (tmp_path / f"{name}{i}.json").write_text(json.dumps(spec))
    # The clash needs tool `b`: its arguments class is BArguments.
    (tmp_path / "b.json").write_text(
        json.dumps({"name": "b", "description": "A tool for tests.", "returns": CLASHING})
    )
    diagnostics, checked = check_specs(tmp_path)
    assert [d.text() for d in diagnostics if d.severity is Severity.ERROR] == []
    return checked


def test_shared_models_and_fields_are_the_ones_each_tool_would_get_alone(tmp_path: Path) -> None:
    checked = _checked(tmp_path, RETURNS)
    together = {t.name: t for t in lower(checked, "p").tools}
    alone = {t.name: lower_tool(t) for t in checked}  # each with memos of its own
    assert together == alone
    # The clashing property is renamed in `b` only, shared or not.
    results = {
        name: next(m for m in alone[name].models if m.class_name == alone[name].classes.result)
        for name in ("b", "a3", "c3")
    }
    fields = {name: model.fields[0].python_name for name, model in results.items()}
    assert fields == {"b": "BArguments_2", "a3": "BArguments", "c3": "BArguments"}


@pytest.mark.parametrize("schema", [*[s for s in RETURNS if s is not None], True, False])
def test_exactness_judged_once_per_content_is_exactness(schema: Any) -> None:
    defs = schema.get("$defs", {}) if isinstance(schema, dict) else {}
    assert exact_root(schema) is exact(schema, defs)
    assert exact_root(schema) is exact(schema, defs)  # remembered


def test_exactness_by_content_tells_one_and_true_apart() -> None:
    one = {"type": "object", "properties": {"a": {"const": 1, "type": "integer"}}}
    true = {"type": "object", "properties": {"a": {"const": True, "type": "integer"}}}
    assert exact_root(one) and not exact_root(true)
