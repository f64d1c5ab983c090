# Part of toolgen's runtime, copied verbatim into generated packages (edit toolgen, not a copy).
"""`ContractTests`: the pytest base class that runs the contract checks (checks.py) of every
tool a generated package's `testing` subpackage holds, parametrized over the tool names.
"""

from __future__ import annotations

import unittest
from collections.abc import Mapping
from types import MappingProxyType
from typing import Any, ClassVar

from hypothesis import settings as Settings

from ._link import (
    Registry,
)
from .checks import (
    check_examples,
    check_idempotent,
    check_policies,
    check_results,
    check_streams,
    declares_policies,
    default_settings,
)
from .terms import (
    Override,
    RegistrySource,
    Seed,
    ToolContract,
    registry_of,
)


class ContractTests:
    """A pytest test class: subclass it (the generated `testing` package sets `contracts`) and
    define a `registry` fixture (a Registry, or a callable making one for every example).

        class TestContracts(ContractTests):
            @pytest.fixture
            def registry(self, tmp_path): return my_registry(tmp_path)

    Tests are parametrized over the tool names; a tool the registry does not hold is skipped.
    Hooks, per tool: `injected` (values the host supplies), `overrides` (strategies of some
    arguments, or functions of the example's registry giving them) and `seed` (state each
    registry the tests make starts from).
    """

    contracts: ClassVar[Mapping[str, ToolContract]] = MappingProxyType({})
    max_examples: ClassVar[int | None] = None  # None: the active hypothesis profile's
    settings: ClassVar[Settings | None] = None  # None: default_settings()

    def injected(self, tool: str) -> Mapping[str, Any] | None:
        """Injected values for `tool`'s calls (override for tools that take them)."""
        return None

    def overrides(self, tool: str) -> Mapping[str, Override]:
        """Strategies replacing the drawn value of some arguments of `tool`, by wire name. A
        value may also be a function of the example's registry (made, then seeded) returning
        the strategy, to draw from what exists: `lambda registry: st.sampled_from(...)`."""
        return {}

    def seed(self, tool: str, registry: Registry) -> None:
        """Prepare a registry the tests of `tool` make, before anything is drawn or called: add
        the state its calls should find (`registry.invoke("create_note", {...})`, or through
        your implementation). Called for every example's fresh registry when the `registry`
        fixture is a factory, else once per test. Seed the same way every time: a failure is
        replayed on the state the seed makes."""

    def pytest_generate_tests(self, metafunc: Any) -> None:
        if "tool" in metafunc.fixturenames:
            metafunc.parametrize("tool", list(self.contracts))

    def test_policies(self, registry: RegistrySource, tool: str) -> None:
        contract = self._contract(registry, tool)
        if not declares_policies(contract.info):
            raise unittest.SkipTest(f"{tool} declares no cache or retry")
        check_policies(registry, contract)

    def test_results(self, registry: RegistrySource, tool: str) -> None:
        check_results(registry, self._contract(registry, tool), **self._hooks(tool))

    def test_idempotent(self, registry: RegistrySource, tool: str) -> None:
        contract = self._contract(registry, tool)
        if "idempotent" not in contract.info.flags:
            raise unittest.SkipTest(f"{tool} is not flagged idempotent")
        check_idempotent(registry, contract, **self._hooks(tool))

    def test_streams(self, registry: RegistrySource, tool: str) -> None:
        contract = self._contract(registry, tool)
        if "streaming" not in contract.info.flags:
            raise unittest.SkipTest(f"{tool} is not flagged streaming")
        check_streams(registry, contract, **self._hooks(tool))

    def test_examples(self, registry: RegistrySource, tool: str) -> None:
        contract = self._contract(registry, tool)
        if not contract.examples:
            raise unittest.SkipTest(f"{tool}'s spec has no examples")
        check_examples(registry, contract, injected=self.injected(tool), seed=self._seed(tool))

    def _hooks(self, tool: str) -> dict[str, Any]:
        """The keyword arguments of the drawing checks, from this class's hooks for `tool`."""
        return {
            "injected": self.injected(tool),
            "overrides": self.overrides(tool),
            "seed": self._seed(tool),
            "settings": self._settings(),
        }

    def _contract(self, registry: RegistrySource, tool: str) -> ToolContract:
        if tool not in registry_of(registry):
            raise unittest.SkipTest(f"the registry does not hold {tool}")
        return self.contracts[tool]

    def _seed(self, tool: str) -> Seed | None:
        """The `seed` hook for `tool`, or None when the subclass does not override it."""
        if type(self).seed is ContractTests.seed:
            return None
        return lambda registry: self.seed(tool, registry)

    def _settings(self) -> Settings | None:
        if self.max_examples is None:
            return self.settings
        return Settings(
            self.settings if self.settings is not None else default_settings(),
            max_examples=self.max_examples,
        )
