"""Provider exporters: every emitted definition passes its SDK's checks (tests/support/provider_checks.py),
the lowering rules of docs/providers.md hold, and fallbacks are said in lint.

The golden files themselves are pinned by test_cases.py (tests/golden/cases/*/expected/*/definitions).
"""

from __future__ import annotations

import copy
import json
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tests.support import provider_checks as checks
from tests.support.generation import case_output, imported
from toolgen.cli import main
from toolgen.lower import ToolView, closed
from toolgen.naming import provider_name
from toolgen.providers import PROVIDERS, export, notes, variants

CASES = Path(__file__).parents[2] / "golden" / "cases"
# The provider definitions each case pins (`search.json` is the search index, not a provider's).
DEFINITION_FILES = sorted(
    p for p in CASES.glob("*/expected/*/definitions/*.json") if p.stem != "search"
)


def tool(
    name: str = "t",
    parameters: dict[str, Any] | None = None,
    description: str = "A tool.",
    **more: Any,
) -> ToolView:
    params = closed(parameters or {"type": "object", "properties": {}})
    params.setdefault("properties", {})
    return ToolView(
        name,
        provider_name(name),
        description,
        more.get("title"),
        params,
        more.get("returns"),
        more.get("annotations", ()),
    )


def all_definitions(tools: list[ToolView]) -> list[tuple[str, dict[str, Any], dict[str, Any]]]:
    return [
        (p, v, d) for p in PROVIDERS for v in variants(p) for d in export(p, tools, **v).definitions
    ]


# -- the golden definitions, through the SDKs -----------------------------------------------------


@pytest.mark.parametrize("path", DEFINITION_FILES, ids=lambda p: f"{p.parents[3].name}-{p.stem}")
def test_golden_definitions_pass_the_sdk_checks(path: Path) -> None:
    document = json.loads(path.read_text("utf-8"))
    provider = document["provider"]
    assert [v["options"] for v in document["variants"]] == variants(provider)
    for variant in document["variants"]:
        for definition in variant["definitions"]:
            assert checks.check(provider, definition) == [], (variant["options"], definition)
        if provider in ("anthropic", "bedrock"):
            tools = [
                d.get("toolSpec", d) for d in variant["definitions"] if not checks.is_search_tool(d)
            ]
            schemas = [
                {**t, "input_schema": t.get("input_schema") or t["inputSchema"]["json"]}
                for t in tools
            ]
            assert checks.anthropic_request_problems(schemas) == []
        if provider == "anthropic":
            assert checks.anthropic_search_problems(variant["definitions"]) == []


def test_the_hard_case_covers_every_fallback() -> None:
    """The providers case is the hard one: strict where possible, every kind of fallback somewhere."""
    document = json.loads(
        (CASES / "providers/expected/providers/definitions/openai.json").read_text("utf-8")
    )
    strict = {
        d["function"]["name"]: d["function"]["strict"]
        for d in document["variants"][1]["definitions"]
    }
    assert strict == {
        "t_2fa_verify": True,
        "budget_split": True,
        "labels_set": False,
        "order_create": True,
        "pick": True,
        "ping": True,
        "shape_area": True,
        "tree_sum": True,
        "http_client_requests_with_a_very_long_name_that_no_prov_f327c3a4": True,
    }
    anthropic = json.loads(
        (CASES / "providers/expected/providers/definitions/anthropic.json").read_text("utf-8")
    )
    strict_anthropic = {
        d["name"] for d in anthropic["variants"][1]["definitions"] if d.get("strict")
    }
    assert (
        "tree_sum" not in strict_anthropic and "labels_set" not in strict_anthropic
    )  # recursion, maps
    assert "order_create" in strict_anthropic and "shape_area" in strict_anthropic
    gemini = json.loads(
        (CASES / "providers/expected/providers/definitions/gemini.json").read_text("utf-8")
    )
    openapi_names = {d["name"] for d in gemini["variants"][1]["definitions"]}
    assert (
        "http_client_requests_with_a_very_long_name_that_no_prov_f327c3a4" not in openapi_names
    )  # Content-Type
    assert len(openapi_names) == len(gemini["variants"][0]["definitions"]) - 1


def test_injected_values_never_reach_a_definition() -> None:
    for path in (CASES / "providers/expected/providers/definitions").glob("*.json"):
        assert "api_key" not in path.read_text("utf-8"), path.name


# -- the checks can fail ------------------------------------------------------------------------

P = {
    "type": "object",
    "properties": {"city": {"type": "string"}},
    "required": ["city"],
    "additionalProperties": False,
}
BAD = [
    ("openai", {"type": "function", "function": {"name": "a.b", "parameters": P}}, "name"),
    ("openai", {"type": "function", "function": {"name": "a", "input_schema": P}}, "unknown"),
    (
        "openai",
        {"type": "function", "function": {"name": "a", "parameters": {**P, "required": None}}},
        "meta-schema",
    ),
    (
        "openai",
        {"type": "function", "function": {"name": "a", "description": "x" * 1025, "parameters": P}},
        "1024",
    ),
    (
        "openai",
        {
            "type": "function",
            "function": {
                "name": "a",
                "strict": True,
                "parameters": {
                    "type": "object",
                    "properties": {
                        "m": {"type": "object", "additionalProperties": {"type": "string"}}
                    },
                    "required": ["m"],
                    "additionalProperties": False,
                },
            },
        },
        "strict",
    ),
    (
        "openai",
        {
            "type": "function",
            "function": {
                "name": "a",
                "strict": True,
                "parameters": {**P, "properties": {"city": {"type": "string", "default": "Rome"}}},
            },
        },
        "unsupported keywords",
    ),
    (
        "openai",
        {
            "type": "function",
            "function": {
                "name": "a",
                "strict": True,
                "parameters": {
                    **P,
                    "properties": {"city": {"type": "string"}, "n": {"type": "integer"}},
                },
            },
        },
        "strict-normalized",
    ),
    ("openai-responses", {"type": "function", "name": "a", "parameters": P}, "strict"),
    (
        "openai-responses",
        {"type": "function", "function": {"name": "a", "parameters": P}, "strict": True},
        "missing",
    ),
    ("anthropic", {"name": "a", "input_schema": {"type": "object", "anyOf": [P, P]}}, "root"),
    ("anthropic", {"name": "a", "parameters": P}, "input_schema"),
    (
        "anthropic",
        {
            "name": "a",
            "strict": True,
            "input_schema": {**P, "properties": {"city": {"type": "string", "minLength": 2}}},
        },
        "transform_schema",
    ),
    (
        "gemini",
        {"name": "a", "parameters": {"type": "OBJECT", "properties": {"u": {"const": "c"}}}},
        "extra_forbidden",
    ),
    (
        "gemini",
        {
            "name": "a",
            "parameters": {"type": "OBJECT", "properties": {"u": {"type": ["string", "null"]}}},
        },
        "AttributeError",
    ),
    (
        "gemini",
        {"name": "a", "parameters": {"type": "OBJECT", "properties": {}}},
        "empty properties",
    ),
    ("gemini", {"name": "1a", "parametersJsonSchema": P}, "name"),
    (
        "gemini",
        {"name": "a", "parametersJsonSchema": {**P, "properties": {"c": {"const": 1}}}},
        "allow-list",
    ),
    ("gemini", {"name": "a", "parametersJsonSchema": P, "parameters": {"type": "OBJECT"}}, "both"),
    ("mcp", {"name": "a b", "inputSchema": P}, "SEP-986"),
    ("mcp", {"name": "a", "inputSchema": {"type": "array"}}, "literal_error"),
    ("mcp", {"name": "a", "inputSchema": P, "annotations": {"readonlyHint": True}}, "annotation"),
    ("mcp", {"name": "a", "inputSchema": P, "outputSchema": {"type": "array"}}, "wire-2025-11-25"),
    (
        "bedrock",
        {"toolSpec": {"name": "a", "description": "", "inputSchema": {"json": P}}},
        "min length",
    ),
    ("bedrock", {"toolSpec": {"name": "a.b", "inputSchema": {"json": P}}}, "name"),
    ("bedrock", {"toolSpec": {"name": "a", "parameters": P}}, "Unknown parameter"),
]


@pytest.mark.parametrize(
    ("provider", "definition", "expected"), BAD, ids=[f"{p}-{i}" for i, (p, _, _) in enumerate(BAD)]
)
def test_the_checks_reject_bad_definitions(
    provider: str, definition: dict[str, Any], expected: str
) -> None:
    problems = checks.check(provider, definition)
    assert any(expected in p for p in problems), problems


def test_the_request_budget_check_can_fail() -> None:
    many = [
        {"name": f"t{i}", "strict": True, "input_schema": {**P, "required": []}} for i in range(21)
    ]
    assert (
        checks.anthropic_request_problems(many)
        == ["21 strict tools (limit 20)", "21 optional parameters in strict tools (limit 24)"][:1]
    )


# -- the lowering rules ---------------------------------------------------------------------------


def defs_of(provider: str, tools: list[ToolView], **options: Any) -> list[dict[str, Any]]:
    return export(provider, tools, **options).definitions


def test_optional_and_nullable_are_lowered_apart() -> None:
    t = tool(
        parameters={
            "type": "object",
            "required": ["a", "c"],
            "properties": {
                "a": {"type": "string"},
                "b": {"type": "string"},
                "c": {"type": ["string", "null"]},
                "d": {"type": ["string", "null"]},
            },
        }
    )
    strict = defs_of("openai", [t], strict=True)[0]["function"]["parameters"]
    assert strict["required"] == ["a", "b", "c", "d"]
    assert strict["properties"]["a"] == {"type": "string"}  # required, not nullable: untouched
    assert strict["properties"]["b"] == {"type": ["string", "null"]}  # optional: null means absent
    assert strict["properties"]["d"] == {
        "type": ["string", "null"]
    }  # nullable already: not doubled
    loose = defs_of("openai", [t])[0]["function"]["parameters"]
    assert loose["required"] == ["a", "c"] and loose["properties"]["b"] == {"type": "string"}
    anthropic = defs_of("anthropic", [t], strict=True)[0]["input_schema"]
    assert anthropic["required"] == ["a", "c"]
    assert anthropic["properties"]["c"] == {"anyOf": [{"type": "string"}, {"type": "null"}]}
    gemini = defs_of("gemini", [t], openapi=True)[0]["parameters"]
    assert gemini["properties"]["c"] == {"type": "STRING", "nullable": True}
    assert gemini["properties"]["b"] == {"type": "STRING"} and gemini["required"] == ["a", "c"]


def test_const_one_of_and_all_of() -> None:
    t = tool(
        parameters={
            "type": "object",
            "properties": {
                "k": {"const": "x"},
                "u": {"oneOf": [{"type": "string"}, {"type": "integer"}]},
                "w": {
                    "allOf": [
                        {
                            "type": "object",
                            "properties": {"a": {"type": "integer"}},
                            "required": ["a"],
                        },
                        {"type": "object", "properties": {"b": {"type": "integer", "minimum": 1}}},
                        {"properties": {"b": {"maximum": 9}}},
                    ]
                },
            },
        }
    )
    for provider, _option, definition in all_definitions([t]):
        if provider != "mcp":
            assert '"const"' not in json.dumps(definition) and '"oneOf"' not in json.dumps(
                definition
            ), provider
    params = defs_of("openai", [t])[0]["function"]["parameters"]
    assert params["properties"]["k"] == {"enum": ["x"]}
    assert params["properties"]["u"] == {"anyOf": [{"type": "string"}, {"type": "integer"}]}
    assert params["properties"]["w"] == {
        "type": "object",
        "properties": {
            "a": {"type": "integer"},
            "b": {"type": "integer", "minimum": 1, "maximum": 9},
        },
        "required": ["a"],
        "additionalProperties": False,
    }
    assert defs_of("mcp", [t])[0]["inputSchema"]["properties"]["k"] == {
        "const": "x"
    }  # MCP: the spec as written


def test_contradicting_all_of_is_kept_where_allowed_and_falls_back_under_strict() -> None:
    t = tool(
        parameters={
            "type": "object",
            "properties": {"x": {"allOf": [{"type": "string"}, {"type": "integer"}]}},
        }
    )
    assert "allOf" in defs_of("openai", [t])[0]["function"]["parameters"]["properties"]["x"]
    result = export("openai", [t], strict=True)
    assert result.definitions[0]["function"]["strict"] is False
    assert [n.rule for n in result.notes] == ["provider-fallback"] and "allOf" in result.notes[
        0
    ].message


def test_refs_are_inlined_where_a_target_has_none() -> None:
    t = tool(
        parameters={
            "type": "object",
            "$defs": {"P": {"type": "object", "properties": {"x": {"type": "number"}}}},
            "properties": {
                "a": {"$ref": "#/$defs/P"},
                "b": {"$ref": "#/$defs/P", "description": "B"},
            },
        }
    )
    openai = defs_of("openai", [t])[0]["function"]["parameters"]
    assert openai["properties"]["a"] == {"$ref": "#/$defs/P"} and "$defs" in openai
    assert (
        openai["properties"]["b"]["description"] == "B" and "$ref" not in openai["properties"]["b"]
    )  # no siblings
    for definition in (
        defs_of("bedrock", [t])[0]["toolSpec"]["inputSchema"]["json"],
        defs_of("gemini", [t], openapi=True)[0]["parameters"],
    ):
        assert "$ref" not in json.dumps(definition) and "$defs" not in definition


def test_recursion_per_target() -> None:
    t = tool(
        parameters={
            "type": "object",
            "$defs": {
                "N": {
                    "type": "object",
                    "properties": {"next": {"$ref": "#/$defs/N"}, "v": {"type": "integer"}},
                    "required": ["v"],
                }
            },
            "properties": {"n": {"$ref": "#/$defs/N"}},
            "required": ["n"],
        }
    )
    assert (
        defs_of("openai", [t], strict=True)[0]["function"]["strict"] is True
    )  # OpenAI strict: recursion is fine
    assert "strict" not in defs_of("anthropic", [t], strict=True)[0]
    assert "$ref" in json.dumps(defs_of("bedrock", [t])[0])  # kept where it cannot be inlined
    openapi = json.dumps(defs_of("gemini", [t], openapi=True)[0])
    assert "$ref" not in openapi and openapi.count('"v": {') == 3  # unrolled three levels
    kinds = sorted((n.target, n.rule) for n in notes([t]))
    assert kinds == [
        ("anthropic strict", "provider-fallback"),
        ("bedrock strict", "provider-fallback"),
        ("gemini parameters (OpenAPI)", "provider-fallback"),
    ]


def test_constraints_a_target_lacks_move_into_the_description() -> None:
    t = tool(
        parameters={
            "type": "object",
            "properties": {
                "n": {"type": "integer", "minimum": 1, "maximum": 5, "description": "Count"},
                "s": {"type": "string", "pattern": "^a+$"},
            },
            "required": ["n", "s"],
        }
    )
    anthropic = defs_of("anthropic", [t], strict=True)[0]["input_schema"]["properties"]
    assert anthropic["n"] == {"type": "integer", "description": "Count\n\n(at least 1; at most 5)"}
    assert anthropic["s"] == {
        "type": "string",
        "description": '(matches the regular expression "^a+$")',
    }
    openai = defs_of("openai", [t], strict=True)[0]["function"]["parameters"]["properties"]
    assert (
        openai["n"]["minimum"] == 1 and openai["s"]["pattern"] == "^a+$"
    )  # OpenAI strict has them


def test_long_descriptions_are_trimmed_with_a_note() -> None:
    t = tool(description="word " * 300)
    result = export("openai", [t])
    assert len(result.definitions[0]["function"]["description"]) == 1024
    assert result.definitions[0]["function"]["description"].endswith("…")
    assert [n.rule for n in result.notes] == ["description-too-long"]
    assert len(defs_of("anthropic", [t])[0]["description"]) == 1500  # no limit there


def test_anthropic_request_budget() -> None:
    tools = [
        tool(f"t{i:02}", {"type": "object", "properties": {"a": {"type": "string"}}})
        for i in range(22)
    ]
    result = export("anthropic", tools, strict=True)
    assert [d.get("strict", False) for d in result.definitions] == [True] * 20 + [
        False
    ] * 2  # 20 strict, 22 optional
    assert {n.tool for n in result.notes} == {"t20", "t21"} and "20 strict tools" in result.notes[
        0
    ].message
    wide = tool(
        "w", {"type": "object", "properties": {f"p{i}": {"type": "string"} for i in range(25)}}
    )
    assert "strict" not in export("anthropic", [wide], strict=True).definitions[0]


def test_openai_strict_limits() -> None:
    deep: dict[str, Any] = {"type": "string"}
    for _ in range(11):
        deep = {"type": "object", "properties": {"x": deep}, "required": ["x"]}
    many = {
        "type": "object",
        "properties": {"e": {"type": "string", "enum": [str(i) for i in range(1001)]}},
    }
    for parameters, reason in ((deep, "nesting"), (many, "enum values")):
        result = export("openai", [tool(parameters=parameters)], strict=True)
        assert result.definitions[0]["function"]["strict"] is False
        assert reason in result.notes[0].message


def test_names_are_provider_safe_and_mcp_keeps_the_canonical_one() -> None:
    tools = [tool("math.factorial"), tool("9lives"), tool("a" * 70)]
    for provider, options, definition in all_definitions(tools):
        assert checks.check(provider, definition) == [], (provider, options)
    assert [d["function"]["name"] for d in defs_of("openai", tools)] == [
        "math_factorial",
        "t_9lives",
        provider_name("a" * 70),
    ]
    assert [d["name"] for d in defs_of("mcp", tools)] == ["math.factorial", "9lives", "a" * 70]


def test_mcp_declares_a_tools_task_support_only_where_the_spec_does() -> None:
    """`task` is MCP's `execution.taskSupport` (checked by the SDK's Tool model); the other
    providers have nothing of the kind and are unchanged."""
    from dataclasses import replace

    required, plain = replace(tool("long"), task="required"), tool("short")
    mcp = defs_of("mcp", [required, plain])
    assert [d.get("execution") for d in mcp] == [{"taskSupport": "required"}, None]
    for provider, options, definition in all_definitions([required]):
        assert checks.check(provider, definition) == [], (provider, options)
    assert "execution" not in json.dumps(defs_of("openai", [required]))


def test_parameterless_tools() -> None:
    t = tool()
    assert (
        "parameters" not in defs_of("gemini", [t], openapi=True)[0]
    )  # Gemini refuses empty OBJECT properties
    assert defs_of("openai", [t], strict=True)[0]["function"]["parameters"] == {
        "type": "object",
        "properties": {},
        "required": [],
        "additionalProperties": False,
    }
    for provider, options, definition in all_definitions([t]):
        assert checks.check(provider, definition) == [], (provider, options)


def test_exporters_are_pure_and_deterministic() -> None:
    t = tool(
        parameters={
            "type": "object",
            "properties": {"a": {"oneOf": [{"const": 1}, {"type": "string"}]}},
        }
    )
    before = copy.deepcopy(t.parameters)
    first = json.dumps(all_definitions([t]))
    assert json.dumps(all_definitions([t])) == first and t.parameters == before


# -- random schemas -------------------------------------------------------------------------------

SCALARS = st.sampled_from(
    [
        {"type": "string"},
        {"type": "integer", "minimum": 0},
        {"type": "number", "exclusiveMaximum": 10},
        {"type": "boolean"},
        {"type": "string", "format": "date"},
        {"type": "string", "pattern": "^x"},
        {"enum": ["a", 1, None]},
        {"const": "c"},
        {"type": ["string", "null"]},
        {},
        {"type": "integer", "default": 3},
        {"type": "string", "minLength": 2, "maxLength": 5},
    ]
)


def _schemas() -> st.SearchStrategy[dict[str, Any]]:
    return st.recursive(
        SCALARS,
        lambda inner: st.one_of(
            st.builds(
                lambda items, n: {"type": "array", "items": items, "minItems": n},
                inner,
                st.integers(0, 3),
            ),
            st.builds(
                lambda props, req: {
                    "type": "object",
                    "properties": props,
                    "required": [k for k in props if req],
                },
                st.dictionaries(st.sampled_from(["a", "b", "c-d", "e"]), inner, max_size=3),
                st.booleans(),
            ),
            st.builds(lambda a, b: {"anyOf": [a, b]}, inner, inner),
            st.builds(
                lambda a, b: {"oneOf": [a, {"type": "null"}], "description": "x"}, inner, inner
            ),
            st.builds(lambda v: {"type": "object", "additionalProperties": v}, inner),
        ),
        max_leaves=8,
    )


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.dictionaries(st.sampled_from(["p", "q", "r-s"]), _schemas(), max_size=3), st.booleans())
def test_random_schemas_yield_definitions_every_sdk_accepts(
    properties: dict[str, Any], required: bool
) -> None:
    t = tool(
        "x.y",
        {
            "type": "object",
            "properties": properties,
            "required": list(properties) if required else [],
        },
    )
    for provider in PROVIDERS:
        for option in variants(provider):
            result = export(provider, [t], **option)
            for definition in result.definitions:
                assert checks.check(provider, definition) == [], (provider, option, definition)
            if not result.definitions:  # refused: only ever with a note saying so
                assert any(n.rule == "provider-refused" for n in result.notes)


# -- lint, CLI, generated package ----------------------------------------------------------------


def test_lint_names_the_target_and_the_reason() -> None:
    specs = ["--specs", str(CASES / "providers/specs")]
    result = CliRunner().invoke(main, ["lint", "--notes", *specs])
    assert result.exit_code == 0, result.output
    assert "note[provider-fallback]: openai strict: cannot express a map" in result.output
    assert (
        "note[provider-fallback]: anthropic strict: cannot express a recursive definition ('Node')"
        in result.output
    )
    # Without --notes, the notes are counted and the warnings listed.
    quiet = CliRunner().invoke(main, ["lint", *specs])
    assert "note[" not in quiet.output and "warning[provider-refused]" in quiet.output
    assert "; `toolgen lint --notes` lists the notes" in quiet.output.splitlines()[-1]
    assert (
        "warning[provider-refused]: gemini parameters (OpenAPI): property name 'Content-Type'"
        in result.output
    )
    assert (
        "warning[description-too-long]: openai: the description (1,597 characters) is cut to 1,024"
        in result.output
    )


def test_export_command() -> None:
    specs = str(CASES / "providers/specs")
    runner = CliRunner()
    result = runner.invoke(main, ["export", "--provider", "openai", "--strict", "--specs", specs])
    assert result.exit_code == 0, result.output
    golden = json.loads(
        (CASES / "providers/expected/providers/definitions/openai.json").read_text("utf-8")
    )
    assert json.loads(result.stdout) == golden["variants"][1]["definitions"]
    assert "labels.set: openai strict: cannot express a map" in result.stderr
    result = runner.invoke(main, ["export", "--provider", "gemini", "--openapi", "--specs", specs])
    assert (
        json.loads(result.stdout)
        == json.loads(
            (CASES / "providers/expected/providers/definitions/gemini.json").read_text("utf-8")
        )["variants"][1]["definitions"]
    )
    assert (
        runner.invoke(main, ["export", "--provider", "mcp", "--strict", "--specs", specs]).exit_code
        == 2
    )
    assert runner.invoke(main, ["export", "--provider", "cohere", "--specs", specs]).exit_code == 2


def test_generated_tool_definitions_options() -> None:
    with imported(case_output("providers"), "providers") as package:
        chat = package.tool_definitions("openai")
        assert all("strict" not in d["function"] for d in chat)
        assert package.tool_definitions("openai", strict=False) == chat
        assert any(
            d["function"].get("strict") for d in package.tool_definitions("openai", strict=True)
        )
        assert all(
            isinstance(d["strict"], bool) for d in package.tool_definitions("openai-responses")
        )
        assert "parameters" in json.dumps(package.tool_definitions("gemini", openapi=True))
        with pytest.raises(ValueError, match="no option 'strict'"):
            package.tool_definitions("mcp", strict=True)
        with pytest.raises(ValueError, match="one of"):
            package.tool_definitions("openai", strict=1)
        with pytest.raises(ValueError, match="did you mean 'anthropic'"):
            package.tool_definitions("antropic")


def test_lint_view_matches_the_ir() -> None:
    """Lint runs the exporters on a view of the checked specs; it must equal what the IR gives them."""
    from toolgen.lower import lower, view
    from toolgen.pipeline import check_specs

    for case in ("providers", "refs", "weather"):
        _, checked = check_specs(CASES / case / "specs")
        for ir, checked_tool in zip(
            lower(checked, case).tools, sorted(checked, key=lambda t: t.name), strict=False
        ):
            seen = view(checked_tool)
            for field in ToolView.__dataclass_fields__:
                assert getattr(seen, field) == getattr(ir, field), (case, ir.name, field)
