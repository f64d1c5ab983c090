"""Anthropic Messages `tools[]`, and the same schemas in Bedrock Converse's `toolSpec`.

Strict tool use has per-request budgets (20 strict tools, 24 optional parameters, 16
unions): tools take strict mode in name order while the budget lasts; the rest, and
tools strict mode cannot express (maps, recursion, any-typed values), go non-strict
with a lint note.
"""

from __future__ import annotations

from typing import Any

from toolgen.providers import catalog, dropped, patterns, root
from toolgen.providers.base import FALLBACK, Export, Inexpressible, Note, ToolLike, Tools
from toolgen.providers.portable import inline_refs, portable
from toolgen.providers.schema import defs_free
from toolgen.providers.strict import anthropic_budget, anthropic_strict
from toolgen.runtime import kinds

MAX_STRICT_TOOLS, MAX_OPTIONAL, MAX_UNIONS = 20, 24, 16


class Budget:
    """What is left of one request's strict budget."""

    def __init__(self) -> None:
        self.tools, self.optional, self.unions = MAX_STRICT_TOOLS, MAX_OPTIONAL, MAX_UNIONS

    def spend(self, schema: dict[str, Any]) -> tuple[str, bool]:
        """('', False) when the schema fits (and is spent), else the limit it would break and
        whether it is the request's (shared by the tools before it) rather than its own."""
        optional, unions = anthropic_budget(schema)
        if optional > MAX_OPTIONAL:  # too much for any request, alone
            return (
                f"{optional} optional parameters (strict tool use allows {MAX_OPTIONAL} per request)",
                False,
            )
        if unions > MAX_UNIONS:
            return (
                f"{unions} union-typed parameters (strict tool use allows {MAX_UNIONS} per request)",
                False,
            )
        if self.tools < 1:
            return f"more than {MAX_STRICT_TOOLS} strict tools in one request", True
        if optional > self.optional:
            return (
                f"more than {MAX_OPTIONAL} optional parameters across the strict tools of one request",
                True,
            )
        if unions > self.unions:
            return (
                f"more than {MAX_UNIONS} union-typed parameters across the strict tools of one request",
                True,
            )
        self.tools, self.optional, self.unions = (
            self.tools - 1,
            self.optional - optional,
            self.unions - unions,
        )
        return "", False


def strict_schema(
    tool: ToolLike, budget: Budget, target: str, notes: list[Note]
) -> dict[str, Any] | None:
    """The tool's strict input schema, or None (with a note) when it cannot be or does not fit."""
    try:
        schema = anthropic_strict(tool.parameters)
    except Inexpressible as exc:
        notes.append(
            Note(
                tool.name,
                target,
                FALLBACK,
                f"cannot express {exc.reason}; the tool is sent non-strict",
                exc.path,
            )
        )
        return None
    over, shared = budget.spend(schema)
    if shared:
        notes.append(Note(tool.name, target, FALLBACK, over, shared=True))
        return None
    if over:
        notes.append(Note(tool.name, target, FALLBACK, f"{over}; the tool is sent non-strict"))
        return None
    return schema


def dropped_notes(
    tool: ToolLike, target: str, strict: bool, emitted: dict[str, Any], notes: list[Note]
) -> None:
    """The keywords the variant drops: under strict, what strict mode drops, whether or not this
    request's budget left the tool strict (so lint, which exports every tool in one request,
    and a request of one tool say the same)."""
    if strict:
        try:
            dropped.notes(tool, f"{target} strict", anthropic_strict(tool.parameters), notes)
            return
        except Inexpressible:
            pass
    dropped.notes(tool, target, emitted, notes)


def messages(tools: Tools, *, strict: bool = False) -> Export:
    """`ToolParam`s: name, description, input_schema, `strict: true` where it holds, the spec's
    examples of a valid call as `input_examples`, and tool search for deferred tools (catalog.py)."""
    out = Export()
    budget = Budget()
    for tool in tools:
        root.notes(tool, kinds.ANTHROPIC, out.notes)
        patterns.notes(tool, kinds.ANTHROPIC, out.notes)
        schema = strict_schema(tool, budget, "anthropic strict", out.notes) if strict else None
        definition: dict[str, Any] = {"name": tool.provider_name}
        if tool.description:
            definition["description"] = tool.description
        definition["input_schema"] = schema if schema is not None else portable(tool.parameters)
        dropped_notes(tool, kinds.ANTHROPIC, strict, definition["input_schema"], out.notes)
        if schema is not None:
            definition["strict"] = True
        examples = getattr(tool, "call_examples", ())
        if examples:  # the first-party API only: Bedrock and other proxies refuse the field
            definition["input_examples"] = [dict(e) for e in examples]
        if catalog.deferred(tool):
            definition["defer_loading"] = True
        out.definitions.append(definition)
    out.definitions += catalog.anthropic_search(tools)
    return out


def bedrock(tools: Tools, *, strict: bool = False) -> Export:
    """Converse `toolConfig.tools[]` entries: `{"toolSpec": {...}}`, references inlined.

    Bedrock hands the schema to the model's vendor; the Anthropic rules are the common
    ground (Claude), and `$ref` is inlined (not every vendor resolves it) except where
    a definition is recursive. `strict` follows Anthropic's strict rules.
    """
    out = Export()
    budget = Budget()
    for tool in tools:
        root.notes(tool, kinds.BEDROCK, out.notes)
        patterns.notes(tool, kinds.BEDROCK, out.notes)
        schema = strict_schema(tool, budget, "bedrock strict", out.notes) if strict else None
        spec: dict[str, Any] = {"name": tool.provider_name}
        if tool.description:
            spec["description"] = tool.description  # Bedrock: min length 1, so never ""
        body = schema if schema is not None else portable(tool.parameters)
        # No definitions in the portable form, none in its strict form: nothing to inline.
        plain = defs_free(portable(tool.parameters))
        spec["inputSchema"] = {"json": body if plain else inline_refs(body, keep_recursive=True)}
        dropped_notes(tool, kinds.BEDROCK, strict, body, out.notes)
        if schema is not None:
            spec["strict"] = True
        out.definitions.append({"toolSpec": spec})
    return out
