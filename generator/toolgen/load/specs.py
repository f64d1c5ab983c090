"""Find spec files under a root, load them, and split them into tool entries."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any

from toolgen.diagnostics import Diagnostic, Severity
from toolgen.load.document import Document, LoadError, load_file

SPEC_SUFFIXES = (".yaml", ".yml", ".json")


@dataclass(frozen=True)
class ToolSource:
    """One tool entry inside a document: `/` for a one-tool file, `/tools/3` in a list."""

    doc: Document
    pointer: str
    data: dict[str, Any]

    def at(self, relative: str) -> str:
        return self.pointer + relative


@dataclass
class SpecSet:
    root: Path
    documents: list[Document]
    tools: list[ToolSource]
    diagnostics: list[Diagnostic]

    def document(self, display: str) -> Document | None:
        return next((d for d in self.documents if d.display == display), None)


def discover(root: Path) -> list[Path]:
    """Spec files under root in a stable order (independent of the file system's)."""
    files = [
        p
        for p in root.rglob("*")
        if p.suffix.lower() in SPEC_SUFFIXES
        and p.is_file()
        and not any(part.startswith(".") for part in p.relative_to(root).parts)
    ]
    return sorted(files, key=lambda p: p.relative_to(root).as_posix())


def is_tool_document(data: Any) -> bool:
    """Files holding only shared `$defs` (referenced from other files) define no tool."""
    return isinstance(data, dict) and ("name" in data or "tools" in data or "parameters" in data)


def load_specs(root: Path) -> SpecSet:
    documents: list[Document] = []
    tools: list[ToolSource] = []
    diagnostics: list[Diagnostic] = []
    for path in discover(root):
        display = path.relative_to(root).as_posix()
        try:
            doc = load_file(path, display)
        except LoadError as exc:
            diagnostics.append(Diagnostic(display, exc.line, exc.col, "syntax", Severity.ERROR, exc.message, "", exc.hint))
            continue
        documents.append(doc)
        data = doc.data
        if not is_tool_document(data):
            continue
        if isinstance(data.get("tools"), list):
            for i, entry in enumerate(data["tools"]):
                if isinstance(entry, dict):
                    tools.append(ToolSource(doc, f"/tools/{i}", entry))
        elif "tools" not in data:
            tools.append(ToolSource(doc, "", data))
    return SpecSet(root=root, documents=documents, tools=tools, diagnostics=diagnostics)
