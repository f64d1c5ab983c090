"""The commands of the side features: `breaking` (what changed since a revision breaks),
`catalog` (a static site of the tools) and `import` (specs from foreign definitions). Each
parses its flags here and runs its feature's own command module."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

import click

from toolgen.cli.common import REPORT_FORMAT, configured, fail, repository_path
from toolgen.importers import FORMAT_NAMES as IMPORT_FORMATS


@click.command()
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
@REPORT_FORMAT
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

    config = configured(specs=specs)
    base = repository_path(config.specs) if fmt == "github" and config.specs.is_dir() else ""
    sys.exit(
        run_breaking(
            config, against, fmt, fail_on, today.date() if today else None, base, click.echo
        )
    )


@click.command()
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

    config = configured(specs=specs)
    sys.exit(run_catalog(config, Path(out), against, None, click.echo))


@click.command("import")
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
        fail("--timeout applies to --from mcp-server only")
    if (bind is not None or package is not None) and fmt != "python":
        fail("--bind and --package apply to --from python only")
    if bind is not None and not all(part.isidentifier() for part in bind.split(".")):
        fail(f"--bind {bind!r} is not a dotted module name (such as impls.flights)")
    config = configured(specs=out, package=package)
    sys.exit(run_import(fmt, file, config.specs, force, click.echo, timeout, bind, config.package))
