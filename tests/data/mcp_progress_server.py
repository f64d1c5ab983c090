"""A small MCP server written with the official SDK's MCPServer that reports its progress the
standard way (`notifications/progress`, no toolgen `_meta`): the generated client's `stream`
must yield it (tests/functional/serving/test_mcp_client.py). Runs over stdio."""

from __future__ import annotations

from mcp.server.mcpserver import Context, MCPServer

app = MCPServer("progress-demo", version="1.0.0")


@app.tool(structured_output=False)
async def count(steps: int, ctx: Context) -> str:
    """Count to `steps`, telling the client of each step."""
    for step in range(1, steps + 1):
        await ctx.report_progress(step, steps, f"step {step}")
    return f"counted to {steps}"


if __name__ == "__main__":
    app.run()
