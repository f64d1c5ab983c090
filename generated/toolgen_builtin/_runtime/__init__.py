# Part of toolgen's runtime, copied verbatim into generated packages (edit toolgen, not a copy).
"""The runtime of generated tool packages: validation, errors, results, registry, policies.

Copied verbatim into each generated package as `_runtime`; depends on pydantic only.
"""

from .content import Audio, Document, Image, ResourceLink, Text
from .control import Resumed, Suspend, Suspension, SuspensionError, resumed
from .errors import (
    ArgumentIssue,
    ToolArgumentsError,
    ToolCallError,
    ToolError,
    UnknownCategoryError,
    UnknownToolError,
)
from .execution import cancelled
from .hooks import CallEvent
from .registry import Registry
from .results import Output, ToolFailure, ToolInfo, ToolResult
from .streaming import Chunk, Final, Partial, Progress
from .tracing import OpenTelemetryHook
from .validation import validate

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
