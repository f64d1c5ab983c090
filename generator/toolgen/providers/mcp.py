"""MCP `tools/list` entries."""

from __future__ import annotations

from typing import Any

from ..ir import ToolIR
from .schema import public

HINTS = {"read_only": "readOnlyHint", "destructive": "destructiveHint", "idempotent": "idempotentHint",
         "open_world": "openWorldHint"}


def tool(tool: ToolIR) -> dict[str, Any]:
    out: dict[str, Any] = {"name": tool.name}
    if tool.title:
        out["title"] = tool.title
    out["description"] = tool.description
    out["inputSchema"] = public(tool.parameters)
    if isinstance(tool.returns, dict) and tool.returns.get("type") == "object":
        out["outputSchema"] = public(tool.returns)
    if tool.annotations:
        out["annotations"] = {HINTS[k]: v for k, v in tool.annotations}
    return out
