"""Dispatch of one tool call (validate the arguments, run the tool, wrap its result): the
generated registry against the same work done by hand with the same pydantic models, and
the peers' dispatch paths.

Two tools: `add` (two integers) and `get_weather` (a string, a bounded integer, an enum), each
returning a small object. Paths, per call:
- by hand: `Arguments.model_validate(arguments)`, then the function, then
  `Result.model_validate(...)` of what it returned (the same generated models): the baseline;
- the floor: `impl(**arguments)`;
- toolgen `validate_arguments` alone; `Registry.call` with the arguments as a dict and as
  JSON text, and with a `timeout_s` declared (the sync tool then runs in a worker thread);
  `await Registry.acall` of an async implementation and of a sync one (a worker thread);
- selectools: `Tool.execute(arguments)` of the `@tool` function (validates, calls,
  serializes the result to text);
- pydantic-ai: its agent's dispatch (`ToolManager.handle_call` of a function toolset), and
  the function tool's own validator (`FunctionSchema.validator`) with the call alone;
- the OpenAI Agents SDK: `FunctionTool.on_invoke_tool(ctx, json_text)` (it takes JSON text);
- langchain-core: `StructuredTool.invoke(arguments)`;
- FastMCP 4 and the official MCP SDK (2.x): `Client.call_tool` against an in-process server.
Async paths are timed inside one event loop (each call awaited in turn).

Run: `python benchmarks/dispatch.py [--rounds 200]`. Peers that are not installed are skipped
(`pip install -e '.[test,bench]'` installs them, but selectools: see docs/performance.md).
Each path is timed in short rounds (about a millisecond each, so that on a shared machine a
round is seldom cut by another process), round-robin; each path's best round is reported
(as timeit advises: slower rounds measure the machine's load); compare rows of one run.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import importlib
import json
import os
import sys
import tempfile
import time
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any, Literal

ROOT = Path(__file__).resolve().parents[1]
BY_HAND = "by hand: validate, run, validate the result (pydantic)"
CALL = "toolgen Registry.call (dict)"
ACALL = "toolgen await Registry.acall (async tool)"

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


def implementations(package: Any, asynchronous: bool = False) -> list[Any]:
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

        async def arun(self: Any, arguments: Any, function: Callable[..., Any] = function) -> Any:
            return function(**arguments.model_dump())

        out.append(type(f"{name}_impl", (interface,), {"run": arun if asynchronous else run})())
    return out


def sync_paths(name: str, plain: Any, timed: Any) -> dict[str, Callable[[], Any]]:
    arguments = ARGUMENTS[name]
    text = json.dumps(arguments)
    function = FUNCTIONS[name]
    info = plain.tool_info(name)
    registry, timed_registry = (
        plain.Registry(implementations(plain)),
        timed.Registry(implementations(timed)),
    )
    paths: dict[str, Callable[[], Any]] = {
        BY_HAND: lambda: info.result.model_validate(
            function(**info.arguments.model_validate(arguments).model_dump())
        ),
        "plain function call (floor)": lambda: function(**arguments),
        "toolgen validate_arguments (dict)": lambda: info.validate_arguments(arguments),
        CALL: lambda: registry.call(name, arguments),
        "toolgen Registry.call (JSON text)": lambda: registry.call(name, text),
        "toolgen Registry.call (timeout_s declared: a worker thread)": lambda: timed_registry.call(
            name, arguments
        ),
    }
    try:
        from selectools.tools.decorators import tool as selectools_tool

        selected = selectools_tool()(function)
        paths["selectools Tool.execute (result as text)"] = lambda: selected.execute(arguments)
    except ImportError:
        pass
    try:
        from pydantic_ai import Tool

        schema = Tool(function).function_schema
        paths["pydantic-ai: its argument validator + call (no dispatch)"] = lambda: function(
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
    registry = plain.Registry(implementations(plain, asynchronous=True))
    threaded = plain.Registry(implementations(plain))
    paths: dict[str, Callable[[], Awaitable[Any]]] = {
        ACALL: lambda: registry.acall(name, arguments),
        "toolgen await Registry.acall (sync tool: a worker thread)": lambda: threaded.acall(
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


async def pydantic_ai_dispatch(name: str) -> Callable[[], Awaitable[Any]] | None:
    """pydantic-ai's own dispatch of a tool call (what its agent runs for each call): the
    function toolset's `ToolManager.handle_call`, in a run step of the test model."""
    try:
        from pydantic_ai import RunContext
        from pydantic_ai.messages import ToolCallPart
        from pydantic_ai.models.test import TestModel
        from pydantic_ai.tool_manager import ToolManager
        from pydantic_ai.toolsets import FunctionToolset
        from pydantic_ai.usage import RunUsage
    except ImportError:
        return None
    context = RunContext(deps=None, model=TestModel(), usage=RunUsage())
    manager = await ToolManager(FunctionToolset([FUNCTIONS[name]])).for_run_step(context)
    return lambda: manager.handle_call(ToolCallPart(name, ARGUMENTS[name]))


async def mcp_clients(name: str) -> dict[str, Any]:
    """MCP clients connected in process to a server holding the tool, by label."""
    clients: dict[str, Any] = {}
    try:
        from fastmcp import Client as FastClient
        from fastmcp import FastMCP

        fast = FastMCP("bench")
        fast.tool(FUNCTIONS[name])
        clients["FastMCP Client.call_tool (in process)"] = FastClient(fast)
    except ImportError:
        pass
    try:
        from mcp import Client
        from mcp.server.mcpserver import MCPServer

        server = MCPServer("bench")
        server.add_tool(FUNCTIONS[name])
        clients["MCP SDK Client.call_tool (in process)"] = Client(server)
    except ImportError:
        pass
    return clients


def timed(path: Callable[[], Any], n: int) -> float:
    started = time.perf_counter()
    for _ in range(n):
        path()
    return (time.perf_counter() - started) / n


async def atimed(path: Callable[[], Awaitable[Any]], n: int) -> float:
    started = time.perf_counter()
    for _ in range(n):
        await path()
    return (time.perf_counter() - started) / n


def per_round(seconds: float) -> int:
    """Calls in a round of about a millisecond, for a path that took `seconds` per call."""
    return max(2, min(500, int(1e-3 / max(seconds, 1e-9))))


def measure(name: str, plain: Any, timed_package: Any, rounds: int) -> dict[str, float]:
    sync = sync_paths(name, plain, timed_package)
    asynchronous = async_paths(name, plain)
    times: dict[str, list[float]] = {}
    sizes = {label: per_round(timed(path, 20)) for label, path in sync.items()}
    for _ in range(rounds):
        for label, path in sync.items():
            times.setdefault(label, []).append(timed(path, sizes[label]))

    async def run_async() -> None:
        clients = await mcp_clients(name)
        calls: dict[str, Callable[[], Awaitable[Any]]] = dict(asynchronous)
        dispatched = await pydantic_ai_dispatch(name)
        if dispatched is not None:
            calls["pydantic-ai ToolManager.handle_call (its agent's dispatch)"] = dispatched
        async with contextlib.AsyncExitStack() as stack:
            for label, client in clients.items():
                connected = await stack.enter_async_context(client)
                calls[label] = lambda c=connected: c.call_tool(name, ARGUMENTS[name])
            counts = {label: per_round(await atimed(path, 5)) for label, path in calls.items()}
            for _ in range(rounds):
                for label, path in calls.items():
                    times.setdefault(label, []).append(await atimed(path, counts[label]))

    asyncio.run(run_async())
    return {label: min(samples) * 1e6 for label, samples in times.items()}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=200)
    args = parser.parse_args()
    folder = Path(tempfile.mkdtemp())
    plain, timed_package = build(folder, timeout=False), build(folder, timeout=True)
    results = {name: measure(name, plain, timed_package, args.rounds) for name in FUNCTIONS}
    print(
        f"Python {sys.version.split()[0]}, {args.rounds} rounds, 1-minute load "
        f"{os.getloadavg()[0]:.1f}; best round, µs per call (ratio to {BY_HAND})\n"
    )
    labels = list(results["add"])
    print("| path | add (2 integers) | get_weather |\n|---|---:|---:|")
    for label in labels:
        cells = []
        for name in FUNCTIONS:
            value = results[name].get(label)
            base = results[name][BY_HAND]
            cells.append("–" if value is None else f"{value:.2f} µs ({value / base:.2f}x)")
        print(f"| {label} | {' | '.join(cells)} |")
    ratios = ", ".join(f"{n} {results[n][ACALL] / results[n][CALL]:.2f}x" for n in FUNCTIONS)
    print(f"\n{ACALL} against {CALL}: {ratios}")


if __name__ == "__main__":
    main()
