"""OpenAI function tools: Chat Completions (`tools[].function`) and Responses (flat, `strict` always said).

Strict: every object closed, every property required, optional ones nullable (rule 7).
A tool strict mode cannot express is emitted with `strict: false` and a lint note.
"""

from __future__ import annotations

from typing import Any

from toolgen.providers import catalog, dropped, patterns, root
from toolgen.providers.base import (
    FALLBACK,
    TRIMMED,
    Export,
    Inexpressible,
    Note,
    ToolLike,
    Tools,
    trim,
)
from toolgen.providers.portable import portable
from toolgen.providers.strict import openai_strict
from toolgen.runtime import kinds

MAX_DESCRIPTION = 1024  # Chat Completions rejects longer tool descriptions (400 "string too long")


def function(tool: ToolLike, strict: bool, notes: list[Note]) -> dict[str, Any]:
    """name, description, parameters and strict of one tool (shared by both APIs)."""
    out: dict[str, Any] = {"name": tool.provider_name}
    description, trimmed = trim(tool.description, MAX_DESCRIPTION)
    if trimmed:
        notes.append(
            Note(
                tool.name,
                kinds.OPENAI,
                TRIMMED,
                f"the description ({len(tool.description):,} characters) is cut to {MAX_DESCRIPTION:,}",
            )
        )
    if description:
        out["description"] = description
    root.notes(tool, kinds.OPENAI, notes)
    patterns.notes(tool, kinds.OPENAI, notes)
    if strict:
        try:
            out["parameters"] = openai_strict(tool.parameters)
            out["strict"] = True
            dropped.notes(tool, "openai strict", out["parameters"], notes)
            return out
        except Inexpressible as exc:
            notes.append(
                Note(
                    tool.name,
                    "openai strict",
                    FALLBACK,
                    f"cannot express {exc.reason}; the tool is sent with strict: false",
                    exc.path,
                )
            )
    out["parameters"] = portable(tool.parameters)
    dropped.notes(tool, kinds.OPENAI, out["parameters"], notes)
    if strict:
        out["strict"] = False
    return out


def chat(tools: Tools, *, strict: bool = False) -> Export:
    """`ChatCompletionFunctionToolParam`s; without `strict` the API is non-strict."""
    out = Export()
    for tool in tools:
        out.definitions.append({"type": "function", "function": function(tool, strict, out.notes)})
    return out


def responses(tools: Tools, *, strict: bool = True) -> Export:
    """Responses `FunctionToolParam`s: flat, `strict` explicit (omitted means strict there); deferred
    tools in namespaces with `defer_loading`, and `tool_search` (catalog.py)."""
    out = Export()
    for tool in tools:
        body = function(tool, strict, out.notes)
        body.setdefault("strict", False)
        out.definitions.append({"type": "function", **body})
    out.definitions = catalog.responses(tools, out.definitions)
    return out
