"""Scaffold: a typed stub implementation for every tool that has none. Never overwrites a file.

One file per tool, named after the tool's module (`<module>.py`, as the generated
`tools/<module>.py`), holding one class that subclasses the generated interface and whose
`run` raises NotImplementedError. Spec text (the description) reaches the stub only
through `literals`, and the stub is laid out by the pinned black. A new implementations
package (a folder with no `__init__.py` yet) also gets its `__init__.py`: the stubs
imported and the `registry()` function that `toolgen call` and a host use.
"""

from __future__ import annotations

import importlib.util
import re
from collections.abc import Iterable
from dataclasses import dataclass, replace
from pathlib import Path

from toolgen.binding.discovery import (
    BindingError,
    Interface,
    NoImplementationsModule,
    add_paths,
    discover,
    implementations_module,
    load_interfaces,
)
from toolgen.config import Config
from toolgen.diagnostics import Diagnostic
from toolgen.naming import tool_classes

SUMMARY_LIMIT = 160  # characters of the description's first sentence kept in the stub's docstring


@dataclass(frozen=True)
class Stub:
    tool: str
    path: Path
    source: str


@dataclass(frozen=True)
class Report:
    folder: Path
    in_package: bool  # False: the implementations are one module, the stubs its siblings
    tools: int
    bound: int  # tools that already had an implementation
    written: tuple[Stub, ...] = ()
    skipped: tuple[tuple[Stub, str], ...] = ()
    import_failures: tuple[Diagnostic, ...] = ()  # nothing is written when there are any
    wiring: Stub | None = None  # the package's __init__.py with the registry, when it had none


def run(config: Config, into: Path | None) -> Report:
    """Stubs for the tools no class implements, into `into` or the implementations' folder.

    Raises BindingError (a usage error) when neither is known or the packages do not load.
    """
    if not config.implementations and into is None:
        raise BindingError(
            "no implementations configured: set [tool.toolgen] implementations = "
            "'module:attribute', or pass --into DIR"
        )
    try:
        if not config.implementations:
            raise NoImplementationsModule("none configured")
        discovery = discover(config)
        interfaces, bound = discovery.interfaces, discovery.bound()
        failures = discovery.import_failures
    except NoImplementationsModule as exc:  # then no tool is implemented yet
        if into is None:
            raise BindingError(f"{exc}; create it (a package folder) or pass --into DIR") from exc
        add_paths(config)
        interfaces, bound, failures = load_interfaces(config.out, config.package), set(), ()
    folder, in_package = (into.resolve(), True) if into is not None else destination(config)
    report = Report(folder, in_package, len(interfaces), len(bound))
    if failures:
        return replace(report, import_failures=failures)
    unbound = [interfaces[tool] for tool in sorted(interfaces) if tool not in bound]
    written, skipped = write_stubs(plan_stubs(config.package, unbound, folder, config.templates))
    wiring = None
    if in_package and written and not (folder / "__init__.py").exists():
        attribute = (config.implementations or "").partition(":")[2] or "registry"
        wiring = Stub(
            "registry",
            folder / "__init__.py",
            registry_source(config.package, folder.name, attribute, written, config.templates),
        )
        wiring = wiring if write_stubs([wiring])[0] else None
    return replace(report, written=tuple(written), skipped=tuple(skipped), wiring=wiring)


def destination(config: Config) -> tuple[Path, bool]:
    """The folder of the configured implementations module, and whether that module is a package.

    Found without importing it. A module that does not exist yet, or one outside the project
    (installed elsewhere), is a usage error: create the package, or pass a folder.
    """
    name = implementations_module(config)
    add_paths(config)
    try:
        spec = importlib.util.find_spec(name)
    except (ImportError, ValueError) as exc:
        raise BindingError(f"cannot locate implementations module {name!r}: {exc}") from exc
    if spec is None:
        raise BindingError(
            f"implementations module {name!r} not found under {config.root}; "
            "create it (a package folder) or pass --into DIR"
        )
    locations = list(spec.submodule_search_locations or [])
    folder = Path(locations[0]) if locations else Path(spec.origin or "").parent
    if not folder.resolve().is_relative_to(config.root.resolve()):
        raise BindingError(
            f"implementations module {name!r} is at {folder}, outside the project "
            f"{config.root}; pass --into DIR"
        )
    return folder, bool(locations)


def summary(description: str) -> str:
    """The first sentence of a description (its first line, up to the first `. `), shortened."""
    line = description.strip().split("\n", 1)[0].strip()
    match = re.search(r"[.!?](\s|$)", line)
    sentence = (line[: match.start()] if match else line).rstrip(" .")
    if len(sentence) > SUMMARY_LIMIT:
        sentence = sentence[:SUMMARY_LIMIT].rsplit(" ", 1)[0].rstrip(" .,;:") + "..."
    return sentence


def stub_source(package: str, interface: Interface, templates: Path | None = None) -> str:
    """The text of one stub module (templates/stub.py.jinja, overridable), black-formatted."""
    from toolgen.format import format_python
    from toolgen.render import environment

    # The generated classes' own names; the stub's name from the one naming rule.
    base, arguments, result = (
        interface.interface.__name__,
        interface.arguments.__name__,
        interface.result.__name__,
    )
    classes = tool_classes(interface.tool)
    name = classes.implementation
    about = summary(interface.info.description or "")
    names = [arguments, result, base]
    parameters = f"arguments: {arguments}"
    if interface.injected is not None:
        names.insert(1, interface.injected.__name__)
        parameters += f", injected: {interface.injected.__name__}"
    source = (
        environment(str(templates) if templates else None)
        .get_template("stub.py.jinja")
        .render(
            doc=f"The {interface.tool} tool{': ' + about if about else ''} (scaffolded by toolgen; this file is yours to edit).",
            package=package,
            module=interface.module,
            names=names,
            name=name,
            interface=base,
            result=result,
            prefix=classes.prefix,
            parameters=parameters,
            message=f"{interface.tool} is not implemented yet",
        )
    )
    return format_python(source)


def registry_source(
    package: str, module: str, attribute: str, stubs: Iterable[Stub], templates: Path | None = None
) -> str:
    """A new implementations package's `__init__.py`: the stubs' classes imported, and
    `attribute()` building the Registry that `toolgen call` and a host use."""
    from toolgen.format import format_python
    from toolgen.render import environment

    classes = [(stub.path.stem, tool_classes(stub.tool).implementation) for stub in stubs]
    doc = (
        f"The implementations of the {package} tools, and the registry that runs them (scaffolded by "
        f"toolgen; this file is yours to edit).\n\n[tool.toolgen] implementations = "
        f'"{module}:{attribute}" points `toolgen call` and `toolgen check` here.'
    )
    source = (
        environment(str(templates) if templates else None)
        .get_template("registry.py.jinja")
        .render(doc=doc, package=package, classes=classes, attribute=attribute)
    )
    return format_python(source)


def plan_stubs(
    package: str, interfaces: Iterable[Interface], folder: Path, templates: Path | None = None
) -> list[Stub]:
    return [
        Stub(i.tool, folder / f"{i.module}.py", stub_source(package, i, templates))
        for i in interfaces
    ]


def write_stubs(stubs: Iterable[Stub]) -> tuple[list[Stub], list[tuple[Stub, str]]]:
    """Write each stub unless its file (or a package of that name) exists: (written, [(skipped, why)])."""
    written: list[Stub] = []
    skipped: list[tuple[Stub, str]] = []
    for stub in stubs:
        if stub.path.with_suffix("").is_dir():
            skipped.append((stub, f"a package {stub.path.with_suffix('').name}/ exists"))
            continue
        stub.path.parent.mkdir(parents=True, exist_ok=True)
        try:
            with stub.path.open(
                "x", encoding="utf-8", newline="\n"
            ) as handle:  # "x": never overwrite
                handle.write(stub.source)
        except FileExistsError:
            skipped.append((stub, "file exists"))
            continue
        written.append(stub)
    return written, skipped
