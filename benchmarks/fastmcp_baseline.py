"""The baseline of `serve_load.py`: `summarize_numbers` written by hand with the `mcp` SDK's own
high-level server (`MCPServer`, v1's FastMCP), served as toolgen serves it: stateless
streamable HTTP at /mcp, uvicorn worker processes from an app factory.

Run: `python benchmarks/fastmcp_baseline.py [--port 8000] [--workers 2]`. Same arguments
(`values`, `percentiles`) and the same result as the built-in tool (implementations/data.py),
checked by `serve_load.py` before it measures.
"""

from __future__ import annotations

import argparse
import math
from typing import Annotated

from pydantic import BaseModel, Field


class Percentile(BaseModel):
    percentile: float
    value: float


class Summary(BaseModel):
    count: int
    sum: float
    mean: float
    median: float
    min: float
    max: float
    stdev: float | None
    pstdev: float
    percentiles: list[Percentile]


def summarize_numbers(
    values: Annotated[list[float], Field(min_length=1, max_length=1_000_000)],
    percentiles: Annotated[list[Annotated[float, Field(ge=0, le=100)]], Field(max_length=100)] = [],  # noqa: B006
) -> Summary:
    """Compute summary statistics of a list of numbers: count, sum, mean, median, minimum,
    maximum, sample and population standard deviation, and any percentiles asked for."""
    ordered = sorted(values)
    n = len(ordered)
    if not all(map(math.isfinite, ordered)):
        raise ValueError("every value must be a finite number")
    mean = math.fsum(v / n for v in ordered)
    squares = math.fsum((v - mean) ** 2 for v in ordered)
    return Summary(
        count=n,
        sum=math.fsum(ordered),
        mean=mean,
        median=_percentile(ordered, 50),
        min=ordered[0],
        max=ordered[-1],
        stdev=math.sqrt(squares / (n - 1)) if n > 1 else None,
        pstdev=math.sqrt(squares / n),
        percentiles=[Percentile(percentile=p, value=_percentile(ordered, p)) for p in percentiles],
    )


def _percentile(ordered: list[float], p: float) -> float:
    rank = p / 100 * (len(ordered) - 1)
    low = math.floor(rank)
    high = min(low + 1, len(ordered) - 1)
    fraction = rank - low
    return (
        ordered[low] if fraction == 0 else ordered[low] * (1 - fraction) + ordered[high] * fraction
    )


def app():
    from mcp.server import MCPServer

    server = MCPServer("fastmcp_baseline", log_level="WARNING")
    server.add_tool(summarize_numbers)
    return server.streamable_http_app(stateless_http=True, host="127.0.0.1")


def main() -> None:
    import uvicorn

    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--port", type=int, default=8000)
    parser.add_argument("--workers", type=int, default=2)
    args = parser.parse_args()
    uvicorn.run(
        "fastmcp_baseline:app",
        factory=True,
        host="127.0.0.1",
        port=args.port,
        workers=args.workers,
        log_level="warning",
    )


if __name__ == "__main__":
    main()
