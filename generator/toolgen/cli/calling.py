"""`toolgen call`: one tool run through the configured registry, its result printed as
JSON (stdout) and what the host is told besides it (events, warnings, a suspension) on stderr."""

from __future__ import annotations

import importlib
import json
import sys
from pathlib import Path
from typing import Any

import click

from toolgen.cli.common import configured, fail
from toolgen.leaves import kinds


@click.command()
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
    config = configured(out=out, package=package, implementations=implementations)
    if not config.implementations:
        fail(
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
        fail(f"cannot load implementations {config.implementations!r}: {exc}")
    try:
        registry = target() if callable(target) else target
    except ValueError as exc:  # the registry refuses to be made (a guard its specs name, ...)
        fail(f"cannot make the registry {config.implementations!r}: {exc}")
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
                fail(f"--inject {item}: cannot read a JSON object from it: {exc}")
            if not isinstance(values, dict):
                fail(f"--inject {item}: the file holds {type(values).__name__}, not a JSON object")
            out.update(values)
            continue
        key, equals, text = item.partition("=")
        if not equals or not key:
            fail(f"--inject {item!r}: write NAME=VALUE (or @FILE)")
        try:
            out[key] = json.loads(text)
        except ValueError:
            out[key] = text
    return out
