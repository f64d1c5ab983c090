"""`--from python`: Python functions as tools, from their signatures, type hints and docstrings.

`module:function` is one function (`module:Class.method` too); `module` is every public
function defined in it (not imported into it, no leading `_`), in the order of the source.
The module is imported with the current folder on `sys.path`: importing runs its code.
Types become JSON Schema through pydantic (pytypes.py), the docstring becomes descriptions
and declared errors (docstrings.py), a date's or UUID's `format` gets the pattern that
checks it (formats.py); what comes out is a record for normalize.py like any
other format's, so the same notes, names and lint checks apply.
"""

from __future__ import annotations

import importlib
import inspect
import os
import re
import sys
import typing
from pathlib import Path
from typing import Annotated, Any

from pydantic import Field
from pydantic.fields import FieldInfo

from toolgen.importers.common import SourceError, UnsupportedSchema
from toolgen.importers.docstrings import Docs, read_docstring, require_griffe
from toolgen.importers.formats import checked_formats
from toolgen.importers.normalize import ERROR_KIND
from toolgen.importers.pytypes import Parameter, parameters_schema, readable, result_schema

SKIPPED = ("self", "cls")


def load(target: str) -> list[tuple[str, Any]]:
    """(origin, function) for each function `target` names: origin is the file and line (`pkg/mod.py line 12`)."""
    require_griffe()
    module_name, _, attribute = target.partition(":")
    if not module_name.strip():
        raise SourceError("--from python needs package.module or package.module:function")
    module = _import(module_name)
    if attribute:
        function: Any = module
        for part in attribute.split("."):
            function = getattr(function, part, None)
        if not (callable(function) and inspect.isfunction(inspect.unwrap(function))):
            raise SourceError(f"{target}: {module_name} defines no function {attribute!r}")
        return [(_origin(function), function)]
    functions = [
        value
        for name, value in vars(module).items()
        if inspect.isfunction(value)
        and value.__module__ == module.__name__
        and name == value.__name__
        and not name.startswith("_")
    ]
    if not functions:
        raise SourceError(
            f"{target}: the module defines no public function (write module:function for one)"
        )
    return [(_origin(function), function) for function in functions]


def _import(name: str) -> Any:
    here = os.getcwd()
    added = here not in sys.path
    if added:
        sys.path.insert(0, here)
    try:
        return importlib.import_module(name)
    except ImportError as exc:
        raise SourceError(f"cannot import {name}: {exc}") from None
    except (Exception, SystemExit) as exc:  # noqa: BLE001 - importing runs the module: whatever it raises, one line
        raise SourceError(f"importing {name} raised {type(exc).__name__}: {exc}") from None
    finally:
        if added:
            sys.path.remove(here)


def _module_path(module: Any) -> str:
    """The module's file relative to the folder it was imported from (`pkg/mod.py`), or its name."""
    file = getattr(module, "__file__", None)
    if not file:
        return str(module.__name__)
    depth = module.__name__.count(".") + (2 if Path(file).name == "__init__.py" else 1)
    return "/".join(Path(file).parts[-depth:])


def _origin(function: Any) -> str:
    """Where a function is defined, as a header shows it: `pkg/mod.py line 12`."""
    where = _module_path(sys.modules[function.__module__])
    code = getattr(inspect.unwrap(function), "__code__", None)
    return f"{where} line {code.co_firstlineno}" if code else where


def unwrap(item: Any) -> list[Any]:
    return [item]


def record(function: Any) -> tuple[dict[str, Any], list[str]]:
    """The tool record of one function (name, description, parameters, returns, errors) and its notes."""
    docs = read_docstring(function)
    notes: list[str] = []
    try:
        hints = typing.get_type_hints(inspect.unwrap(function), include_extras=True)
    except Exception as exc:  # noqa: BLE001 - a hint naming what the module does not define, a broken string
        raise UnsupportedSchema(
            "/parameters", f"its type hints cannot be read: {type(exc).__name__}: {exc}"
        ) from None
    parameters = _parameters(function, hints, docs, notes)
    schema, more = parameters_schema(parameters)
    schema = checked_formats(schema)
    notes += more
    _describe(schema, [p.annotation for p in parameters], docs)
    out: dict[str, Any] = {
        "name": function.__name__,
        "description": docs.description,
        "parameters": schema,
    }
    returned = hints.get("return")
    if returned is not None and returned is not type(None):
        returns, more = result_schema(returned)
        notes += more
        if docs.returns and "description" not in returns:
            returns = readable({**returns, "description": docs.returns})
        out["returns"] = returns
    errors = _errors(docs.raises, notes)
    if errors:
        out["errors"] = errors
    return out, notes


def _parameters(
    function: Any, hints: dict[str, Any], docs: Docs, notes: list[str]
) -> list[Parameter]:
    out: list[Parameter] = []
    for parameter in inspect.signature(function).parameters.values():
        name = parameter.name
        if name in SKIPPED:
            notes.append(f"/parameters: `{name}` left out: it is not an argument a model sends")
            continue
        if parameter.kind in (parameter.VAR_POSITIONAL, parameter.VAR_KEYWORD):
            star = "*" if parameter.kind == parameter.VAR_POSITIONAL else "**"
            raise UnsupportedSchema(
                "/parameters",
                f"`{star}{name}` takes arguments no schema can name",
                "give each argument its own parameter",
            )
        annotation = hints.get(name, Any)
        if name not in hints:
            notes.append(
                f"/parameters/properties/{name}: no type hint: any JSON value is accepted (add one)"
            )
        default = parameter.default
        required = default is parameter.empty
        if isinstance(default, FieldInfo):  # `x: int = Field(3, description=...)`
            annotation, required = Annotated[annotation, default], default.is_required()
        elif not required:
            annotation = Annotated[annotation, Field(default=default)]
        out.append(Parameter(name, annotation, required))
    taken = {p.name for p in out} | set(SKIPPED)
    for name in [name for name in docs.parameters if name not in taken]:
        notes.append(
            f"/parameters/properties/{name}: documented in the docstring but not a parameter: left out"
        )
    return out


def _describe(schema: dict[str, Any], annotations: list[Any], docs: Docs) -> None:
    """Each property's description: its type's own (`Field(description=...)`), else an
    `Annotated` string, else the docstring's; a missing one is left to lint to warn about."""
    for (name, prop), annotation in zip(schema["properties"].items(), annotations, strict=False):
        if "description" in prop:
            continue
        text = next(
            (m for m in getattr(annotation, "__metadata__", ()) if isinstance(m, str)), None
        )
        text = text or docs.parameters.get(name)
        if text:
            schema["properties"][name] = readable({**prop, "description": text})


def _errors(raises: list[tuple[str, str]], notes: list[str]) -> dict[str, dict[str, str]]:
    """`Raises:` entries as declared error kinds: `ValueError` -> `value_error`."""
    errors: dict[str, dict[str, str]] = {}
    for exception, text in raises:
        kind = error_kind(exception)
        if kind in errors:
            errors[kind]["description"] += f" {text}" if text else ""
            continue
        errors[kind] = {"description": text or f"The function raises {exception}."}
        notes.append(
            f"/errors/{kind}: from `Raises: {exception}`: the implementation raises "
            f'ToolError("{kind}", ...) for it' + ("" if text else "; describe when")
        )
    return errors


def error_kind(exception: str) -> str:
    """`ValueError` -> `value_error`, `http.HTTPError` -> `http_error`: the spec format's kind names."""
    name = exception.rpartition(".")[2]
    words = re.sub(r"(?<=[a-z0-9])(?=[A-Z])|(?<=[A-Z])(?=[A-Z][a-z])", "_", name).lower()
    kind = re.sub(r"[^a-z0-9_]+", "_", words).strip("_")
    return kind if ERROR_KIND.match(kind) else f"error_{kind}".rstrip("_")
