"""Discovery: the generated package's tool interfaces and the candidate implementation
classes, imported.

Discovery is by class, not by registry contents (a registry may leave tools out, such as
the built-in process tools; building one may need a workspace or secrets). Candidates are
the classes found in the implementations module (`[tool.toolgen] implementations`,
`module:attribute`; the attribute is not used here) and, when it is a package, in every
submodule, imported recursively. A class defined in, or imported into, one of those
modules is a candidate; classes of the generated package are not.
"""

from __future__ import annotations

import importlib
import inspect
import pkgutil
import sys
import types
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from toolgen.binding.findings import import_failure
from toolgen.config import Config
from toolgen.diagnostics import Diagnostic


class BindingError(Exception):
    """A usage or environment problem (exit 2): the packages to compare cannot be loaded."""


class NoImplementationsModule(BindingError):
    """The configured implementations module does not exist (yet)."""


@dataclass(frozen=True)
class Interface:
    """One generated tool, as imported from the generated package."""

    tool: str
    module: str  # the tool's module under `<package>.tools`, also the stub's file name
    info: Any  # the module's INFO (a ToolInfo)
    interface: type
    arguments: type
    result: type
    injected: type | None

    @property
    def import_path(self) -> str:
        return self.interface.__module__

    def signature(self) -> str:
        injected = f", injected: {self.injected.__name__}" if self.injected is not None else ""
        return f"def run(self, arguments: {self.arguments.__name__}{injected}) -> {self.result.__name__}"


@dataclass(frozen=True)
class Discovery:
    interfaces: dict[str, Interface]  # by canonical tool name
    classes: tuple[type, ...]  # candidate implementation classes
    import_failures: tuple[Diagnostic, ...]
    root: Path

    def implementers(self, tool: str) -> list[type]:
        interface = self.interfaces[tool].interface
        return [c for c in self.classes if issubclass(c, interface) and not inspect.isabstract(c)]

    def bound(self) -> set[str]:
        return {tool for tool in self.interfaces if self.implementers(tool)}


def add_paths(config: Config) -> None:
    """Make the generated package (config.out) and the project (config.root) importable."""
    for path in (str(config.out), str(config.root)):
        if path not in sys.path:
            sys.path.insert(0, path)
    importlib.invalidate_caches()


def implementations_module(config: Config) -> str:
    if not config.implementations:
        raise BindingError(
            "no implementations configured: set [tool.toolgen] implementations = 'module:attribute'"
        )
    return config.implementations.partition(":")[0]


def load_interfaces(out: Path, package: str) -> dict[str, Interface]:
    """Every tool's interface, from `<package>._index.MODULES` and `<package>.tools.<module>`."""
    try:
        top = importlib.import_module(package)
        if not Path(top.__file__ or "").resolve().is_relative_to(out.resolve()):
            raise BindingError(
                f"package {package!r} is imported from {top.__file__}, not from {out}"
            )
        index = importlib.import_module(f"{package}._index").MODULES
        interfaces = {}
        for tool, module_name in index.items():
            module = importlib.import_module(f"{package}.tools.{module_name}")
            info = module.INFO
            interfaces[tool] = Interface(
                tool,
                module_name,
                info,
                _interface_class(module, info),
                info.arguments,
                info.result,
                info.injected,
            )
    except BindingError:
        raise
    except Exception as exc:  # noqa: BLE001 - any failure here means the package is unusable
        raise BindingError(
            f"cannot import the generated package {package!r} from {out}: "
            f"{type(exc).__name__}: {exc}"
        ) from exc
    return interfaces


def _interface_class(module: types.ModuleType, info: Any) -> type:
    """The module's interface: the class it defines whose `info` is the module's INFO (names are
    the generator's to choose, docs/decisions/0005-tool-class-names.md)."""
    for value in vars(module).values():
        if (
            isinstance(value, type)
            and value.__module__ == module.__name__
            and vars(value).get("info") is info
        ):
            return value
    raise LookupError(f"{module.__name__} defines no interface class (a class whose info is INFO)")


def discover(config: Config) -> Discovery:
    """Import the generated package and the implementations; collect candidate classes."""
    add_paths(config)
    interfaces = load_interfaces(config.out, config.package)
    name = implementations_module(config)
    failures: list[Diagnostic] = []
    modules: list[types.ModuleType] = []
    try:
        top = importlib.import_module(name)
    except ModuleNotFoundError as exc:
        if exc.name and (name == exc.name or name.startswith(exc.name + ".")):
            raise NoImplementationsModule(
                f"cannot load implementations {config.implementations!r}: {exc}"
            ) from exc
        failures.append(import_failure(name, exc, config.root))
    except Exception as exc:  # noqa: BLE001 - user code: a finding, not a crash
        failures.append(import_failure(name, exc, config.root))
    else:
        modules.append(top)
        if hasattr(top, "__path__"):
            modules += _submodules(top, failures, config.root)
    generated = config.package
    seen: dict[int, type] = {}
    for module in modules:
        for value in list(vars(module).values()):
            if isinstance(value, type) and id(value) not in seen:
                owner = value.__module__ or ""
                if owner != generated and not owner.startswith(generated + "."):
                    seen[id(value)] = value
    return Discovery(interfaces, tuple(seen.values()), tuple(failures), config.root)


def _submodules(
    package: types.ModuleType, failures: list[Diagnostic], root: Path
) -> list[types.ModuleType]:
    found = []
    for info in pkgutil.iter_modules(package.__path__, package.__name__ + "."):
        if info.name.endswith(".__main__"):
            continue
        try:
            module = importlib.import_module(info.name)
        except Exception as exc:  # noqa: BLE001
            failures.append(import_failure(info.name, exc, root))
            continue
        found.append(module)
        if info.ispkg:
            found += _submodules(module, failures, root)
    return found
