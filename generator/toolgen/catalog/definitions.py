"""Each provider's definition of each tool, exactly as the exporters make it for every option
variant, with the notes of the fallbacks taken and the estimated tokens (providers/tokens.py);
and the whole catalog's cost per provider, deferred tools apart."""

from __future__ import annotations

import json
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Any

from toolgen.ir import ToolIR
from toolgen.providers import export, variants
from toolgen.providers.base import REFUSED
from toolgen.providers.tokens import catalog
from toolgen.runtime.calls.registry import definition_name

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
        name = definition_name(entry)
        if name is not None:
            yield name, entry


def provider_views(
    tools: Sequence[ToolIR], providers: Sequence[str], examples_budget: int = 0
) -> tuple[dict[str, list[View]], list[Cost]]:
    """Per tool name, its views (providers in order, each one's default variant first); and
    each provider's cost."""
    views: dict[str, list[View]] = {t.name: [] for t in tools}
    costs: list[Cost] = []
    names = [t.name for t in tools]
    by_written = {w: t for t in tools for w in (t.provider_name, t.name)}
    for provider in providers:
        for index, options in enumerate(variants(provider)):
            label = variant_label(options)
            done = export(provider, tools, examples_budget=examples_budget, **options)
            estimate = catalog(provider, options, done.definitions, names)
            found = {by_written[w].name: d for w, d in _named(done.definitions) if w in by_written}
            refused = {n.tool for n in done.notes if n.kind == REFUSED}
            hidden = [
                replace(t, defer=False) for t in tools if t.name not in found.keys() | refused
            ]
            again = (
                export(provider, hidden, examples_budget=examples_budget, **options)
                if hidden
                else None
            )
            later = dict(_named(again.definitions)) if again else {}
            for tool in tools:
                notes = tuple(n.text() for n in done.notes if n.tool == tool.name)
                if tool.name in found:
                    definition = found[tool.name]
                    status = DEFERRED if tool.defer else UP_FRONT
                elif tool.name in refused:
                    definition, status = None, REFUSED_TEXT
                else:
                    definition = later.get(tool.provider_name, later.get(tool.name))
                    status = SEARCHED
                text = (
                    ""
                    if definition is None
                    else json.dumps(definition, indent=2, ensure_ascii=False)
                )
                tokens = estimate.tools.get(tool.name)
                if tokens is None and definition is not None:
                    tokens = catalog(provider, options, [definition], [tool.name]).tools.get(
                        tool.name
                    )
                views[tool.name].append(
                    View(provider, label, index == 0, status, text, tokens, notes)
                )
            if index == 0:
                deferred = [t for t in tools if t.defer]
                costs.append(
                    Cost(
                        provider,
                        label,
                        estimate.total,
                        len(estimate.up_front),
                        sum(v.tokens or 0 for t in deferred for v in views[t.name][-1:]),
                        len(deferred),
                    )
                )
    return views, costs
