"""Each provider's definitions of each tool as the catalog shows them (catalog/definitions.py):
exactly the exporters' output, the fallbacks' notes, tokens, and the catalog's cost."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from tests.support.catalog_support import SPECS
from toolgen.catalog.definitions import (
    DEFERRED,
    REFUSED_TEXT,
    SEARCHED,
    UP_FRONT,
    provider_views,
)
from toolgen.ir import ToolIR
from toolgen.lower import lower
from toolgen.pipeline import check_specs
from toolgen.providers import PROVIDERS, export
from toolgen.providers.tokens import estimate_catalogs


@pytest.fixture(scope="module")
def tools(tmp_path_factory: pytest.TempPathFactory) -> tuple[ToolIR, ...]:
    specs = tmp_path_factory.mktemp("catalog") / "specs"
    specs.mkdir()
    for name, text in SPECS.items():
        (specs / name).write_text(text, "utf-8")
    diagnostics, checked = check_specs(specs, exports=False)
    assert not [d for d in diagnostics if d.is_error]
    return lower(checked, "shop").tools


def _by(views: list[Any], provider: str, variant: str) -> Any:
    return next(v for v in views if v.provider == provider and v.variant == variant)


def test_every_variant_of_every_provider_default_first(tools: tuple[ToolIR, ...]) -> None:
    views, costs = provider_views(tools, PROVIDERS)
    shown = views["find_customer"]
    assert [v.provider for v in shown if v.default] == list(PROVIDERS)
    assert [(v.variant, v.default) for v in shown if v.provider == "openai"] == [
        ("strict: false", True),
        ("strict: true", False),
    ]
    assert [c.provider for c in costs] == list(PROVIDERS)


def test_a_definition_is_the_exporters_own(tools: tuple[ToolIR, ...]) -> None:
    views, _ = provider_views(tools, ["anthropic"])
    exported = export("anthropic", tools, strict=True).definitions
    expected = next(d for d in exported if d["name"] == "find_customer")
    view = _by(views["find_customer"], "anthropic", "strict: true")
    assert json.loads(view.definition) == expected and view.status == UP_FRONT


def test_fallbacks_taken_are_told(tools: tuple[ToolIR, ...]) -> None:
    views, _ = provider_views(tools, ["anthropic"])
    strict = _by(views["find_customer"], "anthropic", "strict: true")
    loose = _by(views["find_customer"], "anthropic", "strict: false")
    assert any("minLength" in note for note in strict.notes) and loose.notes == ()


def test_a_deferred_tool_by_how_each_provider_reaches_it(tools: tuple[ToolIR, ...]) -> None:
    views, _ = provider_views(tools, ["anthropic", "openai"])
    native = _by(views["merge_customers"], "anthropic", "strict: false")
    searched = _by(views["merge_customers"], "openai", "strict: false")
    assert native.status == DEFERRED and json.loads(native.definition)["defer_loading"] is True
    assert searched.status == SEARCHED and json.loads(searched.definition)["function"]["name"] == (
        "merge_customers"
    )
    assert searched.tokens is not None and searched.tokens > 0


def test_the_cost_is_what_toolgen_tokens_reports_deferred_apart(tools: tuple[ToolIR, ...]) -> None:
    views, costs = provider_views(tools, ["openai", "mcp"])
    for cost, reference in zip(costs, estimate_catalogs(tools, ["openai", "mcp"]), strict=True):
        assert cost.up_front == reference.total
        assert cost.loaded == len(reference.up_front) == 2
        assert cost.deferred_count == 1
        deferred = next(v for v in views["merge_customers"] if v.provider == cost.provider)
        assert cost.deferred == deferred.tokens


def test_no_tools_cost_nothing() -> None:
    views, costs = provider_views((), ["mcp"])
    assert views == {} and (costs[0].up_front, costs[0].loaded, costs[0].deferred) == (0, 0, 0)


def test_a_refused_tool_says_so_with_the_reason(tmp_path: Path) -> None:
    (tmp_path / "tool.yaml").write_text(
        "name: greet\ndescription: Greet a person by name. Returns the greeting.\n"
        "parameters:\n  type: object\n  properties:\n"
        '    first-name: {type: string, description: "The person\'s first name, e.g. Ada"}\n',
        "utf-8",
    )
    diagnostics, checked = check_specs(tmp_path, exports=False)
    assert not [d for d in diagnostics if d.is_error]
    views, _ = provider_views(lower(checked, "greeting").tools, ["gemini"])
    refused = _by(views["greet"], "gemini", "openapi: true")
    assert (refused.status, refused.definition, refused.tokens) == (REFUSED_TEXT, "", None)
    assert any("left out" in note for note in refused.notes)
    assert _by(views["greet"], "gemini", "openapi: false").status == UP_FRONT
