"""`definitions/search.json`: the package's tool-search index, written at generation time.

Per tool (sorted by name; render writes one a line): its indexed terms field by field, made by the
runtime's own `analyzer.fields` (so that the text of a query and of a tool are normalised by
the one analyzer), and what `search_tools` answers about it: the description and the input
schema of its MCP definition, which deferred tools have nowhere else once the MCP listing
leaves them out. The runtime counts the terms when it loads the index: term statistics
belong to a registry, which may hold the tools of several packages.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import replace
from typing import Any

from toolgen.constants import HEADER
from toolgen.ir import ToolIR
from toolgen.providers import export
from toolgen.render import runtime_source
from toolgen.runtime import kinds
from toolgen.runtime.search import analyzer


def index_document(
    tools: Sequence[ToolIR], mcp: Sequence[Mapping[str, Any]] = (), examples_budget: int = 0
) -> dict[str, Any]:
    """The index: a head, then one entry per tool, by name: its fields' terms, its MCP
    description and input schema. `mcp`: the MCP definitions render has already (the
    default variant's); only the tools missing from them (deferred ones, which MCP lists
    through search) are exported again, with `defer` off (and the build's `examples_budget`)."""
    definitions = {d["name"]: d for d in mcp}
    missing = [replace(t, defer=False) for t in tools if t.name not in definitions]
    definitions.update(
        (d["name"], d)
        for d in export(kinds.MCP, missing, examples_budget=examples_budget).definitions
        if missing
    )
    entries = []
    for tool in sorted(tools, key=lambda t: t.name):
        definition = definitions.get(tool.name, {})
        terms = analyzer.fields(
            tool.name,
            tool.description,
            tool.namespace,
            tool.category,
            tool.parameters,
            tool.examples,
        )
        entries.append(
            {
                "name": tool.name,
                "fields": list(terms),
                "description": definition.get("description", tool.description),
                "inputSchema": definition.get("inputSchema", {"type": "object"}),
            }
        )
    return {
        "_comment": HEADER,
        "format": runtime_source.constant("search/index.py", "FORMAT"),
        "analyzer": analyzer.ANALYZER,
        "fields": list(analyzer.FIELDS),
        "tools": entries,
    }
