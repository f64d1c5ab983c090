"""The built-in tools a host leaves off: a call to one says which variable turns it on.

`registry()` registers run_shell, run_python and browser only when the host enables them. A
call to one of them then fails as an unknown tool would (`unknown_tool`), with a message that
names the switch instead of "Unknown tool", so that whoever reads it knows what to set.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from toolgen_builtin import Registry, UnknownToolError


class DisabledToolError(UnknownToolError):
    """A tool this host did not enable; the message says how it is enabled."""

    def __init__(self, name: str, how: str) -> None:
        LookupError.__init__(self, f"Tool '{name}' is off on this host: {how}")
        self.name, self.suggestion = name, None


class HintingRegistry(Registry):
    """A Registry that names the switch of each tool it leaves off (`off`: tool -> how to
    enable it). Registries derived from it (`without`, `add`, `+`) keep the hints."""

    def __init__(self, implementations: Any, off: Mapping[str, str], **settings: Any) -> None:
        super().__init__(implementations, **settings)
        self.off = dict(off)

    def resolve(self, name: str) -> str:
        try:
            return super().resolve(name)
        except UnknownToolError:
            how = self.off.get(name) if type(name) is str else None
            if how is None:
                raise
            raise DisabledToolError(name, how) from None
