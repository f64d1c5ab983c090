"""The commands that read the specs and write nothing: `lint`, `schema` (the spec format's
JSON Schema), `export` (one provider's definitions) and `tokens` (their estimated size)."""

from __future__ import annotations

import json
import sys

import click

from toolgen.cli.common import (
    REPORT_FORMAT,
    STRICT,
    build_options,
    configured,
    fail,
    repository_path,
    warned,
)
from toolgen.config import targets
from toolgen.diagnostics import has_errors, render
from toolgen.leaves import kinds
from toolgen.pipeline import check_specs
from toolgen.progress import Progress
from toolgen.spec import spec_schema_text


@click.command()
@click.option("--specs", type=click.Path(file_okay=False), help="Directory of spec files.")
@REPORT_FORMAT
@STRICT
@click.option(
    "--notes",
    is_flag=True,
    help="List the notes too: what each provider is told less, while the runtime enforces it all.",
)
def lint(specs: str | None, fmt: str, strict: bool, notes: bool) -> None:
    """Check specs; exit 1 on errors (with --strict, on warnings too)."""
    config = configured(specs=specs)
    try:  # progress only beside text output: json and github output are read by programs
        with Progress("toolgen: linting", enabled=None if fmt == "text" else False) as progress:
            diagnostics, tools = check_specs(
                config.specs,
                progress=progress,
                disable=config.lint_disable,
                providers=targets(config.providers) if config.providers else None,
            )
    except FileNotFoundError as exc:
        fail(str(exc))
    base = repository_path(config.specs) if fmt == "github" else ""
    output = render(diagnostics, fmt, base, notes=notes)
    if output:
        click.echo(output)
    elif fmt == "text":
        click.echo(f"{len(tools)} tools, no problems")
    sys.exit(1 if has_errors(diagnostics) or (strict and warned(diagnostics)) else 0)


@click.command()
def schema() -> None:
    """Print the JSON Schema of the spec format (for editors: yaml-language-server)."""
    click.echo(spec_schema_text(), nl=False)


@click.command()
@click.option(
    "--provider",
    required=True,
    help=f"{', '.join(kinds.PROVIDERS[:-1])} or {kinds.PROVIDERS[-1]}.",
)
@click.option(
    "--strict/--no-strict",
    default=None,
    help="Strict schemas (openai, openai-responses, anthropic, bedrock).",
)
@click.option("--openapi", is_flag=True, default=None, help="Gemini: OpenAPI-subset `parameters`.")
@click.option("--specs", type=click.Path(file_okay=False), help="Directory of spec files.")
def export(provider: str, strict: bool | None, openapi: bool | None, specs: str | None) -> None:
    """Print the tool definitions for one provider as JSON; fallbacks taken go to stderr."""
    from toolgen.lower import lower
    from toolgen.providers import PROVIDERS
    from toolgen.providers import export as export_definitions
    from toolgen.providers.diagnostics import SEVERITY

    if provider not in PROVIDERS:
        fail(f"unknown provider {provider!r}; one of: {', '.join(PROVIDERS)}")
    options = {k: v for k, v in (("strict", strict), ("openapi", openapi)) if v is not None}
    config = configured(specs=specs)
    try:
        diagnostics, tools = check_specs(config.specs, disable=config.lint_disable)
    except FileNotFoundError as exc:
        fail(str(exc))
    if has_errors(diagnostics):
        click.echo(render([d for d in diagnostics if d.is_error]), err=True)
        sys.exit(1)
    try:
        result = export_definitions(
            provider,
            lower(tools, config.package).tools,
            examples_budget=config.options().examples_budget,
            **options,
        )
    except ValueError as exc:
        fail(str(exc))
    for note in result.notes:
        if note.rule in config.lint_disable:
            continue
        level = SEVERITY[note.rule].value
        click.echo(f"toolgen: {level}[{note.rule}]: {note.tool}: {note.text()}", err=True)
    click.echo(json.dumps(result.definitions, indent=2, ensure_ascii=False))


@click.command()
@click.option("--specs", type=click.Path(file_okay=False), help="Directory of spec files.")
@click.option(
    "--provider",
    "providers",
    multiple=True,
    type=click.Choice(kinds.PROVIDERS),
    help="A provider to estimate (repeatable) [default: [tool.toolgen] providers, else all].",
)
@click.option(
    "--format", "fmt", type=click.Choice(["text", "json"]), default="text", show_default=True
)
def tokens(specs: str | None, providers: tuple[str, ...], fmt: str) -> None:
    """Estimate the tokens of each tool's definition per provider (default variant), and of what
    every request sends up front."""
    from toolgen.lower import lower
    from toolgen.providers.tokens import as_json, estimate_catalogs, table

    config = configured(specs=specs)
    options = build_options(config)
    try:
        diagnostics, checked = check_specs(config.specs, exports=False, disable=config.lint_disable)
    except FileNotFoundError as exc:
        fail(str(exc))
    if has_errors(diagnostics):
        click.echo(render([d for d in diagnostics if d.is_error]), err=True)
        sys.exit(1)
    tools = lower(checked, config.package).tools
    names = [t.name for t in tools]
    deferred = [t.name for t in tools if getattr(t, "defer", False)]
    catalogs = estimate_catalogs(
        tools, tuple(dict.fromkeys(providers)) or options.providers, options.examples_budget
    )
    if fmt == "json":
        click.echo(json.dumps(as_json(catalogs, names, deferred), indent=2, ensure_ascii=False))
    else:
        click.echo(table(catalogs, names, deferred))
