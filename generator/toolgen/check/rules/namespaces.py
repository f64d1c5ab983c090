"""namespace-size: a namespace that tool search searches holds fewer than 10 tools.

A tool's namespace is its `namespace`, else its category. Where a namespace holds a
deferred tool (`defer: true`), OpenAI's Responses API is sent the namespace as one entry
whose description stands for all its tools (providers/catalog.py), and its tool-search guide
advises fewer than 10 functions per namespace for the model to search well and load little.
A namespace without a deferred tool reaches no model as a namespace, whatever its size; a
namespace of one tool beside others is fine.
"""

from __future__ import annotations

from collections.abc import Iterator

from toolgen.check.context import CheckedTool, Context, warn
from toolgen.diagnostics import Diagnostic, Severity

ID = "namespace-size"
SUMMARY = (
    "A namespace (`namespace`, else `category`) that holds a deferred tool holds fewer than 10 tools, as "
    "OpenAI's tool-search guide advises: the model sees one description for all of them."
)
SEVERITY = Severity.WARNING
MOST = 9  # tools in one searched namespace


def namespace(tool: CheckedTool) -> str | None:
    """Where the tool is searched: `namespace`, else its category (None: in no namespace)."""
    name = getattr(tool.spec, "namespace", None) or tool.spec.category
    return name if isinstance(name, str) and name else None


def check(context: Context) -> Iterator[Diagnostic]:
    members: dict[str, list[CheckedTool]] = {}
    for tool in context.tools:
        name = namespace(tool)
        if name is not None:
            members.setdefault(name, []).append(tool)
    for name, tools in members.items():
        if len(tools) <= MOST or not any(getattr(t.spec, "defer", False) for t in tools):
            continue
        first = tools[0]
        key = "/namespace" if "namespace" in first.source.data else "/category"
        yield warn(
            first.doc,
            first.at(key),
            ID,
            f"namespace {name!r} holds {len(tools)} tools, and tool search shows the model one description "
            f"for them all; OpenAI's tool-search guide advises fewer than {MOST + 1}",
            hint="split it: give groups of related tools their own `namespace`",
        )
