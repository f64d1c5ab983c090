# Part of toolgen's runtime, copied verbatim into generated packages (edit toolgen, not a copy).
"""The `search_tools`/`call_tool` pair as every provider is shown it: `SEARCH_TOOLS` and
`CALL_TOOL` (name, description, parameters), the one definition the exporters, the lint
rule on reserved names and the registry read. Plain data: importing it loads nothing."""

from __future__ import annotations

from typing import Any

__all__ = ["CALL_TOOL", "PAIR", "SEARCH_TOOLS"]

SEARCH_TOOLS: dict[str, Any] = {
    "name": "search_tools",
    "description": (
        "Find tools that are available but not listed. Describe in a few words what you want "
        "to do (e.g. 'resize an image', 'list open pull requests'). Returns the best matching "
        "tools, each with its name, description and the JSON Schema of its arguments; call one "
        "with call_tool. An empty list means no tool does that."
    ),
    "parameters": {
        "type": "object",
        "properties": {
            "query": {
                "type": "string",
                "minLength": 1,
                "maxLength": 500,
                "description": "What the tool should do, in a few words.",
            },
            "limit": {
                "type": "integer",
                "minimum": 1,
                "maximum": 20,
                "default": 5,
                "description": "At most this many tools are returned.",
            },
        },
        "required": ["query"],
        "additionalProperties": False,
    },
}
CALL_TOOL: dict[str, Any] = {
    "name": "call_tool",
    "description": (
        "Call a tool that search_tools found: its name, and its arguments as the JSON Schema "
        "search_tools gave for it describes them. Returns what that tool returns; a call it "
        "cannot take returns what to fix."
    ),
    "parameters": {
        "type": "object",
        "properties": {
            "name": {
                "type": "string",
                "minLength": 1,
                "description": "The tool's name, as search_tools gave it.",
            },
            "arguments": {
                "type": "object",
                "description": "The tool's arguments ({} when it takes none).",
            },
        },
        "required": ["name", "arguments"],
        "additionalProperties": False,
    },
}
PAIR = (SEARCH_TOOLS["name"], CALL_TOOL["name"])
