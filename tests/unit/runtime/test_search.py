"""Tool search (runtime/search/, render/search_index.py): the analyzer, the scorer and its
"nothing serves this" rule, the search_tools/call_tool pair through a registry, the index a
generated package ships, the pair served over MCP, and a smoke run of the evaluation."""

from __future__ import annotations

import json
import random
import subprocess
import sys
import time
from dataclasses import replace
from pathlib import Path
from typing import Any

import jsonschema
import pytest

import toolgen_builtin
from implementations import registry as builtin_registry
from tests.support import builtin_support  # noqa: F401 - puts generated/ and the repository on sys.path
from tests.support.generation import CORPUS, NO_CORPUS, REPO, generate, imported
from tests.support.mcp_support import python_path
from toolgen.runtime.errors import ToolArgumentsError
from toolgen.runtime.search import analyzer
from toolgen.runtime.search import index as search_index
from toolgen.runtime.search import tools as search_tools
from toolgen.runtime.search.analyzer import fields, stem, tokens
from toolgen.runtime.search.definitions import CALL_TOOL, SEARCH_TOOLS
from toolgen.runtime.search.index import Entry, SearchIndex
from toolgen.runtime.validation.validate import validate
from toolgen_builtin._runtime.search import index as package_search


def entry(
    name: str,
    description: str,
    namespace: str | None = None,
    parameters: Any = None,
    examples: Any = (),
) -> Entry:
    return Entry(
        name,
        fields(name, description, namespace, None, parameters, examples),
        description,
        parameters or {"type": "object"},
    )


CATALOG = [
    entry(
        "read_file",
        "Read a text file and return its lines.",
        "files",
        {
            "type": "object",
            "properties": {"path": {"type": "string", "description": "Path of the file."}},
        },
    ),
    entry("write_file", "Write text to a file, creating it when missing.", "files"),
    entry(
        "filter_rows",
        "Keep the rows of a table that match a condition.",
        "data",
        {
            "type": "object",
            "properties": {"condition": {"type": "string", "description": "A SQL WHERE clause"}},
        },
    ),
    entry(
        "sendEmail",
        "Send an email message to one or more recipients.",
        "mail",
        examples=[
            {
                "description": "Mail the weekly report to the team",
                "arguments": {"to": "team@example.com"},
            }
        ],
    ),
    entry("weather.get_forecast", "The weather forecast for a city, day by day.", "weather"),
]


def names(index: SearchIndex, query: str, limit: int = 5) -> list[str]:
    return [hit.name for hit in index.search(query, limit)]


# -- the analyzer -------------------------------------------------------------------------------


def test_names_split_at_case_changes_separators_and_digits() -> None:
    assert tokens("getUserName") == ["get", "user", "nam"]
    assert (
        tokens("read_file")
        == tokens("read-file")
        == tokens("ReadFile")
        == tokens("read.file")
        == ["read", "fil"]
    )
    assert tokens("HTTPServer status") == ["http", "server", "status"]
    assert tokens("getPM2.5Level") == ["get", "pm", "level"]  # one-character parts go
    assert tokens("math.factorial") == ["math", "factorial"]
    assert tokens("the file of a user") == ["fil", "user"]  # stop words go
    assert tokens("天气预报") == ["天", "气", "预", "报"]  # CJK: a term per character


def test_stemming_brings_word_forms_together() -> None:
    for forms in (
        ["file", "files"],
        ["write", "writes", "writing"],
        ["create", "created", "creates", "creating"],
        ["query", "queries"],
        ["run", "running", "runs"],
        ["copy", "copied", "copies", "copying"],
        ["match", "matches", "matched"],
        ["stop", "stopped", "stopping"],
        ["list", "listed", "listing"],
    ):
        assert len({stem(f) for f in forms}) == 1, forms
    for word in ("add", "need", "status", "access", "string", "class", "analysis", "speed", "bus"):
        assert stem(word) == word  # no suffix to take
    assert stem("added") == "add" and stem("filled") == "fill" and stem("passing") == "pass"


def test_a_term_never_matches_another_that_only_shares_its_start() -> None:
    index = SearchIndex(CATALOG)
    assert "filter_rows" not in names(index, "file")  # fil is not filter
    assert (
        names(SearchIndex([entry("readme_tool", "Shows the readme."), *CATALOG]), "read")[0]
        == "read_file"
    )
    assert "readme_tool" not in names(
        SearchIndex([entry("readme_tool", "Shows the readme."), *CATALOG]), "read"
    )


# -- the scorer -----------------------------------------------------------------------------------


def test_ranking_on_a_small_catalog() -> None:
    index = SearchIndex(CATALOG)
    assert names(index, "read a file")[0] == "read_file"
    assert names(index, "writing files")[0] == "write_file"
    assert names(index, "send an e-mail to my team")[0] == "sendEmail"
    assert names(index, "weather forecast for Paris")[0] == "weather.get_forecast"
    assert names(index, "keep table rows matching a condition")[0] == "filter_rows"
    assert names(index, "files", 1) == [
        "read_file"
    ]  # limit; the shorter field wins the tie's score
    assert all(0 < hit.score < 1 for hit in index.search("read a file"))


def test_a_query_nothing_serves_gets_nothing() -> None:
    index = SearchIndex(CATALOG)
    assert index.search("book a flight to Lisbon") == []
    assert index.search("the and of") == []  # stop words only
    assert index.search("") == []
    # A word found only in a tool's parameters or examples is not enough: it must hit a name,
    # a namespace or a description.
    assert index.search("SQL clause") == []
    assert index.search("weekly report") == []
    assert names(index, "weekly report email") == ["sendEmail"]
    # One word of many that matches a description weakly: below the threshold.
    assert index.search("write a birthday poem for my sister tonight") == []
    assert names(SearchIndex([]), "anything") == []


def test_results_are_deterministic_score_then_name() -> None:
    twins = [entry(f"tool_{c}", "Convert a temperature between units.") for c in "dbca"]
    index = SearchIndex(twins)
    assert names(index, "convert temperature") == ["tool_a", "tool_b", "tool_c", "tool_d"]
    shuffled = list(CATALOG)
    random.Random(3).shuffle(shuffled)
    for query in ("read a file", "send email", "files", "weather"):
        assert SearchIndex(shuffled).search(query) == SearchIndex(CATALOG).search(query)


def test_the_generated_index_is_deterministic_and_loads(tmp_path: Path) -> None:
    text = (REPO / "generated" / "toolgen_builtin" / "definitions" / "search.json").read_text(
        "utf-8"
    )
    document = json.loads(text)
    assert document["format"] == search_index.FORMAT and document["analyzer"] == analyzer.ANALYZER
    assert document["fields"] == list(analyzer.FIELDS)
    assert [t["name"] for t in document["tools"]] == sorted(toolgen_builtin.TOOL_NAMES)
    assert len(text.splitlines()) == len(document["tools"]) + 2  # a head, one tool a line, the end
    mcp = {d["name"]: d for d in toolgen_builtin.tool_definitions("mcp")}
    for tool in document["tools"]:
        assert tool["inputSchema"] == mcp[tool["name"]]["inputSchema"]
        assert tool["description"] == mcp[tool["name"]]["description"]
    loaded = package_search.package_entries("toolgen_builtin")
    assert set(loaded) == set(toolgen_builtin.TOOL_NAMES)
    assert (
        loaded["read_file"].fields[0] == "read fil" and "files" not in loaded["read_file"].fields[1]
    )


# -- the pair -------------------------------------------------------------------------------------


@pytest.mark.parametrize("pair", [SEARCH_TOOLS, CALL_TOOL], ids=lambda p: p["name"])
def test_the_pairs_schemas_agree_with_their_models(pair: dict[str, Any]) -> None:
    model = {
        "search_tools": search_tools.SearchToolsArguments,
        "call_tool": search_tools.CallToolArguments,
    }[pair["name"]]
    info = {"search_tools": search_tools.SEARCH_INFO, "call_tool": search_tools.CALL_INFO}[
        pair["name"]
    ]
    assert (
        info.arguments is model
        and info.description == pair["description"]
        and info.name == pair["name"]
    )
    schema = pair["parameters"]
    jsonschema.Draft202012Validator.check_schema(schema)
    generated = model.model_json_schema(by_alias=True)
    assert set(generated["properties"]) == set(schema["properties"])
    assert set(generated.get("required", [])) == set(schema["required"])
    samples: list[Any] = [
        {},
        {"query": "read a file"},
        {"query": ""},
        {"query": "x" * 500},
        {"query": "x" * 501},
        {"query": "q", "limit": 1},
        {"query": "q", "limit": 20},
        {"query": "q", "limit": 0},
        {"query": "q", "limit": 21},
        {"query": "q", "limit": 2.5},
        {"query": "q", "limit": "3"},
        {"query": 3},
        {"query": "q", "other": 1},
        {"name": "read_file", "arguments": {}},
        {"name": "read_file", "arguments": {"path": "a"}},
        {"name": ""},
        {"name": "read_file"},
        {"arguments": {}},
        {"name": "x", "arguments": []},
        {"name": "x", "arguments": "{}"},
        {"name": 1, "arguments": {}},
        {"name": "x", "arguments": {}, "more": True},
        {"query": "q", "limit": True},
    ]
    for sample in samples:
        by_schema = jsonschema.Draft202012Validator(schema).is_valid(sample)
        try:
            validate(model, pair["name"], sample)
            by_model = True
        except ToolArgumentsError:
            by_model = False
        assert by_schema == by_model, sample


@pytest.fixture
def tools(tmp_path: Path) -> Any:
    (tmp_path / "notes.txt").write_text("one\ntwo\n", encoding="utf-8")
    return builtin_registry(tmp_path)


DEFERRED_SPECS = {
    "tools": [
        {
            "name": "echo_text",
            "description": "Say the text back.",
            "parameters": {
                "type": "object",
                "properties": {"text": {"type": "string", "description": "What to say."}},
                "required": ["text"],
            },
            "returns": {"type": "object", "properties": {"text": {"type": "string"}}},
        },
        {
            "name": "convert_temperature",
            "namespace": "units",
            "defer": True,
            "description": "Convert a temperature from Celsius to Fahrenheit.",
            "parameters": {
                "type": "object",
                "properties": {"celsius": {"type": "number", "description": "Degrees Celsius."}},
                "required": ["celsius"],
            },
            "returns": {"type": "object", "properties": {"fahrenheit": {"type": "number"}}},
        },
    ]
}
DEFERRED_IMPL = """
from deferred_tools import build_registry
from deferred_tools.tools.convert_temperature import ConvertTemperatureTool, ConvertTemperatureResult
from deferred_tools.tools.echo_text import EchoTextTool, EchoTextResult

class Echo(EchoTextTool):
    def run(self, arguments):
        return EchoTextResult(text=arguments.text)

class Convert(ConvertTemperatureTool):
    def run(self, arguments):
        return ConvertTemperatureResult(fahrenheit=arguments.celsius * 9 / 5 + 32)

def registry():
    return build_registry(Echo(), Convert())
"""


@pytest.fixture(scope="module")
def deferred(tmp_path_factory: pytest.TempPathFactory) -> Any:
    """A generated package with a deferred tool, its registry (from `build_registry`), and the
    folder it was generated in (with `deferred_impl.py`, for a server to serve)."""
    out = tmp_path_factory.mktemp("deferred")
    specs = out / "specs"
    specs.mkdir()
    (specs / "tools.json").write_text(json.dumps(DEFERRED_SPECS), "utf-8")
    generate(specs, out, "deferred_tools")
    (out / "deferred_impl.py").write_text(DEFERRED_IMPL, "utf-8")
    with imported(out, "deferred_tools") as package:
        sys.path.insert(0, str(out))
        try:
            import deferred_impl

            yield package, deferred_impl.registry(), out
        finally:
            sys.path.remove(str(out))
            sys.modules.pop("deferred_impl", None)


def test_a_registry_with_a_deferred_tool_holds_the_pair(deferred: Any) -> None:
    package, registry, _ = deferred
    assert list(registry) == ["call_tool", "convert_temperature", "echo_text", "search_tools"]
    found = registry.call(
        "search_tools", {"query": "convert degrees celsius to fahrenheit", "limit": 3}
    )
    assert found.ok, found.text()
    first = found.data()["tools"][0]
    assert first["name"] == "convert_temperature" and first["parameters"]["required"] == ["celsius"]
    assert first["description"] == package.tool_info("convert_temperature").description
    nothing = registry.call("search_tools", {"query": "book a flight to Lisbon"})
    assert nothing.data() == {"tools": []} and nothing.metadata == search_tools.NOTHING
    # Derived registries make their own pair, over their own tools; without a deferred tool, none.
    assert "search_tools" in registry.without("echo_text") and "call_tool" in registry.without(
        "search_tools"
    )
    merged = registry.without("echo_text") + registry.without("convert_temperature")
    assert list(merged) == list(registry)
    assert set(registry.without("convert_temperature")) == {"echo_text"}
    with pytest.raises(ValueError, match="takes the name of the tool-search pair"):
        type(registry)(
            [*(registry[n] for n in ("echo_text", "convert_temperature")), Named("search_tools")]
        )


class Named:
    """An implementation of a tool of another name: what `search-reserved` keeps out of specs."""

    def __init__(self, name: str) -> None:
        self.info = replace(toolgen_builtin.tool_info("read_file"), name=name, provider_name=name)

    def run(self, arguments: Any) -> Any:
        raise AssertionError("never called")


def test_call_tool_is_the_call_of_the_tool_it_names(deferred: Any) -> None:
    _, registry, _ = deferred
    seen: list[str] = []

    class Hook:
        def before(self, event: Any) -> None:
            seen.append(event.tool)

    hooked = type(registry)(registry.values(), hooks=[Hook()])
    ok = hooked.call("call_tool", {"name": "convert_temperature", "arguments": {"celsius": 100}})
    assert ok.ok and ok.tool == "convert_temperature" and ok.data() == {"fahrenheit": 212.0}
    assert seen == ["convert_temperature"]  # hooks see the tool that ran
    # An invalid call gets the registry's own message, kind and all.
    bad = registry.call("call_tool", {"name": "convert_temperature", "arguments": {"kelvin": 1}})
    direct = registry.call("convert_temperature", {"kelvin": 1})
    assert bad.failure is not None and direct.failure is not None
    assert (bad.failure.kind, bad.failure.message) == (direct.failure.kind, direct.failure.message)
    unknown = registry.call("call_tool", {"name": "convert_temprature", "arguments": {}})
    assert unknown.failure is not None and unknown.failure.kind == "unknown_tool"
    assert unknown.failure.message == registry.call("convert_temprature", {}).failure.message
    assert "Did you mean 'convert_temperature'?" in unknown.failure.message
    own = registry.call("call_tool", {"name": "echo_text"})  # call_tool's own arguments
    assert (
        own.failure is not None and own.tool == "call_tool" and "arguments" in own.failure.message
    )
    again = registry.call("call_tool", {"name": "call_tool", "arguments": {}})
    assert again.failure is not None and "does not call itself" in again.failure.message
    searched = registry.call(
        "call_tool", {"name": "search_tools", "arguments": {"query": "echo text"}}
    )
    assert searched.ok and searched.data()["tools"][0]["name"] == "echo_text"
    assert registry.forwarded("call_tool", {"name": "echo_text", "arguments": {}}) == (
        "echo_text",
        {},
    )
    assert registry.forwarded("call_tool", {"name": "call_tool", "arguments": {}})[0] == "call_tool"
    assert registry.forwarded("echo_text", {"text": "x"}) == ("echo_text", {"text": "x"})


def test_definitions_of_a_registry_with_deferred_tools(deferred: Any) -> None:
    package, registry, _ = deferred
    for provider in ("openai", "openai-responses", "anthropic", "gemini", "mcp", "bedrock"):
        assert registry.definitions(provider) == package.tool_definitions(provider), provider
    responses = registry.definitions("openai-responses")
    assert [d["type"] for d in responses] == ["namespace", "function", "tool_search"]
    assert responses[0]["tools"][0]["defer_loading"] is True
    plain = registry.without("convert_temperature")
    for provider in ("openai", "openai-responses", "anthropic", "gemini", "mcp", "bedrock"):
        shown = json.dumps(plain.definitions(provider))
        assert (
            "search_tools" not in shown and "tool_search" not in shown and "convert" not in shown
        ), provider


def test_frameworks_get_the_pair_in_place_of_deferred_tools(deferred: Any) -> None:
    package, registry, _ = deferred
    assert [t.name for t in package.langchain_tools(registry)] == [
        "echo_text",
        "search_tools",
        "call_tool",
    ]
    assert [t.name for t in package.openai_agents_tools(registry)] == [
        "echo_text",
        "search_tools",
        "call_tool",
    ]


def test_a_registry_without_deferred_tools_has_no_pair(tools: Any) -> None:
    assert "search_tools" not in tools and "call_tool" not in tools
    assert tools.forwarded("call_tool", {"name": "read_file", "arguments": {}}) == (
        "call_tool",
        {"name": "read_file", "arguments": {}},
    )


def test_search_is_fast_on_a_thousand_tools() -> None:
    rng = random.Random(5)
    words = [
        f"{a}{b}"
        for a in ("get", "set", "list", "make", "drop", "sync", "scan", "plot")
        for b in ("user", "file", "order", "item", "graph", "job", "token", "note", "page", "image")
    ]
    entries = [
        entry(
            f"tool_{i}_{rng.choice(words)}", " ".join(rng.choices(words, k=30)), rng.choice(words)
        )
        for i in range(1000)
    ]
    # CPU seconds of this thread: what the work costs, however loaded the machine.
    started = time.thread_time()
    index = SearchIndex(entries)
    built = time.thread_time() - started
    queries = [" ".join(rng.choices(words, k=4)) for _ in range(200)]
    started = time.thread_time()
    for query in queries:
        index.search(query)
    per_query = (time.thread_time() - started) / len(queries)
    assert built < 2.0 and per_query < 0.005, (built, per_query)  # a few ms at most


@pytest.mark.skipif(not (CORPUS / "livemcpbench.jsonl").is_file(), reason=NO_CORPUS)
def test_the_corpus_servers_are_searchable() -> None:
    records = [
        json.loads(line) for line in (CORPUS / "livemcpbench.jsonl").read_text("utf-8").splitlines()
    ]
    entries = {}
    for r in records:
        name = f"{r['server']}__{r['name']}"
        entries[name] = Entry(
            name,
            fields(r["name"], r.get("description"), r.get("server"), None, r.get("inputSchema")),
            "",
            {},
        )
    index = SearchIndex(entries.values())
    assert names(index, "playwright take a screenshot of the page")[0].startswith("playwright__")
    assert index.search("knit a warm wool scarf") == []


# -- served over MCP ------------------------------------------------------------------------------


@pytest.mark.anyio
@pytest.mark.parametrize("anyio_backend", ["asyncio"])
async def test_the_pair_is_served_over_mcp(deferred: Any, anyio_backend: str) -> None:
    from mcp import Client, StdioServerParameters

    _, _, out = deferred
    server = StdioServerParameters(
        command=sys.executable,
        cwd=out,
        env=python_path(out),
        args=["-m", "deferred_tools", "serve", "--stdio", "--registry", "deferred_impl:registry"],
    )
    exported = json.loads((out / "deferred_tools" / "definitions" / "mcp.json").read_text("utf-8"))
    async with Client(server, read_timeout_seconds=60) as client:
        listed = [
            tool.model_dump(mode="json", by_alias=True, exclude_none=True)
            for tool in (await client.list_tools()).tools
        ]
        # The package's MCP definitions: the tools not deferred, then the pair.
        assert listed == exported["variants"][0]["definitions"]
        assert [tool["name"] for tool in listed] == ["echo_text", "search_tools", "call_tool"]
        found = await client.call_tool(
            "search_tools", {"query": "convert degrees celsius to fahrenheit"}
        )
        assert not found.is_error and found.structured_content is not None
        first = found.structured_content["tools"][0]
        assert first["name"] == "convert_temperature" and first["parameters"]["required"] == [
            "celsius"
        ]
        called = await client.call_tool(
            "call_tool", {"name": "convert_temperature", "arguments": {"celsius": 100}}
        )
        assert not called.is_error and called.structured_content == {"fahrenheit": 212.0}
        wrong = await client.call_tool(
            "call_tool", {"name": "convert_temperature", "arguments": {"kelvin": 1}}
        )
        assert wrong.is_error and "celsius" in wrong.content[0].text


# -- the evaluation, in its smoke-test mode -------------------------------------------------------


def test_the_evaluation_runs_on_the_builtin_library() -> None:
    script = REPO / "benchmarks" / "search_eval.py"
    proc = subprocess.run(
        [sys.executable, str(script), "--builtin-only", "--split", "all"],
        cwd=REPO,
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert proc.returncode == 0, proc.stdout[-2000:] + proc.stderr[-3000:]
    assert (
        "| builtin | 20 | toolgen |" in proc.stdout
        and "| builtin | 20 | BM25 baseline |" in proc.stdout
    )
    absent = subprocess.run(
        [sys.executable, str(script), str(REPO / "no-corpus-here")],
        cwd=REPO,
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    assert absent.returncode == 2 and "no corpus at" in absent.stderr


def test_a_served_caller_finds_only_the_tools_its_scopes_cover(tmp_path: Path) -> None:
    """`search_tools` run for an authenticated caller (identity.acting, as the server runs a
    call) leaves out the deferred tools whose `auth: {scopes}` its token does not cover."""
    import importlib

    from tests.support._generated import package, spec

    tools = [
        spec("read_invoice", description="Read an invoice by its number.", defer=True),
        {
            **spec("refund_invoice", description="Refund an invoice by its number.", defer=True),
            "auth": {"scopes": ["billing:refund"]},
        },
    ]
    with package(tmp_path, tools) as pkg:
        identity = importlib.import_module(f"{pkg.__name__}._runtime.identity")
        registry = pkg.build_registry(*_stubs(pkg, ["read_invoice", "refund_invoice"]))

        def found(principal: Any, query: str) -> list[str]:
            with identity.acting(principal):
                result = registry.call("search_tools", {"query": query, "limit": 5})
            return [t["name"] for t in result.value.model_dump()["tools"]]

        everything = ["read_invoice", "refund_invoice"]
        assert sorted(found(None, "invoice")) == everything  # not served: no caller, every tool
        assert sorted(found(identity.Principal(every_scope=True), "invoice")) == everything
        refunds = identity.Principal(scopes=frozenset({"billing:refund"}))
        assert sorted(found(refunds, "invoice")) == everything
        assert found(identity.Principal(), "invoice") == ["read_invoice"]
        assert found(identity.Principal(), "refund invoice") == []
        assert found(refunds, "refund invoice") == ["refund_invoice"]


def _stubs(pkg: Any, names: list[str]) -> list[Any]:
    import importlib

    made = []
    for name in names:
        module = importlib.import_module(f"{pkg.__name__}.tools.{name}")
        base = next(v for k, v in vars(module).items() if k.endswith("Tool") and k != "ToolInfo")
        made.append(type(name, (base,), {"run": lambda self, arguments: None})())
    return made
