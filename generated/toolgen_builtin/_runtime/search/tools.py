# Part of toolgen's runtime, copied verbatim into generated packages (edit toolgen, not a copy).
"""Tool search as tools: `search_tools` and `call_tool`, which a registry holding a deferred
tool adds (`pair`, Registry._set_tools).

A tool whose spec says `defer: true` is not shown to the model up front; where a provider
cannot search itself (Chat Completions, Gemini, Bedrock Converse, MCP), the model is shown
`search_tools` and `call_tool` instead (definitions.py), which this module answers:

- `search_tools(query, limit=5)`: the tools that match, best first, each with its name,
  description and the JSON Schema of its arguments (its MCP `inputSchema`: the spec's own
  schema, whole, the same whatever provider the model came through). An empty list means no
  tool does that: a query none of whose words hits a tool's name or description, or one that
  matches too little of itself, gets nothing rather than the least bad tool (index.py).
- `call_tool(name, arguments)`: that tool, called through the registry (its validation,
  policies and messages; an unknown name gets the registry's message with suggestions).

The pair covers every one of the registry's tools (deferred or not), and the registry
prepares a call of `call_tool` as the call of the tool it names.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import replace
from typing import Annotated, Any

from pydantic import Field, RootModel

from .. import identity, kinds
from ..errors import ToolArgumentsError, ToolError
from ..models import ArgumentsModel, ResultModel
from ..results.result import Output, ToolInfo
from ..types import Integer
from ..validation.validate import validate
from .definitions import CALL_TOOL, SEARCH_TOOLS
from .index import SearchIndex, entry_of

__all__ = ["CallTool", "SearchTools", "pair"]


class SearchToolsArguments(ArgumentsModel):
    """Arguments of search_tools (SEARCH_TOOLS["parameters"])."""

    query: str = Field(min_length=1, max_length=500)
    limit: Annotated[int, Integer(ge=1, le=20)] = 5


class FoundTool(ResultModel):
    name: str
    description: str
    parameters: dict[str, Any]


class SearchToolsResult(ResultModel):
    tools: list[FoundTool]


class CallToolArguments(ArgumentsModel):
    """Arguments of call_tool (CALL_TOOL["parameters"])."""

    name: str = Field(min_length=1)
    arguments: dict[str, Any]


class CallToolResult(RootModel[Any]):
    """Whatever the called tool returns."""


NOTHING = (
    "No tool matches this query. Search again with other words for what the tool should do, "
    "or go on without one."
)
_ALL_CONTENT = frozenset(kinds.CONTENT)
# What a call fails with besides the kinds its tool declares (results.py's ToolFailure).
_RUNTIME_KINDS = frozenset(
    {
        "unknown_tool",
        "invalid_arguments",
        "timeout",
        "rate_limited",
        "rejected",
        "refused",
        "withheld",
        "suspended",
        "invalid_result",
        "internal",
        "cancelled",
    }
)

SEARCH_INFO = ToolInfo(
    name=SEARCH_TOOLS["name"],
    description=SEARCH_TOOLS["description"],
    arguments=SearchToolsArguments,
    result=SearchToolsResult,
    provider_name=SEARCH_TOOLS["name"],
    flags=frozenset({"idempotent"}),
)
CALL_INFO = ToolInfo(
    name=CALL_TOOL["name"],
    description=CALL_TOOL["description"],
    arguments=CallToolArguments,
    result=CallToolResult,
    provider_name=CALL_TOOL["name"],
    content=_ALL_CONTENT,
)


class SearchTools:
    """`search_tools`: the index's best matches, each with what it takes to call it. The
    index covers the registry's tools (not the pair), made when the first search comes."""

    toolgen_search_pair = True  # made anew by every registry with deferred tools

    def __init__(self, infos: Iterable[ToolInfo]) -> None:
        self.info = SEARCH_INFO
        self._infos = tuple(infos)
        self._index: SearchIndex | None = None
        # The tools an authenticated caller needs scopes to find (spec `auth: {scopes}`).
        self._scopes: dict[str, frozenset[str]] = {
            i.name: i.scopes for i in self._infos if getattr(i, "scopes", None)
        }

    @property
    def index(self) -> SearchIndex:
        if self._index is None:
            self._index = SearchIndex(entry_of(info) for info in self._infos)
        return self._index

    def run(self, arguments: SearchToolsArguments) -> Output[SearchToolsResult]:
        index = self.index
        found = []
        caller = identity.caller()  # a served call's: it finds only the tools it may call
        if caller is None or not self._scopes:
            hits = index.search(arguments.query, arguments.limit)
        else:
            hits = index.search(arguments.query, len(self._infos))
            allowed = [h for h in hits if not caller.missing(self._scopes.get(h.name, ()))]
            hits = allowed[: arguments.limit]
        for hit in hits:
            entry = index.by_name[hit.name]
            found.append(
                FoundTool(name=entry.name, description=entry.description, parameters=entry.schema)
            )
        return Output(SearchToolsResult(tools=found), metadata=None if found else NOTHING)


class CallTool:
    """`call_tool`: a call of another tool of the registry. The registry prepares the call it
    names in its place (`forward`), so its validation, policies, hooks, messages, result and
    suspension are that tool's own; `run` only answers what cannot be passed on."""

    toolgen_search_pair = True

    def __init__(self, infos: Iterable[ToolInfo]) -> None:
        infos = tuple(infos)
        self.info = replace(
            CALL_INFO,
            errors=_RUNTIME_KINDS.union(*(i.errors for i in infos)),
            retryable_errors=frozenset({"rate_limited"}).union(
                *(getattr(i, "retryable_errors", frozenset()) for i in infos)
            ),
        )

    def forward(self, arguments: Any) -> tuple[str, dict[str, Any]] | None:
        """(tool, arguments) of a valid call of call_tool; None for one it answers itself
        (invalid arguments, or a call of call_tool)."""
        try:
            valid = validate(CallToolArguments, CALL_TOOL["name"], arguments)
        except ToolArgumentsError:
            return None
        if valid.name == CALL_TOOL["name"]:
            return None
        return valid.name, valid.arguments

    def run(self, arguments: CallToolArguments) -> Output[Any]:
        raise ToolError(
            "invalid_arguments", "call_tool does not call itself: call the tool directly"
        )


def pair(infos: Iterable[ToolInfo]) -> tuple[SearchTools, CallTool]:
    """The pair over these tools: what a registry holding a deferred tool adds (registry.py)."""
    infos = tuple(infos)
    return SearchTools(infos), CallTool(infos)
