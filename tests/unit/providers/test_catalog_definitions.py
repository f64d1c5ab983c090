"""What the model is shown of a catalog: examples, namespaces, deferred tools and tool search.

Every definition is checked with the providers' own SDK types (provider_checks.py), on the
built-in library with some tools deferred, and on a sample of the corpus.
"""

from __future__ import annotations

import json
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest

from tests.support import corpus_sample
from tests.support import provider_checks as checks
from tests.support.generation import REPO
from toolgen.lower import lower
from toolgen.pipeline import check_specs
from toolgen.providers import PROVIDERS, export, variants
from toolgen.providers.catalog import PAIR_NAMES, namespace_description
from toolgen.runtime.kinds import definition_name
from toolgen.runtime.search.definitions import CALL_TOOL, SEARCH_TOOLS

NATIVE = {"openai-responses", "anthropic"}


def builtin(defer: Any = lambda i, tool: False) -> list[Any]:
    diagnostics, checked = check_specs(REPO / "schemas")
    assert not [d for d in diagnostics if d.is_error]
    return [
        replace(t, defer=defer(i, t)) for i, t in enumerate(lower(checked, "toolgen_builtin").tools)
    ]


@pytest.fixture(scope="module")
def library() -> list[Any]:
    return builtin(lambda i, tool: i % 3 == 0)  # a third deferred, in every category


def names(provider: str, definitions: list[dict[str, Any]]) -> list[str]:
    """The tools a provider's definitions name, a namespace's included (not the search tools)."""
    out: list[str] = []
    for d in definitions:
        if d.get("type") == "namespace":
            out += [t["name"] for t in d["tools"]]
        elif (name := definition_name(d)) is not None and not str(d.get("type", "")).startswith(
            "tool_search"
        ):
            out.append(name)
    return out


def every_variant(
    tools: list[Any], **settings: Any
) -> list[tuple[str, dict[str, Any], list[dict[str, Any]]]]:
    return [
        (p, o, export(p, tools, **settings, **o).definitions)
        for p in PROVIDERS
        for o in variants(p)
    ]


def test_the_sdks_accept_every_definition_with_examples_namespaces_and_deferred_tools(
    library: list[Any],
) -> None:
    for tools in (library, builtin()):
        for provider, option, definitions in every_variant(tools, examples_budget=400):
            problems = [
                f"{provider} {option}: {p}" for d in definitions for p in checks.check(provider, d)
            ]
            if provider == "anthropic":
                problems += checks.anthropic_search_problems(
                    definitions
                ) + checks.anthropic_request_problems(definitions)
            assert problems == []


def test_native_search_sends_every_tool_and_says_which_are_deferred(library: list[Any]) -> None:
    deferred = {t.provider_name for t in library if t.defer}
    everything = [t.provider_name for t in library]
    anthropic = export("anthropic", library).definitions
    assert names("anthropic", anthropic) == everything
    assert {d["name"] for d in anthropic if d.get("defer_loading")} == deferred
    assert anthropic[-1] == {
        "type": "tool_search_tool_bm25_20251119",
        "name": "tool_search_tool_bm25",
    }

    responses = export("openai-responses", library).definitions
    assert sorted(names("openai-responses", responses)) == sorted(everything)
    assert responses[-1] == {"type": "tool_search"}
    spaces = {d["name"]: d for d in responses if d.get("type") == "namespace"}
    assert set(spaces) == {t.namespace for t in library if t.defer}
    for tool in library:
        inside = [
            d
            for d in spaces.get(tool.namespace, {"tools": []})["tools"]
            if d["name"] == tool.provider_name
        ]
        top = [d for d in responses if d.get("name") == tool.provider_name]
        assert len(inside) + len(top) == 1, tool.name
        assert (inside or top)[0].get("defer_loading", False) is tool.defer
        assert (tool.namespace in spaces) == bool(inside)
    for name, space in spaces.items():
        assert space["description"] == namespace_description(
            name, [d["name"] for d in space["tools"]]
        )


def test_providers_without_search_get_the_loaded_tools_and_the_search_pair(
    library: list[Any],
) -> None:
    loaded = [t.provider_name for t in library if not t.defer]
    for provider in sorted(set(PROVIDERS) - NATIVE):
        shown = names(provider, export(provider, library).definitions)
        assert shown == [*loaded, SEARCH_TOOLS["name"], CALL_TOOL["name"]], provider
    assert PAIR_NAMES == {SEARCH_TOOLS["name"], CALL_TOOL["name"]}


def test_a_catalog_without_deferred_tools_has_no_search() -> None:
    for provider, _, definitions in every_variant(builtin()):
        text = json.dumps(definitions)
        assert "defer_loading" not in text and "tool_search" not in text, provider
        assert not PAIR_NAMES & set(names(provider, definitions)), provider


def test_examples_reach_anthropic_as_input_examples_and_others_only_within_the_budget() -> None:
    tools = builtin()
    with_examples = [t for t in tools if t.call_examples]
    assert with_examples  # the built-in library has examples
    for tool, definition in zip(tools, export("anthropic", tools).definitions, strict=False):
        assert definition.get("input_examples", []) == list(tool.call_examples)
        assert definition.get("description") == (tool.description or None)
    for definition in export("bedrock", tools).definitions:
        assert "input_examples" not in definition["toolSpec"]
    plain = {
        d["function"]["name"]: d["function"]["description"]
        for d in export("openai", tools).definitions
    }
    for budget in (0, 60, 400):
        for provider in ("openai", "gemini", "mcp"):
            shown = export(provider, tools, examples_budget=budget).definitions
            for tool, definition in zip(tools, shown, strict=False):
                body = definition.get("function") or definition
                added = body.get("description", "")[len(tool.description) :]
                assert body["description"].startswith(tool.description)
                assert len(added) <= budget
                lines = added.splitlines()[3:] if added else []
                assert [json.loads(line) for line in lines] == list(
                    tool.call_examples[: len(lines)]
                )
                if budget == 400 and tool.call_examples:
                    assert lines, (provider, tool.name)
    for tool in with_examples:  # never past OpenAI's limit, whatever the budget
        description = next(
            d["function"]["description"]
            for d in export("openai", tools, examples_budget=10**6).definitions
            if d["function"]["name"] == tool.provider_name
        )
        assert len(description) <= 1024 and description.startswith(plain[tool.provider_name])


@pytest.mark.skipif(not corpus_sample.CORPUS.is_dir(), reason=corpus_sample.NO_CORPUS)
def test_the_sdks_accept_a_corpus_sample_deferred_and_namespaced(tmp_path: Path) -> None:
    sample = corpus_sample.lint_clean(tmp_path / "lint", corpus_sample.sample())
    tools = []
    for i, (source, tool) in enumerate(sample):
        tools.append({**tool, "namespace": source.replace(".", "_"), "defer": i % 2 == 0})
    diagnostics, checked = check_specs(corpus_sample.write(tmp_path, tools))
    assert not [d for d in diagnostics if d.is_error]
    lowered = list(lower(checked, "corpus_catalog").tools)
    assert sum(t.defer for t in lowered) > 100
    for provider, option, definitions in every_variant(lowered, examples_budget=300):
        problems = [
            f"{provider} {option}: {p}" for d in definitions for p in checks.check(provider, d)
        ]
        if provider == "anthropic":
            problems += checks.anthropic_search_problems(definitions)
        assert problems[:5] == []
