"""Provider tool definitions: pure functions from the IR to each provider's JSON.

Each target has options (say `strict`); every combination is a variant, and generated
packages carry every variant precomputed. Exporters never emit a definition their
target rejects: where a spec cannot be expressed they take a documented fallback and
say so in a `Note`, which lint turns into a warning (providers/diagnostics.py).
"""

from __future__ import annotations

import itertools
import json
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, fields
from operator import attrgetter
from typing import Any

from toolgen.naming import provider_name
from toolgen.providers import anthropic, catalog, gemini, mcp, openai
from toolgen.providers.base import Export, Note, ToolLike, Tools
from toolgen.providers.memo import memoised_by_identity
from toolgen.runtime import kinds
from toolgen.schema.walk import nodes, rebuild

__all__ = [
    "PROVIDERS",
    "TARGETS",
    "Export",
    "Exports",
    "Note",
    "ToolLike",
    "definitions",
    "export",
    "export_all",
    "notes",
    "notes_of",
    "variants",
]

# Every variant of every provider: provider -> [(options, export)], the default variant first.
Exports = dict[str, list[tuple[dict[str, Any], Export]]]


@dataclass(frozen=True)
class Target:
    export: Callable[..., Export]
    options: tuple[
        tuple[str, tuple[Any, ...]], ...
    ] = ()  # (option, values); the first value is the default

    @property
    def defaults(self) -> dict[str, Any]:
        return {name: values[0] for name, values in self.options}


TARGETS: dict[str, Target] = {
    kinds.OPENAI: Target(openai.chat, (("strict", (False, True)),)),
    kinds.OPENAI_RESPONSES: Target(openai.responses, (("strict", (True, False)),)),
    kinds.ANTHROPIC: Target(anthropic.messages, (("strict", (False, True)),)),
    kinds.GEMINI: Target(gemini.declarations, (("openapi", (False, True)),)),
    kinds.MCP: Target(mcp.tools),
    kinds.BEDROCK: Target(anthropic.bedrock, (("strict", (False, True)),)),
}
PROVIDERS: tuple[str, ...] = tuple(TARGETS)


def variants(provider: str) -> list[dict[str, Any]]:
    """Every combination of a provider's options, the default first."""
    target = TARGETS[provider]
    names = [name for name, _ in target.options]
    return [
        dict(zip(names, combo, strict=False))
        for combo in itertools.product(*(values for _, values in target.options))
    ]


def options_of(provider: str, options: Mapping[str, Any]) -> dict[str, Any]:
    """The options with defaults filled in; ValueError for an unknown option or value."""
    if provider not in TARGETS:
        raise ValueError(f"unknown provider {provider!r}; one of: {', '.join(PROVIDERS)}")
    target = TARGETS[provider]
    allowed = dict(target.options)
    for name, value in options.items():
        if name not in allowed:
            known = ", ".join(allowed) or "none"
            raise ValueError(f"provider {provider!r} has no option {name!r} (options: {known})")
        if value not in allowed[name] or not isinstance(value, type(allowed[name][0])):
            raise ValueError(
                f"option {name!r} of {provider!r} is one of {list(allowed[name])}, not {value!r}"
            )
    return {**target.defaults, **options}


def export(provider: str, tools: Tools, *, examples_budget: int = 0, **options: Any) -> Export:
    """One provider variant's definitions of `tools` as the model is shown them: deferred tools
    as catalog.py says, and (`examples_budget` > 0, for providers with no field for examples)
    the spec's examples of a valid call written into each description, within that many
    characters."""
    settings = options_of(provider, options)
    listed = catalog.shown(provider, tools)
    out = TARGETS[provider].export(
        [_shown(t, provider, examples_budget) for t in listed], **settings
    )
    if listed is not tools:  # the search pair is shown: it is the runtime's, and by design its
        # `arguments` (any object) is sent non-strict; nothing for lint to say about it
        out.notes = [note for note in out.notes if note.tool not in catalog.PAIR_NAMES]
    return out


# -- deprecations, said in descriptions: the one place every provider's text is composed ----------

DEPRECATED = "Deprecated: prefer another tool where one does the job."


def deprecated_text(deprecation: Any, provider: str) -> str:
    """What a deprecated tool's description starts with (no provider has a field for it):
    "Deprecated: <reason>; use <replacement> instead (sunset <date>)." The replacement by the
    name the provider's model calls it (provider-safe, but in MCP)."""
    if deprecation is None:  # `stability: deprecated` alone
        return DEPRECATED
    text = f"Deprecated: {deprecation.reason.strip().rstrip('.')}"
    if deprecation.replacement:
        name = (
            deprecation.replacement
            if provider == kinds.MCP
            else provider_name(deprecation.replacement)
        )
        text += f"; use {name} instead"
    if deprecation.sunset:
        text += f" (sunset {deprecation.sunset})"
    return text + "."


def deprecated_parameter_text(schema: dict[str, Any]) -> str:
    """What a `deprecated: true` schema's description starts with: "Deprecated (sunset <date>)."."""
    sunset = schema.get("x-sunset")
    return f"Deprecated (sunset {sunset})." if isinstance(sunset, str) else "Deprecated."


def _marked_node(node: dict[str, Any]) -> dict[str, Any]:
    if node.get("deprecated") is not True:
        return node
    text = node.get("description")
    prefix = deprecated_parameter_text(node)
    return {**node, "description": f"{prefix} {text}" if isinstance(text, str) and text else prefix}


def _marked(parameters: dict[str, Any]) -> dict[str, Any]:
    """`parameters` with every `deprecated: true` schema's description saying so; the same
    object when none is (so that the exporters' memo of each `parameters` still hits)."""
    if not any(node.get("deprecated") is True for node in nodes(parameters)):
        return parameters
    marked: dict[str, Any] = rebuild(parameters, _marked_node)
    return marked


_marked_once = memoised_by_identity(_marked)


class _Shown:
    """A tool as providers show it: a deprecated tool's description starts by saying so, and
    so does each deprecated parameter's; the rest is the tool's own."""

    def __init__(self, tool: ToolLike, description: str, parameters: dict[str, Any]) -> None:
        self._tool, self.description, self.parameters = tool, description, parameters

    def __getattr__(self, name: str) -> Any:
        return getattr(self._tool, name)


def _shown(tool: ToolLike, provider: str, examples_budget: int = 0) -> ToolLike:
    parameters = _marked_once(tool.parameters)
    deprecated = getattr(tool, "stability", "stable") == "deprecated"
    examples = (
        getattr(tool, "call_examples", ())
        if examples_budget > 0 and provider != kinds.ANTHROPIC
        else ()
    )
    if not deprecated and not examples and parameters is tool.parameters:
        return tool  # most tools
    description = tool.description
    if deprecated:
        prefix = deprecated_text(getattr(tool, "deprecation", None), provider)
        description = f"{prefix} {description}" if description else prefix
    if examples:
        description += examples_text(
            examples, examples_budget, LIMITS.get(provider, None), len(description)
        )
    return _Shown(tool, description, parameters)


# The description limits that examples must fit in (a longer description is cut: base.trim).
LIMITS = {kinds.OPENAI: openai.MAX_DESCRIPTION, kinds.OPENAI_RESPONSES: openai.MAX_DESCRIPTION}


def examples_text(
    examples: Sequence[Mapping[str, Any]], budget: int, limit: int | None, used: int
) -> str:
    """The examples written at the end of a description: as many, in spec order, as fit in
    `budget` characters and the provider's `limit` for the whole text; "" when none fits."""
    room = budget if limit is None else min(budget, limit - used)
    text = ""
    for example in examples:
        line = json.dumps(example, ensure_ascii=False, separators=(", ", ": "))
        more = f"{text or EXAMPLES_HEAD}\n{line}"
        if len(more) > room:
            break
        text = more
    return text


EXAMPLES_HEAD = "\n\nExamples of valid arguments:"


def definitions(provider: str, tools: Tools, **options: Any) -> list[dict[str, Any]]:
    return export(provider, tools, **options).definitions


def export_all(
    tools: Tools, examples_budget: int = 0, providers: Iterable[str] | None = None
) -> Exports:
    """Every variant of every provider (or of `providers`), exported once: lint reads the notes,
    render the definitions."""
    return {
        provider: [
            (option, export(provider, tools, examples_budget=examples_budget, **option))
            for option in variants(provider)
        ]
        for provider in (PROVIDERS if providers is None else providers)
    }


_FIELDS = attrgetter(*(f.name for f in fields(Note)))


def notes_of(exports: Exports) -> list[Note]:
    """Every note of every variant of every provider, once each."""
    return sorted(
        {note for done in exports.values() for _, export in done for note in export.notes},
        key=_FIELDS,  # `Note`'s order, without a call of its comparison method per pair
    )


def notes(tools: Tools) -> list[Note]:
    return notes_of(export_all(tools))
