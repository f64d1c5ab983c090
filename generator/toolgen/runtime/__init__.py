# Part of toolgen's runtime, copied verbatim into generated packages (edit toolgen, not a copy).
"""The runtime of generated tool packages: validation, errors, results, registry, policies.

Copied verbatim into each generated package as `_runtime`; depends on pydantic only.
"""

from .calls.execution import cancelled
from .calls.hooks import CallEvent
from .calls.registry import Registry
from .calls.streaming import Chunk, Final, Partial, Progress
from .calls.tracing import OpenTelemetryHook
from .errors import (
    ArgumentIssue,
    ToolArgumentsError,
    ToolCallError,
    ToolError,
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
    "Image",
    "OpenTelemetryHook",
    "Output",
    "Partial",
    "Progress",
    "Registry",
    "ResourceLink",
    "Resumed",
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
    "UnknownCategoryError",
    "UnknownToolError",
    "cancelled",
    "resumed",
    "validate",
]
