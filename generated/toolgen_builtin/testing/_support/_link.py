# Part of toolgen's runtime, copied verbatim into generated packages (edit toolgen, not a copy).
"""The runtime names the test support uses (see the package docstring for why here)."""

from ..._runtime.calls.registry import Registry
from ..._runtime.calls.streaming import StreamError, running
from ..._runtime.errors import ToolError, UnknownToolError
from ..._runtime.pointer import tokens
from ..._runtime.results.content import block_kind
from ..._runtime.results.control import Suspend
from ..._runtime.results.outcome import finish as _finish
from ..._runtime.results.outcome import raised_as, tool_error_kind
from ..._runtime.results.result import ToolInfo
from ..._runtime.secrets import REDACTED, redact
from ..._runtime.types import is_json_type, json_equal
from ..._runtime.validation.exact.ecma import ecma_pattern
from ..._runtime.validation.exact.values import is_multiple
from ..._runtime.validation.shape import Node
from ..._runtime.validation.suggest import nearest

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
