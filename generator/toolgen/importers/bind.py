"""`--bind MODULE`: the implementations of the tools imported from Python functions.

One module, a dotted name written as a file under the current folder (where the functions
were imported from): for each tool a class that subclasses the generated interface and
calls the original function, and `registry()` building the generated package's Registry
of them all. The conversions are pydantic's, through each function's own type hints, at
run time: the module holds names only, so it stays right when a function's types change
and the specs are imported again. Rendered from templates/bind.py.jinja, black-formatted.
"""

from __future__ import annotations

import inspect
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from toolgen.importers.docstrings import read_docstring
from toolgen.importers.python import SKIPPED, error_kind
from toolgen.naming import module_name, tool_classes

ATTRIBUTE = "registry"
# What the template imports or defines: a tool's class is never one of these names.
TAKEN = frozenset(
    {
        *("Any", "ArgumentIssue", "BaseModel", "Callable", "Mapping", "Registry"),
        *("ToolArgumentsError", "ToolError", "TypeAdapter", "ValidationError"),
    }
)


@dataclass(frozen=True)
class Bound:
    """One imported tool and the function it calls."""

    tool: dict[str, Any]
    function: Any


def unbindable(function: Any) -> str | None:
    """Why a function cannot be called from the bound module, or None when it can."""
    if any(name in SKIPPED for name in inspect.signature(function).parameters):
        return "a method needs its instance: bind a module-level function or a staticmethod"
    return None


def module_file(module: str) -> Path:
    """Where the module `a.b` is written, relative to the current folder: `a/b.py`."""
    return Path(*module.split(".")).with_suffix(".py")


def bind_source(package: str, target: str, bound: list[Bound]) -> str:
    """The text of the bound module: one class per tool, and `registry()`."""
    from toolgen.format import format_python
    from toolgen.render import environment

    sources: dict[str, str] = {}
    tools = []
    for item in bound:
        module = item.function.__module__
        alias = sources.setdefault(module, f"_source_{len(sources) + 1}")
        classes = tool_classes(item.tool["name"])
        name = classes.implementation
        name = f"{classes.prefix}Impl" if name in TAKEN else name
        declared = item.tool.get("errors", {})
        errors = {
            exception: error_kind(exception)
            for exception, _ in read_docstring(item.function).raises
            if error_kind(exception) in declared
        }
        tools.append(
            {
                "name": name,
                "tool": item.tool["name"],
                "module": module_name(item.tool["name"]),
                "arguments": classes.arguments,
                "result": classes.result,
                "interface": classes.interface,
                "constant": module_name(item.tool["name"]).upper(),
                "function": f"{alias}.{item.function.__qualname__}",
                "errors": errors,
                "is_async": inspect.iscoroutinefunction(inspect.unwrap(item.function)),
                "doc": f"The {item.tool['name']} tool: calls {module}.{item.function.__qualname__}.",
            }
        )
    doc = (
        f"The {package} tools bound to the Python functions they were imported from (written by "
        f"`toolgen import --from python --bind {target}`; import again rather than edit).\n\n"
        f'[tool.toolgen] implementations = "{target}:{ATTRIBUTE}" runs them with `toolgen call`.'
    )
    source = (
        environment()
        .get_template("bind.py.jinja")
        .render(
            doc=doc,
            package=package,
            sources=sorted(sources.items()),
            tools=tools,
            attribute=ATTRIBUTE,
        )
    )
    return format_python(source)
