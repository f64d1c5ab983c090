"""The previous side from a git revision: the spec files under the specs root's path at REF,
read through git without a checkout (`git ls-tree` lists them with their sizes, checked
against the loader's limits before anything is read; one `git cat-file --batch` reads them).
Nothing is written.
"""

from __future__ import annotations

import os
import subprocess
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path, PurePosixPath

from toolgen.breaking.side import GIT, Side, Unreadable, sharing, shown, side_of, version_from
from toolgen.diagnostics import Diagnostic, Severity
from toolgen.load.document import Document, LoadError, load_bytes
from toolgen.load.files import SPEC_SUFFIXES, Limits
from toolgen.load.specs import Reuse, SpecSet, entries


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
    side = side_of(GIT, label, specs)
    if pyproject is not None:
        relative = os.path.relpath(pyproject.resolve(), top.resolve())
        if not relative.startswith(".."):
            try:
                text = _git(
                    ["cat-file", "blob", f"{commit_id}:{Path(relative).as_posix()}"], top
                ).decode("utf-8")
            except (Unreadable, UnicodeDecodeError):
                text = None
            version_from(side, text, Path(os.path.relpath(pyproject, root)).as_posix())
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
