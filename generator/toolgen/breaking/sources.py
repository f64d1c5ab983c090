"""The two sides of a comparison, read with toolgen's own loader (so every value has its line).

The current side is the specs directory. The previous one (`--against REF`) is, in this
order: a generated package (a folder holding `definitions/mcp.json`, or one package folder
that does: from_package.py), a directory of specs, or a git revision, read through git
without a checkout (from_git.py). What a side holds is breaking/side.py's; this module
re-exports it for the command, the catalog and the tests.
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from pathlib import Path

from toolgen.breaking.from_git import revision
from toolgen.breaking.from_package import package
from toolgen.breaking.side import (
    GIT,
    PACKAGE,
    SPECS,
    Place,
    Side,
    ToolEntry,
    Unreadable,
    sharing,
    shown,
    side_of,
    version_from,
)
from toolgen.diagnostics import Diagnostic, Severity
from toolgen.load.document import LoadError, load_bytes
from toolgen.load.specs import SpecSet, entries, load_specs

__all__ = [  # what the command, the catalog and the tests read of a side, with the readers
    "GIT",
    "PACKAGE",
    "SPECS",
    "Place",
    "Side",
    "ToolEntry",
    "Unreadable",
    "current",
    "directory",
    "from_texts",
    "package",
    "previous",
    "revision",
    "shown",
]


def current(root: Path, pyproject: Path | None = None) -> Side:
    """The specs directory; its version from `pyproject` ([tool.toolgen] version), when given."""
    side = side_of(SPECS, "", load_specs(root))
    if pyproject is not None:
        version_from(
            side, pyproject.read_text("utf-8"), Path(os.path.relpath(pyproject, root)).as_posix()
        )
    return side


def previous(
    ref: str, root: Path, pyproject: Path | None = None, current: Side | None = None
) -> Side:
    """`--against REF` (see the module's docstring for how REF is read); Unreadable when it cannot be.
    A file with the same path and bytes as one of `current`'s is parsed once, for both sides."""
    folder = Path(ref)
    try:
        is_folder = folder.is_dir()
    except OSError:  # a name the OS cannot use as a path (too long): perhaps a revision
        is_folder = False
    if is_folder:
        definitions = folder / "definitions" / "mcp.json"
        packages = sorted(folder.glob("*/definitions/mcp.json"))
        if definitions.is_file() or len(packages) == 1:
            return package(definitions if definitions.is_file() else packages[0], ref)
        return directory(folder, ref, pyproject, current)
    return revision(ref, root, pyproject, current)


def directory(
    folder: Path, ref: str, pyproject: Path | None = None, current: Side | None = None
) -> Side:
    side = side_of(SPECS, ref.rstrip("/") + "/", load_specs(folder, reuse=sharing(current)))
    from toolgen.config import find_pyproject

    theirs = find_pyproject(folder.resolve())
    if theirs is not None and (pyproject is None or theirs.resolve() != pyproject.resolve()):
        version_from(side, theirs.read_text("utf-8"), theirs.as_posix())
    return side


def from_texts(files: Mapping[str, str | bytes], label: str = "", root: Path = Path(".")) -> Side:
    """A side from file texts by path (relative to the specs root), parsed as the loader parses
    files: the property tests' sides, with no file system."""
    documents, problems = [], []
    for display, text in sorted(files.items()):
        raw = text.encode("utf-8") if isinstance(text, str) else text
        try:
            documents.append(load_bytes(raw, root / display, display))
        except LoadError as exc:
            problems.append(
                Diagnostic(
                    display, exc.line, exc.col, exc.rule, Severity.ERROR, exc.message, "", exc.hint
                )
            )
    specs = SpecSet(
        root, documents, [entry for doc in documents for entry in entries(doc)], problems
    )
    return side_of(SPECS, label, specs)
