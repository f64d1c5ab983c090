# Part of toolgen's runtime, copied verbatim into generated packages (edit toolgen, not a copy).
"""The runtime of generated tool packages: validation, errors, results, registry.

Copied verbatim into each generated package as `_runtime`; depends on pydantic only.
"""

from .errors import (
    ArgumentIssue,
    ToolArgumentsError,
    ToolCallError,
    ToolError,
    UnknownCategoryError,
    UnknownToolError,
)
from .registry import Registry, ToolFailure, ToolInfo, ToolResult
from .validation import validate

__all__ = [
    "ArgumentIssue",
    "Registry",
    "ToolArgumentsError",
    "ToolCallError",
    "ToolError",
    "ToolFailure",
    "ToolInfo",
    "ToolResult",
    "UnknownCategoryError",
    "UnknownToolError",
    "validate",
]
