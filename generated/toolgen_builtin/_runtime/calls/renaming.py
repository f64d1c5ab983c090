# Part of toolgen's runtime, copied verbatim into generated packages (edit toolgen, not a copy).
"""Per-host names: the tools of a registry under other names (`Registry.renamed`,
`Registry.prefixed`), for one host or one server that wants `fs_read` where the spec says
`read_file`.

A renamed tool is its implementation wrapped (`Renamed`) with a copy of its `info` under the
new name, so everything that reads `info.name` follows: dispatch, argument messages, approvals
and suspended calls, tool search, the MCP server. The wrapper keeps the spec's own info
(`original`), from which `Registry.definitions` takes each provider's definition before
renaming it. As with `a + b`, the renamed tools are a new registry of the same settings; the
old names are unknown there.
"""

from __future__ import annotations

import dataclasses
import re
from collections.abc import Mapping
from typing import Any

from .. import kinds
from ..errors import ToolgenError, short
from ..results.result import package_of

PROVIDER_NAME = re.compile(kinds.TOOL_NAME)  # matched whole


class RenameError(ToolgenError, ValueError):
    """A renaming refused: a new name no provider accepts, or one two tools would have."""


class Renamed:
    """An implementation under another name: `info` is the renamed copy, `original` the
    spec's; anything else is read from the implementation (`run`, ...)."""

    def __init__(self, implementation: Any, info: Any, original: Any) -> None:
        self.info = info
        self.toolgen_implementation, self.toolgen_original = implementation, original

    def __getattr__(self, name: str) -> Any:
        if name.startswith("toolgen_"):  # not set yet (a copy being made)
            raise AttributeError(name)
        return getattr(self.toolgen_implementation, name)

    def __repr__(self) -> str:
        renaming = f"{self.toolgen_original.name!r} -> {self.info.name!r}"
        return f"Renamed({self.toolgen_implementation!r}, {renaming})"


def original(implementation: Any) -> Any:
    """The spec's info of an implementation, renamed or not."""
    return getattr(implementation, "toolgen_original", None) or implementation.info


def renamed(tools: Mapping[str, Any], names: Mapping[str, str], kept: frozenset[str]) -> list[Any]:
    """The implementations of `tools` (by name), those of `names` (canonical name -> new name)
    renamed; RenameError for a new name no provider accepts or that two tools would have
    (`kept`: names that stay whatever is asked, the tool-search pair's)."""
    for old, new in names.items():
        if old in kept:
            raise RenameError(f"tool {old!r} is the tool-search pair's: it keeps its name")
        if not (isinstance(new, str) and PROVIDER_NAME.fullmatch(new)):
            shown = repr(short(new)) if isinstance(new, str) else type(new).__name__
            raise RenameError(
                f"tool {old!r} cannot be renamed {shown}: a tool name providers accept is 1 to "
                f"64 letters, digits, '_' or '-', not starting with a digit or '-'"
            )
    taken: dict[str, str] = {}  # each name a provider may call, and its tool
    for old, impl in tools.items():
        new = names.get(old, old)
        info = impl.info
        for name in (new,) if new != old else (old, info.provider_name):
            if name in taken and taken[name] != old:
                raise RenameError(f"tools {taken[name]!r} and {old!r} would both be named {name!r}")
            if name:
                taken[name] = old
    return [_named(impl, names[n]) if names.get(n, n) != n else impl for n, impl in tools.items()]


def _named(implementation: Any, name: str) -> Any:
    inner = getattr(implementation, "toolgen_implementation", implementation)
    spec = original(implementation)
    if spec.name == name:
        return inner  # renamed back: the implementation as it was
    info = dataclasses.replace(spec, name=name, provider_name="")
    return Renamed(inner, info, spec)


Names = dict[tuple[str, str], str]  # (package, a name its definitions have) -> the new name


def specs(tools: Mapping[str, Any]) -> tuple[list[Any], Names]:
    """The spec's info of each tool (by name; its definitions are its package's), and the new
    name of each renamed one by the names its package's definitions give it."""
    own = [(original(impl), name) for name, impl in tools.items()]
    new = {
        (package_of(spec), name): shown
        for spec, shown in own
        if spec.name != shown
        for name in (spec.name, spec.provider_name)
        if name
    }
    return [spec for spec, _ in own], new


def shown(definition: dict[str, Any], package: str, new: Names) -> dict[str, Any]:
    """A definition of `package` as it is, or a copy under its tool's new name, where its
    provider writes it (`function.name`, `toolSpec.name`, `name`)."""
    holder = next((h for h in kinds.HOLDERS if isinstance(definition.get(h), Mapping)), None)
    held = definition if holder is None else definition[holder]
    name = new.get((package, str(held.get("name"))))
    if name is None:
        return definition
    if holder is None:
        return {**definition, "name": name}
    return {**definition, holder: {**held, "name": name}}
