"""FastMCP's background tasks for benchmarks/tasks.py: the same tool on a fleet of FastMCP
servers and workers (`python -m fastmcp_tasks.worker_cli worker`), and the requests a client sends them.

FastMCP's tasks are the `fastmcp-tasks` package (`task=True` tools, Docket under them), whose
newest release, 4.1.4, pins `fastmcp-slim==4.1.4` and `redis!=8.1.0`: it cannot share an
environment with the `bench` extra (fastmcp 4.2.3) nor with the store's redis client. It runs
in an environment of its own, made once by `python benchmarks/tasks.py --setup-fastmcp`
(`python -m venv` in the user's cache folder, then pip install of PACKAGES: the same Docket
as ours).

Its tasks are those of MCP 2026-07-28's tasks extension: a `tools/call` that declares the
extension in `_meta` is answered with a task, and `tasks/get` is polled until the task has
ended (its result inlined); without the declaration the call runs at once.
"""

from __future__ import annotations

import os
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import httpx

PACKAGES = ["fastmcp-tasks==4.1.4", "pydocket==0.27.0"]
VENV = (
    Path(os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache")
    / "toolgen-bench"
    / "fastmcp-tasks-4.1.4"
)
# The same tool as toolgen's side: sleeps BENCH_SLEEP_MS, then echoes. FastMCP's servers run
# tasks too (each has a Docket worker in its lifespan), beside the `fastmcp tasks worker`s.
SERVER = """
import asyncio, os

from fastmcp import FastMCP
from fastmcp_tasks import TasksExtension

mcp = FastMCP("bench")
mcp.add_extension(TasksExtension())


@mcp.tool(task=True)
async def work(n: int) -> dict:
    \"\"\"Sleeps, then echoes.\"\"\"
    await asyncio.sleep(int(os.environ["BENCH_SLEEP_MS"]) / 1000)
    return {"n": n}
"""
VERSION = "2026-07-28"
TASKS = "io.modelcontextprotocol/tasks"
# How often the client asks whether a task has ended: as often as toolgen's `tasks/result`
# looked in the store before the store told it of each change (tasks_watch.py); kept, so that
# FastMCP's side of runs before and after compares.
POLL_S = 0.125


def python() -> Path | None:
    """The environment's interpreter, None when it was never made."""
    found = VENV / "bin" / "python"
    return found if found.exists() else None


def setup() -> Path:
    """Make the environment (pip from the package index) unless it is there."""
    if python() is None:
        subprocess.run([sys.executable, "-m", "venv", str(VENV)], check=True)
        pip = [str(VENV / "bin" / "python"), "-m", "pip", "install", "-q", *PACKAGES]
        subprocess.run(pip, check=True)
    found = python()
    assert found is not None
    return found


def commands(interpreter: Path, folder: Path, port: int) -> tuple[list[str], list[str]]:
    """A server on `port` and a worker, of the tool written into `folder`. FastMCP 4 left
    `fastmcp tasks worker` out of its command line: the worker is fastmcp-tasks' own."""
    (folder / "fastmcp_server.py").write_text(SERVER, "utf-8")
    script = str(folder / "fastmcp_server.py")
    server = [str(interpreter.parent / "fastmcp"), "run", script, "--transport", "http"]
    server += ["--host", "127.0.0.1", "--port", str(port), "--no-banner"]
    return server, [str(interpreter), "-m", "fastmcp_tasks.worker_cli", "worker", script]


def _rpc(http: httpx.Client, url: str, method: str, params: dict[str, Any], name: str) -> Any:
    meta: dict[str, Any] = {
        "io.modelcontextprotocol/protocolVersion": VERSION,
        "io.modelcontextprotocol/clientInfo": {"name": "bench", "version": "0"},
    }
    tasks = method != "tools/call" or "task" in params  # declares the extension: a task
    capabilities = {"extensions": {TASKS: {}}} if tasks else {}
    meta["io.modelcontextprotocol/clientCapabilities"] = capabilities
    sent = {k: v for k, v in params.items() if k != "task"}
    body = {"jsonrpc": "2.0", "id": 1, "method": method, "params": {**sent, "_meta": meta}}
    headers = {
        "accept": "application/json, text/event-stream",
        "content-type": "application/json",
        "mcp-protocol-version": VERSION,
        "mcp-method": method,
        "mcp-name": name,
    }
    answer = http.post(url, json=body, headers=headers, timeout=60).json()
    assert "result" in answer, answer
    return answer["result"]


def direct(http: httpx.Client, one: str, other: str, n: int) -> None:
    answer = _rpc(http, one, "tools/call", {"name": "work", "arguments": {"n": n}}, "work")
    assert answer["structuredContent"] == {"n": n}, answer


def tasked(http: httpx.Client, one: str, other: str, n: int) -> None:
    call = {"name": "work", "arguments": {"n": n}, "task": {}}
    task = _rpc(http, one, "tools/call", call, "work")
    while True:  # on the other server, as toolgen's side asks `tasks/result` there
        found = _rpc(http, other, "tasks/get", {"taskId": task["taskId"]}, task["taskId"])
        if found["status"] != "working":
            break
        time.sleep(POLL_S)
    assert found["result"]["structuredContent"] == {"n": n}, found
