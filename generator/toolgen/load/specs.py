"""Find spec files under a root, load them, and split them into tool entries."""

from __future__ import annotations

import hashlib
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from toolgen.diagnostics import Diagnostic, Severity
from toolgen.load.document import Document, LoadError, load_bytes
from toolgen.load.files import SPEC_SUFFIXES, Limits, SpecFile, discover, read_specs

__all__ = [
    "SPEC_SUFFIXES",
    "SpecSet",
    "ToolSource",
    "discover",
    "entries",
    "is_tool_document",
    "load_specs",
]


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

    @property
    def sha256(self) -> str:
        """A digest of the spec files, whatever order they were found in: sha256 over one line
        per file, its path relative to the root, a NUL byte and the hex sha256 of its bytes,
        in the order of the paths."""
        hasher = hashlib.sha256()
        for display, digest in sorted((d.display, d.sha256) for d in self.documents):
            hasher.update(f"{display}\0{digest}\n".encode())
        return hasher.hexdigest()


def is_tool_document(data: Any) -> bool:
    """Files holding only shared `$defs` (referenced from other files) define no tool."""
    return isinstance(data, dict) and ("name" in data or "tools" in data or "parameters" in data)


# Given a file's path, display name and bytes: a Document already parsed from the same bytes, or None.
Reuse = Callable[[Path, str, bytes], "Document | None"]


def load_specs(
    root: Path,
    limits: Limits | None = None,
    reuse: Reuse | None = None,
    beside: Callable[[], object] | None = None,
    files: list[SpecFile] | None = None,
) -> SpecSet:
    """Every spec file under root, within the limits (load/files.py); refusals are diagnostics.
    `reuse`: takes a file's bytes and may answer with a document parsed from the same bytes
    before (`toolgen breaking` shares the files both sides have unchanged). `beside`: the
    caller's work that needs none of the specs (imports), run while a child parses most of
    a large set on the second core (`_parsed_beside`), else not run. `files`: what
    `read_specs(root, limits)` returned, when the caller has read them already."""
    limits = limits or Limits.from_env()
    found = files if files is not None else read_specs(root, limits)
    if found is None:
        message = f"more than {limits.files} spec files under the specs root"
        hint = "split the specs into several roots, or raise the limit with TOOLGEN_MAX_SPEC_FILES"
        return SpecSet(
            root,
            [],
            [],
            [Diagnostic(".", 1, 1, "input-too-large", Severity.ERROR, message, "", hint)],
        )
    if beside is not None and reuse is None:
        with _parsed_beside(found) as parsed:
            if parsed is not None:
                beside()
            return _load(root, found, parsed)
    return _load(root, found, reuse)


def _load(root: Path, files: list[SpecFile], reuse: Reuse | None) -> SpecSet:
    documents: list[Document] = []
    tools: list[ToolSource] = []
    diagnostics: list[Diagnostic] = []
    for file in files:
        path, display, raw = file.path, file.display, file.read
        try:
            if isinstance(raw, LoadError):
                raise raw
            doc = (reuse(path, display, raw) if reuse else None) or load_bytes(raw, path, display)
        except LoadError as exc:
            diagnostics.append(
                Diagnostic(
                    display, exc.line, exc.col, exc.rule, Severity.ERROR, exc.message, "", exc.hint
                )
            )
            continue
        documents.append(doc)
        tools.extend(entries(doc))
    return SpecSet(root=root, documents=documents, tools=tools, diagnostics=diagnostics)


# Of a large set's files, the share a child parses, while this process runs the caller's
# `beside` (the later stages' imports: about 0.25 s for a build) then parses the rest and
# reads the child's back (about 0.1 ms a file, as the child's pickling of them).
_CHILD_SHARE = 0.8


@contextmanager
def _parsed_beside(files: list[SpecFile]) -> Iterator[Reuse | None]:
    """A `reuse` answering for the last of `files` with what a forked child parsed of them
    (parallel.py) while this process works on; None for a set too small to share. The child
    parses the very bytes this process read (its copy of them, from the fork) and reads
    nothing; a document is taken only with the digest of those bytes, and a file the child
    could not parse, or a child that fails, is parsed here."""
    from toolgen import parallel

    later = files[len(files) - int(len(files) * _CHILD_SHARE) :]
    if not later or not parallel.wanted(len(files)):
        yield None
        return
    with parallel.in_child(lambda: _parse(later)) as pending:
        theirs = {file.path for file in later}
        parsed: list[dict[str, Document]] = []  # the child's answer, once read

        def reuse(path: Path, display: str, raw: bytes) -> Document | None:
            if path not in theirs:
                return None
            if not parsed:
                parsed.append(pending.result() or {})
            doc = parsed[0].get(display)  # (taken only if parsed from these very bytes)
            return (
                doc if doc is not None and doc.sha256 == hashlib.sha256(raw).hexdigest() else None
            )

        yield reuse


def _parse(files: list[SpecFile]) -> dict[str, Document]:
    """The documents of the files that parse (the child's part of `_parsed_beside`)."""
    out: dict[str, Document] = {}
    for file in files:
        if not isinstance(file.read, LoadError):
            try:
                out[file.display] = load_bytes(file.read, file.path, file.display)
            except LoadError:
                continue
    return out


def entries(doc: Document) -> list[ToolSource]:
    """The tool entries of one document: itself, the objects of its `tools:` list, or none."""
    data = doc.data
    if not is_tool_document(data):
        return []
    if isinstance(data.get("tools"), list):
        return [
            ToolSource(doc, f"/tools/{i}", entry)
            for i, entry in enumerate(data["tools"])
            if isinstance(entry, dict)
        ]
    return [] if "tools" in data else [ToolSource(doc, "", data)]
