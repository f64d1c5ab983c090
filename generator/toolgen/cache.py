"""Whole-build cache: when no input changed, a build is one hash and one read.

The key covers everything a build reads: every spec file under the root (the same
`discover` that loading uses; `$ref` cannot leave the root), the whole `BuildOptions`
(and the files of a template override), toolgen's own files (sources, runtime, templates, spec schema),
the Python version, and the installed files of the libraries whose behaviour shows in
the output (black, libyaml/PyYAML, jsonschema, referencing, jinja2, pydantic-core).
Same key, same build: the cache only skips work, never changes an answer.

One slot per (specs root, build options) holds the latest successful build, so
the cache stays bounded. Beside it, a stamp of the output folder that `generate` last wrote
or found up to date (`stamp`, `intact`): when the key and every output file's and folder's
metadata match it, `generate` has nothing to do and reads neither the entry nor the output. It lives in the user's cache folder (TOOLGEN_CACHE_DIR
overrides the folder; TOOLGEN_NO_CACHE=1 disables it).
"""

from __future__ import annotations

import hashlib
import hmac
import importlib.util
import json
import os
import stat as filemode
import sys
import time
from pathlib import Path
from typing import TYPE_CHECKING, Any

from toolgen import __version__
from toolgen.config import BuildOptions
from toolgen.diagnostics import Diagnostic, packed, unpacked

if TYPE_CHECKING:
    from toolgen.load.files import SpecFile

FORMAT = 6  # bump when the stored layout changes
# Top-level modules whose installed files are part of the key (an upgrade changes the output).
DEPENDENCIES = (
    "black",
    "blib2to3",
    "yaml",
    "_yaml",
    "jsonschema",
    "jsonschema_specifications",
    "referencing",
    "jinja2",
    "markupsafe",
    "pydantic_core",
)


def cache_root() -> Path | None:
    """The toolgen cache folder, or None when caching is disabled."""
    if os.environ.get("TOOLGEN_NO_CACHE"):
        return None
    base = os.environ.get("TOOLGEN_CACHE_DIR") or os.path.join(
        os.environ.get("XDG_CACHE_HOME") or os.path.expanduser("~/.cache"), "toolgen"
    )
    return Path(base)


def _tree(digest: Any, label: str, root: Path) -> None:
    for path in sorted(p for p in root.rglob("*") if p.is_file() and "__pycache__" not in p.parts):
        digest.update(f"\0{label}/{path.relative_to(root).as_posix()}\0".encode())
        digest.update(path.read_bytes())


def _installed(digest: Any, module: str) -> None:
    try:
        spec = importlib.util.find_spec(module)
    except (ImportError, ValueError):
        spec = None
    origin = spec.origin if spec is not None else None
    if origin and os.path.exists(origin):
        stat = os.stat(origin)
        digest.update(f"\0dep/{module}\0{origin}\0{stat.st_size}\0{stat.st_mtime_ns}".encode())
    else:
        digest.update(f"\0dep/{module}\0absent".encode())


def build_key(specs: Path, options: BuildOptions, files: list[SpecFile] | None = None) -> str:
    """`files`: what `read_specs(specs, Limits.from_env())` returned, when the caller has read
    them (to build from the same bytes); else they are read here."""
    from toolgen.constants import templates_dir
    from toolgen.load.files import Limits, read_specs

    digest = hashlib.sha256(
        f"toolgen-build-{FORMAT}\0{__version__}\0{sys.version}\0{options.fingerprint()}".encode()
    )
    _tree(digest, "toolgen", Path(__file__).resolve().parent)
    _tree(digest, "templates", templates_dir())
    if options.templates is not None and options.templates.is_dir():
        _tree(digest, "override", options.templates)
    for module in DEPENDENCIES:
        _installed(digest, module)
    digest.update(f"\0specs\0{specs.resolve()}".encode())
    limits = Limits.from_env()
    digest.update(f"\0limits\0{limits}".encode())
    found = files if files is not None else read_specs(specs, limits)
    if found is None:  # more files than the limit: the build refuses them
        digest.update(b"\0too-many")
    for file in found or ():
        digest.update(f"\0spec/{file.display}\0".encode())
        if isinstance(file.read, bytes):
            digest.update(file.read)
        else:  # a refused file (the same bounded, inside-the-root read as loading: never read)
            digest.update(f"\0refused\0{file.read}".encode())
    return digest.hexdigest()


def _slot(specs: Path, options: BuildOptions) -> Path | None:
    root = cache_root()
    if root is None:
        return None
    name = hashlib.sha256(f"{specs.resolve()}\0{options.fingerprint()}".encode()).hexdigest()[:32]
    return root / "builds" / f"{name}.build"


Stored = tuple[list[Diagnostic], tuple[str, ...], dict[str, str]]  # diagnostics, tool names, files


def load(
    specs: Path, options: BuildOptions, key: str | None = None
) -> tuple[str | None, Stored | None]:
    """(key, stored build) on a hit; (key, None) on a miss; (None, None) when disabled.

    Stored as data, never pickle: the cache folder must not be a way to run code. An entry
    is a header line (format, key, sha256 of the payload) and the payload (`encode`); one
    whose payload does not hash to its header's digest is a miss, so an edited or damaged
    entry is rebuilt, never written into a package. (The digest catches corruption and
    edits, not someone who rewrites both: the cache folder is the user's own.)
    """
    slot = _slot(specs, options)
    if slot is None or not specs.is_dir():
        return None, None
    key = key or build_key(specs, options)
    try:
        header_line, payload = slot.read_bytes().split(b"\n", 1)
        header = json.loads(header_line)
        if header["format"] != FORMAT or header["key"] != key:
            return key, None
        if not hmac.compare_digest(hashlib.sha256(payload).hexdigest(), str(header["sha256"])):
            return key, None
        return key, decode(payload)
    except (
        OSError,
        ValueError,
        KeyError,
        TypeError,
        AttributeError,
    ):  # missing, truncated, another layout: a miss
        return key, None


def store(specs: Path, options: BuildOptions, key: str, build: Stored) -> None:
    slot = _slot(specs, options)
    if slot is None:
        return
    payload = encode(build)
    header = json.dumps(
        {"format": FORMAT, "key": key, "sha256": hashlib.sha256(payload).hexdigest()}
    )
    write_entry(slot, header.encode("utf-8") + b"\n" + payload)
    try:  # the slot's entry of the JSON layout (format 4 and before), which no build reads
        slot.with_suffix(".json").unlink(missing_ok=True)
    except OSError:
        pass


def encode(build: Stored) -> bytes:
    """A build as an entry's payload: a JSON line (diagnostics, tool names, each file's path
    and length), then the files' texts one after the other, UTF-8. Reading it back is one
    decode and slicing, where a JSON string per file cost a full JSON parse of every file
    (about 0.1 s of an unchanged 1,000-tool build)."""
    diagnostics, tools, files = build
    rows = _rows(diagnostics)
    lengths = [[path, len(text)] for path, text in files.items()]
    head = json.dumps({"diagnostics": rows, "tools": list(tools), "files": lengths})
    return head.encode() + b"\n" + "".join(files.values()).encode("utf-8", "surrogatepass")


def decode(payload: bytes) -> Stored | None:
    """`encode`'s build, or None for a payload of another shape (an error for broken JSON)."""
    head, blob = payload.split(b"\n", 1)
    data = json.loads(head)
    diagnostics = _diagnostics(data["diagnostics"])
    text = blob.decode("utf-8", "surrogatepass")
    files: dict[str, str] = {}
    at = 0
    for path, length in data["files"]:
        if not (isinstance(path, str) and isinstance(length, int) and length >= 0):
            return None
        files[path] = text[at : at + length]
        at += length
    if at != len(text):
        return None
    return diagnostics, tuple(data["tools"]), files


def _rows(diagnostics: list[Diagnostic]) -> list[list[Any]]:
    return [packed(d) for d in diagnostics]


def _diagnostics(rows: list[list[Any]]) -> list[Diagnostic]:
    if not isinstance(rows, list) or not all(type(row) is list for row in rows):
        raise TypeError("diagnostics of another layout")
    return [unpacked(row) for row in rows]


# -- the output's stamp: an unchanged `generate` without reading the build or the output ----------

RACY_NS = 2_000_000_000  # metadata this recent may hide a change in the same clock tick


def _mark(path: str) -> list[int]:
    """What changes whenever a file or folder is written, replaced, linked or touched."""
    st = os.lstat(path)
    kind = 1 if filemode.S_ISREG(st.st_mode) else 2 if filemode.S_ISDIR(st.st_mode) else 0
    return [kind, st.st_ino, st.st_size, st.st_mtime_ns, st.st_ctime_ns]


def _marks(out: Path, package: str, files: Any) -> dict[str, list[int]]:
    """The marks of every file of the build and of every folder from OUT down the package:
    a file added, removed or renamed anywhere there changes its folder's."""
    base = str(out)
    marks = {relative: _mark(os.path.join(base, relative)) for relative in files}
    marks["."] = _mark(base)
    for folder, subfolders, _ in os.walk(os.path.join(base, package)):
        subfolders.sort()
        marks[os.path.relpath(folder, base) + "/"] = _mark(folder)
    return marks


def stamp(specs: Path, options: BuildOptions, key: str, out: Path, build: Stored) -> None:
    """Record that OUT holds exactly `build` (the caller has just written or compared it).
    Nothing is recorded when a file or folder changed within the last clock ticks: a change
    made in the same tick after the comparison would leave the same marks."""
    slot = _slot(specs, options)
    if slot is None:
        return
    try:
        now = time.time_ns()
        marks = _marks(out.resolve(), options.package, build[2])
    except OSError:
        return
    if any(mark[0] == 0 or mark[4] > now - RACY_NS for mark in marks.values()):
        slot.with_suffix(".stamp").unlink(missing_ok=True)
        return
    diagnostics, tools, _ = build
    record = {
        "format": FORMAT,
        "key": key,
        "out": str(out.resolve()),
        "diagnostics": _rows(diagnostics),
        "tools": list(tools),
        "marks": marks,
    }
    write_entry(slot.with_suffix(".stamp"), json.dumps(record))


def intact(
    specs: Path, options: BuildOptions, key: str, out: Path
) -> tuple[list[Diagnostic], tuple[str, ...], int] | None:
    """(diagnostics, tool names, file count) when OUT is as `stamp` recorded it for this key:
    nothing to build, compare or write. None otherwise (the build takes its usual path)."""
    slot = _slot(specs, options)
    if slot is None:
        return None
    try:
        record = json.loads(slot.with_suffix(".stamp").read_bytes())
        if record["format"] != FORMAT or record["key"] != key:
            return None
        base = str(out.resolve())
        if record["out"] != base:
            return None
        marks: dict[str, list[int]] = record["marks"]
        files = [relative for relative in marks if relative != "." and not relative.endswith("/")]
        if marks != _marks(Path(base), options.package, files):
            return None
        return _diagnostics(record["diagnostics"]), tuple(record["tools"]), len(files)
    except (OSError, ValueError, KeyError, TypeError, AttributeError):
        return None


def write_entry(path: Path, data: str | bytes) -> None:
    """Write one cache entry atomically; a read-only cache only costs speed."""
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        tmp = path.with_suffix(f".{os.getpid()}.tmp")
        tmp.write_bytes(data.encode("utf-8") if isinstance(data, str) else data)
        os.replace(tmp, path)
    except OSError:
        pass
