"""The comparison: tools matched by name (or as renamed), each pair compared, the findings
located on both sides and filtered by the settings (located.py), and the versions checked
against them (bumps.py)."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from datetime import date
from typing import Any

from toolgen.breaking import lifecycle, located
from toolgen.breaking.behaviour import behaviour
from toolgen.breaking.bumps import by_name, check_versions
from toolgen.breaking.categories import PROVIDER
from toolgen.breaking.changes import DESCRIBED, MISSING, PROPERTY_ADDED, Schema, has_ref
from toolgen.breaking.compare import walk_schemas
from toolgen.breaking.direction import judge, path_text
from toolgen.breaking.located import Raw
from toolgen.breaking.report import Finding, Report, needed_bump
from toolgen.breaking.scopes import scopes
from toolgen.breaking.settings import Settings
from toolgen.breaking.side import Place, Side, ToolEntry
from toolgen.load.refs import RefError, RefIndex, bundle_located
from toolgen.lower import EMPTY_PARAMETERS
from toolgen.naming import provider_name
from toolgen.schema.pointer import child


@dataclass
class Comparison:
    before: Side
    after: Side
    settings: Settings
    today: date
    raw: list[Raw] = field(default_factory=list)
    views: list[tuple[Any, Any]] = field(
        default_factory=list
    )  # provider views (previous, current) of changed tools
    entries: dict[str, tuple[ToolEntry, ToolEntry]] = field(
        default_factory=dict
    )  # current name -> the pair
    _indexes: dict[int, RefIndex] = field(default_factory=dict)

    # -- schemas ----------------------------------------------------------------------------

    def schema(self, side: Side, entry: ToolEntry, key: str) -> Schema:
        """A tool's `parameters` or `returns`, bundled, with the place of each definition."""
        root = entry.at(key)
        spec = entry.spec
        raw = (
            spec.parameters
            if key == "parameters"
            else (spec.returns if spec.has_returns else MISSING)
        )
        if raw is MISSING or raw is None:
            return Schema(EMPTY_PARAMETERS if key == "parameters" else True, root)
        if not has_ref(raw):
            return Schema(raw, root)
        if side.specs is None:  # a generated package: bundled already, `$defs` at its root
            defs = raw.get("$defs") if isinstance(raw, dict) else None
            places = {
                name: (value, Place(root.doc, child(child(root.pointer, "$defs"), name)))
                for name, value in (defs.items() if isinstance(defs, dict) else ())
            }
            return Schema(raw, root, places)
        index = self._indexes.get(id(side))
        if index is None:
            index = self._indexes[id(side)] = RefIndex.build(side.specs)
        try:
            bundled, located = bundle_located(index, entry.source, root.pointer, raw)
        except RefError:
            return Schema(raw, root)  # lint reports the reference; compared as written
        defs = bundled.get("$defs", {}) if isinstance(bundled, dict) else {}
        return Schema(
            bundled,
            root,
            {
                name: (defs[name], Place(doc, pointer))
                for name, (doc, pointer) in located.items()
                if name in defs
            },
        )

    # -- tools --------------------------------------------------------------------------------

    def add(
        self,
        rule: str,
        tool: str,
        after: Place | None,
        before: Place | None,
        message: str,
        hint: str | None = None,
        change: str = "",
    ) -> None:
        self.raw.append(Raw(rule, tool, after, before, message, hint, change))

    def run(self) -> None:
        before = by_name(self.before.tools)
        after = by_name(self.after.tools)
        removed = [name for name in before if name not in after]
        added = [name for name in after if name not in before]
        renamed = self.renames(before, after, removed, added)
        for name, entry in after.items():
            if name in before:
                self.pair(before[name], entry)
        for old, new in renamed.items():
            self.add(
                "TOOL_SAME_NAME",
                new,
                after[new].at("name"),
                before[old].at("name"),
                f"tool '{old}' is now called '{new}': calls by the old name fail",
            )
            self.pair(before[old], after[new])
        for name in removed:
            if name not in renamed:
                self.removed(before[name])
        for name in added:
            if name not in renamed.values():
                self.add("TOOL_ADDED", name, after[name].at("name"), None, f"new tool '{name}'")
        self.provider_findings()

    def renames(
        self,
        before: dict[str, ToolEntry],
        after: dict[str, ToolEntry],
        removed: list[str],
        added: list[str],
    ) -> dict[str, str]:
        """Removed tools whose place or provider-safe name an added tool took: old name -> new name."""
        out: dict[str, str] = {}
        for old in removed:
            entry = before[old]
            for new in added:
                if new in out.values():
                    continue
                other = after[new]
                same_file = (
                    self.before.complete
                    and entry.doc.display == other.doc.display
                    and entry.source.pointer == other.source.pointer == ""
                )
                if same_file or provider_name(old) == provider_name(new):
                    out[old] = new
                    break
        return out

    def removed(self, entry: ToolEntry) -> None:
        name, spec = entry.name, entry.spec
        if lifecycle.experimental(spec):
            return
        gone = self.after_place_of(entry)
        if lifecycle.deprecated(spec):
            sunset = lifecycle.sunset(spec)
            if lifecycle.past(sunset, self.today):
                self.add(
                    "TOOL_DELETED_AFTER_SUNSET",
                    name,
                    gone,
                    entry.at("name"),
                    f"deprecated tool '{name}' was removed after its sunset ({sunset})",
                )
            else:
                self.add(
                    "TOOL_NO_DELETE_BEFORE_SUNSET",
                    name,
                    gone,
                    entry.at("name"),
                    f"deprecated tool '{name}' was removed {lifecycle.early(sunset)}: calls of it fail",
                )
            return
        self.add(
            "TOOL_NO_DELETE",
            name,
            gone,
            entry.at("name"),
            f"tool '{name}' was removed: calls of it fail",
        )

    def after_place_of(self, entry: ToolEntry) -> Place | None:
        """Where a removed tool's file is on the current side, if it still is."""
        for tool in self.after.tools:
            if tool.doc.display == entry.doc.display:
                return Place(
                    tool.doc,
                    "/tools"
                    if isinstance(tool.doc.data, dict) and "tools" in tool.doc.data
                    else "",
                )
        return None

    def pair(self, b: ToolEntry, a: ToolEntry) -> None:
        if lifecycle.experimental(b.spec):
            return
        complete = self.before.complete and self.after.complete
        name = a.name
        if complete and b.doc.display != a.doc.display:
            self.add(
                "TOOL_SAME_FILE",
                name,
                a.at("name"),
                b.at("name"),
                f"tool '{name}' moved from {b.doc.display} to {a.doc.display}",
            )
        if complete and b.data == a.data and not has_ref(a.data):
            return
        if self.before.complete and lifecycle.fell(b.spec, a.spec):
            self.add(
                "STABILITY_NO_DECREASE",
                name,
                a.at("stability"),
                b.at("stability"),
                f"tool '{name}': stability {b.spec.stability} -> {a.spec.stability}: "
                "callers were promised a stable tool",
            )
        if not lifecycle.deprecated(b.spec) and lifecycle.deprecated(a.spec):
            key = "deprecated" if a.spec.deprecation is not None else "stability"
            extra = [f"use '{r}' instead" for r in [lifecycle.replacement(a.spec)] if r]
            extra += [f"sunset {s}" for s in [lifecycle.sunset(a.spec)] if s]
            self.add(
                "TOOL_DEPRECATED",
                name,
                a.at(key),
                None,
                f"tool '{name}' is now deprecated" + (f" ({'; '.join(extra)})" if extra else ""),
            )
        issues = [*behaviour(b.spec, a.spec, complete)]
        issues += scopes(b.spec, a.spec) if complete else []
        for issue in issues:
            self.add(
                issue.rule,
                name,
                a.at(issue.key),
                b.at(issue.key),
                f"tool '{name}': {issue.message}",
            )
        described = [
            label
            for key, label in (("description", "the tool's"), ("title", "the tool's title"))
            if getattr(b.spec, key) != getattr(a.spec, key)
        ]
        described_at: Place | None = (
            a.at(
                next(
                    (
                        k
                        for k in ("description", "title")
                        if getattr(b.spec, k) != getattr(a.spec, k)
                    ),
                    "description",
                )
            )
            if described
            else None
        )
        schemas: dict[str, tuple[Schema, Schema]] = {}
        for key, parameters in (("parameters", True), ("returns", False)):
            if not parameters and not self.before.complete and not b.spec.has_returns:
                continue  # a package has no `outputSchema` for a result that is not an object
            old, new = self.schema(self.before, b, key), self.schema(self.after, a, key)
            schemas[key] = (old, new)
            for change in walk_schemas(old, new, parameters):
                if change.kind == DESCRIBED:
                    where = path_text(change.path)
                    label = (
                        (f"parameter '{where}'" if parameters else f"result field '{where}'")
                        if where
                        else ("the arguments'" if parameters else "the result's")
                    )
                    if label not in described:
                        described.append(label)
                    described_at = described_at or change.after
                    continue
                verdict = judge(change, parameters, self.today)
                if verdict is not None:
                    before = (
                        None if change.kind == PROPERTY_ADDED else change.before
                    )  # it was nowhere
                    self.add(
                        verdict.rule,
                        name,
                        change.after,
                        before,
                        f"tool '{name}': {verdict.message}",
                        verdict.hint,
                        change.kind,
                    )
        if described and described_at is not None:
            self.add(
                "TOOL_DESCRIPTION_CHANGED",
                name,
                described_at,
                None,
                f"tool '{name}': description changed: {', '.join(described)}",
            )
        if PROVIDER in self.settings.categories:
            self.providers(b, a, schemas)

    def providers(
        self, b: ToolEntry, a: ToolEntry, schemas: Mapping[str, tuple[Schema, Schema]]
    ) -> None:
        """Keep the pair's provider views for one export of them all (`provider_findings`)."""
        from toolgen.breaking import providers

        parameters = schemas.get("parameters")
        returns = schemas.get("returns")
        if parameters is None:
            return
        old = providers.view(b.spec, parameters[0].value, returns[0].value if returns else None)
        new = providers.view(a.spec, parameters[1].value, returns[1].value if returns else None)
        if old != new:
            self.views.append((old, new))
            self.entries[a.name] = (b, a)

    def provider_findings(self) -> None:
        from toolgen.breaking import providers

        for name, issue in providers.compare(self.views):
            b, a = self.entries[name]
            self.add(
                issue.rule, name, a.at("name"), b.at("name"), f"tool '{name}': {issue.message}"
            )

    # -- findings -------------------------------------------------------------------------------

    def findings(self) -> list[Finding]:
        return located.findings(self.raw, self.before, self.settings)


def compare(before: Side, after: Side, settings: Settings, today: date | None = None) -> Report:
    """Everything that changed from `before` to `after`, as the settings ask for it."""
    comparison = Comparison(before, after, settings, today or date.today())
    comparison.run()
    findings = comparison.findings()
    findings, versions, released = check_versions(before, after, settings, findings)
    problems = [
        *located.load_problems(after, "cannot load"),
        *located.load_problems(before, "cannot load the previous side"),
    ]
    everything = sorted(set(findings + problems))
    return Report(tuple(everything), needed_bump(findings), versions, frozenset(released))
