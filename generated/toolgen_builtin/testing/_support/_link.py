# Part of toolgen's runtime, copied verbatim into generated packages (edit toolgen, not a copy).
"""The runtime names the test support uses (see the package docstring for why here)."""

from ..._runtime.content import block_kind
from ..._runtime.control import Suspend
from ..._runtime.ecma import ecma_pattern
from ..._runtime.errors import ToolError
from ..._runtime.exact_values import is_multiple
from ..._runtime.registry import Registry
from ..._runtime.results import ToolInfo, raised_as, tool_error_kind
from ..._runtime.results import finish as _finish
from ..._runtime.secrets import REDACTED, redact
from ..._runtime.shape import Node
from ..._runtime.streaming import StreamError, running
from ..._runtime.suggest import nearest
from ..._runtime.types import json_equal

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
