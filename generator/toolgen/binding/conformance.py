"""Binding: which handwritten class implements which generated tool interface, and how well.

Discovery is by class, not by registry contents (a registry may leave tools out, such as
the built-in process tools; building one may need a workspace or secrets). Candidates are
the classes found in the implementations module (`[tool.toolgen] implementations`,
`module:attribute`; the attribute is not used here) and, when it is a package, in every
submodule, imported recursively. A class defined in, or imported into, one of those
modules is a candidate; classes of the generated package are not.

The rules (docs/implementations.md):
- a concrete class that subclasses a tool's interface (`<Prefix>Tool`) implements that tool;
  its `run` must agree with the interface: `(self, arguments: <Prefix>Arguments[, injected:
  <Prefix>Injected])`, further parameters optional, returning `<Prefix>Result`,
  `Awaitable[<Prefix>Result]` (or `Coroutine[..., <Prefix>Result]`), a union of those, or an
  `async def` returning `<Prefix>Result`. It may not override `info` or subclass two interfaces;
- a class that does not subclass the interface but is meant to implement the tool (its `info`
  is the tool's INFO, or its `run` takes the tool's Arguments or Injected model) is a finding:
  the registry would accept it (it only reads `info`) and nothing type-checks it;
- a tool with no implementing class is a finding, unless some module failed to import; so
  is one whose only implementing classes are stubs (a `run` that only raises
  NotImplementedError, as `toolgen scaffold` writes it).
"""

from __future__ import annotations

import ast
import collections.abc
import importlib
import inspect
import pkgutil
import re
import sys
import textwrap
import traceback
import types
import typing
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from toolgen.config import Config
from toolgen.diagnostics import Diagnostic, Severity

RULE = "binding"


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
        failures.append(_import_failure(name, exc, config.root))
    except Exception as exc:  # noqa: BLE001 - user code: a finding, not a crash
        failures.append(_import_failure(name, exc, config.root))
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
            failures.append(_import_failure(info.name, exc, root))
            continue
        found.append(module)
        if info.ispkg:
            found += _submodules(module, failures, root)
    return found


def check(discovery: Discovery) -> list[Diagnostic]:
    """Every binding finding (import failures first among them)."""
    out = list(discovery.import_failures)
    claimed: set[str] = set()
    for cls in discovery.classes:
        tools = [t for t, i in discovery.interfaces.items() if issubclass(cls, i.interface)]
        if not tools:
            for tool, reason in _claims(cls, discovery.interfaces):
                claimed.add(tool)
                interface = discovery.interfaces[tool]
                out.append(
                    _at(
                        cls,
                        discovery.root,
                        f"class {_name(cls)} is meant to implement tool {tool!r} ({reason}) "
                        f"but does not subclass {interface.interface.__name__}",
                        f"declare it as `class {cls.__name__}({interface.interface.__name__})`, with "
                        f"`from {interface.import_path} import {interface.interface.__name__}`",
                    )
                )
        elif len(tools) > 1:
            out.append(
                _at(
                    cls,
                    discovery.root,
                    f"class {_name(cls)} subclasses the interfaces of several tools "
                    f"({', '.join(repr(t) for t in sorted(tools))})",
                    "one class implements one tool: split it into one class per tool",
                )
            )
        elif not inspect.isabstract(cls):
            out += _check_class(cls, discovery.interfaces[tools[0]], discovery.root)
    if not discovery.import_failures:
        for tool, interface in sorted(discovery.interfaces.items()):
            implementers = discovery.implementers(tool)
            if tool in claimed:
                continue
            if implementers and all(_is_stub(c) for c in implementers):
                stub = implementers[0]
                out.append(
                    _at(
                        inspect.getattr_static(stub, "run"),
                        discovery.root,
                        f"tool {tool!r} has no implementation: {_name(stub)}.run only raises "
                        "NotImplementedError (the scaffolded stub)",
                        "implement run (the stub's file is yours to edit)",
                    )
                )
                continue
            if implementers:
                continue
            abstract = [
                c
                for c in discovery.classes
                if issubclass(c, interface.interface) and inspect.isabstract(c)
            ]
            note = (
                f" ({', '.join(_name(c) for c in abstract)} is abstract: it does not define run)"
                if abstract
                else ""
            )
            out.append(
                _at(
                    interface.interface,
                    discovery.root,
                    f"tool {tool!r} has no implementation{note}",
                    f"subclass {interface.interface.__name__} (from {interface.import_path}) in the "
                    "implementations, or run `toolgen scaffold` to write a stub",
                )
            )
    return out


def _claims(cls: type, interfaces: dict[str, Interface]) -> list[tuple[str, str]]:
    """(tool, why) for each tool a class that subclasses no interface looks meant to implement."""
    found: dict[str, str] = {}
    info = inspect.getattr_static(cls, "info", None)
    for tool, interface in interfaces.items():
        if info is interface.info:
            found[tool] = f"its info is {tool}'s INFO"
    function = _function(inspect.getattr_static(cls, "run", None))
    if function is not None:
        for parameter, annotation in _resolved(function, {}).items():
            if parameter == "return":
                continue
            for tool, interface in interfaces.items():
                models = (interface.arguments, interface.injected)
                if (
                    tool not in found
                    and annotation is not None
                    and any(annotation is m for m in models)
                ):
                    found[tool] = f"its run() takes {annotation.__name__}"
    return sorted(found.items())


def _check_class(cls: type, interface: Interface, root: Path) -> list[Diagnostic]:
    where = f"{_name(cls)}.run (tool {interface.tool!r})"
    if inspect.getattr_static(cls, "info", None) is not interface.info:
        return [
            _at(
                cls,
                root,
                f"class {_name(cls)} subclasses {interface.interface.__name__} but overrides its info",
                "remove the `info` attribute: the interface sets it",
            )
        ]
    static = inspect.getattr_static(cls, "run")
    function = _function(static)
    if function is None:
        kind = type(static).__name__
        return [
            _at(
                cls,
                root,
                f"{where} is a {kind}, not a method like the interface's",
                f"define it as `{interface.signature()}`",
            )
        ]
    hint = f"make it `{'async ' if inspect.iscoroutinefunction(function) else ''}{interface.signature()}`"
    parameters = list(inspect.signature(function).parameters.values())
    expected = ["arguments"] + (["injected"] if interface.injected is not None else [])
    given = [
        p.name
        for p in parameters[1 : 1 + len(expected)]
        if p.kind is inspect.Parameter.POSITIONAL_OR_KEYWORD
    ]
    required_extra = [
        p
        for p in parameters[1 + len(expected) :]
        if p.default is inspect.Parameter.empty and p.kind not in (p.VAR_POSITIONAL, p.VAR_KEYWORD)
    ]
    if not parameters or given != expected or required_extra:
        return [
            _at(
                function,
                root,
                f"{where} takes {_bare(parameters)}; the interface's run takes "
                f"(self, {', '.join(expected)})",
                hint,
            )
        ]
    types_ = _resolved(function, _namespace(interface))
    raw = function.__annotations__
    out = []
    for name, wanted in zip(expected, (interface.arguments, interface.injected), strict=False):
        assert wanted is not None  # "injected" is expected only when the tool has an Injected model
        if name not in raw:
            out.append(
                _at(
                    function,
                    root,
                    f"{where}: parameter {name!r} has no annotation; "
                    f"the interface has {wanted.__name__}",
                    hint,
                )
            )
        elif types_.get(name) is not wanted:
            out.append(
                _at(
                    function,
                    root,
                    f"{where}: parameter {name!r} is annotated {_shown(raw[name])}; "
                    f"the interface has {wanted.__name__}",
                    hint,
                )
            )
    is_async = inspect.iscoroutinefunction(function)
    result = interface.result.__name__
    streaming = "streaming" in getattr(getattr(interface.interface, "info", None), "flags", ())
    returns = f"{result} | Output[{result}] | Awaitable[...]" + (
        " | Iterator[Any] | AsyncIterator[Any]" if streaming else ""
    )
    if "return" not in raw:
        out.append(
            _at(
                function,
                root,
                f"{where} has no return annotation; the interface returns {returns}",
                hint,
            )
        )
    elif not _returns_ok(types_.get("return", _UNRESOLVED), interface.result, is_async, streaming):
        what = (
            f"is an async def returning {_shown(raw['return'])}; an async run returns {result}"
            if is_async
            else f"returns {_shown(raw['return'])}; the interface returns {returns}"
        )
        out.append(
            _at(
                function,
                root,
                f"{where} {what}",
                f"annotate the return as {result}, Output[{result}], Awaitable[{result}] or their union, "
                f"or make run an async def returning {result}"
                + (
                    " (a streaming tool: or a generator, Iterator[Any] or AsyncIterator[Any])"
                    if streaming
                    else ""
                ),
            )
        )
    return out


_UNRESOLVED: Any = object()


def _is_stub(cls: type) -> bool:
    """Whether `cls.run` does nothing but raise NotImplementedError (after a docstring), read
    from its source: the stub `toolgen scaffold` writes, not yet filled in."""
    function = _function(inspect.getattr_static(cls, "run", None))
    if function is None:
        return False
    try:
        tree = ast.parse(textwrap.dedent(inspect.getsource(function)))
    except (OSError, TypeError, SyntaxError):  # no source to read: not the scaffold's
        return False
    defined = tree.body[0] if tree.body else None
    if not isinstance(defined, (ast.FunctionDef, ast.AsyncFunctionDef)):
        return False
    body = defined.body
    if (
        body
        and isinstance(body[0], ast.Expr)
        and isinstance(body[0].value, ast.Constant)
        and isinstance(body[0].value.value, str)
    ):
        body = body[1:]
    if len(body) != 1 or not isinstance(body[0], ast.Raise) or body[0].exc is None:
        return False
    raised = body[0].exc.func if isinstance(body[0].exc, ast.Call) else body[0].exc
    return isinstance(raised, ast.Name) and raised.id == "NotImplementedError"


def _function(value: Any) -> types.FunctionType | None:
    if isinstance(value, (staticmethod, classmethod)):
        return None
    function = inspect.unwrap(value) if callable(value) else value
    return function if isinstance(function, types.FunctionType) else None


def _namespace(interface: Interface) -> dict[str, Any]:
    """Names an annotation may use without importing them at run time (TYPE_CHECKING imports)."""
    names: dict[str, Any] = {
        "Any": Any,
        **{name: getattr(collections.abc, name) for name in _STREAMS},
        "Awaitable": collections.abc.Awaitable,
        "Coroutine": collections.abc.Coroutine,
    }
    info = getattr(interface.interface, "info", None)
    # `Output` is defined beside `ToolInfo`, in the package's runtime (results/result.py).
    output = sys.modules.get(type(info).__module__) if info is not None else None
    if output is not None and hasattr(output, "Output"):
        names["Output"] = output.Output
    for cls in (interface.arguments, interface.result, interface.injected, interface.interface):
        if cls is not None:
            names[cls.__name__] = cls
    return names


def _resolved(function: types.FunctionType, fallback: dict[str, Any]) -> dict[str, Any]:
    """Each annotation of `function` evaluated (strings too); unresolvable ones are left out."""
    out = {}
    namespace = {**fallback, **function.__globals__}
    for name, annotation in function.__annotations__.items():
        try:
            value = eval(annotation, namespace) if isinstance(annotation, str) else annotation  # noqa: S307
        except Exception:  # noqa: BLE001 - an annotation that does not resolve matches nothing
            continue
        while typing.get_origin(value) is typing.Annotated:
            value = typing.get_args(value)[0]
        out[name] = value
    return out


# What a streaming tool's run may be annotated to return (a generator of events, then its result).
_STREAMS = ("Iterator", "Iterable", "Generator", "AsyncIterator", "AsyncIterable", "AsyncGenerator")


def _returns_ok(annotation: Any, result: type, is_async: bool, streaming: bool = False) -> bool:
    def is_result(value: Any) -> bool:
        if isinstance(value, type) and issubclass(value, result):
            return True
        origin = typing.get_origin(value)  # Output[Result], the result with guidance and content
        return getattr(origin, "__name__", None) == "Output" and is_result(
            typing.get_args(value)[0]
        )

    def is_awaitable(value: Any) -> bool:
        origin = typing.get_origin(value)
        if origin in (collections.abc.Awaitable, collections.abc.Coroutine):
            inner = typing.get_args(value)[-1]
            if typing.get_origin(inner) in (typing.Union, types.UnionType):
                return all(is_result(a) for a in typing.get_args(inner))
            return is_result(inner)
        return False

    def is_stream(value: Any) -> bool:
        origin = typing.get_origin(value) or value
        return streaming and origin in {getattr(collections.abc, name) for name in _STREAMS}

    if is_async:
        return is_result(annotation)
    if typing.get_origin(annotation) in (typing.Union, types.UnionType):
        return all(
            is_result(a) or is_awaitable(a) or is_stream(a) for a in typing.get_args(annotation)
        )
    return is_result(annotation) or is_awaitable(annotation) or is_stream(annotation)


class _Default:
    def __repr__(self) -> str:
        return "..."


def _bare(parameters: list[inspect.Parameter]) -> str:
    """A parameter list without annotations or default values: `(self, args, *, trace=...)`."""
    empty = inspect.Parameter.empty
    bare = [
        p.replace(annotation=empty, default=empty if p.default is empty else _Default())
        for p in parameters
    ]
    return str(inspect.Signature(bare))


def _shown(annotation: Any) -> str:
    if isinstance(annotation, str):
        return annotation
    if isinstance(annotation, type):
        return annotation.__name__
    return re.sub(r"\b(?:\w+\.)+(\w+)", r"\1", repr(annotation))  # names without their modules


def _name(cls: type) -> str:
    return f"{cls.__module__}.{cls.__qualname__}"


def display_path(file: str | Path, root: Path) -> str:
    """`file` relative to the project root when it is under it (as diagnostics show files), else absolute."""
    path = Path(file).resolve()
    return (
        path.relative_to(root.resolve()).as_posix()
        if path.is_relative_to(root.resolve())
        else str(path)
    )


def _at(obj: Any, root: Path, message: str, hint: str) -> Diagnostic:
    """A binding error located at a class or function (file, line and column of its definition)."""
    try:
        file = inspect.getsourcefile(obj) or inspect.getfile(obj)
        lines, line = inspect.getsourcelines(obj)
        col = len(lines[0]) - len(lines[0].lstrip()) + 1
    except (OSError, TypeError):
        module = sys.modules.get(getattr(obj, "__module__", ""))
        file, line, col = getattr(module, "__file__", None) or "<unknown>", 1, 1
    return Diagnostic(
        display_path(file, root), max(line, 1), col, RULE, Severity.ERROR, message, hint=hint
    )


def _import_failure(module: str, exc: BaseException, root: Path) -> Diagnostic:
    """Where importing `module` failed: a syntax error's position, else the innermost frame under root."""
    if isinstance(exc, SyntaxError) and exc.filename:
        file, line, col = exc.filename, exc.lineno or 1, exc.offset or 1
    else:
        frames = [f for f in traceback.extract_tb(exc.__traceback__) if Path(f.filename).is_file()]
        ours = [
            f for f in frames if Path(f.filename).resolve().is_relative_to(root.resolve())
        ] or frames
        file, line, col = (ours[-1].filename, ours[-1].lineno or 1, 1) if ours else (module, 1, 1)
    return Diagnostic(
        display_path(file, root),
        line,
        col,
        RULE,
        Severity.ERROR,
        f"cannot import {module}: {type(exc).__name__}: {exc}",
        hint="toolgen check imports every module of the implementations; fix this one "
        "(tools are not checked for missing implementations until it imports)",
    )
