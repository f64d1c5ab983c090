"""What every toolgen command shares: failing with exit code 2 (or 1), the configuration
read under the command's flags, the build with its diagnostics printed, the target flags
(`--specs`, `--out`, `--package`) and `--strict`, and paths as GitHub annotations name them."""

from __future__ import annotations

import os
import sys
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any, NoReturn, TypeVar

import click

from toolgen.config import BuildOptions, Config, load_config
from toolgen.diagnostics import Diagnostic, Severity, render
from toolgen.load.files import Limits
from toolgen.pipeline import Build, build
from toolgen.progress import Progress

F = TypeVar("F", bound=Callable[..., Any])


def fail(message: str, code: int = 2) -> NoReturn:
    """`toolgen: MESSAGE` on stderr, and exit with `code` (2: usage or environment; 1: findings)."""
    click.echo(f"toolgen: {message}", err=True)
    sys.exit(code)


def configured(**flags: Any) -> Config:
    """`[tool.toolgen]` under the command's flags; exits 2 on a setting the build would refuse."""
    try:
        config = load_config().override(**flags)
        Limits.from_env()  # the environment's limits on spec files: a bad one stops every command
    except (ValueError, OSError) as exc:
        fail(str(exc))
    build_options(config)  # every command refuses invalid build options, whether it builds or not
    if config.lint_disable:
        from toolgen.check.catalogue import validate_disabled

        try:
            validate_disabled(config.lint_disable)
        except ValueError as exc:
            fail(str(exc))
    return config


def build_options(config: Config) -> BuildOptions:
    try:
        return config.options()
    except ValueError as exc:
        fail(str(exc))


def target_options(function: F) -> F:
    """`--specs`, `--out` and `--package`: what a command over the generated output targets."""
    function = click.option("--package", help="Import name of the generated package.")(function)
    function = click.option("--out", type=click.Path(file_okay=False), help="Output directory.")(
        function
    )
    function = click.option(
        "--specs", type=click.Path(file_okay=False), help="Directory of spec files."
    )(function)
    return function


def build_printed(
    specs: Path,
    options: BuildOptions,
    disable: tuple[str, ...] = (),
    strict: bool = False,
    warnings: bool = True,
    out: Path | None = None,
) -> Build:
    """The build, its errors printed (and its warnings, unless `warnings` is off: `check` and
    `scaffold` leave them to `lint` and `generate`, and only count them); exits on errors."""
    try:
        with Progress(f"toolgen: building {options.package}") as progress:
            result = build(specs, options, progress, disable, out)
    except FileNotFoundError as exc:
        fail(str(exc))
    if not all(d.is_note for d in result.diagnostics):  # notes alone are lint's to list
        click.echo(render(result.diagnostics, warnings=warnings), err=True)
    if not result.ok:
        sys.exit(1)
    if strict and warned(result.diagnostics):
        fail("warnings count as errors (--strict)", 1)
    return result


def warned(diagnostics: Sequence[Diagnostic]) -> bool:
    """Whether `--strict` fails: a warning (notes are what a provider is told, never a failure)."""
    return any(d.severity is Severity.WARNING for d in diagnostics)


# How findings are printed: for a person, as JSON, or as GitHub annotations (lint, breaking).
REPORT_FORMAT = click.option(
    "--format",
    "fmt",
    type=click.Choice(["text", "json", "github"]),
    default="text",
    show_default=True,
)
STRICT = click.option(
    "--strict",
    "--warnings-as-errors",
    "strict",
    is_flag=True,
    help="Exit 1 on warnings too (the ones not disabled in [tool.toolgen.lint]).",
)


def repository_path(folder: Path) -> str:
    """`folder` as a path from the root of its git repository (the nearest folder holding
    `.git`), else from the current directory: where GitHub looks for an annotated file.
    Empty (paths stay relative to `folder`) when it is in neither."""
    here = folder.resolve()
    root = next((p for p in (here, *here.parents) if (p / ".git").exists()), Path.cwd().resolve())
    relative = Path(os.path.relpath(here, root)).as_posix()
    return "" if relative.startswith("..") else relative
