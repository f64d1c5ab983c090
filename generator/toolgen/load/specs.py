"""Find spec files under a root, load them, and split them into tool entries."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any

from toolgen.diagnostics import Diagnostic, Severity
from toolgen.load.document import Document, LoadError, load_file
from toolgen.load.files import SPEC_SUFFIXES, Limits, admit, discover, too_large

__all__ = ["SPEC_SUFFIXES", "SpecSet", "ToolSource", "discover", "is_tool_document", "load_specs"]


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


def is_tool_document(data: Any) -> bool:
    """Files holding only shared `$defs` (referenced from other files) define no tool."""
    return isinstance(data, dict) and ("name" in data or "tools" in data or "parameters" in data)


def load_specs(root: Path, limits: Limits | None = None) -> SpecSet:
    """Every spec file under root, within the limits (load/files.py); refusals are diagnostics."""
    limits = limits or Limits.from_env()
    documents: list[Document] = []
    tools: list[ToolSource] = []
    diagnostics: list[Diagnostic] = []
    paths = discover(root, limits.files)
    if len(paths) > limits.files:
        message = f"more than {limits.files} spec files under the specs root"
        hint = "split the specs into several roots, or raise the limit with TOOLGEN_MAX_SPEC_FILES"
        return SpecSet(root, [], [], [Diagnostic(".", 1, 1, "input-too-large", Severity.ERROR, message, "", hint)])
    total = 0
    for path in paths:
        display = path.relative_to(root).as_posix()
        try:
            size = admit(path, root).st_size
            if size > limits.file_bytes:
                raise too_large(size, limits.file_bytes)
            if total + size > limits.input_bytes:
                raise LoadError(1, 1, f"spec files together are larger than {limits.input_bytes} bytes",
                                "split the specs into several roots, or raise the limit with TOOLGEN_MAX_INPUT_BYTES",
                                rule="input-too-large")
            doc = load_file(path, display, root=root, limit=limits.file_bytes)
            total += size
        except LoadError as exc:
            diagnostics.append(Diagnostic(display, exc.line, exc.col, exc.rule, Severity.ERROR, exc.message, "", exc.hint))
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
