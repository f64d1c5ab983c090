"""Dispatch of one tool call (validate the arguments, run the tool, wrap its result): the
generated registry against the floor, raw pydantic and the peers' dispatch paths.

Two tools: `add` (two integers) and `get_weather` (a string, a bounded integer, an enum), each
returning a small object. Paths, per call, with the arguments as a dict:
- the floor: `impl(**arguments)`;
- raw pydantic: `Arguments.model_validate(arguments)`, then the function, then
  `Result.model_validate(...)` of what it returned (the same generated models);
- toolgen `Registry.call` with no policy declared, and with a `timeout_s` declared (the sync
  tool then runs in a worker thread); `await Registry.acall` (a sync tool in a worker thread);
- pydantic-ai: the function tool's own validator (`FunctionSchema.validator`) and the call;
- the OpenAI Agents SDK: `FunctionTool.on_invoke_tool(ctx, json_text)` (it takes JSON text);
- langchain-core: `StructuredTool.invoke(arguments)`;
- MCP (the official SDK, 2.x): `Client.call_tool` against an in-process `MCPServer`.
Async paths are timed inside one event loop (each call awaited in turn).

Run: `python benchmarks/dispatch.py [--rounds 5]`. Peers that are not installed are skipped
(`pip install -e '.[test,bench]'` installs them all). Medians over rounds, measured
round-robin; compare rows of one run.
"""

from __future__ import annotations

import argparse
import asyncio
import importlib
import json
import statistics
import sys
import tempfile
import time
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any, Literal

ROOT = Path(__file__).resolve().parents[1]

SPECS = {
    "tools": [
        {
            "name": "add",
            "description": "Add two integers.",
            "parameters": {
                "type": "object",
                "properties": {
                    "a": {"type": "integer", "description": "First."},
                    "b": {"type": "integer", "description": "Second."},
                },
                "required": ["a", "b"],
            },
            "returns": {
                "type": "object",
                "properties": {"sum": {"type": "integer"}},
                "required": ["sum"],
            },
        },
        {
            "name": "get_weather",
            "description": "Get the weather forecast for a city.",
            "parameters": {
                "type": "object",
                "properties": {
                    "location": {"type": "string", "description": "City."},
                    "days": {
                        "type": "integer",
                        "minimum": 1,
                        "maximum": 14,
                        "description": "How many days.",
                    },
                    "units": {
                        "type": "string",
                        "enum": ["celsius", "fahrenheit"],
                        "default": "celsius",
                        "description": "Units.",
                    },
                },
                "required": ["location", "days"],
            },
            "returns": {
                "type": "object",
                "properties": {"summary": {"type": "string"}},
                "required": ["summary"],
            },
        },
    ]
}
ARGUMENTS = {
    "add": {"a": 2, "b": 3},
    "get_weather": {"location": "Paris", "days": 3, "units": "celsius"},
}


def add(a: int, b: int) -> dict[str, int]:
    """Add two integers."""
    return {"sum": a + b}


def get_weather(
    location: str, days: int, units: Literal["celsius", "fahrenheit"] = "celsius"
) -> dict[str, str]:
    """Get the weather forecast for a city."""
    return {"summary": location}


FUNCTIONS: dict[str, Callable[..., Any]] = {"add": add, "get_weather": get_weather}


def build(folder: Path, timeout: bool) -> Any:
    from toolgen.config import BuildOptions
    from toolgen.pipeline import build as build_package
    from toolgen.write import apply, plan

    package = "bench_dispatch_timed" if timeout else "bench_dispatch"
    specs = folder / package
    specs.mkdir()
    tools = [dict(t, timeout_s=10) if timeout else t for t in SPECS["tools"]]
    (specs / "tools.json").write_text(json.dumps({"tools": tools}), "utf-8")
    options = BuildOptions(package=package)
    result = build_package(specs, options)
    assert result.ok, [d.text() for d in result.diagnostics if d.is_error]
    out = folder / "out"
    out.mkdir(exist_ok=True)
    apply(out, plan(out, result.files, options))
    if str(out) not in sys.path:
        sys.path.insert(0, str(out))
    return importlib.import_module(package)


def implementations(package: Any) -> list[Any]:
    out = []
    for name, function in FUNCTIONS.items():
        module = importlib.import_module(f"{package.__name__}.tools.{package._index.MODULES[name]}")
        interface = next(
            v
            for v in vars(module).values()
            if isinstance(v, type)
            and v.__name__.endswith("Tool")
            and getattr(v, "info", None) is module.INFO
        )

        def run(self: Any, arguments: Any, function: Callable[..., Any] = function) -> Any:
            return function(**arguments.model_dump())

        out.append(type(f"{name}_impl", (interface,), {"run": run})())
    return out


def sync_paths(name: str, plain: Any, timed: Any) -> dict[str, Callable[[], Any]]:
    arguments = ARGUMENTS[name]
    function = FUNCTIONS[name]
    info = plain.tool_info(name)
    registry, timed_registry = (
        plain.Registry(implementations(plain)),
        timed.Registry(implementations(timed)),
    )
    paths: dict[str, Callable[[], Any]] = {
        "plain function call (floor)": lambda: function(**arguments),
        "raw pydantic: validate, run, validate the result": lambda: info.result.model_validate(
            function(**info.arguments.model_validate(arguments).model_dump())
        ),
        "toolgen Registry.call (no policy)": lambda: registry.call(name, arguments),
        "toolgen Registry.call (timeout_s declared: a worker thread)": lambda: timed_registry.call(
            name, arguments
        ),
    }
    try:
        from pydantic_ai import Tool

        schema = Tool(function).function_schema
        paths["pydantic-ai: argument validator + call (no result check)"] = lambda: function(
            **schema.validator.validate_python(arguments)
        )
    except ImportError:
        pass
    try:
        from langchain_core.tools import StructuredTool

        structured = StructuredTool.from_function(function)
        paths["langchain-core StructuredTool.invoke"] = lambda: structured.invoke(arguments)
    except ImportError:
        pass
    return paths


def async_paths(name: str, plain: Any) -> dict[str, Callable[[], Awaitable[Any]]]:
    arguments = ARGUMENTS[name]
    function = FUNCTIONS[name]
    registry = plain.Registry(implementations(plain))
    paths: dict[str, Callable[[], Awaitable[Any]]] = {
        "toolgen await Registry.acall (sync tool: a worker thread)": lambda: registry.acall(
            name, arguments
        ),
    }
    try:
        from agents import function_tool
        from agents.tool_context import ToolContext

        tool = function_tool(function)
        text = json.dumps(arguments)
        context = ToolContext(
            context=None, tool_name=tool.name, tool_call_id="c1", tool_arguments=text
        )
        paths["openai-agents FunctionTool.on_invoke_tool (JSON text)"] = lambda: (
            tool.on_invoke_tool(context, text)
        )
    except ImportError:
        pass
    return paths


async def mcp_client(name: str) -> Any:
    """An MCP client connected in process to an MCPServer holding the tool (or None)."""
    try:
        from mcp import Client
        from mcp.server.mcpserver import MCPServer
    except ImportError:
        return None
    server = MCPServer("bench")
    server.add_tool(FUNCTIONS[name])
    return Client(server)


def median_us(samples: list[float]) -> float:
    return statistics.median(samples) * 1e6


def measure(name: str, plain: Any, timed: Any, rounds: int) -> dict[str, float]:
    sync = sync_paths(name, plain, timed)
    asynchronous = async_paths(name, plain)
    times: dict[str, list[float]] = {
        label: [] for label in [*sync, *asynchronous, "MCP Client.call_tool (in process)"]
    }

    async def async_round(client: Any, n: int) -> None:
        for label, path in asynchronous.items():
            await path()
            started = time.perf_counter()
            for _ in range(n):
                await path()
            times[label].append((time.perf_counter() - started) / n)
        if client is not None:
            started = time.perf_counter()
            for _ in range(max(1, n // 20)):
                await client.call_tool(name, ARGUMENTS[name])
            times["MCP Client.call_tool (in process)"].append(
                (time.perf_counter() - started) / max(1, n // 20)
            )

    async def run_async(n: int) -> None:
        client = await mcp_client(name)
        if client is None:
            for _ in range(rounds):
                await async_round(None, n)
            return
        async with client:
            for _ in range(rounds):
                await async_round(client, n)

    for _ in range(rounds):
        for label, path in sync.items():
            n = 200 if "worker thread" in label else 2000
            path()
            started = time.perf_counter()
            for _ in range(n):
                path()
            times[label].append((time.perf_counter() - started) / n)
    asyncio.run(run_async(500))
    return {label: median_us(samples) for label, samples in times.items() if samples}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=5)
    args = parser.parse_args()
    folder = Path(tempfile.mkdtemp())
    plain, timed = build(folder, timeout=False), build(folder, timeout=True)
    results = {name: measure(name, plain, timed, args.rounds) for name in FUNCTIONS}
    print(
        f"Python {sys.version.split()[0]}, {args.rounds} rounds, median µs per call "
        "(ratio to raw pydantic: validate, run, validate the result)\n"
    )
    labels = list(results["add"])
    print("| path | add (2 integers) | get_weather |\n|---|---:|---:|")
    for label in labels:
        cells = []
        for name in FUNCTIONS:
            value = results[name].get(label)
            base = results[name]["raw pydantic: validate, run, validate the result"]
            cells.append("–" if value is None else f"{value:.2f} µs ({value / base:.2f}x)")
        print(f"| {label} | {' | '.join(cells)} |")


if __name__ == "__main__":
    main()
