"""Find spec files under a root, load them, and split them into tool entries."""

from __future__ import annotations

import hashlib
import pickle
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from toolgen.diagnostics import Diagnostic, Severity
from toolgen.load.document import Document, LoadError, load_bytes
from toolgen.load.files import SPEC_SUFFIXES, Limits, SpecFile, discover, read_specs

if TYPE_CHECKING:
    from toolgen.parallel import Split

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
    caller's work that needs none of the specs (imports), run while a child starts parsing
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


@contextmanager
def _parsed_beside(files: list[SpecFile]) -> Iterator[Reuse | None]:
    """A `reuse` answering with what a forked child parsed (parallel.py) while this process
    works on; None for a set too small to share. The child parses from the last file down,
    this process (its `beside` done) from the first up, until they meet (`parallel.Split`):
    the later files are the child's. The child parses the very bytes this process read (its
    copy of them, from the fork) and reads nothing; a document is taken only with the
    digest of those bytes, and a file the child did not parse, or all of them when the
    child fails, is parsed here."""
    from toolgen import parallel

    if len(files) < 2 or not parallel.wanted(len(files)):  # (one file: nothing to share)
        yield None
        return
    split = parallel.Split(len(files))
    try:
        with parallel.in_child(lambda: _parse(files, split)) as pending:
            index = {file.path: i for i, file in enumerate(files)}
            parsed: list[dict[str, bytes]] = []  # the child's answer, once read

            def reuse(path: Path, display: str, raw: bytes) -> Document | None:
                if not parsed:
                    if split.mine(index[path]):
                        return None  # (parsed here)
                    parsed.append(pending.result() or {})
                blob = parsed[0].get(display)
                doc = _document(blob) if blob is not None else None
                # (taken only if parsed from these very bytes)
                return (
                    doc
                    if doc is not None and doc.sha256 == hashlib.sha256(raw).hexdigest()
                    else None
                )

            yield reuse
    finally:
        split.close()


def _parse(files: list[SpecFile], split: Split) -> dict[str, bytes]:
    """The child's part of `_parsed_beside`: the documents of the files it claimed that parse,
    from the last file down (`split`: a parallel.Split of `files`), each pickled as soon as it
    is parsed, so that where the two meet, the child has only its answer to send."""
    out: dict[str, bytes] = {}
    for index in range(len(files) - 1, -1, -1):
        if not split.theirs(index):
            break
        file = files[index]
        if not isinstance(file.read, LoadError):
            try:
                doc = load_bytes(file.read, file.path, file.display)
            except LoadError:
                continue
            out[file.display] = pickle.dumps(doc, protocol=pickle.HIGHEST_PROTOCOL)
    return out


def _document(blob: bytes) -> Document | None:
    """A document the child pickled; None where it is not one (the file is then parsed here)."""
    try:
        doc = pickle.loads(blob)
    except Exception:  # noqa: BLE001 - then parsed here
        return None
    return doc if isinstance(doc, Document) else None


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
