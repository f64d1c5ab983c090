"""MCP `tools/list` entries: the spec's own schemas (MCP takes full JSON Schema 2020-12).

A root `$schema` the spec wrote is kept (MCP reads it as the schema's dialect); other
providers never see it.

The canonical name (dots are legal in MCP), `title`, `annotations` as MCP hints, and
`outputSchema` from `returns` when its root is an object (what 2025-11-25 peers take;
other results travel as text content only).
"""

from __future__ import annotations

from typing import Any

from toolgen.providers import patterns
from toolgen.providers.base import Export, ToolLike, Tools
from toolgen.providers.patterns import readable_public
from toolgen.runtime import kinds

HINTS = {
    "read_only": "readOnlyHint",
    "destructive": "destructiveHint",
    "idempotent": "idempotentHint",
    "open_world": "openWorldHint",
}


def output_schema(tool: ToolLike) -> dict[str, Any] | None:
    """The `outputSchema` a tool has in MCP, or None."""
    returns = tool.returns
    if isinstance(returns, dict) and returns.get("type") == "object":
        return _dialect(returns, readable_public(returns))
    return None


def _dialect(written: dict[str, Any], schema: dict[str, Any]) -> dict[str, Any]:
    """`schema` with the root `$schema` of the schema as written, first, if it had one."""
    if "$schema" not in written:
        return schema
    return {"$schema": written["$schema"], **schema}


def input_schema(parameters: dict[str, Any]) -> dict[str, Any]:
    """The parameters as they are, `type: object` said at the root (MCP requires it there, also
    beside root combinators, which MCP keeps: it takes JSON Schema 2020-12 whole)."""
    schema: dict[str, Any] = readable_public(parameters)
    if schema.get("type") != "object":
        schema = {"type": "object", **{k: v for k, v in schema.items() if k != "type"}}
    return _dialect(parameters, schema)


def tool(tool: ToolLike) -> dict[str, Any]:
    out: dict[str, Any] = {"name": tool.name}
    if tool.title:
        out["title"] = tool.title
    if tool.description:
        out["description"] = tool.description
    out["inputSchema"] = input_schema(tool.parameters)
    schema = output_schema(tool)
    if schema is not None:
        out["outputSchema"] = schema
    if tool.annotations:
        out["annotations"] = {HINTS[k]: v for k, v in tool.annotations}
    task = getattr(tool, "task", None)  # the IR's and lint's views have it, importers' not
    if task is not None:
        out["execution"] = {"taskSupport": task}
    return out


def tools(tools: Tools) -> Export:
    out = Export(definitions=[tool(t) for t in tools])
    for each in tools:
        patterns.notes(each, kinds.MCP, out.notes, returns=output_schema(each) is not None)
    return out
