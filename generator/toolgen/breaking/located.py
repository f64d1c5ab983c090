"""Findings located and filtered: a raw finding (a rule, a tool, where each side has it, a
message) becomes a `Finding` at its place on the current side (else the previous one's),
said once however many paths reached it, unless the settings turn its rule off or ignore
its files; and what a side could not load, as findings."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

from toolgen.breaking.categories import Rule
from toolgen.breaking.report import Finding
from toolgen.breaking.rules import BY_ID
from toolgen.breaking.settings import Settings
from toolgen.breaking.side import Place, Side


@dataclass(frozen=True)
class Raw:
    """A finding before the settings and the output have their say."""

    rule: str
    tool: str
    after: Place | None  # where the current side has it (None: nowhere, the tool is gone)
    before: Place | None  # where the previous side had it
    message: str
    hint: str | None = None  # None: the rule's own
    change: str = ""  # a schema change's kind: reported once per place, whatever path reached it


def findings(raws: list[Raw], before: Side, settings: Settings) -> list[Finding]:
    """Each raw finding once, located on both sides and as the settings ask for it."""
    out: list[Finding] = []
    seen: set[tuple[Any, ...]] = set()
    for raw in raws:
        # A definition reached along several paths (a recursive one, a shared one) is reported once.
        key = (
            (raw.rule, raw.change, raw.tool, _key(raw.after), _key(raw.before))
            if raw.change
            else (raw.rule, raw.tool, raw.message)
        )
        if key in seen:
            continue
        seen.add(key)
        finding = _finding(raw, before, settings)
        if finding is not None:
            out.append(finding)
    return out


def _finding(raw: Raw, before: Side, settings: Settings) -> Finding | None:
    """The finding at its place, or None where its rule is off or its files are ignored."""
    rule = BY_ID[raw.rule]
    if not settings.active(rule):
        return None
    files = [p.doc.display for p in (raw.after, raw.before) if p is not None]
    if settings.ignored(rule.id, files):
        return None
    previous = before.where(raw.before) if raw.before is not None else ""
    message = raw.message + (f" (was at {previous})" if previous else "")
    if raw.after is not None:
        file, (line, col), pointer = (
            raw.after.doc.display,
            raw.after.position(),
            raw.after.pointer,
        )
    elif raw.before is not None:
        file, (line, col), pointer = (
            f"{before.label}{raw.before.doc.display}",
            raw.before.position(),
            "",
        )
    else:
        file, line, col, pointer = ".", 1, 1, ""
    hint = rule.hint if raw.hint is None else raw.hint
    return found(
        rule,
        settings,
        (file, line, col),
        message,
        hint,
        raw.tool,
        previous,
        pointer,
        raw.after is None,
    )


def found(
    rule: Rule,
    settings: Settings,
    at: tuple[str, int, int],
    message: str,
    hint: str,
    tool: str,
    previous: str,
    pointer: str = "",
    gone: bool = False,
) -> Finding:
    """A finding of `rule` at `at` (file, line, col), at the severity the settings give it."""
    file, line, col = at
    severity = settings.severity_of(rule)
    return Finding(
        file,
        line,
        col,
        rule.id,
        severity,
        message,
        hint,
        rule.category,
        tool,
        previous,
        pointer,
        gone,
    )


def _key(place: Place | None) -> tuple[str, str] | None:
    return (place.doc.display, place.pointer) if place is not None else None


def load_problems(side: Side, label: str) -> Iterator[Finding]:
    """What could not be loaded, as toolgen's load diagnostics say it (always errors)."""
    for d in side.problems:
        yield Finding(
            f"{side.label}{d.file}" if side.label else d.file,
            d.line,
            d.col,
            d.rule,
            "error",
            f"{label}: {d.message}",
            d.hint,
            gone=bool(side.label),
        )
