# Part of toolgen's runtime, copied verbatim into generated packages (edit toolgen, not a copy).
"""The runtime names the test support uses (see the package docstring for why here)."""

from ..runtime.content import block_kind
from ..runtime.control import Suspend
from ..runtime.ecma import ecma_pattern
from ..runtime.errors import ToolError
from ..runtime.exact_values import is_multiple
from ..runtime.registry import Registry
from ..runtime.results import ToolInfo, raised_as, tool_error_kind
from ..runtime.results import finish as _finish
from ..runtime.secrets import REDACTED, redact
from ..runtime.shape import Node
from ..runtime.streaming import StreamError, running
from ..runtime.suggest import nearest
from ..runtime.types import json_equal

__all__ = [
    "REDACTED",
    "ecma_pattern",
    "is_multiple",
    "Node",
    "Registry",
    "StreamError",
    "Suspend",
    "ToolError",
    "ToolInfo",
    "_finish",
    "block_kind",
    "json_equal",
    "nearest",
    "raised_as",
    "redact",
    "running",
    "tool_error_kind",
]
