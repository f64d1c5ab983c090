# Part of toolgen's runtime, copied verbatim into generated packages (edit toolgen, not a copy).
"""An ok result as bytes for a shared cache (another process reads it), and back.

JSON, never pickle: whoever can write to the store must not be able to run code in the
processes that read it. The value goes as the JSON it was sent as (`as_sent`) and comes back
through the tool's `Result` class; metadata, `terminal`, warnings and content blocks (bytes
as base64) go with it. What cannot be read back (written by another version of the tool, or
not JSON at all) is a miss: the tool runs.
"""

from __future__ import annotations

import base64
import dataclasses
import json
from typing import Any

from ..results import content
from ..results.result import ToolInfo, ToolResult
from ..validation.validate import as_sent

_BLOCKS = {
    cls.kind: cls
    for cls in (content.Text, content.Image, content.Audio, content.Document, content.ResourceLink)
}


def encoded(result: ToolResult) -> bytes:
    blocks = []
    for block in result.content:
        fields = {f.name: getattr(block, f.name) for f in dataclasses.fields(block)}
        if isinstance(fields.get("data"), bytes):
            fields["data"] = base64.b64encode(fields["data"]).decode()
        blocks.append({"kind": block.kind, **fields})
    kept = {
        "value": as_sent(result.value),
        "metadata": result.metadata,
        "terminal": result.terminal,
        "warnings": list(result.warnings),
        "content": blocks,
    }
    return json.dumps(kept, separators=(",", ":"), default=repr).encode()


def revived(info: ToolInfo, raw: Any) -> ToolResult | None:
    """The result kept as `raw` (bytes), or None: nothing kept, or not readable."""
    if raw is None:
        return None
    try:
        kept = json.loads(raw)
        value = info.result.model_validate_json(json.dumps(kept["value"]))
        blocks = []
        for fields in kept["content"]:
            cls = _BLOCKS[fields.pop("kind")]
            if "data" in fields:
                fields["data"] = base64.b64decode(fields["data"])
            blocks.append(cls(**fields))
        return ToolResult(
            info.name,
            value=value,
            metadata=kept["metadata"],
            terminal=bool(kept["terminal"]),
            warnings=tuple(kept["warnings"]),
            content=tuple(blocks),
        )
    except Exception:  # noqa: BLE001 - an entry this version cannot read is a miss
        return None
