# Part of toolgen's runtime, copied verbatim into generated packages (edit toolgen, not a copy).
"""The runtime of generated tool packages: validation, errors, results, registry, policies.

Copied verbatim into each generated package as `_runtime`; depends on pydantic only.
Its public names load on first use (PEP 562): importing the runtime loads none of its
modules, and `from ._runtime import ToolInfo` loads only what `ToolInfo` needs.
"""

from __future__ import annotations

import importlib

TYPE_CHECKING = False  # typing.TYPE_CHECKING without importing typing (type checkers know the name)
if TYPE_CHECKING:
    from typing import Any

    from .calls.context import RunContext, TurnCall, calling
    from .calls.execution import cancelled
    from .calls.guards import Guard, GuardCall, GuardError, GuardNote, Redact, Refuse, Withhold
    from .calls.hooks import CallEvent
    from .calls.registry import Registry
    from .calls.renaming import RenameError
    from .calls.streaming import Chunk, Final, Partial, Progress
    from .calls.tracing import OpenTelemetryHook
    from .errors import (
        ArgumentIssue,
        HostError,
        ToolArgumentsError,
        ToolCallError,
        ToolError,
        ToolgenError,
        UnknownCategoryError,
        UnknownToolError,
    )
    from .results.content import Audio, Document, Image, ResourceLink, Text
    from .results.control import Resumed, Suspend, Suspension, SuspensionError, resumed
    from .results.result import Output, ToolFailure, ToolInfo, ToolResult
    from .validation.validate import validate

__all__ = [
    "ArgumentIssue",
    "Audio",
    "CallEvent",
    "Chunk",
    "Document",
    "Final",
    "Guard",
    "GuardCall",
    "GuardError",
    "GuardNote",
    "HostError",
    "Image",
    "OpenTelemetryHook",
    "Output",
    "Partial",
    "Progress",
    "Redact",
    "Refuse",
    "Registry",
    "RenameError",
    "ResourceLink",
    "Resumed",
    "RunContext",
    "Suspend",
    "Suspension",
    "SuspensionError",
    "Text",
    "ToolArgumentsError",
    "ToolCallError",
    "ToolError",
    "ToolFailure",
    "ToolInfo",
    "ToolResult",
    "ToolgenError",
    "TurnCall",
    "UnknownCategoryError",
    "UnknownToolError",
    "Withhold",
    "calling",
    "cancelled",
    "resumed",
    "validate",
]

# Where each public name is defined, relative to this package: what `__getattr__` imports.
# A generated package's facade re-exports these too (facade.py), from the same table.
EXPORTS: dict[str, str] = {
    **dict.fromkeys(("RunContext", "TurnCall", "calling"), "calls.context"),
    "cancelled": "calls.execution",
    **dict.fromkeys(
        ("Guard", "GuardCall", "GuardError", "GuardNote", "Redact", "Refuse", "Withhold"),
        "calls.guards",
    ),
    "CallEvent": "calls.hooks",
    "Registry": "calls.registry",
    "RenameError": "calls.renaming",
    **dict.fromkeys(("Chunk", "Final", "Partial", "Progress"), "calls.streaming"),
    "OpenTelemetryHook": "calls.tracing",
    **dict.fromkeys(
        (
            "ArgumentIssue",
            "HostError",
            "ToolArgumentsError",
            "ToolCallError",
            "ToolError",
            "ToolgenError",
            "UnknownCategoryError",
            "UnknownToolError",
        ),
        "errors",
    ),
    **dict.fromkeys(("Audio", "Document", "Image", "ResourceLink", "Text"), "results.content"),
    **dict.fromkeys(
        ("Resumed", "Suspend", "Suspension", "SuspensionError", "resumed"), "results.control"
    ),
    **dict.fromkeys(("Output", "ToolFailure", "ToolInfo", "ToolResult"), "results.result"),
    "validate": "validation.validate",
}


if not TYPE_CHECKING:  # type checkers see the imports above: a misspelt name stays an error

    def __getattr__(name: str) -> Any:
        """A public name, imported from its module the first time it is asked for (PEP 562)."""
        module = EXPORTS.get(name)
        if module is None:
            raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
        value = getattr(importlib.import_module(f"{__name__}.{module}"), name)
        globals()[name] = value  # later lookups find it without this function
        return value


def __dir__() -> list[str]:
    return sorted({*globals(), *__all__})
