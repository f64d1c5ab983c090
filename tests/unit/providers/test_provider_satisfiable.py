"""Definitions that point somewhere and can be satisfied.

`$defs` names with `~`, `/`, `%`, spaces or accents are renamed by the bundler to names a
reference needs no escaping for, so every `$ref` of every emitted definition resolves. An
object's combinators that name keys beside `properties` (an `allOf` branch requiring `b`)
count those keys as declared when closing, so the published schema admits an instance
the spec admits.
"""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import jsonschema

from tests.support import provider_checks as checks
from tests.support.schema_checks import unresolved_refs
from toolgen.diagnostics import Severity
from toolgen.lower import closed, lower
from toolgen.pipeline import check_specs
from toolgen.providers import PROVIDERS, export, variants

ODD_NAMES = {
    "a/b": {"type": "string"},
    "x~y": {"type": "integer"},
    "p%q": {"type": "boolean"},
    "sp ace": {"type": "object", "properties": {"next": {"$ref": "#/$defs/sp%20ace"}}},
    "été": {"type": "number"},
    "a_b": {"type": "string", "minLength": 1},
}


def lowered(tmp_path: Path, parameters: dict[str, Any]) -> Any:
    (tmp_path / "t.json").write_text(
        json.dumps({"name": "t", "description": "A tool.", "parameters": parameters})
    )
    diagnostics, checked = check_specs(tmp_path)
    assert [d.text() for d in diagnostics if d.severity is Severity.ERROR] == []
    (tool,) = lower(checked, "p").tools
    return tool


def test_odd_definition_names_resolve_in_every_definition(tmp_path: Path) -> None:
    refs = {
        "a": "#/$defs/a~1b",
        "b": "#/$defs/x~0y",
        "c": "#/$defs/p%25q",
        "d": "#/$defs/sp%20ace",
        "e": "#/$defs/%C3%A9t%C3%A9",
        "f": "#/$defs/a_b",
    }
    tool = lowered(
        tmp_path,
        {
            "type": "object",
            "properties": {k: {"$ref": v} for k, v in refs.items()},
            "$defs": ODD_NAMES,
        },
    )
    names = list(tool.parameters["$defs"])
    assert all(re.fullmatch(r"[A-Za-z0-9_.-]+", name) for name in names), names
    assert len(names) == len(ODD_NAMES)  # `a/b` and `a_b` stay apart
    assert unresolved_refs(tool.parameters) == []
    for provider in PROVIDERS:
        for option in variants(provider):
            for definition in export(provider, [tool], **option).definitions:
                assert checks.check(provider, definition) == [], (provider, option)


def test_the_ref_check_fails_on_an_escaped_name() -> None:
    schema = {
        "type": "object",
        "properties": {"a": {"$ref": "#/$defs/a~1b"}},
        "$defs": {"a~1b": {"type": "string"}},
    }
    assert unresolved_refs(schema) == ["#/$defs/a~1b"]
    assert checks.check("mcp", {"name": "t", "inputSchema": schema}) != []


def test_keys_an_all_of_requires_are_declared_when_closing() -> None:
    parameters = {
        "type": "object",
        "properties": {"a": {"type": "string"}},
        "allOf": [{"required": ["b"]}, {"$ref": "#/$defs/C"}],
        "anyOf": [{"required": ["d"]}, {"properties": {"e": {"type": "integer"}}}],
        "$defs": {"C": {"properties": {"c": {"type": "boolean"}}}},
    }
    schema = closed(parameters)
    assert list(schema["properties"]) == ["a", "b", "c", "d", "e"]
    assert schema["additionalProperties"] is False
    validator = jsonschema.Draft202012Validator(schema)
    assert validator.is_valid({"a": "x", "b": 1, "c": True, "d": None})
    assert not validator.is_valid({"a": "x", "b": 1, "typo": 2})  # still closed
    assert not validator.is_valid({"a": "x"})  # and b still required


def test_the_published_mcp_schema_admits_what_the_spec_admits(tmp_path: Path) -> None:
    spec = {
        "type": "object",
        "properties": {"a": {"type": "string"}},
        "required": ["a"],
        "allOf": [{"properties": {"b": {"type": "integer"}}, "required": ["b"]}],
    }
    tool = lowered(tmp_path, spec)
    (definition,) = export("mcp", [tool]).definitions
    instance = {"a": "x", "b": 2}
    assert jsonschema.Draft202012Validator(spec).is_valid(instance)
    assert jsonschema.Draft202012Validator(definition["inputSchema"]).is_valid(instance)
    (openai,) = export("openai", [tool], strict=True).definitions
    assert openai["function"]["strict"] is True
    assert openai["function"]["parameters"]["properties"]["b"] == {"type": "integer"}
