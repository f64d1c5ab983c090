"""Provider tool definitions: pure functions from the IR to each provider's JSON.

Each target has options (say `strict`); every combination is a variant, and generated
packages carry every variant precomputed. Exporters never emit a definition their
target rejects: where a spec cannot be expressed they take a documented fallback and
say so in a `Note`, which lint turns into a warning (providers/diagnostics.py).
"""

from __future__ import annotations

import itertools
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

from toolgen.providers import anthropic, gemini, mcp, openai
from toolgen.providers.base import Export, Note, ToolLike, Tools

__all__ = ["PROVIDERS", "TARGETS", "Export", "Exports", "Note", "ToolLike", "definitions", "export", "export_all",
           "notes", "notes_of", "variants"]

# Every variant of every provider: provider -> [(options, export)], the default variant first.
Exports = dict[str, list[tuple[dict[str, Any], Export]]]


@dataclass(frozen=True)
class Target:
    export: Callable[..., Export]
    options: tuple[tuple[str, tuple[Any, ...]], ...] = ()  # (option, values); the first value is the default

    @property
    def defaults(self) -> dict[str, Any]:
        return {name: values[0] for name, values in self.options}


TARGETS: dict[str, Target] = {
    "openai": Target(openai.chat, (("strict", (False, True)),)),
    "openai-responses": Target(openai.responses, (("strict", (True, False)),)),
    "anthropic": Target(anthropic.messages, (("strict", (False, True)),)),
    "gemini": Target(gemini.declarations, (("openapi", (False, True)),)),
    "mcp": Target(mcp.tools),
    "bedrock": Target(anthropic.bedrock, (("strict", (False, True)),)),
}
PROVIDERS: tuple[str, ...] = tuple(TARGETS)


def variants(provider: str) -> list[dict[str, Any]]:
    """Every combination of a provider's options, the default first."""
    target = TARGETS[provider]
    names = [name for name, _ in target.options]
    return [dict(zip(names, combo)) for combo in itertools.product(*(values for _, values in target.options))]


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
            raise ValueError(f"option {name!r} of {provider!r} is one of {list(allowed[name])}, not {value!r}")
    return {**target.defaults, **options}


def export(provider: str, tools: Tools, **options: Any) -> Export:
    return TARGETS[provider].export([_shown(t) for t in tools], **options_of(provider, options))


DEPRECATED = "Deprecated: prefer another tool where one does the job."


class _Deprecated:
    """A tool of `stability: deprecated` as providers show it: marked at the start of its
    description (no provider has a field for it), so that a model prefers the alternatives."""

    def __init__(self, tool: ToolLike) -> None:
        self._tool = tool

    def __getattr__(self, name: str) -> Any:
        return getattr(self._tool, name)

    @property
    def description(self) -> str:
        text = self._tool.description
        return f"{DEPRECATED} {text}" if text else DEPRECATED


def _shown(tool: ToolLike) -> ToolLike:
    return _Deprecated(tool) if getattr(tool, "stability", "stable") == "deprecated" else tool


def definitions(provider: str, tools: Tools, **options: Any) -> list[dict[str, Any]]:
    return export(provider, tools, **options).definitions


def export_all(tools: Tools) -> Exports:
    """Every variant of every provider, exported once: lint reads the notes, render the definitions."""
    return {provider: [(option, export(provider, tools, **option)) for option in variants(provider)]
            for provider in PROVIDERS}


def notes_of(exports: Exports) -> list[Note]:
    """Every note of every variant of every provider, once each."""
    return sorted({note for done in exports.values() for _, export in done for note in export.notes})


def notes(tools: Tools) -> list[Note]:
    return notes_of(export_all(tools))
