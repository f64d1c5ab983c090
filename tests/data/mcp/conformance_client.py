"""The client the MCP conformance suite runs (`conformance client --command ...`): the typed
client toolgen generates into `conformance_tools`, against the suite's server at the URL it
passes last. The scenario's name is in MCP_CONFORMANCE_SCENARIO."""

from __future__ import annotations

import asyncio
import os
import sys

import conformance_tools.client


async def main(url: str) -> None:
    # The suite (0.1.12) checks clients of the handshake revisions (2025-06-18, 2025-11-25).
    async with conformance_tools.client.connect(url, protocol="legacy") as tools:
        if os.environ.get("MCP_CONFORMANCE_SCENARIO") == "tools_call":
            total = await tools.add_numbers(a=2, b=3)
            print(f"add_numbers: {total.root}")  # the server says it in a sentence


if __name__ == "__main__":
    asyncio.run(main(sys.argv[-1]))
