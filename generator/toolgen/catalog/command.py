"""`toolgen catalog`: check and lower the specs, gather each tool's page, render the site and
write it; the exit code (0 written, 1 spec errors, 2 REF or the output cannot be used)."""

from __future__ import annotations

from collections.abc import Callable
from datetime import date
from pathlib import Path

from toolgen.catalog.changes import Changes, ChangesUnavailable, against
from toolgen.catalog.definitions import provider_views
from toolgen.catalog.pages import page
from toolgen.catalog.site import render_site
from toolgen.config import Config
from toolgen.diagnostics import has_errors, render
from toolgen.lower import lower
from toolgen.pipeline import check_specs
from toolgen.render.search_index import index_document

Echo = Callable[..., None]


def build_site(
    config: Config, ref: str | None = None, today: date | None = None, echo: Echo | None = None
) -> dict[str, str] | int:
    """The site's files, or the exit code of what stopped it (its message echoed)."""
    say = echo or (lambda *args, **kwargs: None)
    options = config.options()
    try:
        diagnostics, checked = check_specs(config.specs, exports=False, disable=config.lint_disable)
    except FileNotFoundError as exc:
        say(f"toolgen: {exc}", err=True)
        return 2
    if has_errors(diagnostics):
        say(render([d for d in diagnostics if d.is_error]), err=True)
        return 1
    tools = lower(checked, options.package).tools
    changes: Changes | None = None
    if ref is not None:
        try:
            changes = against(config, ref, {t.name for t in tools}, today)
        except ChangesUnavailable as exc:
            say(f"toolgen: {exc}", err=True)
            return 2
    views, costs = provider_views(tools, options.providers, options.examples_budget)
    by_name = {c.name: c for c in checked}
    pages = [
        page(t, by_name[t.name], views[t.name], changes.by_tool.get(t.name, ()) if changes else ())
        for t in tools
    ]
    index = index_document(tools, examples_budget=options.examples_budget)
    return render_site(pages, costs, index, changes, f"{options.package}: tool catalog")


def write_site(files: dict[str, str], out: Path) -> int:
    """Write the files under `out` (only those whose text changed) and remove the pages of
    tools no longer there; the number of files written."""
    written = 0
    for relative, text in files.items():
        path = out / relative
        path.parent.mkdir(parents=True, exist_ok=True)
        if not path.is_file() or path.read_text("utf-8") != text:
            path.write_text(text, "utf-8", newline="\n")
            written += 1
    pages = out / "tools"
    for old in sorted(pages.glob("*.html")) if pages.is_dir() else []:
        if f"tools/{old.name}" not in files:
            old.unlink()
    return written


def run_catalog(config: Config, out: Path, ref: str | None, today: date | None, echo: Echo) -> int:
    files = build_site(config, ref, today, echo)
    if isinstance(files, int):
        return files
    try:
        written = write_site(files, out)
    except OSError as exc:
        echo(f"toolgen: cannot write the catalog to {out}: {exc}", err=True)
        return 2
    pages = sum(p.startswith("tools/") for p in files)
    echo(f"toolgen: catalog of {pages} tools in {out} ({written} files written)", err=True)
    return 0
