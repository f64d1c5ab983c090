"""search-reserved: where tools are deferred, no tool takes the names of the search pair.

Providers without native tool search are shown `search_tools` and `call_tool` in place of
the deferred tools (providers/catalog.py); a tool of the spec set with either name would be
shadowed by them, or shadow them.
"""

from __future__ import annotations

from collections.abc import Iterator

from toolgen.check.context import Context
from toolgen.diagnostics import Diagnostic, Severity
from toolgen.naming import provider_name
from toolgen.runtime.search.definitions import CALL_TOOL, SEARCH_TOOLS

ID = "search-reserved"
SUMMARY = (
    "Where any tool is deferred (`defer: true`), no tool is named `search_tools` or `call_tool`: providers "
    "without native tool search are shown that pair instead of the deferred tools."
)
SEVERITY = Severity.ERROR
RESERVED = frozenset({SEARCH_TOOLS["name"], CALL_TOOL["name"]})


def check(context: Context) -> Iterator[Diagnostic]:
    deferred = next((t for t in context.tools if t.spec.defer), None)
    if deferred is None:
        return
    for tool in context.tools:
        taken = {tool.name, provider_name(tool.name)} & RESERVED
        if taken:
            yield tool.doc.diagnostic(
                tool.at("/name"),
                ID,
                f"{tool.name!r} takes the name of the search pair's {sorted(taken)[0]!r}, "
                f"and {deferred.name!r} is deferred",
                hint="rename the tool, or defer no tool",
            )
