"""Findings, the version bump they need, and their output: text, json, GitHub annotations.

Text is toolgen's diagnostic form (`file:line:col: severity[RULE_ID]: message`, a hint
line, a summary line); the file is the current side's, relative to the specs root, and
the message ends with where the previous side had it (`was at REV:path:line:col`).
"""

from __future__ import annotations

import json
import posixpath
from collections.abc import Callable, Iterable
from dataclasses import asdict, dataclass

from toolgen.breaking.categories import ERROR, INFO, WARNING
from toolgen.breaking.rules import BY_ID
from toolgen.diagnostics import escape_data, escape_property

BUMPS = ("none", "patch", "minor", "major")


@dataclass(frozen=True, order=True)
class Finding:
    file: str  # the current side's file (relative to the specs root); the previous one's when it is gone
    line: int
    col: int
    rule: str
    severity: str
    message: str  # ends with "(was at ...)" when the previous side had the thing
    hint: str = ""
    category: str = ""
    tool: str = ""
    previous: str = ""  # REF:path:line:col of the previous side, or ""
    pointer: str = ""
    gone: bool = False  # `file` is the previous side's: the current side has no such file

    def text(self) -> str:
        out = f"{self.file}:{self.line}:{self.col}: {self.severity}[{self.rule}]: {self.message}"
        return out + (f"\n  hint: {self.hint}" if self.hint else "")


@dataclass(frozen=True)
class Versions:
    """The declared versions of the whole spec set, when both sides state one."""

    before: str
    after: str
    declared: str  # the bump they make: none, patch, minor, major (or "down")


@dataclass(frozen=True)
class Report:
    findings: tuple[Finding, ...]
    needed: str  # the bump the findings need: none, patch, minor, major
    versions: Versions | None = None
    # The findings a declared version bump covers (the spec set's, or the tool's own): a break
    # released as one on purpose. Reported, and never a failure.
    released: frozenset[Finding] = frozenset()

    def count(self, severity: str) -> int:
        return sum(f.severity == severity for f in self.findings)

    def failures(self, fails: Callable[[str], bool]) -> list[Finding]:
        """The findings that fail the command: of a failing severity, and not released."""
        return [f for f in self.findings if fails(f.severity) and f not in self.released]


def bump_of(finding: Finding) -> str:
    """The version bump one finding needs: an error major; a warning or an addition minor; else patch."""
    rule = BY_ID.get(finding.rule)
    if finding.severity == ERROR:
        return "major"
    if finding.severity == WARNING or (rule is not None and rule.adds):
        return "minor"
    return "patch"


def needed_bump(findings: Iterable[Finding]) -> str:
    """The largest bump the findings need ("none" without findings); version findings, and
    files that did not load (the loader's rules), do not count."""
    bumps = [bump_of(f) for f in findings if f.rule in BY_ID and f.rule != "VERSION_BUMP_TOO_SMALL"]
    return max(bumps, key=BUMPS.index, default="none")


def summary(report: Report) -> str:
    line = (
        f"{report.count(ERROR)} error(s), {report.count(WARNING)} warning(s), {report.count(INFO)} info; "
        f"needed version bump: {report.needed}"
    )
    if report.versions is not None:
        v = report.versions
        line += f" (declared: {v.declared}, {v.before} -> {v.after})"
    if report.released:
        line += f"; {len(report.released)} let through by the declared version bump"
    return line


def render(report: Report, fmt: str = "text", base: str = "") -> str:
    """`text`, `json` or `github`. `base`: the specs root as a path from the repository root,
    which GitHub needs to attach an annotation to its file (github only)."""
    ordered = sorted(report.findings)
    if fmt == "json":
        return json.dumps(
            {
                "findings": [asdict(f) for f in ordered],
                "errors": report.count(ERROR),
                "warnings": report.count(WARNING),
                "info": report.count(INFO),
                "needed_bump": report.needed,
                "versions": asdict(report.versions) if report.versions is not None else None,
                "released": [asdict(f) for f in ordered if f in report.released],
            },
            indent=2,
            ensure_ascii=False,
        )
    if fmt == "github":
        return "\n".join([*(_github_line(f, base) for f in ordered), summary(report)])
    return "\n".join([*(f.text() for f in ordered), summary(report)])


_LEVELS = {ERROR: "error", WARNING: "warning", INFO: "notice"}


def _github_line(f: Finding, base: str) -> str:
    message = escape_data(f"[{f.rule}] {f.message}" + (f" (hint: {f.hint})" if f.hint else ""))
    if f.gone:  # no file of the pull request to attach it to: an annotation of the run
        return f"::{_LEVELS[f.severity]} title={escape_property(f.rule)}::{message}"
    file = posixpath.normpath(posixpath.join(base, f.file)) if base else f.file
    return (
        f"::{_LEVELS[f.severity]} file={escape_property(file)},line={f.line},col={f.col},"
        f"title={escape_property(f.rule)}::{message}"
    )
