"""Binding: which handwritten class implements which generated tool interface, and how well
(the classes and interfaces as binding/discovery.py found them).

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

import inspect
from pathlib import Path

from toolgen.binding.discovery import Discovery, Interface
from toolgen.binding.findings import located
from toolgen.binding.signatures import (
    UNRESOLVED,
    annotation_names,
    bare,
    function_of,
    is_stub,
    resolved,
    returns_ok,
    shown,
)
from toolgen.diagnostics import Diagnostic


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
                    located(
                        cls,
                        discovery.root,
                        f"class {qualified(cls)} is meant to implement tool {tool!r} ({reason}) "
                        f"but does not subclass {interface.interface.__name__}",
                        f"declare it as `class {cls.__name__}({interface.interface.__name__})`, with "
                        f"`from {interface.import_path} import {interface.interface.__name__}`",
                    )
                )
        elif len(tools) > 1:
            out.append(
                located(
                    cls,
                    discovery.root,
                    f"class {qualified(cls)} subclasses the interfaces of several tools "
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
            if implementers and all(is_stub(c) for c in implementers):
                stub = implementers[0]
                out.append(
                    located(
                        inspect.getattr_static(stub, "run"),
                        discovery.root,
                        f"tool {tool!r} has no implementation: {qualified(stub)}.run only raises "
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
                f" ({', '.join(qualified(c) for c in abstract)} is abstract: it does not define run)"
                if abstract
                else ""
            )
            out.append(
                located(
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
    function = function_of(inspect.getattr_static(cls, "run", None))
    if function is not None:
        for parameter, annotation in resolved(function, {}).items():
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
    where = f"{qualified(cls)}.run (tool {interface.tool!r})"
    if inspect.getattr_static(cls, "info", None) is not interface.info:
        return [
            located(
                cls,
                root,
                f"class {qualified(cls)} subclasses {interface.interface.__name__} but overrides its info",
                "remove the `info` attribute: the interface sets it",
            )
        ]
    static = inspect.getattr_static(cls, "run")
    function = function_of(static)
    if function is None:
        kind = type(static).__name__
        return [
            located(
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
            located(
                function,
                root,
                f"{where} takes {bare(parameters)}; the interface's run takes "
                f"(self, {', '.join(expected)})",
                hint,
            )
        ]
    types_ = resolved(function, annotation_names(interface))
    raw = function.__annotations__
    out = []
    for name, wanted in zip(expected, (interface.arguments, interface.injected), strict=False):
        assert wanted is not None  # "injected" is expected only when the tool has an Injected model
        if name not in raw:
            out.append(
                located(
                    function,
                    root,
                    f"{where}: parameter {name!r} has no annotation; "
                    f"the interface has {wanted.__name__}",
                    hint,
                )
            )
        elif types_.get(name) is not wanted:
            out.append(
                located(
                    function,
                    root,
                    f"{where}: parameter {name!r} is annotated {shown(raw[name])}; "
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
            located(
                function,
                root,
                f"{where} has no return annotation; the interface returns {returns}",
                hint,
            )
        )
    elif not returns_ok(types_.get("return", UNRESOLVED), interface.result, is_async, streaming):
        what = (
            f"is an async def returning {shown(raw['return'])}; an async run returns {result}"
            if is_async
            else f"returns {shown(raw['return'])}; the interface returns {returns}"
        )
        out.append(
            located(
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


def qualified(cls: type) -> str:
    return f"{cls.__module__}.{cls.__qualname__}"
