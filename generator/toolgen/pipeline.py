"""The pipeline, end to end: load -> check -> lower -> render -> format. Writing is the caller's."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from . import lint
from .diagnostics import Diagnostic, has_errors
from .format import format_files
from .ir import PackageIR
from .lower import lower
from .render import render_package
from .specs import load_specs


@dataclass
class Build:
    diagnostics: list[Diagnostic]
    package: PackageIR | None  # None when there are errors
    files: dict[str, str]  # relative path -> formatted text; empty when there are errors

    @property
    def ok(self) -> bool:
        return self.package is not None


def check_specs(specs: Path) -> tuple[list[Diagnostic], list[lint.CheckedTool]]:
    if not specs.is_dir():
        raise FileNotFoundError(f"specs directory not found: {specs}")
    return lint.run(load_specs(specs))


def build(specs: Path, package: str, templates: Path | None = None) -> Build:
    diagnostics, tools = check_specs(specs)
    if has_errors(diagnostics):
        return Build(diagnostics, None, {})
    ir = lower(tools, package)
    files = format_files(render_package(ir, templates=str(templates) if templates else None))
    return Build(diagnostics, ir, files)
