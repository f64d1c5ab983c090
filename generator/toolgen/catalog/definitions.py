"""Each provider's definition of each tool, exactly as the exporters make it for every option
variant, with the notes of the fallbacks taken and the estimated tokens (providers/tokens.py);
and the whole catalog's cost per provider, deferred tools apart."""

from __future__ import annotations

import json
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Any

from pydantic_core import to_json

from toolgen.ir import ToolIR
from toolgen.providers import export, variants
from toolgen.providers.base import REFUSED
from toolgen.providers.tokens import Catalog, catalog, definition_tokens
from toolgen.runtime import kinds

UP_FRONT = "sent up front"
DEFERRED = "deferred: loaded by the provider's own tool search"
SEARCHED = "deferred: found through search_tools and called through call_tool"
REFUSED_TEXT = "refused: this variant has no definition of the tool"


@dataclass(frozen=True)
class View:
    """One tool in one provider variant."""

    provider: str
    variant: str  # the options, as people say them: "strict: true"; "" for none
    default: bool  # the provider's default variant
    status: str  # UP_FRONT, DEFERRED, SEARCHED or REFUSED_TEXT
    definition: str  # the JSON, indented; "" when refused
    tokens: int | None
    notes: tuple[str, ...]


@dataclass(frozen=True)
class Cost:
    """A provider's default variant, the whole catalog: what every request sends up front, and
    what the deferred tools cost when loaded."""

    provider: str
    variant: str
    up_front: int  # tokens of every entry sent up front (search tools included)
    loaded: int  # tools sent up front
    deferred: int  # tokens of the deferred tools' definitions
    deferred_count: int


def variant_label(options: Mapping[str, Any]) -> str:
    return ", ".join(f"{k}: {json.dumps(v)}" for k, v in options.items())


def _named(definitions: Sequence[Any]) -> Iterator[tuple[str, Any]]:
    """(written name, definition) of every definition, namespace members included."""
    for entry in definitions:
        members = entry.get("tools") if isinstance(entry, Mapping) else None
        if (
            isinstance(entry, Mapping)
            and entry.get("type") == "namespace"
            and isinstance(members, list)
        ):
            yield from _named(members)
            continue
        name = kinds.definition_name(entry)
        if name is not None:
            yield name, entry


def _variant(
    provider: str, options: dict[str, Any], tools: Sequence[ToolIR], examples_budget: int
) -> tuple[list[View], Catalog]:
    """One variant: a view per tool (in the order of `tools`) and its estimate. A tool the
    export leaves out and does not refuse is reached through `search_tools`: its definition
    (and the notes about it) are those of an export of it with `defer` off."""
    done = export(provider, tools, examples_budget=examples_budget, **options)
    estimate = catalog(provider, options, done.definitions, [t.name for t in tools])
    by_written = {w: t.name for t in tools for w in (t.provider_name, t.name)}
    found = {by_written[w]: d for w, d in _named(done.definitions) if w in by_written}
    refused = {n.tool for n in done.notes if n.kind == REFUSED}
    hidden = [replace(t, defer=False) for t in tools if t.name not in found.keys() | refused]
    notes = list(done.notes)
    if hidden:
        again = export(provider, hidden, examples_budget=examples_budget, **options)
        found.update((by_written[w], d) for w, d in _named(again.definitions) if w in by_written)
        notes += again.notes
    said: dict[str, list[str]] = {}
    for note in notes:
        said.setdefault(note.tool, []).append(note.text())
    label, default = variant_label(options), options == variants(provider)[0]
    searched = {t.name for t in hidden}
    views = []
    for tool in tools:
        definition = found.get(tool.name)
        status = (
            REFUSED_TEXT
            if definition is None
            else SEARCHED
            if tool.name in searched
            else DEFERRED
            if tool.defer
            else UP_FRONT
        )
        tokens = estimate.tools.get(tool.name)
        if tokens is None and definition is not None:
            tokens = definition_tokens(definition)
        # pydantic-core's writer: json.dumps's indented one is pure Python, 4x slower here.
        text = "" if definition is None else to_json(definition, indent=2).decode()
        views.append(
            View(provider, label, default, status, text, tokens, tuple(said.get(tool.name, ())))
        )
    return views, estimate


def provider_views(
    tools: Sequence[ToolIR], providers: Sequence[str], examples_budget: int = 0
) -> tuple[dict[str, list[View]], list[Cost]]:
    """Per tool name, its views (providers in order, each one's default variant first); and
    each provider's cost (its default variant's)."""
    views: dict[str, list[View]] = {t.name: [] for t in tools}
    costs: list[Cost] = []
    for provider in providers:
        for index, options in enumerate(variants(provider)):
            done, estimate = _variant(provider, options, tools, examples_budget)
            for tool, view in zip(tools, done, strict=True):
                views[tool.name].append(view)
            if index == 0:
                deferred = [v.tokens or 0 for t, v in zip(tools, done, strict=True) if t.defer]
                costs.append(
                    Cost(
                        provider,
                        variant_label(options),
                        estimate.total,
                        len(estimate.up_front),
                        sum(deferred),
                        len(deferred),
                    )
                )
    return views, costs
