"""A small MCP server written with the official SDK's MCPServer, for `toolgen import --from mcp-server`.

Two tools, one with an outputSchema (its return type is a model). It lists one tool per
`tools/list` page, so a client must follow the cursor to see both. Runs over stdio, or
over streamable HTTP with `--http PORT` (tests/functional/serving/test_import_live.py).
"""

from __future__ import annotations

import sys
from typing import Any

from mcp.server.mcpserver import MCPServer
from mcp.types import ToolAnnotations
from pydantic import BaseModel, Field


async def one_tool_per_page(ctx: Any, call_next: Any) -> Any:
    """Middleware: a tools/list answer holds one tool, and a cursor to the next one."""
    result = await call_next(ctx)
    if ctx.method != "tools/list":
        return result
    start = int((ctx.params or {}).get("cursor") or 0)
    page = {**result, "tools": result["tools"][start:start + 1]}
    if start + 1 < len(result["tools"]):
        page["nextCursor"] = str(start + 1)
    return page


app = MCPServer("weather-demo", version="1.0.0", middleware=[one_tool_per_page])


class Weather(BaseModel):
    temperature: float = Field(description="Degrees Celsius")
    conditions: str


@app.tool(annotations=ToolAnnotations(readOnlyHint=True, openWorldHint=True))
def get_weather(city: str = Field(description="City and country, e.g. Paris, France"), days: int = 1) -> Weather:
    """Get the weather forecast for a city."""
    return Weather(temperature=21.5, conditions="sunny")


@app.tool(title="Echo", structured_output=False)
def echo(text: str) -> str:
    """Send the text back."""
    return text


if __name__ == "__main__":
    if sys.argv[1:2] == ["--http"]:
        app.run("streamable-http", host="127.0.0.1", port=int(sys.argv[2]))
    else:
        app.run()
