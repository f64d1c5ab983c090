"""The site's files (catalog/site.py, the templates): what each page holds, the search data
taken from the package's search index, escaping, and the same bytes for the same specs."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.support.catalog_support import SPECS, Elements, site
from toolgen.catalog.site import script_json
from toolgen.runtime.search import analyzer
from toolgen.runtime.search import index as search
from toolgen.spec import spec_schema
from toolgen.spec.model import TASK_SUPPORT


@pytest.fixture(scope="module")
def specs(tmp_path_factory: pytest.TempPathFactory) -> Path:
    root = tmp_path_factory.mktemp("catalog") / "specs"
    root.mkdir()
    for name, text in SPECS.items():
        (root / name).write_text(text, "utf-8")
    return root


@pytest.fixture(scope="module")
def files(specs: Path) -> dict[str, str]:
    return site(specs)


def test_an_index_a_page_per_tool_and_the_static_files(files: dict[str, str]) -> None:
    assert sorted(files) == [
        "catalog.css",
        "catalog.js",
        "index.html",
        "tools/find_customer.html",
        "tools/get_weather.html",
        "tools/merge_customers.html",
    ]


def test_the_same_specs_give_the_same_bytes(specs: Path, files: dict[str, str]) -> None:
    assert site(specs) == files


def test_the_index_groups_by_category_then_namespace(files: dict[str, str]) -> None:
    page = Elements(files["index.html"])
    assert page.texts("h3") == ["sales", "weather"]
    assert page.texts("h4") == ["crm", "weather"]  # a namespace defaults to the category
    listed = [
        attrs["data-tool"] for tag, attrs in page.tags if tag == "li" and "data-tool" in attrs
    ]
    assert listed == ["find_customer", "merge_customers", "get_weather"]


def test_the_search_data_is_the_search_index_of_the_package(files: dict[str, str]) -> None:
    data = json.loads(Elements(files["index.html"]).script("search-data"))
    assert data["fields"] == list(analyzer.FIELDS) and data["weights"] == list(search.WEIGHTS)
    find = next(t for t in data["tools"] if t["name"] == "find_customer")
    assert find["href"] == "tools/find_customer.html"
    assert find["fields"][0] == " ".join(analyzer.tokens("find_customer"))
    assert "email" in find["fields"][2].split()


def test_a_tool_page_holds_what_the_spec_says(files: dict[str, str]) -> None:
    text = " ".join(Elements(files["tools/find_customer.html"]).text)
    for expected in (
        "people.yaml:2",  # the entry's name, where the spec has it
        "No customer matches the query",
        "up to 3 attempts in all, waiting 0.5 s at first",
        "10 calls per 60 s; past it, fail",
        "5 s",
        "minLength: 1",
        "The city's name, e.g. Lyon",
        '"ada@example.com"',
    ):
        assert expected in text, expected
    weather = " ".join(Elements(files["tools/get_weather.html"]).text)
    assert "Deprecated: Use the forecast service (sunset 2099-01-01)." in weather


def test_nested_objects_and_refs_expand_in_details(files: dict[str, str]) -> None:
    page = Elements(files["tools/find_customer.html"])
    summaries = page.texts("summary")
    assert summaries[0] == "2 fields of" and "(address)" in "".join(page.text)


def test_provider_tabs_and_their_panels(files: dict[str, str]) -> None:
    page = Elements(files["tools/merge_customers.html"])
    tabs = [a for tag, a in page.tags if a.get("role") == "tab"]
    panels = [a for tag, a in page.tags if a.get("role") == "tabpanel"]
    assert [t["aria-controls"] for t in tabs] == [p["id"] for p in panels]
    assert [t["aria-selected"] for t in tabs] == ["true"] + ["false"] * (len(tabs) - 1)
    assert "found through search_tools" in " ".join(page.text)


def test_script_json_cannot_close_its_element() -> None:
    text = str(script_json({"a": "</script><b>&amp;"}))
    assert "<" not in text and ">" not in text and "&" not in text
    assert json.loads(text) == {"a": "</script><b>&amp;"}


def test_a_tools_task_guards_and_scopes_are_among_its_policies(tmp_path: Path) -> None:
    """Nothing a spec declares about how a tool is called is left off its page: whether it
    runs as a task, the guards the host must give it, the scopes a caller's token needs."""
    (tmp_path / "deploy.yaml").write_text(
        """\
name: deploy
description: Deploy a service to an environment. Returns the id of the deployment made.
task: required
guards: {input: [no_friday], output: [no_secrets, short]}
auth: {scopes: [deploy, ops:write]}
parameters:
  type: object
  properties:
    service: {type: string, description: The service to deploy}
  required: [service]
returns:
  type: object
  properties:
    id: {type: string, description: The deployment made}
  required: [id]
""",
        "utf-8",
    )
    page = Elements(site(tmp_path)["tools/deploy.html"])
    cells = [
        (tag, attrs.get("scope"), text)
        for (tag, attrs), text in zip(page.tags, page._after, strict=True)
        if tag in ("th", "td")
    ]
    rows = {
        name.strip(): cells[i + 1][2].strip()
        for i, (tag, scope, name) in enumerate(cells)
        if scope == "row"
    }
    assert rows["as a task"] == "only as a task (a long call)"
    assert (rows["input guards"], rows["output guards"]) == ("no_friday", "no_secrets, short")
    assert rows["scopes a caller needs"] == "deploy ops:write"


def test_every_task_value_the_format_allows_has_its_wording() -> None:
    """The catalog words a tool's `task` from the spec model's TASK_SUPPORT: a value the
    format's schema allows without a wording there would show as not declared."""
    allowed = spec_schema()["$defs"]["tool"]["properties"]["task"]["enum"]
    assert sorted(TASK_SUPPORT) == sorted(allowed)
    assert all(TASK_SUPPORT.values())
