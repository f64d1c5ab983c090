"""One side of a comparison as `toolgen breaking` reads it: its tools (`ToolEntry`, spec-shaped
and typed), where each value is written (`Place`), what could not be loaded, its declared
version; `Unreadable` when the previous side cannot be read at all, and REF as a message
shows it. Where each kind of side comes from: breaking/sources.py (a directory),
from_package.py (a generated package), from_git.py (a git revision).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from functools import cached_property
from pathlib import Path
from typing import Any

from toolgen.breaking import typed
from toolgen.breaking.versions import pyproject_version
from toolgen.diagnostics import Diagnostic, terminal
from toolgen.load.document import Document
from toolgen.load.specs import Reuse, SpecSet, ToolSource
from toolgen.schema.pointer import child
from toolgen.spec.model import ToolSpec

SPECS, GIT, PACKAGE = "specs", "git", "package"


class Unreadable(Exception):
    """The previous side cannot be read at all (exit 2)."""


@dataclass(frozen=True)
class Place:
    """A value of one side: the document and the JSON pointer where it is written."""

    doc: Document
    pointer: str

    def position(self) -> tuple[int, int]:
        """Where the key is (a list item: where the item is); an absent one: its nearest ancestor."""
        source = self.doc.source
        return (
            source.keys.get(self.pointer)
            or source.values.get(self.pointer)
            or source.position(self.pointer)
        )


@dataclass(frozen=True)
class ToolEntry:
    """One tool of one side: spec-shaped (`data`) and typed (`spec`), and where its keys are
    written."""

    name: str
    data: Mapping[str, Any]
    source: ToolSource
    keys: Mapping[str, str] = field(
        default_factory=dict
    )  # spec key -> the key written (a package's MCP names)

    @property
    def doc(self) -> Document:
        return self.source.doc

    @cached_property
    def spec(self) -> ToolSpec:
        """The entry as the spec model reads it, parsed once (leniently where it must be)."""
        return typed.parse(self.data)

    def at(self, key: str = "", *rest: str | int) -> Place:
        if not key:
            return Place(self.doc, self.source.pointer)
        pointer = child(self.source.pointer, self.keys.get(key, key))
        for part in rest:
            pointer = child(pointer, part)
        return Place(self.doc, pointer)


@dataclass
class Side:
    kind: str  # specs, git or package
    label: str  # what the previous side's paths start with: "HEAD~1:schemas/", "old/specs/"
    tools: list[ToolEntry]
    problems: list[Diagnostic]
    specs: SpecSet | None = None  # for `$ref` bundling (None: a package, whose schemas are bundled)
    version: str | None = None  # the spec set's declared version
    version_at: tuple[str, int] | None = (
        None  # (file, line) of it, the file relative to the specs root
    )

    @property
    def complete(self) -> bool:
        """Whether the side has every key of the spec format (a generated package does not)."""
        return self.kind != PACKAGE

    def where(self, place: Place) -> str:
        line, col = place.position()
        return f"{self.label}{place.doc.display}:{line}:{col}"


def _tools(specs: SpecSet) -> list[ToolEntry]:
    return [
        ToolEntry(t.data["name"], t.data, t)
        for t in specs.tools
        if isinstance(t.data.get("name"), str)
    ]


def side_of(kind: str, label: str, specs: SpecSet) -> Side:
    return Side(kind, label, _tools(specs), list(specs.diagnostics), specs)


def version_from(side: Side, text: str | None, display: str, generated: bool = False) -> None:
    found = pyproject_version(text, generated) if text is not None else None
    if found is not None:
        side.version, side.version_at = found[0], (display, found[1])


def sharing(current: Side | None) -> Reuse | None:
    """A `reuse` for loading the previous side: the current side's document of the same path,
    when the file has the same bytes (read again from disk to tell)."""
    if current is None or current.specs is None:
        return None
    documents = {doc.display: doc for doc in current.specs.documents}

    def reuse(path: Path, display: str, raw: bytes) -> Document | None:
        doc = documents.get(display)
        if doc is None:
            return None
        try:
            same = doc.path.stat().st_size == len(raw) and doc.path.read_bytes() == raw
        except OSError:
            return None
        return doc if same else None

    return reuse


def shown(ref: str, limit: int = 60) -> str:
    """`ref` as a message shows it, on one line: cut to `limit` characters, control characters
    escaped (a REF comes from the command line, and may be anything)."""
    return terminal(ref[:limit] + ("..." if len(ref) > limit else ""))
