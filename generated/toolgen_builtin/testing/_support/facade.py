# Part of toolgen's runtime, copied verbatim into generated packages (edit toolgen, not a copy).
"""What a generated package's `testing/__init__.py` does: its template only binds these.

`TestingFacade` finds a tool's `testing/tools/<module>.py` by canonical or provider-safe name
(from the package's `_index.py`) and hands out its contract and strategies; `contracts` is
every tool's contract as a mapping that imports a tool's module on first use.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable, Iterator, Mapping
from typing import TYPE_CHECKING, Any

from ._link import UnknownToolError, nearest
from .terms import ToolContract

if TYPE_CHECKING:
    from hypothesis import strategies as st
    from pydantic import BaseModel

__all__ = ["TestingFacade"]


class TestingFacade:
    """One generated package's test support, by tool name.

    `package`: the name of the `testing` subpackage; `modules` and `provider_names`: the
    package's index; `generated_with`: the sha256 of the test support the package was
    generated with, `holds`: (toolgen version, sha256) its `_support/_stamp.py` says the copy
    holds. ImportError when they differ: never run with other test support.
    """

    __test__ = False  # not a test class, whatever pytest collects

    def __init__(
        self,
        package: str,
        modules: Mapping[str, str],
        provider_names: Mapping[str, str],
        *,
        generated_with: str,
        holds: tuple[str, str],
    ) -> None:
        if holds[1] != generated_with:
            raise ImportError(
                f"{package}._support is not the test support {package} was generated with: it "
                f"says toolgen {holds[0]}, sources {holds[1][:12]}, not {generated_with[:12]}; "
                "generate the whole package again"
            )
        self.package = package
        self._modules = modules
        self._provider_names = provider_names
        self.contracts: Mapping[str, ToolContract] = _Contracts(modules, self.contract)

    def _module(self, name: str) -> Any:
        canonical = self._provider_names.get(name, name)
        if canonical not in self._modules:
            hint = nearest(name, [*self._modules, *self._provider_names])
            raise UnknownToolError(name, hint, len(self._modules))
        return importlib.import_module(f"{self.package}.tools.{self._modules[canonical]}")

    def contract(self, name: str) -> ToolContract:
        """What the contract tests check of one tool, by canonical or provider-safe name."""
        found: ToolContract = self._module(name).CONTRACT
        return found

    def arguments_json(
        self, name: str, **overrides: st.SearchStrategy[Any]
    ) -> st.SearchStrategy[dict[str, Any]]:
        """Valid arguments of a tool as a model sends them (JSON); keywords replace properties' strategies."""
        return self.contract(name).arguments(**overrides)

    def arguments(
        self, name: str, **overrides: st.SearchStrategy[Any]
    ) -> st.SearchStrategy[BaseModel]:
        """Valid arguments of a tool as its typed Arguments model."""
        built: st.SearchStrategy[BaseModel] = self._module(name).arguments(**overrides)
        return built

    def result_json(self, name: str) -> st.SearchStrategy[Any]:
        """Valid results of a tool (JSON)."""
        built: st.SearchStrategy[Any] = self._module(name).result_json()
        return built

    def result(self, name: str) -> st.SearchStrategy[BaseModel]:
        """Valid results of a tool as its typed Result model."""
        built: st.SearchStrategy[BaseModel] = self._module(name).result()
        return built


class _Contracts(Mapping[str, ToolContract]):
    """Every tool's contract by canonical name; a tool's module is imported on first use."""

    def __init__(self, modules: Mapping[str, str], contract: Callable[[str], ToolContract]) -> None:
        self._modules = modules
        self._contract = contract

    def __getitem__(self, name: str) -> ToolContract:
        if name not in self._modules:
            raise KeyError(name)
        return self._contract(name)

    def __iter__(self) -> Iterator[str]:
        return iter(self._modules)

    def __len__(self) -> int:
        return len(self._modules)
