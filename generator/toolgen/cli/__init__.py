"""The toolgen command line. Exit codes: 0 ok, 1 findings (diagnostics, drift), 2 usage or environment.

`main` is the click group (the `toolgen` console script); each command lives in the module
of its group: cli/output.py (generate, check, scaffold), cli/specs.py (lint, schema, export,
tokens), cli/features.py (breaking, catalog, import), cli/calling.py (call); what they share
is in cli/common.py."""

from __future__ import annotations

import click

from toolgen import __version__
from toolgen.cli.calling import call
from toolgen.cli.features import breaking, catalog, import_
from toolgen.cli.output import check, generate, scaffold
from toolgen.cli.specs import export, lint, schema, tokens


@click.group()
@click.version_option(__version__, prog_name="toolgen")
def main() -> None:
    """toolgen: typed, validated, provider-portable tool packages from tool specs."""


for command in (
    generate,
    check,
    scaffold,
    lint,
    schema,
    export,
    tokens,
    breaking,
    catalog,
    import_,
    call,
):
    main.add_command(command)
