"""A small generated package for the tests of per-host names and of the results API: a tool
that reads (with a declared error kind and guidance), one that needs approval, one whose name
providers refuse (so it has a provider-safe alias), and a deferred one in a namespace (so the
registry holds the tool-search pair)."""

from __future__ import annotations

from collections.abc import Iterator
from importlib import import_module
from types import ModuleType
from typing import Any

import pytest

from tests.support.runtime_support import generated_package, interface

PATH = {
    "type": "object",
    "properties": {"path": {"type": "string", "description": "Which file."}},
    "required": ["path"],
}
SPECS = {
    "tools": [
        {
            "name": "read_file",
            "description": "Reads a file.",
            "parameters": PATH,
            "returns": {"type": "object", "properties": {"text": {"type": "string"}}},
            "errors": {"not_found": {"description": "No such file."}},
        },
        {
            "name": "delete_file",
            "description": "Deletes a file.",
            "flags": ["requires_approval"],
            "parameters": PATH,
            "returns": {"type": "object", "properties": {"deleted": {"type": "string"}}},
        },
        {
            "name": "files.stat",
            "description": "Says how large a file is (a name no provider takes as it is).",
            "parameters": PATH,
            "returns": {"type": "object", "properties": {"size": {"type": "integer"}}},
        },
        {
            "name": "archive_file",
            "namespace": "storage",
            "defer": True,
            "description": "Moves a file to the archive.",
            "parameters": PATH,
            "returns": {"type": "object", "properties": {"archived": {"type": "string"}}},
        },
    ]
}
GUIDANCE = {"next": "summarise", "lines": 2, "note": "déjà"}


def package(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ModuleType]:
    yield from generated_package(tmp_path_factory, "files_tools", SPECS)


def runtime(files: ModuleType, module: str) -> Any:
    """A module of the package's own copy of the runtime (`errors`, `calls.registry`, ...):
    what a host of that package meets (its classes are not toolgen's, by identity)."""
    return import_module(f"{files.__name__}._runtime.{module}")


def registry(files: ModuleType, **settings: Any) -> Any:
    """The package's four tools, implemented, in a registry of its own runtime: `read_file`
    of "missing" fails (not_found), of "guided" answers with GUIDANCE, of "unjson" with
    guidance that is not JSON."""
    ToolError = runtime(files, "errors").ToolError  # noqa: N806 - a class
    Output = runtime(files, "results.result").Output  # noqa: N806 - a class

    class ReadFile(interface(files, "read_file")):  # type: ignore[misc]
        def run(self, arguments: Any) -> Any:
            made = self.info.result
            if arguments.path == "missing":
                raise ToolError("not_found", f"{arguments.path} does not exist")
            if arguments.path == "guided":
                return Output(made(text="two lines"), metadata=GUIDANCE)
            if arguments.path == "unjson":
                return Output(made(text="?"), metadata={"when": object()})
            return made(text=arguments.path.upper())

    class DeleteFile(interface(files, "delete_file")):  # type: ignore[misc]
        def run(self, arguments: Any) -> Any:
            return self.info.result(deleted=arguments.path)

    class Stat(interface(files, "files.stat")):  # type: ignore[misc]
        def run(self, arguments: Any) -> Any:
            return self.info.result(size=len(arguments.path))

    class ArchiveFile(interface(files, "archive_file")):  # type: ignore[misc]
        def run(self, arguments: Any) -> Any:
            return self.info.result(archived=arguments.path)

    return runtime(files, "calls.registry").Registry(
        [ReadFile(), DeleteFile(), Stat(), ArchiveFile()], **settings
    )
