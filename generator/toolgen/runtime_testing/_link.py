# Part of toolgen's runtime, copied verbatim into generated packages (edit toolgen, not a copy).
"""The runtime names the test support uses (see the package docstring for why here)."""

from ..runtime.calls.registry import Registry
from ..runtime.calls.streaming import StreamError, running
from ..runtime.errors import ToolError, UnknownToolError
from ..runtime.pointer import tokens
from ..runtime.results.content import block_kind
from ..runtime.results.control import Suspend
from ..runtime.results.outcome import finish as _finish
from ..runtime.results.outcome import raised_as, tool_error_kind
from ..runtime.results.result import ToolInfo
from ..runtime.secrets import REDACTED, redact
from ..runtime.types import is_json_type, json_equal
from ..runtime.validation.exact.ecma import ecma_pattern
from ..runtime.validation.exact.values import is_multiple
from ..runtime.validation.shape import Node
from ..runtime.validation.suggest import nearest

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
    "UnknownToolError",
    "_finish",
    "block_kind",
    "is_json_type",
    "json_equal",
    "tokens",
    "nearest",
    "raised_as",
    "redact",
    "running",
    "tool_error_kind",
]
