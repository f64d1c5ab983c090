"""The toolgen command line. Exit codes: 0 ok, 1 findings (diagnostics, drift), 2 usage or environment."""

from __future__ import annotations

import importlib
import json
import os
import sys
from collections.abc import Callable, Sequence
from dataclasses import replace
from pathlib import Path
from typing import Any, NoReturn, TypeVar

import click

from toolgen import __version__
from toolgen.config import BuildOptions, Config, load_config, targets
from toolgen.diagnostics import Diagnostic, Severity, has_errors, render
from toolgen.importers import FORMAT_NAMES as IMPORT_FORMATS
from toolgen.leaves import kinds
from toolgen.outlock import WriteError, locked
from toolgen.pipeline import Build, build, check_specs, remember
from toolgen.progress import Progress
from toolgen.spec import spec_schema_text
from toolgen.write import Plan, diff, os_problem, pending, plan, write

F = TypeVar("F", bound=Callable[..., Any])


def _fail(message: str, code: int = 2) -> NoReturn:
    click.echo(f"toolgen: {message}", err=True)
    sys.exit(code)


def _config(**flags: Any) -> Config:
    try:
        config = load_config().override(**flags)
    except (ValueError, OSError) as exc:
        _fail(str(exc))
    _options(config)  # every command refuses invalid build options, whether it builds or not
    if config.lint_disable:
        from toolgen.check.catalogue import validate_disabled

        try:
            validate_disabled(config.lint_disable)
        except ValueError as exc:
            _fail(str(exc))
    return config


def _options(config: Config) -> BuildOptions:
    try:
        return config.options()
    except ValueError as exc:
        _fail(str(exc))


def _target_options(function: F) -> F:
    function = click.option("--package", help="Import name of the generated package.")(function)
    function = click.option("--out", type=click.Path(file_okay=False), help="Output directory.")(
        function
    )
    function = click.option(
        "--specs", type=click.Path(file_okay=False), help="Directory of spec files."
    )(function)
    return function


def _build(
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
        _fail(str(exc))
    if not all(d.is_note for d in result.diagnostics):  # notes alone are lint's to list
        click.echo(render(result.diagnostics, warnings=warnings), err=True)
    if not result.ok:
        sys.exit(1)
    if strict and _warned(result.diagnostics):
        _fail("warnings count as errors (--strict)", 1)
    return result


def _warned(diagnostics: Sequence[Diagnostic]) -> bool:
    """Whether `--strict` fails: a warning (notes are what a provider is told, never a failure)."""
    return any(d.severity is Severity.WARNING for d in diagnostics)


@click.group()
@click.version_option(__version__, prog_name="toolgen")
def main() -> None:
    """toolgen: typed, validated, provider-portable tool packages from tool specs."""


@main.command()
@_target_options
def generate(specs: str | None, out: str | None, package: str | None) -> None:
    """Write the package to OUT/PACKAGE and OUT/pyproject.toml."""
    config = _config(specs=specs, out=out, package=package)
    options = _options(config)
    result = _build(config.specs, options, config.lint_disable, out=config.out)
    assert result.tools is not None  # _build exits on errors
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
            _fail(str(exc))
        except OSError as exc:  # the output folder itself cannot be made
            _fail(os_problem(exc, config.out))
        if changes.clean:  # files just written are too recent for their marks to be trusted
            remember(config.specs, options, config.out, result)
        written, removed = len(changes.changed) + len(changes.missing), len(changes.orphans)
        unchanged = len(result.files) - written
    click.echo(
        f"{len(result.tools)} tools -> {config.out / config.package} "
        f"({written} written, {removed} removed, {unchanged} unchanged)"
    )


def _read_plan(out: Path, files: dict[str, str], options: BuildOptions) -> Plan:
    """The plan against the output on disk, never writing: waits for a writing run to finish,
    and exits 1 when an interrupted one left a swap for the next `generate` to complete."""
    try:
        with locked(out, shared=True):
            if pending(out):
                _fail(
                    f"an interrupted generation left {out} part-way: run `toolgen generate` to complete it",
                    1,
                )
            return plan(out, files, options)
    except WriteError as exc:
        _fail(str(exc))
    except OSError as exc:
        _fail(f"cannot read the output in {out}: {exc.strerror or exc}")


DIFF_LINES = 40  # of `check`'s diff, by default: enough to see what changed, not a flood
_IMPLEMENTATIONS_HELP = "module:attribute of the implementations (default: the configured ones, for the configured package)."
_STRICT = click.option(
    "--strict",
    "--warnings-as-errors",
    "strict",
    is_flag=True,
    help="Exit 1 on warnings too (the ones not disabled in [tool.toolgen.lint]).",
)


def _bound_config(
    specs: str | None, out: str | None, package: str | None, implementations: str | None
) -> Config:
    """Flags over the configuration. The configured implementations import the configured package
    by name, so `--package OTHER` leaves them out unless `--implementations` is given too."""
    config = _config(specs=specs, out=out, package=package, implementations=implementations)
    if implementations is None and config.implementations and config.package != _config().package:
        config = replace(config, implementations=None)
    return config


@main.command()
@_target_options
@click.option("--implementations", help=_IMPLEMENTATIONS_HELP)
@_STRICT
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
    options = _options(config)
    result = _build(config.specs, options, config.lint_disable, strict, False, config.out)
    if result.intact is not None:  # as the last `generate` left it: nothing to compare
        changes, count = Plan(), result.intact
    else:
        changes, count = _read_plan(config.out, result.files, options), len(result.files)
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
    from toolgen.binding import conformance as binding

    try:
        discovery = binding.discover(config)
    except binding.BindingError as exc:
        _fail(str(exc))
    findings = binding.check(discovery)
    if findings:
        click.echo(render(findings))
        sys.exit(1)
    click.echo(
        f"{len(discovery.interfaces)} tools implemented in {binding.implementations_module(config)}"
    )


@main.command()
@_target_options
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
    from toolgen.binding import conformance as binding
    from toolgen.binding import scaffold as scaffolding

    config = _bound_config(specs, out, package, implementations)
    options = _options(config)
    result = _build(config.specs, options, config.lint_disable, warnings=False)
    if not _read_plan(config.out, result.files, options).clean:
        _fail("the generated files are out of date: run `toolgen generate` first", 1)
    try:
        report = scaffolding.run(config, Path(into) if into else None)
    except binding.BindingError as exc:
        _fail(str(exc))
    if report.import_failures:
        click.echo(render(report.import_failures))
        _fail("nothing written: the implementations must import to tell which tools have one", 1)
    where = binding.display_path
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
            f"note: {binding.implementations_module(config)} is a module, not a package: import the "
            "stubs into it, or `toolgen check` will not find them",
            err=True,
        )


@main.command()
@click.option("--specs", type=click.Path(file_okay=False), help="Directory of spec files.")
@click.option(
    "--format",
    "fmt",
    type=click.Choice(["text", "json", "github"]),
    default="text",
    show_default=True,
)
@_STRICT
@click.option(
    "--notes",
    is_flag=True,
    help="List the notes too: what each provider is told less, while the runtime enforces it all.",
)
def lint(specs: str | None, fmt: str, strict: bool, notes: bool) -> None:
    """Check specs; exit 1 on errors (with --strict, on warnings too)."""
    config = _config(specs=specs)
    try:  # progress only beside text output: json and github output are read by programs
        with Progress("toolgen: linting", enabled=None if fmt == "text" else False) as progress:
            diagnostics, tools = check_specs(
                config.specs,
                progress=progress,
                disable=config.lint_disable,
                providers=targets(config.providers) if config.providers else None,
            )
    except FileNotFoundError as exc:
        _fail(str(exc))
    base = _repository_path(config.specs) if fmt == "github" else ""
    output = render(diagnostics, fmt, base, notes=notes)
    if output:
        click.echo(output)
    elif fmt == "text":
        click.echo(f"{len(tools)} tools, no problems")
    sys.exit(1 if has_errors(diagnostics) or (strict and _warned(diagnostics)) else 0)


@main.command()
@click.option(
    "--against",
    required=True,
    metavar="REF",
    help="The previous spec set: a git revision (origin/main, HEAD~1, a tag), a directory of specs, "
    "or a generated package.",
)
@click.option(
    "--specs", type=click.Path(file_okay=False), help="Directory of spec files (the current side)."
)
@click.option(
    "--format",
    "fmt",
    type=click.Choice(["text", "json", "github"]),
    default="text",
    show_default=True,
)
@click.option(
    "--fail-on",
    type=click.Choice(["error", "warning"]),
    default=None,
    help="Exit 1 on findings of this severity or worse [default: [tool.toolgen.breaking] fail_on, else error].",
)
@click.option(
    "--today",
    type=click.DateTime(formats=["%Y-%m-%d"]),
    default=None,
    metavar="YYYY-MM-DD",
    help="The day sunsets are compared with [default: today].",
)
def breaking(against: str, specs: str | None, fmt: str, fail_on: str | None, today: Any) -> None:
    """Report what changed in the specs since REF that breaks callers, implementations or consumers."""
    from toolgen.breaking.command import run_breaking

    config = _config(specs=specs)
    base = _repository_path(config.specs) if fmt == "github" and config.specs.is_dir() else ""
    sys.exit(
        run_breaking(
            config, against, fmt, fail_on, today.date() if today else None, base, click.echo
        )
    )


@main.command()
@click.option("--specs", type=click.Path(file_okay=False), help="Directory of spec files.")
@click.option(
    "--out",
    type=click.Path(file_okay=False),
    default="catalog",
    show_default=True,
    help="Where the site is written.",
)
@click.option(
    "--against", metavar="REF", help="Show what changed since REF (as `toolgen breaking` reads it)."
)
def catalog(specs: str | None, out: str, against: str | None) -> None:
    """Write a static site of the tools: an index with search, a page per tool, each provider's
    definitions and token estimates, and with --against what changed."""
    from toolgen.catalog.command import run_catalog

    config = _config(specs=specs)
    sys.exit(run_catalog(config, Path(out), against, None, click.echo))


def _repository_path(folder: Path) -> str:
    """`folder` as a path from the root of its git repository (the nearest folder holding
    `.git`), else from the current directory: where GitHub looks for an annotated file.
    Empty (paths stay relative to `folder`) when it is in neither."""
    here = folder.resolve()
    root = next((p for p in (here, *here.parents) if (p / ".git").exists()), Path.cwd().resolve())
    relative = Path(os.path.relpath(here, root)).as_posix()
    return "" if relative.startswith("..") else relative


@main.command()
def schema() -> None:
    """Print the JSON Schema of the spec format (for editors: yaml-language-server)."""
    click.echo(spec_schema_text(), nl=False)


@main.command("import")
@click.option(
    "--from", "fmt", type=click.Choice(IMPORT_FORMATS), required=True, help="Format of FILE."
)
@click.argument("file")
@click.option(
    "--out",
    type=click.Path(file_okay=False),
    help="Where to write the specs (default: the specs directory).",
)
@click.option("--force", is_flag=True, help="Replace spec files that already exist.")
@click.option(
    "--timeout",
    type=click.FloatRange(min=0, min_open=True),
    metavar="SECONDS",
    help="mcp-server: the limit for starting or reaching the server and listing its tools [default: 30].",
)
@click.option(
    "--bind",
    metavar="MODULE",
    help="python: also write MODULE (dotted, from the current folder), the implementations "
    "that call the functions.",
)
@click.option("--package", help="--bind: the generated package to bind (default: configured).")
def import_(
    fmt: str,
    file: str,
    out: str | None,
    force: bool,
    timeout: float | None,
    bind: str | None,
    package: str | None,
) -> None:
    """Write one spec per tool from existing definitions.

    FILE is a JSON list or JSON Lines file (`-`: stdin); for mcp-server, a command that starts
    a stdio server ('npx -y @modelcontextprotocol/server-everything') or an http(s) URL; for
    python, 'package.module:function' or 'package.module' (importing it runs its code).
    """
    from toolgen.importers.command import run_import

    if timeout is not None and fmt != "mcp-server":
        _fail("--timeout applies to --from mcp-server only")
    if (bind is not None or package is not None) and fmt != "python":
        _fail("--bind and --package apply to --from python only")
    if bind is not None and not all(part.isidentifier() for part in bind.split(".")):
        _fail(f"--bind {bind!r} is not a dotted module name (such as impls.flights)")
    config = _config(specs=out, package=package)
    sys.exit(run_import(fmt, file, config.specs, force, click.echo, timeout, bind, config.package))


@main.command()
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
        _fail(f"unknown provider {provider!r}; one of: {', '.join(PROVIDERS)}")
    options = {k: v for k, v in (("strict", strict), ("openapi", openapi)) if v is not None}
    config = _config(specs=specs)
    try:
        diagnostics, tools = check_specs(config.specs, disable=config.lint_disable)
    except FileNotFoundError as exc:
        _fail(str(exc))
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
        _fail(str(exc))
    for note in result.notes:
        if note.rule in config.lint_disable:
            continue
        level = SEVERITY[note.rule].value
        click.echo(f"toolgen: {level}[{note.rule}]: {note.tool}: {note.text()}", err=True)
    click.echo(json.dumps(result.definitions, indent=2, ensure_ascii=False))


@main.command()
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

    config = _config(specs=specs)
    options = _options(config)
    try:
        diagnostics, checked = check_specs(config.specs, exports=False, disable=config.lint_disable)
    except FileNotFoundError as exc:
        _fail(str(exc))
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


@main.command()
@click.argument("name")
@click.argument("arguments", default="{}")
@click.option("--out", type=click.Path(file_okay=False), help="Where the generated package is.")
@click.option("--package", help="Import name of the generated package.")
@click.option(
    "--implementations", help="module:attribute of a Registry, or of a function returning one."
)
@click.option(
    "--inject",
    "injections",
    multiple=True,
    metavar="NAME=VALUE",
    help="An injected value (repeatable); VALUE is JSON, or else a string. @FILE reads a JSON object of them.",
)
@click.option(
    "--verbose", is_flag=True, help="Also print the host-side exception of a failure (stderr)."
)
@click.option("--approve", is_flag=True, help="Approve the call if its tool requires approval.")
@click.option(
    "--answer", metavar="TEXT", help="The answer to a question the tool asks (a suspended call)."
)
def call(
    name: str,
    arguments: str,
    out: str | None,
    package: str | None,
    implementations: str | None,
    injections: tuple[str, ...],
    verbose: bool,
    approve: bool,
    answer: str | None,
) -> None:
    """Run one tool through the generated registry and print its result as JSON.

    The result alone goes to stdout (for a pipe); what the host is told besides it (the
    repairs of the arguments' text, deprecations, a streaming tool's events, what a suspended
    call waits for) goes to stderr."""
    config = _config(out=out, package=package, implementations=implementations)
    if not config.implementations:
        _fail(
            "no implementations configured: set [tool.toolgen] implementations = 'module:attribute'"
        )
    injected = _injected(injections)
    for path in (str(config.out), str(config.root)):
        if path not in sys.path:
            sys.path.insert(0, path)
    module_name, _, attribute = config.implementations.partition(":")
    try:
        target = getattr(importlib.import_module(module_name), attribute or "registry")
    except (ImportError, AttributeError) as exc:
        _fail(f"cannot load implementations {config.implementations!r}: {exc}")
    try:
        registry = target() if callable(target) else target
    except ValueError as exc:  # the registry refuses to be made (a guard its specs name, ...)
        _fail(f"cannot make the registry {config.implementations!r}: {exc}")
    result = registry.call(name, arguments, injected=injected or None, on_event=_print_event)
    waiting = getattr(result, "suspended", None)
    if waiting is not None and waiting.reason == "approval" and approve:
        result = registry.resume(waiting, approved=True, injected=injected or None)
    elif waiting is not None and waiting.reason == "question" and answer is not None:
        result = registry.resume(waiting, answer=answer, injected=injected or None)
    for warning in getattr(result, "warnings", ()):  # repairs and deprecations: the host's
        click.echo(f"toolgen: warning: {warning}", err=True)
    if getattr(result, "suspended", None) is not None:
        again = "--approve" if result.suspended.reason == "approval" else "--answer TEXT"
        click.echo(f"toolgen: {result.suspended.prompt} (call again with {again})", err=True)
    click.echo(json.dumps(result.to_dict(), indent=2, ensure_ascii=False))
    if verbose and result.exception is not None:
        import traceback

        click.echo("".join(traceback.format_exception(result.exception)), err=True, nl=False)
    sys.exit(0 if result.ok else 1)


def _print_event(event: Any) -> None:
    """A streaming tool's event, as it comes: one JSON line on stderr (media by their size)."""
    shown = (
        dict(event.as_json())
        if callable(getattr(event, "as_json", None))
        else {"type": repr(event)}
    )
    if shown.get("type") in kinds.MEDIA and isinstance(shown.get("data"), str):
        shown["data"] = f"<{len(shown['data']):,} base64 characters>"
    click.echo(json.dumps(shown, ensure_ascii=False), err=True)


def _injected(injections: tuple[str, ...]) -> dict[str, Any]:
    """`--inject` values: NAME=VALUE (JSON, else the text as a string) or @FILE (a JSON object)."""
    out: dict[str, Any] = {}
    for item in injections:
        if item.startswith("@"):
            try:
                values = json.loads(Path(item[1:]).read_text("utf-8"))
            except (OSError, ValueError) as exc:
                _fail(f"--inject {item}: cannot read a JSON object from it: {exc}")
            if not isinstance(values, dict):
                _fail(f"--inject {item}: the file holds {type(values).__name__}, not a JSON object")
            out.update(values)
            continue
        key, equals, text = item.partition("=")
        if not equals or not key:
            _fail(f"--inject {item!r}: write NAME=VALUE (or @FILE)")
        try:
            out[key] = json.loads(text)
        except ValueError:
            out[key] = text
    return out
