"""Which spec files may be read, and reading them within bounds.

A spec file must be a regular file that lies inside the specs root once every symlink is
followed (a symlink from one place in the root to another is fine). Anything else is
refused before it is opened: a symlink out of the root, a FIFO, a device, a socket,
anything under `/proc`, `/sys` or `/dev`. Sizes come from `stat` before reading, and
reading stops after limit + 1 bytes, so a file whose reported size lies still costs
no more than the limit.

Limits (constants; each has an environment override, a positive whole number of bytes or files;
`Limits.from_env` refuses any other value with a ValueError, and every command checks them first):
one file `TOOLGEN_MAX_FILE_BYTES` (4 MiB), all spec files together
`TOOLGEN_MAX_INPUT_BYTES` (64 MiB), the number of spec files `TOOLGEN_MAX_SPEC_FILES`
(10,000).
"""

from __future__ import annotations

import os
import stat
from dataclasses import dataclass
from pathlib import Path

from toolgen.load.source_map import MAX_FILE_BYTES, LoadError

MAX_INPUT_BYTES = 64 * 1024 * 1024
MAX_SPEC_FILES = 10_000
SPEC_SUFFIXES = (".yaml", ".yml", ".json")
SYSTEM_TREES = (Path("/proc"), Path("/sys"), Path("/dev"))
_READ_FLAGS = (
    os.O_RDONLY
    | getattr(os, "O_NONBLOCK", 0)
    | getattr(os, "O_NOCTTY", 0)
    | getattr(os, "O_CLOEXEC", 0)
)


def _env_int(name: str, default: int) -> int:
    """The positive whole number $name holds (`_` may group digits), unset: `default`; a value
    set to anything else is a ValueError naming it."""
    raw = os.environ.get(name)
    if raw is None:
        return default
    text = raw.strip().replace("_", "")
    if text.isascii() and text.isdigit() and int(text) > 0:
        return int(text)
    shown = repr(raw if len(raw) <= 40 else raw[:40] + "...")
    raise ValueError(
        f"{name}={shown} is not a positive whole number: set one (like {default}, the "
        "default), or unset it"
    )


@dataclass(frozen=True)
class Limits:
    file_bytes: int = MAX_FILE_BYTES
    input_bytes: int = MAX_INPUT_BYTES
    files: int = MAX_SPEC_FILES

    @classmethod
    def from_env(cls) -> Limits:
        return cls(
            _env_int("TOOLGEN_MAX_FILE_BYTES", MAX_FILE_BYTES),
            _env_int("TOOLGEN_MAX_INPUT_BYTES", MAX_INPUT_BYTES),
            _env_int("TOOLGEN_MAX_SPEC_FILES", MAX_SPEC_FILES),
        )


def refused(message: str, hint: str) -> LoadError:
    return LoadError(1, 1, message, hint, rule="file-refused")


def too_large(size: int, limit: int) -> LoadError:
    return LoadError(
        1,
        1,
        f"file is larger than {limit} bytes ({size} bytes)",
        "split it into several files, or raise the limit with TOOLGEN_MAX_FILE_BYTES",
        rule="file-too-large",
    )


def discover(root: Path, limit: int = MAX_SPEC_FILES) -> list[Path]:
    """Spec-file candidates under root in a stable order (independent of the file system's).

    Nothing is opened here. Symlinked folders are not descended into. Anything named like a
    spec file that is not a plain folder is a candidate, so that `admit` can refuse it with
    a diagnostic instead of skipping it silently. At most `limit` + 1 are listed.
    """
    files: list[Path] = []
    for path in root.rglob("*"):
        if path.suffix.lower() not in SPEC_SUFFIXES:
            continue
        if any(part.startswith(".") for part in path.relative_to(root).parts):
            continue
        if path.is_dir() and not path.is_symlink():
            continue
        files.append(path)
        if len(files) > limit:
            break
    return sorted(files, key=lambda p: p.relative_to(root).as_posix())


def _inside(path: Path, folder: Path) -> bool:
    """`path` is `folder` or under it (both resolved): its parts start with the folder's
    (what `folder in path.parents` says, without building each parent)."""
    parts = folder.parts
    return path.parts[: len(parts)] == parts


def admit(path: Path, root: Path | None, real_root: Path | None = None) -> os.stat_result:
    """The file's stat when it may be read (never opened here); LoadError `file-refused` when not.
    `real_root`: `root` already resolved, by a caller that admits every file under it (resolving
    it again for each file cost as much as resolving the file)."""
    try:
        real = path.resolve(strict=True)
    except (OSError, RuntimeError):  # broken symlink, loop
        raise refused(
            "file cannot be read: it does not exist or is a broken or looping symlink",
            "remove the file or fix the link",
        ) from None
    if root is not None and not _inside(real, real_root or root.resolve()):
        raise refused(
            "file is a symlink that leads outside the specs root",
            "copy the file under the specs root instead of linking to it",
        )
    if any(_inside(real, tree) for tree in SYSTEM_TREES):
        raise refused(
            f"file is a system file under {real.parts[0]}{real.parts[1]}",
            "spec files are plain files",
        )
    info = os.stat(real)
    if not stat.S_ISREG(info.st_mode):
        kind = (
            "a FIFO"
            if stat.S_ISFIFO(info.st_mode)
            else "a socket"
            if stat.S_ISSOCK(info.st_mode)
            else "a device"
            if stat.S_ISCHR(info.st_mode) or stat.S_ISBLK(info.st_mode)
            else "a folder"
            if stat.S_ISDIR(info.st_mode)
            else "not a regular file"
        )
        raise refused(f"file is {kind}, not a regular file", "spec files are plain files")
    return info


def read_bounded(path: Path, limit: int = MAX_FILE_BYTES) -> bytes:
    """At most `limit` bytes of a regular file; LoadError `file-too-large` past that.

    Opened non-blocking and checked again on the open file, so a file swapped for a FIFO
    after `admit` cannot hang the read; never more than limit + 1 bytes are read.
    """
    try:
        fd = os.open(path, _READ_FLAGS)
    except OSError as exc:
        raise refused(
            f"file cannot be read: {exc.strerror}", "check the file's permissions"
        ) from None
    try:
        info = os.fstat(fd)
        if not stat.S_ISREG(info.st_mode):
            raise refused("file is not a regular file", "spec files are plain files")
        if info.st_size > limit:
            raise too_large(info.st_size, limit)
        chunks: list[bytes] = []
        left = limit + 1
        while left > 0:
            chunk = os.read(fd, min(left, 1 << 20))
            if not chunk:
                break
            chunks.append(chunk)
            left -= len(chunk)
        if left <= 0:
            raise too_large(limit + 1, limit)
        return b"".join(chunks)
    finally:
        os.close(fd)


def read_spec(
    path: Path, root: Path | None, limit: int = MAX_FILE_BYTES, real_root: Path | None = None
) -> bytes:
    """`admit` then `read_bounded`: the one way a spec file's bytes are read."""
    info = admit(path, root, real_root)
    if info.st_size > limit:
        raise too_large(info.st_size, limit)
    return read_bounded(path, limit)


@dataclass(frozen=True)
class SpecFile:
    """A spec file found under the root: its bytes, read within the limits, or why they were not."""

    path: Path
    display: str  # relative to the root, as diagnostics show it
    read: bytes | LoadError  # its bytes, or why they were not read


def read_specs(root: Path, limits: Limits) -> list[SpecFile] | None:
    """Every spec file under `root`, each admitted (load/files.py) and read within
    `limits.file_bytes`, all of them within `limits.input_bytes` (a file past that is refused
    and the next ones still tried); None when there are more than `limits.files`. The one
    read of a build's specs: the build cache's key hashes these bytes and the build loads them."""
    paths = discover(root, limits.files)
    if len(paths) > limits.files:
        return None
    out: list[SpecFile] = []
    total = 0
    real_root = root.resolve()
    for path in paths:
        display = path.relative_to(root).as_posix()
        try:
            size = admit(path, root, real_root).st_size
            if size > limits.file_bytes:
                raise too_large(size, limits.file_bytes)
            if total + size > limits.input_bytes:
                raise LoadError(
                    1,
                    1,
                    f"spec files together are larger than {limits.input_bytes} bytes",
                    "split the specs into several roots, or raise the limit with TOOLGEN_MAX_INPUT_BYTES",
                    rule="input-too-large",
                )
            raw = read_bounded(path, limits.file_bytes)  # admitted above, and not too large
        except LoadError as exc:
            out.append(SpecFile(path, display, exc))
            continue
        total += size
        out.append(SpecFile(path, display, raw))
    return out
