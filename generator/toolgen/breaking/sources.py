"""The two sides of a comparison, read with toolgen's own loader (so every value has its line).

The current side is the specs directory. The previous one (`--against REF`) is, in this
order: a generated package (a folder holding `definitions/mcp.json`, or one package folder
that does), a directory of specs, or a git revision, read through git without a checkout
(`git ls-tree` lists the spec files under the same path at REF, `git cat-file` reads them;
nothing is written). A generated package has only what MCP's definitions hold: names,
descriptions, `inputSchema`, `outputSchema` and annotations.
"""

from __future__ import annotations

import os
import re
import subprocess
from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field
from functools import cached_property
from pathlib import Path, PurePosixPath
from typing import Any

from toolgen.breaking import typed
from toolgen.breaking.versions import pyproject_version
from toolgen.diagnostics import Diagnostic, Severity, terminal
from toolgen.load.document import Document, LoadError, load_bytes, load_file
from toolgen.load.files import SPEC_SUFFIXES, Limits
from toolgen.load.specs import Reuse, SpecSet, ToolSource, entries, load_specs
from toolgen.providers.mcp import HINTS as MCP_HINTS
from toolgen.schema.pointer import child
from toolgen.spec.model import ToolSpec

SPECS, GIT, PACKAGE = "specs", "git", "package"
# MCP's hints -> the spec's annotations
HINTS = {hint: key for key, hint in MCP_HINTS.items()}
# What the providers put in front of a deprecated tool's or parameter's description.
_DEPRECATED_TOOL = re.compile(
    r"^Deprecated(?::(?P<why>.*?))?(?: \(sunset (?P<sunset>\d{4}-\d{2}-\d{2})\))?\.(?: |$)"
)
_DEPRECATED_PARAMETER = re.compile(
    r"^Deprecated(?: \(sunset (?P<sunset>\d{4}-\d{2}-\d{2})\))?\.(?: |$)"
)


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


def _side(kind: str, label: str, specs: SpecSet) -> Side:
    return Side(kind, label, _tools(specs), list(specs.diagnostics), specs)


def current(root: Path, pyproject: Path | None = None) -> Side:
    """The specs directory; its version from `pyproject` ([tool.toolgen] version), when given."""
    side = _side(SPECS, "", load_specs(root))
    if pyproject is not None:
        _version_from(
            side, pyproject.read_text("utf-8"), Path(os.path.relpath(pyproject, root)).as_posix()
        )
    return side


def _version_from(side: Side, text: str | None, display: str, generated: bool = False) -> None:
    found = pyproject_version(text, generated) if text is not None else None
    if found is not None:
        side.version, side.version_at = found[0], (display, found[1])


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


def directory(
    folder: Path, ref: str, pyproject: Path | None = None, current: Side | None = None
) -> Side:
    side = _side(SPECS, ref.rstrip("/") + "/", load_specs(folder, reuse=sharing(current)))
    from toolgen.config import find_pyproject

    theirs = find_pyproject(folder.resolve())
    if theirs is not None and (pyproject is None or theirs.resolve() != pyproject.resolve()):
        _version_from(side, theirs.read_text("utf-8"), theirs.as_posix())
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
    return _side(SPECS, label, specs)


# -- a generated package ---------------------------------------------------------------------


def package(definitions: Path, ref: str) -> Side:
    """A generated package's MCP definitions as specs (what `tools/list` told clients)."""
    folder = definitions.parent.parent
    display = Path(os.path.relpath(definitions, ref)).as_posix()
    try:
        doc = load_file(definitions, display, limit=Limits.from_env().input_bytes)
    except LoadError as exc:
        raise Unreadable(
            f"cannot read {definitions}: {exc.line}:{exc.col}: {exc.message}"
        ) from None
    variants = doc.data.get("variants") if isinstance(doc.data, dict) else None
    if not (
        isinstance(variants, list)
        and variants
        and isinstance(variants[0], dict)
        and isinstance(variants[0].get("definitions"), list)
    ):
        raise Unreadable(f"{definitions} holds no MCP tool definitions (variants[0].definitions)")
    tools = []
    for i, definition in enumerate(variants[0]["definitions"]):
        if isinstance(definition, dict) and isinstance(definition.get("name"), str):
            source = ToolSource(doc, f"/variants/0/definitions/{i}", definition)
            tools.append(
                ToolEntry(
                    definition["name"],
                    _as_spec(definition),
                    source,
                    {"parameters": "inputSchema", "returns": "outputSchema"},
                )
            )
    side = Side(PACKAGE, ref.rstrip("/") + "/", tools, [])
    generated = folder.parent / "pyproject.toml"
    if generated.is_file():
        _version_from(side, generated.read_text("utf-8"), generated.as_posix(), generated=True)
    return side


def _as_spec(definition: dict[str, Any]) -> dict[str, Any]:
    """An MCP definition read back as a spec: the deprecation marks of the descriptions as keys."""
    spec: dict[str, Any] = {"name": definition["name"]}
    description = definition.get("description")
    if isinstance(description, str):
        marked = _DEPRECATED_TOOL.match(description)
        if marked:
            description = description[marked.end() :]
            spec["deprecated"] = {"reason": (marked["why"] or "").strip()}
            if marked["sunset"]:
                spec["sunset"] = marked["sunset"]
        spec["description"] = description
    if isinstance(definition.get("title"), str):
        spec["title"] = definition["title"]
    if isinstance(definition.get("inputSchema"), dict):
        spec["parameters"] = _unmarked(definition["inputSchema"])
    if isinstance(definition.get("outputSchema"), dict):
        spec["returns"] = definition["outputSchema"]
    hints = definition.get("annotations")
    if isinstance(hints, dict):
        spec["annotations"] = {HINTS[k]: v for k, v in hints.items() if k in HINTS}
    return spec


def _unmarked(schema: dict[str, Any]) -> dict[str, Any]:
    """Parameters with "Deprecated (sunset D)." read back as `x-sunset: D` (one level: the root's properties)."""
    properties = schema.get("properties")
    if not isinstance(properties, dict):
        return schema
    out = dict(properties)
    for name, sub in properties.items():
        text = sub.get("description") if isinstance(sub, dict) else None
        marked = (
            _DEPRECATED_PARAMETER.match(text)
            if isinstance(text, str) and sub.get("deprecated") is True
            else None
        )
        if marked and isinstance(sub, dict):
            out[name] = {
                **sub,
                "description": text[marked.end() :] if isinstance(text, str) else text,
            }
            if marked["sunset"]:
                out[name]["x-sunset"] = marked["sunset"]
    return {**schema, "properties": out}


def shown(ref: str, limit: int = 60) -> str:
    """`ref` as a message shows it, on one line: cut to `limit` characters, control characters
    escaped (a REF comes from the command line, and may be anything)."""
    return terminal(ref[:limit] + ("..." if len(ref) > limit else ""))


# -- a git revision ----------------------------------------------------------------------------


def _git(args: list[str], cwd: Path, stdin: bytes | None = None) -> bytes:
    try:
        done = subprocess.run(
            ["git", *args], cwd=cwd, input=stdin, capture_output=True, timeout=300, check=False
        )
    except FileNotFoundError:
        raise Unreadable("git is not installed") from None
    except (OSError, ValueError) as exc:  # an argument the OS refuses (too long, a NUL)
        reason = exc.strerror if isinstance(exc, OSError) and exc.strerror else exc
        raise Unreadable(f"git {args[0]} could not be run: {reason}") from None
    except subprocess.TimeoutExpired:
        raise Unreadable(f"git {args[0]} took longer than 300 s") from None
    if done.returncode != 0:
        message = done.stderr.decode("utf-8", "replace").strip().splitlines()
        raise Unreadable(f"git {args[0]}: {message[0] if message else 'failed'}")
    return done.stdout


def revision(
    ref: str, root: Path, pyproject: Path | None = None, current: Side | None = None
) -> Side:
    """The spec files under the same path as `root`, at the git revision `ref`."""
    if ref.startswith("-"):
        raise Unreadable(f"'{shown(ref)}' is neither a directory nor a git revision")
    try:
        top = Path(_git(["rev-parse", "--show-toplevel"], root).decode("utf-8").strip())
    except Unreadable:
        raise Unreadable(
            f"'{shown(ref)}' is not a directory, and {root} is not in a git repository"
        ) from None
    try:
        commit = _git(
            ["rev-parse", "--verify", "--quiet", "--end-of-options", f"{ref}^{{commit}}"], top
        )
    except Unreadable:
        raise Unreadable(
            f"'{shown(ref)}' is neither a directory nor a git revision of {top}"
        ) from None
    commit_id = commit.decode("ascii").strip()
    prefix = root.resolve().relative_to(top.resolve()).as_posix()
    prefix = "" if prefix == "." else prefix
    label = f"{ref}:{prefix}/" if prefix else f"{ref}:"
    documents, problems = _read_blobs(top, commit_id, prefix, sharing(current))
    tools = [entry for doc in documents for entry in entries(doc)]
    specs = SpecSet(root=root, documents=documents, tools=tools, diagnostics=problems)
    side = _side(GIT, label, specs)
    if pyproject is not None:
        relative = os.path.relpath(pyproject.resolve(), top.resolve())
        if not relative.startswith(".."):
            try:
                text = _git(
                    ["cat-file", "blob", f"{commit_id}:{Path(relative).as_posix()}"], top
                ).decode("utf-8")
            except (Unreadable, UnicodeDecodeError):
                text = None
            _version_from(side, text, Path(os.path.relpath(pyproject, root)).as_posix())
    return side


@dataclass(frozen=True)
class _Blob:
    object_id: str
    size: int
    path: str  # from the repository root
    display: str  # from the specs root


def _listing(top: Path, commit: str, prefix: str) -> Iterator[_Blob | tuple[str, str]]:
    """The spec files at `commit` under `prefix`: blobs, or (display, why refused)."""
    listed = _git(["ls-tree", "-r", "-l", "-z", "--full-tree", commit, "--", prefix or "."], top)
    for item in listed.decode("utf-8", "surrogateescape").split("\0"):
        if not item:
            continue
        meta, _, path = item.partition("\t")
        mode, kind, object_id, size = meta.split()
        display = path[len(prefix) + 1 :] if prefix else path
        relative = PurePosixPath(display)
        if relative.suffix.lower() not in SPEC_SUFFIXES or any(
            part.startswith(".") for part in relative.parts
        ):
            continue
        if kind != "blob":
            continue
        if mode == "120000":
            yield display, "file is a symlink in git, not followed"
            continue
        yield _Blob(object_id, int(size), path, display)


def _read_blobs(
    top: Path, commit: str, prefix: str, reuse: Reuse | None
) -> tuple[list[Document], list[Diagnostic]]:
    limits = Limits.from_env()
    problems: list[Diagnostic] = []
    blobs: list[_Blob] = []
    total = 0
    for item in _listing(top, commit, prefix):
        if not isinstance(item, _Blob):
            problems.append(Diagnostic(item[0], 1, 1, "file-refused", Severity.ERROR, item[1]))
            continue
        if len(blobs) >= limits.files:
            problems.append(
                Diagnostic(
                    ".",
                    1,
                    1,
                    "input-too-large",
                    Severity.ERROR,
                    f"more than {limits.files} spec files under the specs root",
                )
            )
            break
        if item.size > limits.file_bytes or total + item.size > limits.input_bytes:
            problems.append(
                Diagnostic(
                    item.display,
                    1,
                    1,
                    "file-too-large",
                    Severity.ERROR,
                    f"file is larger than the limit ({item.size} bytes)",
                )
            )
            continue
        total += item.size
        blobs.append(item)
    contents = _cat(top, [b.object_id for b in blobs]) if blobs else []
    documents = []
    for blob, raw in zip(blobs, contents, strict=True):
        try:
            shared = reuse(Path(blob.path), blob.display, raw) if reuse is not None else None
            documents.append(shared or load_bytes(raw, Path(blob.path), blob.display))
        except LoadError as exc:
            problems.append(
                Diagnostic(
                    blob.display,
                    exc.line,
                    exc.col,
                    exc.rule,
                    Severity.ERROR,
                    exc.message,
                    "",
                    exc.hint,
                )
            )
    return documents, problems


def _cat(top: Path, object_ids: list[str]) -> list[bytes]:
    """The contents of the blobs, through one `git cat-file --batch`."""
    out = _git(["cat-file", "--batch"], top, ("\n".join(object_ids) + "\n").encode("ascii"))
    contents, at = [], 0
    for _ in object_ids:
        end = out.index(b"\n", at)
        size = int(out[at:end].split()[2])
        contents.append(out[end + 1 : end + 1 + size])
        at = end + 1 + size + 1
    return contents
