"""An MCP server (the official SDK's MCPServer) whose every word is hostile to a terminal.

Its name and version, a tool's name and, with `--fail`, the error it answers `tools/list`
with carry CR LF (a forged line), ANSI escapes (colour, clear screen, window title) and a
right-to-left override.
`toolgen import --from mcp-server` must print them escaped (tests/functional/serving/test_import_live.py).
"""

from __future__ import annotations

import sys
from typing import Any

from mcp import MCPError
from mcp.server.mcpserver import MCPServer

FORGED = "\r\nrefused: nothing\x1b[31m red\x1b[2J\x1b]0;title\x07 \u202egnp.exe"
FAIL = sys.argv[1:2] == ["--fail"]


async def hostile(ctx: Any, call_next: Any) -> Any:
    """Middleware: tools/list answers one tool that imports and one that is refused, whose
    name and the server's error carry the forged text."""
    if ctx.method == "tools/list" and FAIL:
        raise MCPError(-32000, "listing failed" + FORGED)
    result = await call_next(ctx)
    if ctx.method != "tools/list":
        return result
    schema = {"type": "object", "properties": {"text": {"type": "string"}}}
    return {
        **result,
        "tools": [
            {"name": "fine", "description": "A tool" + FORGED, "inputSchema": schema},
            {
                "name": "evil" + FORGED,
                "description": "refused: its parameter's type is unknown",
                "inputSchema": {**schema, "properties": {"x": {"type": "strange" + FORGED}}},
            },
        ],
    }


app = MCPServer("hostile" + FORGED, version="6.6" + FORGED, middleware=[hostile])


@app.tool()
def fine(text: str) -> str:
    """Send the text back."""
    return text


if __name__ == "__main__":
    app.run()
