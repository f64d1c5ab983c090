"""OpenAI Chat Completions `tools[]` entries (non-strict)."""

from __future__ import annotations

from typing import Any

from ..ir import ToolIR
from .schema import public

MAX_DESCRIPTION = 1024  # Chat Completions rejects longer tool descriptions


def chat_tool(tool: ToolIR) -> dict[str, Any]:
    return {
        "type": "function",
        "function": {
            "name": tool.provider_name,
            "description": tool.description[:MAX_DESCRIPTION],
            "parameters": public(tool.parameters),
        },
    }
