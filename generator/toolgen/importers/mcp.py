"""MCP `tools/list` items: `{name, title?, description?, inputSchema, outputSchema?, annotations?}`.

Accepted containers: a list of tools, a `tools/list` result (`{"tools": [...]}`) or the
whole JSON-RPC response (`{"result": {"tools": [...]}}`). normalize.py maps every MCP
field: `icons`, `_meta` and `execution` have no place in a spec and are noted as dropped.
"""

from __future__ import annotations

from typing import Any

from toolgen.importers.common import UnsupportedSchema, show


def unwrap(item: Any) -> list[Any]:
    if isinstance(item, dict) and "name" not in item:
        if isinstance(item.get("result"), dict):
            return unwrap(item["result"])
        if isinstance(item.get("tools"), list):
            return list(item["tools"])
    return [item]


def record(item: Any) -> tuple[dict[str, Any], list[str]]:
    if not isinstance(item, dict):
        raise UnsupportedSchema("/", f"an MCP tool must be an object, not {show(item)}")
    if "inputSchema" not in item:
        raise UnsupportedSchema(
            "/inputSchema", "an MCP tool needs an inputSchema (MCP requires it)"
        )
    return dict(item), []
