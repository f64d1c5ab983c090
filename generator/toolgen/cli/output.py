"""The commands over the generated output: `generate` writes the package, `check` compares
it with the output on disk (and the implementations with the interfaces), `scaffold` writes
stubs of the tools that have no implementation."""

from __future__ import annotations

import sys
from dataclasses import replace
from pathlib import Path

import click

from toolgen.cli.common import (
    STRICT,
    build_options,
    build_printed,
    configured,
    fail,
    target_options,
)
from toolgen.config import BuildOptions, Config
from toolgen.diagnostics import render
from toolgen.outlock import WriteError, locked
from toolgen.pipeline import remember
from toolgen.write import Plan, diff, os_problem, pending, plan, write


@click.command()
@target_options
def generate(specs: str | None, out: str | None, package: str | None) -> None:
    """Write the package to OUT/PACKAGE and OUT/pyproject.toml."""
    config = configured(specs=specs, out=out, package=package)
    options = build_options(config)
    result = build_printed(config.specs, options, config.lint_disable, out=config.out)
    assert result.tools is not None  # build_printed exits on errors
    if result.intact is not None:  # the output holds this build, as the last run left it
        written, removed, unchanged = 0, 0, result.intact
    else:
        try:
            config.out.mkdir(parents=True, exist_ok=True)
            changes = write(
                config.out,
                result.files,
                options,
                lambda note: click.echo(f"toolgen: {note}", err=True),
            )
        except WriteError as exc:
            fail(str(exc))
        except OSError as exc:  # the output folder itself cannot be made
            fail(os_problem(exc, config.out))
        if changes.clean:  # files just written are too recent for their marks to be trusted
            remember(config.specs, options, config.out, result)
        written, removed = len(changes.changed) + len(changes.missing), len(changes.orphans)
        unchanged = len(result.files) - written
    click.echo(
        f"{len(result.tools)} tools -> {config.out / config.package} "
        f"({written} written, {removed} removed, {unchanged} unchanged)"
    )


def read_plan(out: Path, files: dict[str, str], options: BuildOptions) -> Plan:
    """The plan against the output on disk, never writing: waits for a writing run to finish,
    and exits 1 when an interrupted one left a swap for the next `generate` to complete."""
    try:
        with locked(out, shared=True):
            if pending(out):
                fail(
                    f"an interrupted generation left {out} part-way: run `toolgen generate` to complete it",
                    1,
                )
            return plan(out, files, options)
    except WriteError as exc:
        fail(str(exc))
    except OSError as exc:
        fail(f"cannot read the output in {out}: {exc.strerror or exc}")


DIFF_LINES = 40  # of `check`'s diff, by default: enough to see what changed, not a flood
_IMPLEMENTATIONS_HELP = "module:attribute of the implementations (default: the configured ones, for the configured package)."


def _bound_config(
    specs: str | None, out: str | None, package: str | None, implementations: str | None
) -> Config:
    """Flags over the configuration. The configured implementations import the configured package
    by name, so `--package OTHER` leaves them out unless `--implementations` is given too."""
    config = configured(specs=specs, out=out, package=package, implementations=implementations)
    if (
        implementations is None
        and config.implementations
        and config.package != configured().package
    ):
        config = replace(config, implementations=None)
    return config


@click.command()
@target_options
@click.option("--implementations", help=_IMPLEMENTATIONS_HELP)
@STRICT
@click.option(
    "--diff",
    "whole_diff",
    is_flag=True,
    help=f"Print the whole diff of what is stale (default: its first {DIFF_LINES} lines).",
)
def check(
    specs: str | None,
    out: str | None,
    package: str | None,
    implementations: str | None,
    strict: bool,
    whole_diff: bool,
) -> None:
    """Exit 0 when the output on disk is exactly what generate would write, and every tool is implemented."""
    config = _bound_config(specs, out, package, implementations)
    options = build_options(config)
    result = build_printed(config.specs, options, config.lint_disable, strict, False, config.out)
    if result.intact is not None:  # as the last `generate` left it: nothing to compare
        changes, count = Plan(), result.intact
    else:
        changes, count = read_plan(config.out, result.files, options), len(result.files)
    if not changes.clean:
        for label, paths in (
            ("stale", changes.changed),
            ("missing", changes.missing),
            ("extra", changes.orphans),
        ):
            for path in sorted(paths):
                click.echo(f"{label}: {path}")
        lines = diff(config.out, changes).splitlines()
        click.echo("\n".join(lines if whole_diff else lines[:DIFF_LINES]))
        if len(lines) > DIFF_LINES and not whole_diff:
            more = len(lines) - DIFF_LINES
            click.echo(f"... {more} more lines of diff (`toolgen check --diff` prints them all)")
        click.echo("run `toolgen generate` to update the generated files", err=True)
        if config.implementations:
            click.echo(
                "(implementations are checked once the generated files are up to date)", err=True
            )
        sys.exit(1)
    click.echo(f"{config.out / config.package} is up to date ({count} files)")
    if config.implementations:
        _check_bindings(config)


def _check_bindings(config: Config) -> None:
    """Exit 1 when a tool has no implementation or a class does not match its interface."""
    from toolgen.binding import conformance, discovery

    try:
        found = discovery.discover(config)
    except discovery.BindingError as exc:
        fail(str(exc))
    findings = conformance.check(found)
    if findings:
        click.echo(render(findings))
        sys.exit(1)
    click.echo(
        f"{len(found.interfaces)} tools implemented in {discovery.implementations_module(config)}"
    )


@click.command()
@target_options
@click.option("--implementations", help=_IMPLEMENTATIONS_HELP)
@click.option(
    "--into",
    type=click.Path(file_okay=False),
    help="Folder for the stubs (default: the implementations').",
)
def scaffold(
    specs: str | None,
    out: str | None,
    package: str | None,
    implementations: str | None,
    into: str | None,
) -> None:
    """Write a stub implementation for each tool that has none; never overwrites a file."""
    from toolgen.binding import discovery
    from toolgen.binding import scaffold as scaffolding
    from toolgen.binding.findings import display_path

    config = _bound_config(specs, out, package, implementations)
    options = build_options(config)
    result = build_printed(config.specs, options, config.lint_disable, warnings=False)
    if not read_plan(config.out, result.files, options).clean:
        fail("the generated files are out of date: run `toolgen generate` first", 1)
    try:
        report = scaffolding.run(config, Path(into) if into else None)
    except discovery.BindingError as exc:
        fail(str(exc))
    if report.import_failures:
        click.echo(render(report.import_failures))
        fail("nothing written: the implementations must import to tell which tools have one", 1)
    where = display_path
    for stub in report.written:
        click.echo(f"wrote {where(stub.path, config.root)} ({stub.tool})")
    for stub, why in report.skipped:
        click.echo(f"skipped {where(stub.path, config.root)} ({stub.tool}): {why}")
    if report.wiring is not None:
        click.echo(
            f"wrote {where(report.wiring.path, config.root)} (the registry of the implementations)"
        )
    click.echo(
        f"{len(report.written)} written, {len(report.skipped)} skipped; "
        f"{report.bound} of {report.tools} tools already implemented"
    )
    if report.written and not report.in_package:
        click.echo(
            f"note: {discovery.implementations_module(config)} is a module, not a package: import the "
            "stubs into it, or `toolgen check` will not find them",
            err=True,
        )
