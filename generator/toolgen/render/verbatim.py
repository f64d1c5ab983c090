"""The runtime and the test support, copied byte for byte into every generated package, and
the stamps that say which sources a copy holds."""

from __future__ import annotations

import hashlib
from functools import cache
from importlib import resources
from typing import TYPE_CHECKING

from toolgen.literals import py_literal
from toolgen.render.code import with_header

if TYPE_CHECKING:
    from importlib.resources.abc import Traversable


# The runtime's source folders and where a generated package holds their copies.
RUNTIME = "toolgen.runtime"  # -> <package>/_runtime/
SUPPORT = "toolgen.runtime_testing"  # -> <package>/testing/_support/ (needs the `testing` extra)
# The one line that differs in a copy: the test support's link to the runtime (see its docstring).
SUPPORT_LINK = ("_link.py", "from ..runtime", "from ..._runtime")


@cache
def _sources(package: str) -> tuple[tuple[str, str], ...]:
    """Every `.py` file of the package and its subpackages, by relative path ("/"), sorted."""
    found: list[tuple[str, str]] = []

    def walk(folder: Traversable, prefix: str) -> None:
        for entry in folder.iterdir():
            if entry.is_dir() and entry.name != "__pycache__":
                walk(entry, f"{prefix}{entry.name}/")
            elif entry.name.endswith(".py"):
                found.append((f"{prefix}{entry.name}", entry.read_text("utf-8")))

    walk(resources.files(package), "")
    return tuple(sorted(found))


def digest(sources: dict[str, str]) -> str:
    """sha256 over the copied sources, names included: what a stamp says a folder holds."""
    hasher = hashlib.sha256()
    for name, text in sorted(sources.items()):
        hasher.update(f"{name}\0{text}\0".encode())
    return hasher.hexdigest()


def stamp(version: str, sources: dict[str, str]) -> str:
    """`_stamp.py`: which toolgen copied the folder's sources, and their digest."""
    return with_header(
        '"""Which sources this folder holds: the package checks them when it is imported."""\n\n'
        f"RUNTIME_VERSION = {py_literal(version)}\n"
        f"RUNTIME_SHA256 = {py_literal(digest(sources))}\n"
    )


def runtime_files() -> dict[str, str]:
    """`_runtime/`: every module of toolgen's runtime, byte for byte (no header: line numbers in
    tracebacks are the source's; the first line of each marks it as toolgen's)."""
    return dict(_sources(RUNTIME))


def support_files() -> dict[str, str]:
    """`testing/_support/`: the test support, byte for byte but for its link to the runtime."""
    files = dict(_sources(SUPPORT))
    name, here, there = SUPPORT_LINK
    files[name] = files[name].replace(here, there)
    return files


def verbatim_files(package: str, version: str) -> dict[str, str]:
    """The runtime and the test support as a generated package holds them, with their stamps."""
    out: dict[str, str] = {}
    for folder, files in (
        (f"{package}/_runtime", runtime_files()),
        (f"{package}/testing/_support", support_files()),
    ):
        out.update({f"{folder}/{name}": text for name, text in files.items()})
        out[f"{folder}/_stamp.py"] = stamp(version, files)
    return out
