"""The pipeline, end to end: load -> check -> lower -> render -> format. Writing is the caller's.

A successful build is cached whole (see cache.py): when no input changed, `build`
is a hash of the inputs and one read, and the stages below are not even imported.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from toolgen import cache as buildcache
from toolgen.diagnostics import Diagnostic, has_errors

if TYPE_CHECKING:
    from toolgen.check.context import CheckedTool
    from toolgen.load.specs import SpecSet


@dataclass
class Build:
    diagnostics: list[Diagnostic]
    tools: tuple[str, ...] | None  # canonical names of the tools built; None when there are errors
    files: dict[str, str]  # relative path -> formatted text; empty when there are errors

    @property
    def ok(self) -> bool:
        return self.tools is not None


def check_specs(specs: Path, exports: bool = True,
                disable: tuple[str, ...] = ()) -> tuple[list[Diagnostic], list[CheckedTool]]:
    """Load and lint. `exports=False`: without the provider rule (build reports it from its own exports).
    `disable`: rule IDs whose warnings are left out ([tool.toolgen.lint])."""
    from toolgen.load.specs import load_specs

    if not specs.is_dir():
        raise FileNotFoundError(f"specs directory not found: {specs}")
    return lint(load_specs(specs), exports, disable)


def lint(specs: SpecSet, exports: bool = True,
         disable: tuple[str, ...] = ()) -> tuple[list[Diagnostic], list[CheckedTool]]:
    """Check a loaded spec set; `exports` adds what the provider exporters say about it."""
    from toolgen import check
    from toolgen.providers import diagnostics as provider_rule

    diagnostics, tools = check.run(specs)
    if exports:
        diagnostics = sorted(set(diagnostics + list(provider_rule.warnings(tools))))
    return _without(diagnostics, disable), tools


def _without(diagnostics: list[Diagnostic], disable: tuple[str, ...]) -> list[Diagnostic]:
    """Leave out the warnings of disabled rules. Applied after the build cache, which keeps them all."""
    if not disable:
        return diagnostics
    from toolgen.check.catalogue import without_disabled

    return without_disabled(diagnostics, disable)


def build(specs: Path, package: str, templates: Path | None = None, disable: tuple[str, ...] = ()) -> Build:
    """`disable`: rule IDs whose warnings are left out (only warnings: the build's files do not depend on it)."""
    built = _build(specs, package, templates)
    return Build(_without(built.diagnostics, disable), built.tools, built.files) if disable else built


def _build(specs: Path, package: str, templates: Path | None) -> Build:
    key, cached = buildcache.load(specs, package, templates)
    if cached is not None:
        return Build(*cached)
    from toolgen.providers import diagnostics as provider_rule

    diagnostics, tools = check_specs(specs, exports=False)
    if has_errors(diagnostics):  # nothing is rendered: the provider rule reports as `toolgen lint` does
        return Build(sorted(set(diagnostics + list(provider_rule.warnings(tools)))), None, {})

    from toolgen.format import format_files
    from toolgen.lower import lower
    from toolgen.providers import export_all, notes_of
    from toolgen.render import from_templates, render_package

    ir = lower(tools, package)
    exports = export_all(ir.tools)  # once: its notes are lint's warnings, its definitions are rendered
    diagnostics = sorted(set(diagnostics + list(provider_rule.report(notes_of(exports), tools))))
    rendered = render_package(ir, templates=str(templates) if templates else None, exports=exports)
    # Our own templates emit black's layout; an override or the copied runtime may not.
    files = format_files(rendered, frozenset() if templates else from_templates(rendered))
    names = tuple(t.name for t in ir.tools)
    if key is not None:
        buildcache.store(specs, package, templates, key, (diagnostics, names, files))
    return Build(diagnostics, names, files)
