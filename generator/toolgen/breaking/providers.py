"""PROVIDER: what each provider's definitions of a tool say, before and after, from toolgen's
own exporters (toolgen.providers): the name a provider's model calls the tool by, and the
notes an exporter takes: a fallback it did not need before (strict mode off, recursion
unrolled) or a variant that no longer has a definition at all."""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from typing import Any

from toolgen.lower import ToolView, view_of
from toolgen.runtime import kinds
from toolgen.spec.model import ToolSpec


def view(spec: ToolSpec, parameters: Any, returns: Any) -> ToolView:
    """What the exporters read of a tool: lowering's view of its spec, with `parameters` and
    `returns` bundled (self-contained)."""
    return view_of(spec, parameters, returns if isinstance(returns, dict) else None)


@dataclass(frozen=True)
class Issue:
    rule: str
    message: str


def compare(pairs: Sequence[tuple[ToolView, ToolView]]) -> Iterator[tuple[str, Issue]]:
    """(current tool name, issue) for each pair (previous, current) of one tool's views. Each
    variant exports the current tools together, and the previous ones of the tools whose
    export took a fallback or was refused; notes about the tools of one request together (a
    shared budget) are not a tool's and are left out."""
    from toolgen.providers import PROVIDERS, export, variants
    from toolgen.providers.base import FALLBACK, REFUSED

    if not pairs:
        return
    previous = {new.name: old for old, new in pairs}
    yield from _renamed(pairs)
    said: set[tuple[str, str]] = set()
    for provider in PROVIDERS:
        for options in variants(provider):
            try:
                new_export = export(provider, [new for _, new in pairs], **options)
                taken = [
                    n for n in new_export.notes if not n.shared and n.kind in (FALLBACK, REFUSED)
                ]
                flagged = list(dict.fromkeys(n.tool for n in taken))
                old_export = export(provider, [previous[name] for name in flagged], **options)
            except Exception:  # noqa: BLE001 - a schema no exporter reads is lint's to report, not a change
                yield from _one_by_one(pairs, provider, options)
                continue
            renamed = {previous[name].name: name for name in flagged}
            had = {
                (renamed.get(n.tool, n.tool), n.target, n.kind)
                for n in old_export.notes
                if not n.shared
            }
            for note in taken:
                if (note.tool, note.target, note.kind) in had:
                    continue
                message = f"{note.target}: {note.message}"
                if (note.tool, message) not in said:
                    said.add((note.tool, message))
                    rule = (
                        "PROVIDER_NO_NEW_FALLBACK"
                        if note.kind == FALLBACK
                        else "PROVIDER_STILL_REPRESENTABLE"
                    )
                    yield note.tool, Issue(rule, message)


def _renamed(pairs: Sequence[tuple[ToolView, ToolView]]) -> Iterator[tuple[str, Issue]]:
    """Each renamed tool whose name changed in the providers' default definitions. MCP calls a
    tool by its canonical name (TOOL_SAME_NAME says that one); the others by a provider-safe one."""
    from toolgen.providers import PROVIDERS, export

    for before, after in pairs:
        if before.name == after.name:
            continue
        changed: dict[tuple[str, str], list[str]] = {}
        for provider in PROVIDERS:
            if provider == kinds.MCP:
                continue
            was = [kinds.definition_name(d) for d in export(provider, [before]).definitions]
            now = [kinds.definition_name(d) for d in export(provider, [after]).definitions]
            if was and now and was[0] and now[0] and was != now:
                changed.setdefault((was[0], now[0]), []).append(provider)
        for (was_name, now_name), providers in changed.items():
            yield (
                after.name,
                Issue(
                    "PROVIDER_SAME_NAME",
                    f"{', '.join(providers)} call it {now_name!r}, not "
                    f"{was_name!r}: the models' calls by the old name fail",
                ),
            )


def _one_by_one(
    pairs: Sequence[tuple[ToolView, ToolView]], provider: str, options: dict[str, Any]
) -> Iterator[tuple[str, Issue]]:
    """The pairs exported one at a time, when one of them breaks an export of them all."""
    from toolgen.providers import export
    from toolgen.providers.base import FALLBACK, REFUSED

    for old, new in pairs:
        try:
            old_export, new_export = (
                export(provider, [old], **options),
                export(provider, [new], **options),
            )
        except Exception:  # noqa: BLE001 - that one is lint's to report
            continue
        had = {(n.target, n.kind) for n in old_export.notes if not n.shared}
        for note in new_export.notes:
            if (
                not note.shared
                and (note.target, note.kind) not in had
                and note.kind in (FALLBACK, REFUSED)
            ):
                rule = (
                    "PROVIDER_NO_NEW_FALLBACK"
                    if note.kind == FALLBACK
                    else "PROVIDER_STILL_REPRESENTABLE"
                )
                yield note.tool, Issue(rule, f"{note.target}: {note.message}")
