"""BFCL function docs, and records of the shared corpus (its JSON Lines files).

Accepted: a function doc (`{name, description, parameters}`, types such as `dict` and
`float`, the `optional` key, `response` for results), a BFCL question line (its `function`
list), or a corpus record (which also carries `inputSchema` for MCP sources).
"""

from __future__ import annotations

from typing import Any

from toolgen.importers.common import UnsupportedSchema, show


def unwrap(item: Any) -> list[Any]:
    if isinstance(item, dict) and "name" not in item and isinstance(item.get("function"), list):
        return list(item["function"])
    return [item]


def record(item: Any) -> tuple[dict[str, Any], list[str]]:
    if not isinstance(item, dict):
        raise UnsupportedSchema("/", f"a BFCL function doc must be an object, not {show(item)}")
    return dict(item), []
