"""The pipeline, end to end: load -> check -> lower -> render -> format. Writing is the caller's.

A successful build is cached whole (see buildcache.py): when no input changed, `build`
is a hash of the inputs and one read, and the stages below are not even imported.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from . import buildcache
from .diagnostics import Diagnostic, has_errors

if TYPE_CHECKING:
    from .lint import CheckedTool


@dataclass
class Build:
    diagnostics: list[Diagnostic]
    tools: tuple[str, ...] | None  # canonical names of the tools built; None when there are errors
    files: dict[str, str]  # relative path -> formatted text; empty when there are errors

    @property
    def ok(self) -> bool:
        return self.tools is not None


def check_specs(specs: Path) -> tuple[list[Diagnostic], list[CheckedTool]]:
    from . import lint
    from .specs import load_specs

    if not specs.is_dir():
        raise FileNotFoundError(f"specs directory not found: {specs}")
    return lint.run(load_specs(specs))


def build(specs: Path, package: str, templates: Path | None = None) -> Build:
    key, cached = buildcache.load(specs, package, templates)
    if cached is not None:
        return Build(*cached)
    diagnostics, tools = check_specs(specs)
    if has_errors(diagnostics):
        return Build(diagnostics, None, {})

    from .format import format_files
    from .lower import lower
    from .render import from_templates, render_package

    ir = lower(tools, package)
    rendered = render_package(ir, templates=str(templates) if templates else None)
    # Our own templates emit black's layout; an override or the copied runtime may not.
    files = format_files(rendered, frozenset() if templates else from_templates(rendered))
    names = tuple(t.name for t in ir.tools)
    if key is not None:
        buildcache.store(specs, package, templates, key, (diagnostics, names, files))
    return Build(diagnostics, names, files)
