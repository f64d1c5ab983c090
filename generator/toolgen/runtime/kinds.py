# Part of toolgen's runtime, copied verbatim into generated packages (edit toolgen, not a copy).
"""The names of the providers and of the content kinds: the one place each is spelt.

A leaf: it imports nothing of the runtime, so any group of the runtime may read it, and the generator reads
it without the runtime's package (toolgen/leaves.py loads it alone, so `import toolgen.cli`
stays free of pydantic). The exporters, the adapters, the configuration and the CLI all take
their names from here; a test fails on a provider name written as a literal elsewhere.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

# The providers a generated package carries definitions for and answers calls of, in the
# canonical order (definitions/<provider>.json, `Registry.definitions(provider)`).
OPENAI = "openai"  # OpenAI Chat Completions
OPENAI_RESPONSES = "openai-responses"  # OpenAI Responses
ANTHROPIC = "anthropic"  # Anthropic Messages
GEMINI = "gemini"  # Gemini function declarations
MCP = "mcp"  # MCP `tools/list` and `tools/call`
BEDROCK = "bedrock"  # Bedrock Converse
PROVIDERS: tuple[str, ...] = (OPENAI, OPENAI_RESPONSES, ANTHROPIC, GEMINI, MCP, BEDROCK)
# A tool name every provider accepts (a regular expression, matched whole): what a spec's name
# becomes for the providers (naming.provider_name) and what a per-host name must be.
TOOL_NAME = r"[A-Za-z_][A-Za-z0-9_-]{0,63}"

# The kinds of content block a tool may return beside its result (a spec's `content`).
TEXT = "text"
IMAGE = "image"
AUDIO = "audio"
DOCUMENT = "document"
RESOURCE_LINK = "resource_link"
CONTENT: tuple[str, ...] = (TEXT, IMAGE, AUDIO, DOCUMENT, RESOURCE_LINK)
# The kinds that carry bytes (base64 on the wire): what a provider may not take in a tool
# result, and what is bounded in size.
MEDIA: tuple[str, ...] = (IMAGE, DOCUMENT, AUDIO)

# Where a provider's definition nests the tool's name (OpenAI Chat under `function`, Bedrock
# under `toolSpec`; the others have it at the top).
HOLDERS = ("function", "toolSpec")


def definition_name(definition: Any) -> str | None:
    """The tool name of one provider definition; None where it has none."""
    if not isinstance(definition, Mapping):
        return None
    for holder in HOLDERS:
        if isinstance(definition.get(holder), Mapping):
            definition = definition[holder]
            break
    name = definition.get("name")
    return name if isinstance(name, str) else None
