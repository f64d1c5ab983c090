"""What the model is shown of the catalog as a whole: deferred tools, tool search, namespaces.

A tool with `defer: true` is not shown up front; the model finds it by searching:

- OpenAI Responses searches natively: a deferred tool is sent with `defer_loading: true`,
  inside a `namespace` (the spec's `namespace`, else its category) when it has one, and
  `{"type": "tool_search"}` is added once.
- Anthropic searches natively: `defer_loading: true`, and the BM25 tool-search tool added
  last, so the last tool of the list (where hosts put a cache breakpoint) is never deferred
  and at least one tool is always loaded, as the API requires.
- The others (Chat Completions, Gemini, Bedrock Converse, MCP) cannot: the deferred tools
  are left out and the runtime's `search_tools`/`call_tool` pair is shown instead
  (runtime/search/tools.py answers both, over the package's generated index).

A catalog without deferred tools is shown as it always was.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from toolgen.naming import provider_name
from toolgen.providers.base import ToolLike, Tools
from toolgen.runtime import kinds
from toolgen.runtime.search import definitions as search

NATIVE = frozenset(
    {kinds.OPENAI_RESPONSES, kinds.ANTHROPIC}
)  # the providers that search deferred tools themselves
# Anthropic's server-side BM25 search over the deferred tools (natural-language queries).
ANTHROPIC_SEARCH = {"type": "tool_search_tool_bm25_20251119", "name": "tool_search_tool_bm25"}
OPENAI_SEARCH = {"type": "tool_search"}  # hosted search, run by OpenAI
NAMESPACE_NAMES = 12  # tools a namespace's generated description names, at most


def deferred(tool: ToolLike) -> bool:
    return bool(getattr(tool, "defer", False))


def any_deferred(tools: Tools) -> bool:
    return any(deferred(t) for t in tools)


@dataclass(frozen=True)
class PairTool:
    """`search_tools` or `call_tool` as the exporters see a tool (providers.base.ToolLike)."""

    name: str
    description: str
    parameters: dict[str, Any]
    title: str | None = None
    returns: dict[str, Any] | None = None
    annotations: tuple[tuple[str, bool], ...] = ()

    @property
    def provider_name(self) -> str:
        return self.name


PAIR = tuple(
    PairTool(d["name"], d["description"], d["parameters"])
    for d in (search.SEARCH_TOOLS, search.CALL_TOOL)
)
PAIR_NAMES = frozenset(t.name for t in PAIR)


def shown(provider: str, tools: Tools) -> Sequence[ToolLike]:
    """The tools a provider without native search is shown: the loaded ones, then the pair."""
    if provider in NATIVE or not any_deferred(tools):
        return tools
    return [*(t for t in tools if not deferred(t)), *PAIR]


def anthropic_search(tools: Tools) -> list[dict[str, Any]]:
    """The tool-search tool to append to Anthropic's definitions (none when nothing is deferred)."""
    return [dict(ANTHROPIC_SEARCH)] if any_deferred(tools) else []


def responses(tools: Tools, definitions: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Responses definitions (one per tool, in order) with deferral said: every namespace that
    holds a deferred tool becomes one `namespace` entry, where its first tool was, and
    `tool_search` comes last. Unchanged when nothing is deferred."""
    if not any_deferred(tools):
        return definitions
    searched = {name for t in tools if deferred(t) and (name := _namespace(t)) is not None}
    members: dict[str, list[dict[str, Any]]] = {}  # namespace -> its tools' definitions, in order
    out: list[dict[str, Any]] = []
    for tool, definition in zip(tools, definitions, strict=False):
        function = {**definition, "defer_loading": True} if deferred(tool) else definition
        name = _namespace(tool)
        if name is None or name not in searched:
            out.append(function)
            continue
        if name not in members:  # the namespace takes its first tool's place
            members[name] = []
            out.append(
                {"type": "namespace", "name": name, "description": "", "tools": members[name]}
            )
        members[name].append(function)
    for entry in out:
        if entry.get("type") == "namespace":
            entry["description"] = namespace_description(
                entry["name"], [d["name"] for d in entry["tools"]]
            )
    return [*out, dict(OPENAI_SEARCH)]


def _namespace(tool: ToolLike) -> str | None:
    """The namespace a tool is sent in: provider-safe (a category may hold dots or spaces)."""
    name = getattr(tool, "namespace", None)
    return provider_name(name) if isinstance(name, str) and name else None


def namespace_description(name: str, tools: Sequence[str]) -> str:
    """What a namespace says to the model deciding where to search: its name and its tools."""
    listed = ", ".join(tools[:NAMESPACE_NAMES])
    more = f" and {len(tools) - NAMESPACE_NAMES} more" if len(tools) > NAMESPACE_NAMES else ""
    return f"The {name} tools: {listed}{more}."
