"""Binding findings as diagnostics: located at the class or function they are about (its
file, line and column), or where importing an implementations module failed; files shown
relative to the project root."""

from __future__ import annotations

import inspect
import sys
import traceback
from pathlib import Path
from typing import Any

from toolgen.diagnostics import Diagnostic, Severity

RULE = "binding"


def display_path(file: str | Path, root: Path) -> str:
    """`file` relative to the project root when it is under it (as diagnostics show files), else absolute."""
    path = Path(file).resolve()
    return (
        path.relative_to(root.resolve()).as_posix()
        if path.is_relative_to(root.resolve())
        else str(path)
    )


def located(obj: Any, root: Path, message: str, hint: str) -> Diagnostic:
    """A binding error located at a class or function (file, line and column of its definition)."""
    try:
        file = inspect.getsourcefile(obj) or inspect.getfile(obj)
        lines, line = inspect.getsourcelines(obj)
        col = len(lines[0]) - len(lines[0].lstrip()) + 1
    except (OSError, TypeError):
        module = sys.modules.get(getattr(obj, "__module__", ""))
        file, line, col = getattr(module, "__file__", None) or "<unknown>", 1, 1
    return Diagnostic(
        display_path(file, root), max(line, 1), col, RULE, Severity.ERROR, message, hint=hint
    )


def import_failure(module: str, exc: BaseException, root: Path) -> Diagnostic:
    """Where importing `module` failed: a syntax error's position, else the innermost frame under root."""
    if isinstance(exc, SyntaxError) and exc.filename:
        file, line, col = exc.filename, exc.lineno or 1, exc.offset or 1
    else:
        frames = [f for f in traceback.extract_tb(exc.__traceback__) if Path(f.filename).is_file()]
        ours = [
            f for f in frames if Path(f.filename).resolve().is_relative_to(root.resolve())
        ] or frames
        file, line, col = (ours[-1].filename, ours[-1].lineno or 1, 1) if ours else (module, 1, 1)
    return Diagnostic(
        display_path(file, root),
        line,
        col,
        RULE,
        Severity.ERROR,
        f"cannot import {module}: {type(exc).__name__}: {exc}",
        hint="toolgen check imports every module of the implementations; fix this one "
        "(tools are not checked for missing implementations until it imports)",
    )
