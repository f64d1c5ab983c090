"""`toolgen import`: read the source, import, write, and say what happened (exit 0, or 1 when
anything was refused or left alone because its file exists; 2 when the source cannot be read)."""

from __future__ import annotations

import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

from toolgen.diagnostics import terminal
from toolgen.importers.common import SourceError
from toolgen.importers.run import (
    ImportResult,
    atomic_write,
    existing_names,
    import_items,
    read_items,
    write_specs,
)


def run_import(
    fmt: str,
    file: str,
    out: Path,
    force: bool,
    echo: Callable[..., None],
    timeout: float | None = None,
    bind: str | None = None,
    package: str = "tools",
) -> int:
    """Import `file`; with `bind` (python only), also write the module that binds the tools
    to their functions (bind.py), for the generated package `package`."""
    echo = _escaping(echo)
    try:
        source, items = read_source(fmt, file, timeout)
        result = import_items(items, fmt, taken=existing_names(out))
    except SourceError as exc:
        echo(f"toolgen: {exc}", err=True)
        return 2
    written, skipped = write_specs(result, out, fmt, source, force=force)
    for line in summary(result, written, skipped, fmt, source, out):
        echo(line)
    for refused in result.refused:
        label = f" ({refused.name})" if refused.name else ""
        echo(f"refused: {source} {refused.origin}{label}: {refused.reason}", err=True)
    for relative in skipped:
        echo(f"skipped: {out / relative} exists (--force replaces it)", err=True)
    bound_ok = True
    if bind is not None:
        bound_ok = write_bound(bind, package, result, dict(items), force, echo)
    return 1 if result.refused or skipped or not bound_ok else 0


def write_bound(
    target: str,
    package: str,
    result: ImportResult,
    functions: dict[str, Any],
    force: bool,
    echo: Callable[..., None],
) -> bool:
    """Write the bound module `target` for the imported tools; False when a tool could not be
    bound or the module's file exists (then nothing is written)."""
    from toolgen.importers.bind import Bound, bind_source, module_file, unbindable

    bound: list[Bound] = []
    ok = True
    for imported in result.imported:
        function = functions[imported.origin]
        why = unbindable(function)
        if why is None:
            bound.append(Bound(imported.tool, function))
        else:
            ok = False
            echo(f"not bound: {imported.tool['name']}: {why}", err=True)
    target_file = module_file(target)
    if not bound:
        return ok
    if target_file.exists() and not force:
        echo(f"skipped: {target_file} exists (--force replaces it)", err=True)
        return False
    target_file.parent.mkdir(parents=True, exist_ok=True)
    atomic_write(target_file, bind_source(package, target, bound))
    count = f"{len(bound)} tool{'s' if len(bound) != 1 else ''}"
    echo(f"wrote {target_file}: {count} bound to their functions")
    echo(f'next: toolgen generate, then [tool.toolgen] implementations = "{target}:registry"')
    return ok


def _escaping(echo: Callable[..., None]) -> Callable[..., None]:
    """`echo` for lines that may hold what the source said (a server's name, a tool's name, an
    error message): control characters escaped, so each stays one plain line."""

    def escaped(line: str, **options: Any) -> None:
        echo(terminal(line), **options)

    return escaped


def read_source(
    fmt: str, file: str, timeout: float | None = None
) -> tuple[str, list[tuple[str, Any]]]:
    """(the source as headers and messages name it, its (origin, definition) items); `SourceError` when unreadable."""
    if fmt == "mcp-server":
        from toolgen.importers.mcp_server import DEFAULT_TIMEOUT, list_tools

        listing = list_tools(file, DEFAULT_TIMEOUT if timeout is None else timeout)
        server = f"{listing.server}, " if listing.server else ""
        return listing.source, [
            (f"{server}tool {i}", tool) for i, tool in enumerate(listing.tools, 1)
        ]
    if fmt == "python":
        from toolgen.importers.python import load

        return file, load(file)
    source = "<stdin>" if file == "-" else Path(file).name
    try:
        text = sys.stdin.read() if file == "-" else Path(file).read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        raise SourceError(f"cannot read {file}: {exc}") from None
    try:
        return source, read_items(text)
    except SourceError as exc:
        raise SourceError(f"{file}: {exc}") from None


def summary(
    result: ImportResult, written: list[str], skipped: list[str], fmt: str, source: str, out: Path
) -> list[str]:
    changed = [i for i in result.imported if i.notes]
    notes = sum(len(i.notes) for i in changed)
    found = len(result.imported) + len(result.refused) + len(result.duplicates)
    lines = [
        f"{source} ({fmt}): {found} tool{'s' if found != 1 else ''}: {len(written)} written to {out}, "
        f"{len(skipped)} skipped, {len(result.refused)} refused"
        + (f", {len(result.duplicates)} identical repeats left out" if result.duplicates else ""),
        f"  {len(result.imported) - len(changed)} imported unchanged, {len(changed)} with changes "
        f"({notes} noted as comments in the spec files)",
    ]
    if written:
        lines.append(f"next: toolgen lint --specs {out}")
    return lines
