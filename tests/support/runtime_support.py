"""Generated packages for the runtime's tests: built from a spec set, imported, cleaned up."""

from __future__ import annotations

import json
from collections.abc import Iterator
from importlib import import_module
from types import ModuleType
from typing import Any

import pytest

from tests.support.generation import generate, imported


def generated_package(
    tmp_path_factory: pytest.TempPathFactory, name: str, specs: Any
) -> Iterator[ModuleType]:
    root = tmp_path_factory.mktemp(name)
    (root / "specs").mkdir()
    (root / "specs" / "tools.json").write_text(json.dumps(specs), "utf-8")
    generate(root / "specs", root / "out", name)
    with imported(root / "out", name) as module:
        yield module


def validation_module(package: ModuleType, name: str) -> Any:
    """A module of a generated package's validation group (`_runtime.validation.<name>`)."""
    return import_module(f"{package.__name__}._runtime.validation.{name}")


def interface(package: ModuleType, tool: str) -> Any:
    """The generated interface class of a tool (`<Prefix>Tool`)."""
    tools = import_module(f"{package.__name__}.tools.{package._index.MODULES[tool]}")
    return next(
        v
        for v in vars(tools).values()
        if isinstance(v, type)
        and getattr(v, "info", None) is tools.INFO
        and v.__name__.endswith("Tool")
    )


class FakeClock:
    """Time that moves only when waited on or told to (Registry(..., clock=...)); waits recorded."""

    def __init__(self) -> None:
        self.waits: list[float] = []
        self.now = 1000.0

    def monotonic(self) -> float:
        return self.now

    def sleep(self, seconds: float) -> None:
        self.waits.append(seconds)
        self.now += seconds

    async def asleep(self, seconds: float) -> None:
        self.sleep(seconds)
