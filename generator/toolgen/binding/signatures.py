"""A `run` method read as the binding check reads it: the plain function under a decorator,
its annotations resolved (strings and TYPE_CHECKING names too), whether a return annotation
is one the interface accepts, whether it is the scaffold's stub, and how a signature or an
annotation is shown in a finding."""

from __future__ import annotations

import ast
import collections.abc
import inspect
import re
import sys
import textwrap
import types
import typing
from typing import Any

from toolgen.binding.discovery import Interface

UNRESOLVED: Any = object()


def is_stub(cls: type) -> bool:
    """Whether `cls.run` does nothing but raise NotImplementedError (after a docstring), read
    from its source: the stub `toolgen scaffold` writes, not yet filled in."""
    function = function_of(inspect.getattr_static(cls, "run", None))
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


def function_of(value: Any) -> types.FunctionType | None:
    if isinstance(value, (staticmethod, classmethod)):
        return None
    function = inspect.unwrap(value) if callable(value) else value
    return function if isinstance(function, types.FunctionType) else None


def annotation_names(interface: Interface) -> dict[str, Any]:
    """Names an annotation may use without importing them at run time (TYPE_CHECKING imports)."""
    names: dict[str, Any] = {
        "Any": Any,
        **{name: getattr(collections.abc, name) for name in STREAMS},
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


def resolved(function: types.FunctionType, fallback: dict[str, Any]) -> dict[str, Any]:
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
STREAMS = ("Iterator", "Iterable", "Generator", "AsyncIterator", "AsyncIterable", "AsyncGenerator")


def returns_ok(annotation: Any, result: type, is_async: bool, streaming: bool = False) -> bool:
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
        return streaming and origin in {getattr(collections.abc, name) for name in STREAMS}

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


def bare(parameters: list[inspect.Parameter]) -> str:
    """A parameter list without annotations or default values: `(self, args, *, trace=...)`."""
    empty = inspect.Parameter.empty
    bare = [
        p.replace(annotation=empty, default=empty if p.default is empty else _Default())
        for p in parameters
    ]
    return str(inspect.Signature(bare))


def shown(annotation: Any) -> str:
    if isinstance(annotation, str):
        return annotation
    if isinstance(annotation, type):
        return annotation.__name__
    return re.sub(r"\b(?:\w+\.)+(\w+)", r"\1", repr(annotation))  # names without their modules
