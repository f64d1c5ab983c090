"""`toolgen import`: each source format, the file shapes, the YAML it writes, the CLI, and round trips.

Real-world samples are copied from the shared corpus (tau-bench MIT, GitHub MCP server MIT,
LiveMCPBench Apache-2.0, BFCL Apache-2.0, Seal-Tools Apache-2.0, MCP reference servers MIT),
reshaped into each provider's format where the corpus stores another.
"""

from __future__ import annotations

import copy
import json
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner
from hypothesis import given, settings
from hypothesis import strategies as st

from tests.support.generation import generate, imported
from toolgen.cli import main
from toolgen.importers.emit import dump_data, dump_tool
from toolgen.importers.run import ImportFileError, import_text, read_items
from toolgen.load.specs import load_specs
from toolgen.load.yaml12 import parse_yaml
from toolgen.lower import closed, lower
from toolgen.pipeline import lint
from toolgen.providers import definitions

# --- real-world samples (from the corpus) ---------------------------------------------

TAU_RESERVATION = {  # tau-bench airline, as its get_info() returns it
    "type": "function",
    "function": {
        "name": "get_reservation_details",
        "description": "Get the details of a reservation.",
        "parameters": {
            "type": "object",
            "properties": {
                "reservation_id": {
                    "type": "string",
                    "description": "The reservation id, such as '8JX2WO'.",
                }
            },
            "required": ["reservation_id"],
        },
    },
}
GITHUB_REACTION = {  # github-mcp-server toolsnap
    "name": "add_issue_comment_reaction",
    "description": "Add a reaction to an issue or pull request comment.",
    "inputSchema": {
        "properties": {
            "comment_id": {
                "description": "The issue or pull request comment ID",
                "minimum": 1,
                "type": "number",
            },
            "content": {
                "description": "The emoji reaction type",
                "enum": ["+1", "-1", "laugh", "confused", "heart", "hooray", "rocket", "eyes"],
                "type": "string",
            },
            "owner": {
                "description": "Repository owner (username or organization)",
                "type": "string",
            },
            "repo": {"description": "Repository name", "type": "string"},
        },
        "required": ["owner", "repo", "comment_id", "content"],
        "type": "object",
    },
    "annotations": {
        "destructiveHint": False,
        "idempotentHint": False,
        "openWorldHint": True,
        "readOnlyHint": False,
        "title": "Add Reaction to Issue or Pull Request Comment",
    },
}
FS_READ_FILE = {  # MCP reference filesystem server, captured tools/list item
    "name": "read_file",
    "description": "Read the complete contents of a file as text. DEPRECATED: Use "
    "read_text_file instead.",
    "inputSchema": {
        "$schema": "http://json-schema.org/draft-07/schema#",
        "type": "object",
        "properties": {
            "path": {"type": "string"},
            "tail": {
                "description": "If provided, returns only the last N lines of the file",
                "type": "number",
            },
            "head": {
                "description": "If provided, returns only the first N lines of the file",
                "type": "number",
            },
        },
        "required": ["path"],
    },
    "annotations": {"readOnlyHint": True},
    "title": "Read File (Deprecated)",
    "execution": {"taskSupport": "forbidden"},
    "outputSchema": {
        "$schema": "http://json-schema.org/draft-07/schema#",
        "type": "object",
        "properties": {"content": {"type": "string"}},
        "required": ["content"],
        "additionalProperties": False,
    },
}
PDF_PAGES = {  # livemcpbench pdf-reader-mcp (abridged): draft-04 boolean exclusiveMinimum inside anyOf
    "name": "read_pdf",
    "description": "Reads content/metadata from one or more PDFs (local/URL).",
    "inputSchema": {
        "type": "object",
        "properties": {
            "sources": {
                "type": "array",
                "items": {
                    "type": "object",
                    "properties": {
                        "pages": {
                            "anyOf": [
                                {
                                    "type": "array",
                                    "items": {
                                        "type": "integer",
                                        "exclusiveMinimum": True,
                                        "minimum": 0,
                                    },
                                    "minItems": 1,
                                },
                                {"type": "string", "minLength": 1},
                            ]
                        }
                    },
                    "additionalProperties": False,
                },
                "minItems": 1,
            }
        },
        "required": ["sources"],
        "additionalProperties": False,
        "$schema": "http://json-schema.org/draft-07/schema#",
    },
}
INVESTOR = {  # livemcpbench investor-agent: empty description
    "name": "get_financial_statements",
    "description": "",
    "inputSchema": {
        "properties": {
            "ticker": {"title": "Ticker", "type": "string"},
            "frequency": {
                "default": "quarterly",
                "enum": ["quarterly", "annual"],
                "title": "Frequency",
                "type": "string",
            },
        },
        "required": ["ticker"],
        "title": "get_financial_statementsArguments",
        "type": "object",
    },
}
BFCL_JAVA = {  # BFCL simple_java
    "name": "SQLCompletionAnalyzer.makeProposalsFromObject",
    "description": "Generates SQL completion proposals based on the given database object, name preference, "
    "and additional parameters.",
    "parameters": {
        "type": "dict",
        "properties": {
            "object": {
                "type": "any",
                "description": "The database object for which to generate proposals.",
            },
            "useShortName": {
                "type": "boolean",
                "description": "Indicates whether to use short names for the proposals.",
            },
            "params": {
                "type": "HashMap",
                "description": "A map of additional parameters to customize the proposals.",
            },
        },
        "required": ["object", "useShortName", "params"],
    },
}
SEAL_FIRST_AID = {  # Seal-Tools: a name with spaces, Python type names, a response schema
    "name": "requestFirst Aid Assistance",
    "description": "Request first aid assistance for a guest or visitor",
    "parameters": {
        "type": "object",
        "properties": {
            "guest_name": {"type": "str", "description": "The name of the guest or visitor"},
            "issue": {
                "type": "str",
                "description": "Describe the issue requiring first aid assistance",
            },
        },
        "required": ["guest_name", "issue"],
    },
    "response": {
        "type": "object",
        "properties": {"status": {"type": "str", "description": "The status"}},
    },
}


def one(text: Any, fmt: str) -> tuple[dict[str, Any], list[str]]:
    result = import_text(json.dumps(text), fmt)
    assert not result.refused, result.refused
    assert len(result.imported) == 1
    return result.imported[0].tool, result.imported[0].notes


def lint_tools(tmp_path: Path, tools: list[dict[str, Any]]) -> list[Any]:
    for tool in tools:
        (tmp_path / f"{tool['name']}.yaml").write_text(dump_tool(tool, []), encoding="utf-8")
    diagnostics, _ = lint(load_specs(tmp_path))
    return diagnostics


def export(tmp_path: Path, tool: dict[str, Any], provider: str) -> dict[str, Any]:
    """Spec -> check -> IR -> the provider's definition, as `toolgen export` would print it."""
    (tmp_path / "tool.yaml").write_text(dump_tool(tool, []), encoding="utf-8")
    diagnostics, checked = lint(load_specs(tmp_path))
    assert not [d for d in diagnostics if d.is_error], diagnostics
    return definitions(provider, lower(checked, "pkg").tools)[0]


# --- reading files ---------------------------------------------------------------------


def test_a_json_list_json_lines_and_a_single_document_are_read() -> None:
    assert [o for o, _ in read_items('[{"a": 1}, {"b": 2}]')] == ["item 1", "item 2"]
    assert read_items('{"a": 1}\n\n{"b": 2}\n') == [("line 1", {"a": 1}), ("line 3", {"b": 2})]
    assert read_items('{"tools": []}') == [("the document", {"tools": []})]


def test_a_file_that_is_neither_json_nor_json_lines_is_an_error() -> None:
    with pytest.raises(ImportFileError, match="not JSON"):
        read_items("name: x")
    with pytest.raises(ImportFileError, match="neither JSON nor JSON Lines"):
        read_items("name: x\nother: y")


def test_a_broken_json_lines_line_is_refused_and_the_rest_imported() -> None:
    text = json.dumps(GITHUB_REACTION) + "\n{broken\n" + json.dumps(FS_READ_FILE)
    result = import_text(text, "mcp")
    assert [i.tool["name"] for i in result.imported] == ["add_issue_comment_reaction", "read_file"]
    assert [(r.origin, r.reason[:9]) for r in result.refused] == [("line 2", "not JSON:")]


# --- each format ------------------------------------------------------------------------


def test_openai_chat_responses_and_legacy_shapes_give_the_same_spec() -> None:
    chat, notes = one([TAU_RESERVATION], "openai")
    assert notes == []
    flat = {"type": "function", "strict": False, **TAU_RESERVATION["function"]}
    legacy = {"functions": [TAU_RESERVATION["function"]]}
    assert one([flat], "openai") == (chat, [])
    assert one(legacy, "openai") == (chat, [])
    assert chat == TAU_RESERVATION["function"]


def test_openai_strict_is_noted_and_custom_tools_are_refused() -> None:
    strict = copy.deepcopy(TAU_RESERVATION)
    strict["function"]["strict"] = True
    _, notes = one([strict], "openai")
    assert notes == [
        "/strict: dropped true: strict mode is chosen at export time (`toolgen export --strict`)"
    ]
    result = import_text(json.dumps([{"type": "custom", "name": "grammar"}]), "openai")
    assert result.refused[0].name == "grammar" and result.refused[0].reason.startswith("/type:")


def test_anthropic_tools_with_input_examples_and_server_tools() -> None:
    tool = {
        "name": "get_weather",
        "description": "Get the current weather in a given location",
        "input_schema": {
            "type": "object",
            "properties": {"location": {"type": "string"}},
            "required": ["location"],
        },
        "input_examples": [{"location": "San Francisco, CA"}, {"city": "Paris"}],
        "cache_control": {"type": "ephemeral"},
    }
    result = import_text(
        json.dumps({"tools": [tool, {"type": "web_search_20250305", "name": "web_search"}]}),
        "anthropic",
    )
    spec, notes = result.imported[0].tool, result.imported[0].notes
    assert spec["parameters"] == tool["input_schema"]
    assert spec["examples"] == [{"arguments": {"location": "San Francisco, CA"}}]
    assert [n.split(":")[0] for n in notes] == ["/cache_control", "/examples/1"]
    assert (
        "Anthropic server tool" in result.refused[0].reason
        and result.refused[0].origin == "the document, tool 2"
    )


def test_gemini_openapi_parameters_become_json_schema() -> None:
    declaration = {
        "name": "get_weather",
        "description": "Get weather",
        "parameters": {
            "type": "OBJECT",
            "properties": {
                "unit": {"type": "STRING", "enum": ["C", "F"], "nullable": True},
                "days": {"type": "INTEGER", "format": "enum", "enum": ["1", "7"]},
                "city": {"type": "STRING"},
                "stops": {"type": "ARRAY", "items": {"ref": "#/defs/Stop"}, "max_items": 3},
            },
            "required": ["city"],
            "propertyOrdering": ["city", "unit", "days", "stops"],
            "defs": {"Stop": {"type": "STRING"}},
        },
    }
    spec, notes = one({"functionDeclarations": [declaration]}, "gemini")
    assert spec["parameters"] == {
        "type": "object",
        "properties": {
            "city": {"type": "string"},
            "unit": {"type": ["string", "null"], "enum": ["C", "F", None]},
            "days": {"type": "integer", "enum": [1, 7]},
            "stops": {"type": "array", "items": {"$ref": "#/$defs/Stop"}, "maxItems": 3},
        },
        "required": ["city"],
        "$defs": {"Stop": {"type": "string"}},
    }
    assert (
        len(notes) == 12
    )  # 6 upper-case types, nullable, number enum, ref, defs, max_items, ordering
    assert (
        '/parameters/properties/city/type: type "STRING" written in lower case, as JSON Schema has it'
        in notes
    )
    assert any(n.startswith("/parameters/propertyOrdering: properties reordered") for n in notes)


def test_gemini_parameters_json_schema_is_taken_as_it_is_and_both_forms_are_refused() -> None:
    schema = PDF_PAGES["inputSchema"]
    spec, notes = one(
        [{"name": "read_pdf", "description": "d", "parametersJsonSchema": schema}], "gemini"
    )
    assert spec["parameters"]["properties"]["sources"]["items"]["properties"]["pages"]["anyOf"][0][
        "items"
    ] == {"type": "integer", "exclusiveMinimum": 0}
    assert len(notes) == 2  # $schema, exclusiveMinimum
    result = import_text(
        json.dumps([{"name": "x", "parameters": {}, "parametersJsonSchema": {}}]), "gemini"
    )
    assert result.refused[0].reason.startswith("/parameters: both")


def test_mcp_tools_list_result_keeps_title_annotations_and_output_schema() -> None:
    result = import_text(
        json.dumps({"jsonrpc": "2.0", "id": 1, "result": {"tools": [FS_READ_FILE]}}), "mcp"
    )
    spec, notes = result.imported[0].tool, result.imported[0].notes
    assert spec["title"] == "Read File (Deprecated)" and spec["annotations"] == {"read_only": True}
    assert spec["returns"]["properties"] == {"content": {"type": "string"}}
    assert [n.split(":")[0] for n in notes] == [
        "/parameters/$schema",
        "/returns/$schema",
        "/execution",
    ]
    missing = import_text(json.dumps([{"name": "x", "description": "y"}]), "mcp")
    assert missing.refused[0].reason.startswith("/inputSchema: an MCP tool needs an inputSchema")


def test_bfcl_question_lines_and_corpus_records() -> None:
    question = {
        "id": "simple_java_1",
        "question": [[{"role": "user", "content": "..."}]],
        "function": [BFCL_JAVA],
    }
    spec, notes = one([question], "bfcl")
    assert spec["parameters"] == {
        "type": "object",
        "properties": {
            "object": {"description": "The database object for which to generate proposals."},
            "useShortName": {
                "type": "boolean",
                "description": "Indicates whether to use short names for the proposals.",
            },
            "params": {
                "type": "object",
                "description": "A map of additional parameters to customize the proposals.",
            },
        },
        "required": ["object", "useShortName", "params"],
    }
    assert [n.split(":")[0] for n in notes] == [
        "/parameters/type",
        "/parameters/properties/object/type",
        "/parameters/properties/params/type",
    ]
    seal, notes = one([{"source": "seal-tools", "category": "x", **SEAL_FIRST_AID}], "bfcl")
    assert (
        seal["name"] == "requestFirst_Aid_Assistance"
        and seal["returns"]["properties"]["status"]["type"] == "string"
    )
    assert len(notes) == 4


def test_every_sample_imports_to_a_spec_lint_accepts(tmp_path: Path) -> None:
    samples = [
        ([TAU_RESERVATION], "openai"),
        ([GITHUB_REACTION, FS_READ_FILE, PDF_PAGES, INVESTOR], "mcp"),
        ([BFCL_JAVA, SEAL_FIRST_AID], "bfcl"),
    ]
    tools = [i.tool for text, fmt in samples for i in import_text(json.dumps(text), fmt).imported]
    assert len(tools) == 7
    diagnostics = lint_tools(tmp_path, tools)
    assert [d for d in diagnostics if d.is_error] == []
    undescribed = sorted(d.pointer for d in diagnostics if d.rule == "description-missing")
    assert undescribed == [
        "/parameters/properties/frequency",
        "/parameters/properties/path",
        "/parameters/properties/sources",
        "/parameters/properties/sources/items/properties/pages",
        "/parameters/properties/ticker",
    ]


def test_imported_samples_generate_a_package_that_validates_calls(tmp_path: Path) -> None:
    specs = tmp_path / "specs"
    specs.mkdir()
    samples = [([BFCL_JAVA, SEAL_FIRST_AID], "bfcl"), ([FS_READ_FILE, PDF_PAGES], "mcp")]
    for text, fmt in samples:
        for item in import_text(json.dumps(text), fmt).imported:
            (specs / f"{item.tool['name']}.yaml").write_text(
                dump_tool(item.tool, item.notes), encoding="utf-8"
            )
    generate(specs, tmp_path / "out", "adopted")
    with imported(tmp_path / "out", "adopted") as package:
        call = package.validate_arguments(
            "SQLCompletionAnalyzer.makeProposalsFromObject",
            {"object": [1], "useShortName": True, "params": {"k": "v"}},
        )
        assert call.params == {"k": "v"}
        package.validate_arguments("read_pdf", {"sources": [{"pages": [1, 2]}]})
        with pytest.raises(
            ValueError
        ):  # exclusiveMinimum 0, from draft-04 `exclusiveMinimum: true`
            package.validate_arguments("read_pdf", {"sources": [{"pages": [0]}]})
        with pytest.raises(ValueError):  # "issue" is required (Seal-Tools)
            package.validate_arguments("requestFirst_Aid_Assistance", {"guest_name": "Ann"})


def test_what_lint_would_refuse_is_refused_with_lints_reason_and_nothing_else_is() -> None:
    broken = {
        "name": "remote",
        "description": "d",
        "inputSchema": {
            "type": "object",
            "properties": {"x": {"$ref": "https://example.com/s.json"}},
        },
    }
    result = import_text(json.dumps([broken, GITHUB_REACTION]), "mcp")
    assert [i.tool["name"] for i in result.imported] == ["add_issue_comment_reaction"]
    assert [(r.origin, r.name) for r in result.refused] == [("item 1", "remote")]
    assert result.refused[0].reason.startswith("/parameters/properties/x/$ref: remote reference")
    assert result.refused[0].reason.endswith("[lint: ref-remote]")


def test_identical_repeats_are_left_out_and_different_ones_renamed() -> None:
    other = copy.deepcopy(GITHUB_REACTION)
    other["description"] = "Another tool with the same name."
    result = import_text(json.dumps([GITHUB_REACTION, GITHUB_REACTION, other]), "mcp")
    assert [i.tool["name"] for i in result.imported] == [
        "add_issue_comment_reaction",
        "add_issue_comment_reaction_2",
    ]
    assert result.duplicates == [("item 2", "item 1")]
    assert result.imported[1].notes[-1].startswith('/name: renamed "add_issue_comment_reaction"')


# --- round trips -------------------------------------------------------------------------


WEATHER = {
    "type": "object",
    "properties": {
        "city": {"type": "string", "description": "City"},
        "days": {"type": "integer", "minimum": 1},
    },
    "required": ["city"],
    "additionalProperties": False,
}
ROUND_TRIPS = [
    (
        "openai",
        "openai",
        {},
        {
            "type": "function",
            "function": {
                "name": "get_weather",
                "description": "Get weather.",
                "parameters": WEATHER,
            },
        },
    ),
    (
        "openai",
        "openai-responses",
        {"strict": False},
        {
            "type": "function",
            "name": "get_weather",
            "description": "Get weather.",
            "parameters": WEATHER,
            "strict": False,
        },
    ),
    (
        "anthropic",
        "anthropic",
        {},
        {"name": "get_weather", "description": "Get weather.", "input_schema": WEATHER},
    ),
    (
        "gemini",
        "gemini",
        {},
        {"name": "get_weather", "description": "Get weather.", "parametersJsonSchema": WEATHER},
    ),
    (
        "gemini",
        "gemini",
        {"openapi": True},
        {
            "name": "get_weather",
            "description": "Get weather.",
            "parameters": {
                "type": "OBJECT",
                "properties": {
                    "city": {"type": "STRING", "description": "City"},
                    "unit": {"type": "STRING", "enum": ["C", "F"], "nullable": True},
                },
                "required": ["city"],
            },
        },
    ),
    (
        "mcp",
        "mcp",
        {},
        {
            "name": "get_weather",
            "title": "Weather",
            "description": "Get weather.",
            "inputSchema": WEATHER,
            "annotations": {"readOnlyHint": True, "openWorldHint": True},
        },
    ),
]


@pytest.mark.parametrize(
    ("fmt", "provider", "options", "original"),
    ROUND_TRIPS,
    ids=[f"{p}{'-' + '-'.join(o) if o else ''}" for _, p, o, _ in ROUND_TRIPS],
)
def test_import_then_export_to_the_same_provider_gives_the_definition_back(
    tmp_path: Path, fmt: str, provider: str, options: dict[str, Any], original: dict[str, Any]
) -> None:
    spec, _ = one([original], fmt)
    (tmp_path / "tool.yaml").write_text(dump_tool(spec, []), encoding="utf-8")
    diagnostics, checked = lint(load_specs(tmp_path))
    assert not [d for d in diagnostics if d.is_error], diagnostics
    assert definitions(provider, lower(checked, "pkg").tools, **options)[0] == original


def test_openai_round_trip_of_a_standard_tool(tmp_path: Path) -> None:
    original = copy.deepcopy(TAU_RESERVATION)
    original["function"]["parameters"]["additionalProperties"] = (
        False  # toolgen closes objects on export
    )
    spec, notes = one([original], "openai")
    assert notes == []
    assert export(tmp_path, spec, "openai") == original


def test_mcp_round_trip_of_a_standard_tool(tmp_path: Path) -> None:
    original = {key: value for key, value in FS_READ_FILE.items() if key != "execution"}
    for key in ("inputSchema", "outputSchema"):
        original[key] = {k: v for k, v in original[key].items() if k != "$schema"}
    original["inputSchema"]["additionalProperties"] = False
    spec, notes = one([original], "mcp")
    assert notes == []
    assert export(tmp_path, spec, "mcp") == original


def test_mcp_round_trip_closes_open_objects_and_nothing_else(tmp_path: Path) -> None:
    """An open object comes back closed (spec format rule); every other byte comes back."""
    original = {k: v for k, v in GITHUB_REACTION.items()}
    original["annotations"] = {
        k: v for k, v in GITHUB_REACTION["annotations"].items() if k != "title"
    }
    spec, notes = one([original], "mcp")
    assert notes == []
    assert export(tmp_path, spec, "mcp") == {
        **original,
        "inputSchema": closed(original["inputSchema"]),
    }


# --- the YAML written ----------------------------------------------------------------------


def test_yaml_quotes_what_a_reader_would_misread() -> None:
    tool = {
        "name": "t",
        "description": "no",
        "parameters": {
            "type": "object",
            "properties": {
                "on": {
                    "type": "string",
                    "enum": [
                        "yes",
                        "no",
                        "y",
                        "1.0",
                        "0o17",
                        "1e3",
                        "2024-01-01",
                        "null",
                        "",
                        "~",
                        " lead",
                        "a: b",
                        "# not a comment",
                        "0x1F",
                        ".inf",
                    ],
                }
            },
        },
    }
    text = dump_tool(tool, ["/x: a note\nwith a line break"])
    assert (
        "description: 'no'" in text and "'on':" in text and "- 'y'" in text and "- '0o17'" in text
    )
    assert "# - /x: a note with a line break\n" in text
    assert parse_yaml(text)[0] == tool


def test_yaml_is_block_style_keeps_key_order_and_uses_literal_blocks() -> None:
    text = dump_data({"z": 1, "a": {"description": "line one\nline two"}, "m": ["x"]})
    assert text == "z: 1\na:\n  description: |-\n    line one\n    line two\nm:\n  - x\n"


JSON = st.recursive(
    st.none()
    | st.booleans()
    | st.integers()
    | st.floats(allow_nan=False, allow_infinity=False)
    | st.text(st.characters(blacklist_categories=("Cs",))),
    lambda children: (
        st.lists(children, max_size=4)
        | st.dictionaries(
            st.text(st.characters(blacklist_categories=("Cs",)), max_size=20), children, max_size=4
        )
    ),
    max_leaves=12,
)


@settings(max_examples=300, deadline=None)
@given(JSON)
def test_any_json_value_reads_back_exactly_through_toolgens_loader(value: Any) -> None:
    assert parse_yaml(dump_data({"value": value}))[0] == {"value": value}


# --- the command ---------------------------------------------------------------------------


def invoke(*args: str, input: str | None = None) -> tuple[int, str, str]:
    result = CliRunner().invoke(main, ["import", *args], input=input)
    return result.exit_code, result.stdout, result.stderr


def test_import_writes_one_readable_spec_per_tool_that_lint_accepts(tmp_path: Path) -> None:
    source = tmp_path / "tools.jsonl"
    source.write_text(
        "\n".join(json.dumps(r) for r in [GITHUB_REACTION, FS_READ_FILE, INVESTOR]) + "\n"
    )
    out = tmp_path / "specs"
    code, stdout, stderr = invoke("--from", "mcp", str(source), "--out", str(out))
    assert (code, stderr) == (0, "")
    assert "3 tools: 3 written" in stdout and "0 imported unchanged, 3 with changes" in stdout
    assert sorted(p.name for p in out.iterdir()) == [
        "add_issue_comment_reaction.yaml",
        "get_financial_statements.yaml",
        "read_file.yaml",
    ]
    text = (out / "get_financial_statements.yaml").read_text()
    assert text.startswith(
        "# Imported by `toolgen import --from mcp` from tools.jsonl (line 3).\n"
        '# toolgen import: 1 change to the original\n# - /description: was ""'
    )
    lint_result = CliRunner().invoke(main, ["lint", "--specs", str(out)])
    assert lint_result.exit_code == 0, lint_result.stdout


def test_import_never_overwrites_without_force_and_is_deterministic(tmp_path: Path) -> None:
    source = tmp_path / "tools.json"
    source.write_text(json.dumps([TAU_RESERVATION]))
    out = tmp_path / "specs"
    assert invoke("--from", "openai", str(source), "--out", str(out))[0] == 0
    target = out / "get_reservation_details.yaml"
    first = target.read_bytes()
    target.write_text("# edited by hand\n" + first.decode())
    code, stdout, stderr = invoke("--from", "openai", str(source), "--out", str(out))
    assert code == 1 and "1 skipped" in stdout and "exists (--force replaces it)" in stderr
    assert target.read_text().startswith("# edited by hand")
    assert invoke("--from", "openai", str(source), "--out", str(out), "--force")[0] == 0
    assert target.read_bytes() == first


def test_import_renames_around_tools_already_in_the_specs_directory(tmp_path: Path) -> None:
    out = tmp_path / "specs"
    out.mkdir()
    (out / "library.yaml").write_text(
        "tools:\n  - name: get_reservation_details\n    description: Existing.\n"
    )
    source = tmp_path / "tools.json"
    source.write_text(json.dumps([TAU_RESERVATION]))
    assert invoke("--from", "openai", str(source), "--out", str(out))[0] == 0
    assert (out / "get_reservation_details_2.yaml").is_file()
    assert CliRunner().invoke(main, ["lint", "--specs", str(out)]).exit_code == 0


def test_import_reports_refusals_precisely_and_reads_stdin(tmp_path: Path) -> None:
    text = json.dumps(
        [
            TAU_RESERVATION,
            {
                "type": "function",
                "function": {
                    "name": "f",
                    "parameters": {"type": "object", "properties": {"when": {"type": "datetime"}}},
                },
            },
        ]
    )
    code, stdout, stderr = invoke("--from", "openai", "-", "--out", str(tmp_path), input=text)
    assert code == 1 and "1 refused" in stdout
    assert stderr == (
        'refused: <stdin> item 2 (f): /parameters/properties/when/type: unknown type "datetime" '
        "(use one of string, number, integer, boolean, object, array, null)\n"
    )


def test_import_of_a_file_that_is_not_json_exits_2(tmp_path: Path) -> None:
    source = tmp_path / "tools.yaml"
    source.write_text("name: x\ndescription: y\n")
    code, _, stderr = invoke("--from", "openai", str(source), "--out", str(tmp_path / "out"))
    assert code == 2 and "neither JSON nor JSON Lines" in stderr


def test_toolgen_import_then_toolgen_export_gives_the_definitions_back(tmp_path: Path) -> None:
    originals = [original for fmt, provider, options, original in ROUND_TRIPS if provider == "mcp"]
    originals.append(
        {
            "name": "math.factorial",
            "description": "Calculate the factorial of a given number.",
            "inputSchema": {
                "type": "object",
                "properties": {"number": {"type": "integer"}},
                "required": ["number"],
                "additionalProperties": False,
            },
        }
    )
    source = tmp_path / "tools.json"
    source.write_text(json.dumps({"tools": originals}))
    assert invoke("--from", "mcp", str(source), "--out", str(tmp_path / "specs"))[0] == 0
    result = CliRunner().invoke(
        main, ["export", "--provider", "mcp", "--specs", str(tmp_path / "specs")]
    )
    assert result.exit_code == 0, result.stderr
    assert sorted(json.loads(result.stdout), key=lambda d: d["name"]) == sorted(
        originals, key=lambda d: d["name"]
    )
