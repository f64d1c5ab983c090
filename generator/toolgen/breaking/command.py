"""`toolgen breaking`: read both sides, compare, print, and the exit code (0, 1, or 2)."""

from __future__ import annotations

from collections.abc import Callable
from datetime import date

from toolgen.breaking import sources
from toolgen.breaking.engine import compare
from toolgen.breaking.report import Report, render
from toolgen.breaking.settings import Settings, parse
from toolgen.config import Config

Echo = Callable[..., None]


def run_breaking(
    config: Config,
    against: str,
    fmt: str,
    fail_on: str | None,
    today: date | None,
    base: str,
    echo: Echo,
) -> int:
    """`base`: the specs root from the repository root (GitHub annotations need it)."""
    try:
        settings = parse(config.breaking, fail_on)
    except ValueError as exc:
        echo(f"toolgen: {exc}", err=True)
        return 2
    if not config.specs.is_dir():
        echo(f"toolgen: specs directory not found: {config.specs}", err=True)
        return 2
    try:
        report = compared(config, against, settings, today)
    except sources.Unreadable as exc:
        echo(f"toolgen: cannot read --against {sources.shown(against)}: {exc}", err=True)
        return 2
    echo(render(report, fmt, base))
    return 1 if report.failures(settings.fails) else 0


def compared(config: Config, against: str, settings: Settings, today: date | None) -> Report:
    """The report of the specs against REF (`sources.Unreadable` when REF cannot be read);
    the version declared in the project's pyproject.toml is checked when it states one."""
    pyproject = config.root / "pyproject.toml"
    known = pyproject if pyproject.is_file() else None
    after = sources.current(config.specs, known if config.version_declared else None)
    before = sources.previous(against, config.specs, known, after)
    return compare(before, after, settings, today)
