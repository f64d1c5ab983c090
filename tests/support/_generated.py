"""Generate a package from spec dicts and import it, for the functional tests of names, text and types.

Each call uses a fresh package name, so generated modules never clash in `sys.modules`;
warnings during the import are errors (pydantic warns about shadowed or protected names).
"""

from __future__ import annotations

import atexit
import itertools
import json
import os
import shutil
import sys
import tempfile
import warnings
from collections.abc import Iterator
from contextlib import ExitStack, contextmanager
from pathlib import Path
from types import ModuleType
from typing import Any

from tests.support.generation import generate, imported, once
from toolgen.config import BuildOptions
from toolgen.pipeline import Build, build

_counter = itertools.count()


def spec(
    name: str = "t",
    properties: dict[str, Any] | None = None,
    *,
    required: list[str] | None = None,
    description: str = "A tool for tests.",
    **extra: Any,
) -> dict[str, Any]:
    """A tool spec whose `parameters` is an object schema with these properties."""
    parameters: dict[str, Any] = {"type": "object", "properties": properties or {}}
    if required:
        parameters["required"] = required
    return {"name": name, "description": description, "parameters": parameters, **extra}


def write_specs(folder: Path, tools: list[dict[str, Any]]) -> Path:
    specs = folder / "specs"
    specs.mkdir(parents=True, exist_ok=True)
    # ensure_ascii: lone surrogates travel as \udXXX escapes, which JSON text may carry.
    (specs / "tools.json").write_text(json.dumps({"tools": tools}, ensure_ascii=True), "utf-8")
    return specs


def build_specs(folder: Path, tools: list[dict[str, Any]], package: str) -> Build:
    """Only the build (diagnostics and files), nothing written or imported."""
    with _isolated_cache():
        return build(write_specs(folder, tools), BuildOptions(package=package))


def _cache_dir() -> str:
    """One cache folder per test session: warm across tests, never left in the user's cache."""
    global _cache
    if _cache is None:
        _cache = tempfile.mkdtemp(prefix="toolgen-test-cache-")
        atexit.register(shutil.rmtree, _cache, True)
    return _cache


_cache: str | None = None


@contextmanager
def _isolated_cache() -> Iterator[None]:
    saved = os.environ.get("TOOLGEN_CACHE_DIR")
    os.environ["TOOLGEN_CACHE_DIR"] = _cache_dir()
    try:
        yield
    finally:
        if saved is None:
            del os.environ["TOOLGEN_CACHE_DIR"]
        else:
            os.environ["TOOLGEN_CACHE_DIR"] = saved


@contextmanager
def package(folder: Path, tools: list[dict[str, Any]] | dict[str, Any]) -> Iterator[ModuleType]:
    """Generate `tools` (one spec or several) under `folder`, import the package and every tool module."""
    name = f"gen_{os.getpid()}_{next(_counter)}"
    out = folder / "out"
    with _isolated_cache():
        generate(write_specs(folder, [tools] if isinstance(tools, dict) else tools), out, name)
    with _imported_whole(out, name) as module:
        yield module


@contextmanager
def shared(name: str, tools: list[dict[str, Any]]) -> Iterator[ModuleType]:
    """One package of many tools, generated once per test session (`once`, shared by xdist's
    workers) and imported as `package` imports it: for a module whose tests each read a tool.
    `name` is the session folder's and the package's; the tools must be the same each call."""

    def make(folder: Path) -> None:
        with _isolated_cache():
            generate(write_specs(folder, tools), folder / "out", name)

    with _imported_whole(once(name, make) / "out", name) as module:
        yield module


@contextmanager
def _imported_whole(out: Path, name: str) -> Iterator[ModuleType]:
    """The package and every tool module imported, a warning an error while they are (not
    in the tests that use them: a file some other code left for the garbage collector would
    then fail whichever test it happens to be collected in)."""
    with ExitStack() as stack:
        with warnings.catch_warnings():
            warnings.simplefilter("error")
            module = stack.enter_context(imported(out, name))
            for tool in module.TOOL_NAMES:
                module.tool_info(tool)
        yield module


def tool_module(info: Any) -> ModuleType:
    return sys.modules[info.arguments.__module__]


def python_name(model: Any, wire: str) -> str:
    """The attribute of `model` that holds the property `wire`."""
    found = [
        name
        for name, f in model.model_fields.items()
        if (name if f.validation_alias is None else f.validation_alias) == wire
    ]
    assert len(found) == 1, (wire, found)
    return found[0]
