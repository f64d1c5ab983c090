"""Provider tool definitions: pure functions from the IR to each provider's JSON."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from ..ir import ToolIR
from . import mcp, openai

EXPORTERS: dict[str, Callable[[ToolIR], dict[str, Any]]] = {
    "openai": openai.chat_tool,
    "mcp": mcp.tool,
}
PROVIDERS: tuple[str, ...] = tuple(EXPORTERS)


def definitions(provider: str, tools: Sequence[ToolIR]) -> list[dict[str, Any]]:
    export = EXPORTERS[provider]
    return [export(tool) for tool in tools]
