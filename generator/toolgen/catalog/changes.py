"""`--against REF`: what `toolgen breaking` finds between REF and the specs, per tool, with the
version bump each finding and the whole change need (breaking/ does the comparing)."""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import date

from toolgen.breaking import sources
from toolgen.breaking.command import compared
from toolgen.breaking.report import Finding, bump_of
from toolgen.breaking.settings import parse
from toolgen.config import Config


@dataclass(frozen=True)
class Change:
    severity: str  # error, warning, info
    rule: str
    message: str
    hint: str
    bump: str  # the version bump this finding needs
    where: str  # file:line:col on the current side (the previous one's when it is gone)


@dataclass(frozen=True)
class Changes:
    ref: str  # as shown: one line, control characters escaped
    needed: str  # the bump every finding together needs
    versions: str  # "declared: minor, 1.0.0 -> 1.1.0", or ""
    by_tool: dict[str, tuple[Change, ...]] = field(default_factory=dict)
    gone: dict[str, tuple[Change, ...]] = field(default_factory=dict)  # tools REF had, not now
    other: tuple[Change, ...] = ()  # findings about no one tool (versions, files)


class ChangesUnavailable(Exception):
    """REF or the settings cannot be read (the command exits 2, as `toolgen breaking` does)."""


def _change(finding: Finding) -> Change:
    return Change(
        finding.severity,
        finding.rule,
        finding.message,
        finding.hint,
        bump_of(finding),
        f"{finding.file}:{finding.line}:{finding.col}",
    )


def against(config: Config, ref: str, tools: set[str], today: date | None = None) -> Changes:
    """Compare the specs with REF under `[tool.toolgen.breaking]`; `tools`: the current tools'
    names (a finding about another tool is about one REF had)."""
    try:
        settings = parse(config.breaking)
    except ValueError as exc:
        raise ChangesUnavailable(str(exc)) from exc
    try:
        report = compared(config, ref, settings, today)
    except sources.Unreadable as exc:
        raise ChangesUnavailable(f"cannot read --against {sources.shown(ref)}: {exc}") from exc
    by_tool: dict[str, list[Change]] = {}
    gone: dict[str, list[Change]] = {}
    other: list[Change] = []
    for finding in sorted(report.findings):
        target = by_tool if finding.tool in tools else gone if finding.tool else None
        if target is None:
            other.append(_change(finding))
        else:
            target.setdefault(finding.tool, []).append(_change(finding))
    v = report.versions
    return Changes(
        sources.shown(ref, 200),
        report.needed,
        f"declared: {v.declared}, {v.before} -> {v.after}" if v else "",
        {k: tuple(c) for k, c in sorted(by_tool.items())},
        {k: tuple(c) for k, c in sorted(gone.items())},
        tuple(other),
    )
