"""The site as files: the jinja templates of this package filled in (every value escaped),
the stylesheet and the script copied, the search data embedded. Pure: `{path: text}`."""

from __future__ import annotations

import json
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import jinja2
from markupsafe import Markup

from toolgen.catalog.changes import Changes
from toolgen.catalog.definitions import Cost
from toolgen.catalog.pages import Page, groups
from toolgen.runtime.search import analyzer
from toolgen.runtime.search import index as search

HERE = Path(__file__).parent
STATIC = ("catalog.css", "catalog.js")


def environment() -> jinja2.Environment:
    env = jinja2.Environment(
        loader=jinja2.FileSystemLoader(HERE / "templates"),
        autoescape=True,  # every spec text shows as text
        undefined=jinja2.StrictUndefined,
        keep_trailing_newline=True,
        trim_blocks=True,
        lstrip_blocks=True,
    )
    env.filters["script_json"] = script_json
    return env


def script_json(value: Any) -> Markup:
    """JSON for a `<script type="application/json">`: nothing in it can close the element or
    start markup (`<`, `>`, `&` as escapes; JSON.parse reads them back)."""
    text = json.dumps(value, ensure_ascii=False, sort_keys=True, separators=(",", ":"))
    text = text.replace("<", "\\u003c").replace(">", "\\u003e").replace("&", "\\u0026")
    return Markup(text)


def search_data(pages: Sequence[Page], index: dict[str, Any]) -> dict[str, Any]:
    """What the index page's search reads: the package's search index (its analyzer's terms per
    field, render/search_index.py), the field weights and the analyzer's word lists."""
    hrefs = {p.name: p.href for p in pages}
    return {
        "analyzer": index["analyzer"],
        "fields": index["fields"],
        "weights": list(search.WEIGHTS),
        "stop": sorted(analyzer.STOP_WORDS),
        "ed": sorted(analyzer._ED),
        "tools": [
            {"name": e["name"], "href": hrefs[e["name"]], "fields": e["fields"]}
            for e in index["tools"]
        ],
    }


def render_site(
    pages: Sequence[Page],
    costs: Sequence[Cost],
    index: dict[str, Any],
    changes: Changes | None = None,
    title: str = "Tool catalog",
) -> dict[str, str]:
    env = environment()
    files = {name: (HERE / "templates" / name).read_text("utf-8") for name in STATIC}
    files["index.html"] = env.get_template("index.html.jinja").render(
        title=title,
        groups=groups(pages),
        count=len(pages),
        costs=costs,
        changes=changes,
        search=search_data(pages, index),
        root="",
    )
    tool = env.get_template("tool.html.jinja")
    for p in pages:
        files[p.href] = tool.render(title=title, page=p, changes=changes, root="../")
    return dict(sorted(files.items()))
