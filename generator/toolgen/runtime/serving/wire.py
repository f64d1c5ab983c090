# Part of toolgen's runtime, copied verbatim into generated packages (edit toolgen, not a copy).
"""The keys of toolgen's own in MCP messages, for its server and its client alike."""

from __future__ import annotations

# `_meta` keys of toolgen's own: a streaming tool's event (on a progress notification); the
# failure of an error result (its kind, whether to retry, the data done before it), and (as
# JSON text) the value a result cannot put in `structuredContent` (not a JSON object, on a
# handshake revision; null); the warnings for the host (deprecations, repairs).
EVENT = "io.toolgen/event"
FAILURE = "io.toolgen/failure"
VALUE = "io.toolgen/value"
WARNINGS = "io.toolgen/warnings"
METADATA = "io.toolgen/metadata"  # the guidance for the model (also in the text content)
ASKED = "toolgen"  # the key of the one input request of an input-required result

# The request header in which toolgen's client says the largest SSE event it reads (bytes);
# the server answers a larger result sent after events as an error (answering.py).
MAX_EVENT_HEADER = "toolgen-max-event-bytes"
