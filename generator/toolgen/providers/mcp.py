"""MCP `tools/list` entries: the spec's own schemas (MCP takes full JSON Schema 2020-12).

The canonical name (dots are legal in MCP), `title`, `annotations` as MCP hints, and
`outputSchema` from `returns` when its root is an object (what 2025-11-25 peers take;
other results travel as text content only).
"""

from __future__ import annotations

from typing import Any

from toolgen.providers.base import Export, ToolLike, Tools
from toolgen.providers.schema import public

HINTS = {"read_only": "readOnlyHint", "destructive": "destructiveHint", "idempotent": "idempotentHint",
         "open_world": "openWorldHint"}


def output_schema(tool: ToolLike) -> dict[str, Any] | None:
    """The `outputSchema` a tool has in MCP, or None."""
    returns = tool.returns
    if isinstance(returns, dict) and returns.get("type") == "object":
        schema: dict[str, Any] = public(returns)
        return schema
    return None


def tool(tool: ToolLike) -> dict[str, Any]:
    out: dict[str, Any] = {"name": tool.name}
    if tool.title:
        out["title"] = tool.title
    if tool.description:
        out["description"] = tool.description
    out["inputSchema"] = public(tool.parameters)
    schema = output_schema(tool)
    if schema is not None:
        out["outputSchema"] = schema
    if tool.annotations:
        out["annotations"] = {HINTS[k]: v for k, v in tool.annotations}
    return out


def tools(tools: Tools) -> Export:
    return Export(definitions=[tool(t) for t in tools])
