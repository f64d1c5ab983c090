"""Versions checked against the findings: each tool's own `version` where both sides state
one, then the spec set's (`[tool.toolgen] version`); `VERSION_BUMP_TOO_SMALL` where a bump
is less than the changes need, and the findings a bump enough for them releases."""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterator
from typing import NamedTuple

from toolgen.breaking.located import found
from toolgen.breaking.report import Finding, Versions, needed_bump
from toolgen.breaking.rules import BY_ID
from toolgen.breaking.settings import Settings
from toolgen.breaking.side import Place, Side, ToolEntry
from toolgen.breaking.versions import declared_bump, enough, least


def check_versions(
    before: Side, after: Side, settings: Settings, findings: list[Finding]
) -> tuple[list[Finding], Versions | None, set[Finding]]:
    """The findings with the version findings added (each tool's own, then the spec set's),
    the spec set's declared versions, and the findings a bump enough for them releases."""
    findings = findings + tool_versions(before, after, settings, findings)
    versions = None
    released: set[Finding] = set(released_by_tools(before, after, findings))
    if before.version is not None and after.version is not None:
        declared = declared_bump(before.version, after.version)
        if declared is not None:
            versions = Versions(before.version, after.version, declared)
            needed = needed_bump(findings)
            if enough(before.version, declared, needed):
                released |= set(findings)  # (none when nothing changed that needs a bump)
            else:
                file, line = after.version_at or ("pyproject.toml", 1)
                findings += version_finding(
                    settings,
                    before,
                    file,
                    line,
                    1,
                    "the spec set",
                    before.version,
                    after.version,
                    declared,
                    needed,
                    "",
                )
    return findings, versions, released


class ToolBump(NamedTuple):
    entry: ToolEntry
    previous: ToolEntry
    old: str
    new: str
    declared: str  # none, patch, minor, major or "down"
    findings: list[Finding]  # about this tool (its own version finding aside)


def tool_bumps(before: Side, after: Side, findings: list[Finding]) -> Iterator[ToolBump]:
    """Each tool whose own `version` both sides state, with the findings about it."""
    if not (before.complete and after.complete):
        return
    previous_by_name = by_name(before.tools)
    by_tool: dict[str, list[Finding]] = defaultdict(list)
    for finding in findings:
        if finding.rule != "VERSION_BUMP_TOO_SMALL":
            by_tool[finding.tool].append(finding)
    for entry in after.tools:
        previous = previous_by_name.get(entry.name)
        old = previous.spec.version if previous is not None else None
        new = entry.spec.version
        if previous is None or not (isinstance(old, str) and isinstance(new, str)):
            continue
        declared = declared_bump(old, new)
        if declared is not None:
            yield ToolBump(entry, previous, old, new, declared, by_tool.get(entry.name, []))


def released_by_tools(before: Side, after: Side, findings: list[Finding]) -> Iterator[Finding]:
    """The findings about a tool whose own declared `version` rose enough for them."""
    for bump in tool_bumps(before, after, findings):
        needed = needed_bump(bump.findings)
        if bump.declared not in ("none", "down") and enough(bump.old, bump.declared, needed):
            yield from bump.findings


def tool_versions(
    before: Side, after: Side, settings: Settings, findings: list[Finding]
) -> list[Finding]:
    """A tool's own `version`, where both sides state one, against the findings about that tool."""
    out: list[Finding] = []
    for bump in tool_bumps(before, after, findings):
        needed = needed_bump(bump.findings)
        if enough(bump.old, bump.declared, needed):
            continue
        line, col = bump.entry.at("version").position()
        out += version_finding(
            settings,
            before,
            bump.entry.doc.display,
            line,
            col,
            f"tool '{bump.entry.name}'",
            bump.old,
            bump.new,
            bump.declared,
            needed,
            bump.entry.name,
            bump.previous.at("version"),
        )
    return out


def version_finding(
    settings: Settings,
    side: Side,
    file: str,
    line: int,
    col: int,
    what: str,
    old: str,
    new: str,
    declared: str,
    needed: str,
    tool: str,
    before: Place | None = None,
) -> list[Finding]:
    rule = BY_ID["VERSION_BUMP_TOO_SMALL"]
    if not settings.active(rule) or settings.ignored(rule.id, [file]):
        return []
    bump = (
        "went down"
        if declared == "down"
        else f"is a {declared} bump"
        if declared != "none"
        else "did not change"
    )
    previous = side.where(before) if before is not None else ""
    message = (
        f"{what}: version {old} -> {new} {bump}; the changes need a {needed} bump (at least "
        f"{least(old, needed)})" + (f" (was at {previous})" if previous else "")
    )
    return [found(rule, settings, (file, line, col), message, rule.hint, tool, previous)]


def by_name(tools: list[ToolEntry]) -> dict[str, ToolEntry]:
    out: dict[str, ToolEntry] = {}
    for tool in tools:
        out.setdefault(tool.name, tool)
    return out
