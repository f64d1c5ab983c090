# Part of toolgen's runtime, copied verbatim into generated packages (edit toolgen, not a copy).
"""Which tools a caller may see and call: each tool's scopes (spec `auth: {scopes: [...]}`)
against the caller's. A tool that declares none is open to every authenticated caller; a caller
of the static token, or of a server without authentication, holds every scope.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import Any

from ..calls.registry import Registry
from ..identity import Principal


def declared(registry: Registry, name: str) -> frozenset[str]:
    """The scopes a call of tool `name` needs (none for a name the registry does not have)."""
    if name not in registry:
        return frozenset()
    scopes: frozenset[str] = getattr(registry.info(name), "scopes", frozenset())
    return scopes


def needs_of(registry: Registry) -> Callable[[str, Any], Iterable[str]]:
    """The scopes a call needs, by its name and arguments: a call of the search pair's
    `call_tool` needs the scopes of the tool it names."""

    def needs(name: str, arguments: Any) -> Iterable[str]:
        try:
            target, _ = registry.forwarded(name, arguments)
        except Exception:  # noqa: BLE001 - a malformed call_tool: the call itself says so
            target = name
        return declared(registry, name) | declared(registry, target)

    return needs


def every_scope(registry: Registry) -> tuple[str, ...]:
    """Every scope a tool of `registry` declares, sorted (the metadata's `scopes_supported`)."""
    return tuple(sorted({s for name in registry for s in declared(registry, name)}))


def visible(registry: Registry, caller: Principal | None) -> Callable[[str], bool]:
    """Whether `caller` sees (and may call) a tool: it holds every scope the tool declares."""
    if caller is None or caller.every_scope:
        return lambda name: True
    return lambda name: not caller.missing(declared(registry, name))
