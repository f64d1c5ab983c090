"""`definitions/search.json`: the package's tool-search index, written at generation time.

Per tool (sorted by name, one a line): its indexed terms field by field, made by the
runtime's own `search.fields` (so that the text of a query and of a tool are normalised by
the one analyzer), and what `search_tools` answers about it: the description and the input
schema of its MCP definition, which deferred tools have nowhere else once the MCP listing
leaves them out. The runtime counts the terms when it loads the index: term statistics
belong to a registry, which may hold the tools of several packages.
"""

from __future__ import annotations

import json
import re
from collections.abc import Sequence
from dataclasses import replace
from typing import Any

from toolgen.constants import HEADER
from toolgen.ir import ToolIR
from toolgen.providers import export
from toolgen.runtime import search

_SURROGATE = re.compile("[\ud800-\udfff]")


def _dump(value: Any) -> str:
    return json.dumps(value, ensure_ascii=False, separators=(",", ":"))


def index_entries(tools: Sequence[ToolIR]) -> list[dict[str, Any]]:
    """One entry per tool, by name: its fields' terms, its MCP description and input schema."""
    shown = [replace(t, defer=False) if t.defer else t for t in tools]  # every tool's definition
    definitions = {d["name"]: d for d in export("mcp", shown).definitions}
    out = []
    for tool in sorted(tools, key=lambda t: t.name):
        definition = definitions.get(tool.name, {})
        terms = search.fields(tool.name, tool.description, tool.namespace, tool.category,
                              tool.parameters, tool.examples)
        out.append({"name": tool.name, "fields": list(terms),
                    "description": definition.get("description", tool.description),
                    "inputSchema": definition.get("inputSchema", {"type": "object"})})
    return out


def index_text(tools: Sequence[ToolIR]) -> str:
    """The index file: a head, then one tool a line. Lone surrogates stay `\\uXXXX` escapes."""
    head = {"_comment": HEADER, "format": search.FORMAT, "analyzer": search.ANALYZER, "fields": list(search.FIELDS)}
    entries = index_entries(tools)
    lines = ["{" + _dump(head)[1:-1] + ',"tools":[']
    lines += [_dump(e) + ("," if i < len(entries) - 1 else "") for i, e in enumerate(entries)]
    lines.append("]}")
    return _SURROGATE.sub(lambda m: f"\\u{ord(m.group()):04x}", "\n".join(lines) + "\n")
