"""Serving generated packages over MCP in tests: the conformance package, servers in
subprocesses (killed at the end, whatever happens), free ports."""

from __future__ import annotations

import json
import os
import resource
import signal
import socket
import subprocess
import sys
import time
from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from tests.support.generation import REPO, generate

SPECS = REPO / "tests" / "data" / "mcp" / "specs"  # the conformance suite's tools, and two of ours
IMPLEMENTATIONS = REPO / "tests" / "data" / "mcp"  # conformance_impl.py, conformance_client.py
PACKAGE = "conformance_tools"
# The MCP reference server, a real server written by others (pinned: its tools change).
EVERYTHING = "npx -y @modelcontextprotocol/server-everything@2026.8.31"


def conformance_package(out: Path) -> Path:
    """The package toolgen generates from SPECS, in `out` (put it on the path to import it)."""
    generate(SPECS, out, PACKAGE)
    return out


def python_path(*folders: Path) -> dict[str, str]:
    """This environment, with `folders` (and the repository, for `implementations`) importable."""
    paths = [*map(str, folders), str(REPO), os.environ.get("PYTHONPATH", "")]
    return {**os.environ, "PYTHONPATH": os.pathsep.join(p for p in paths if p)}


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


@contextmanager
def serving(
    package: str,
    registry: str,
    env: Mapping[str, str],
    *options: str,
    cwd: Path | None = None,
    host: str = "127.0.0.1",
    log: Path | None = None,
    descriptors: int | None = None,
    script: Path | None = None,
) -> Iterator[str]:
    """`python -m <package> serve --http` on a free port of `host` (a loopback address); yields
    its URL once it answers, and kills the server's whole process group at the end. `log`: a
    file for its stderr; `descriptors`: the most files it may hold open; `script`: a host's
    own server to run instead, given `--port PORT` (it serves on 127.0.0.1)."""
    port = free_port()
    argv = (
        [sys.executable, str(script), "--port", str(port)]
        if script
        else [
            sys.executable,
            "-m",
            package,
            "serve",
            "--http",
            "--host",
            host,
            "--port",
            str(port),
            "--registry",
            registry,
            *options,
        ]
    )

    def limited() -> None:
        if descriptors is not None:
            resource.setrlimit(resource.RLIMIT_NOFILE, (descriptors, descriptors))

    errors = open(log, "wb") if log is not None else None  # noqa: SIM115 - closed below
    process = subprocess.Popen(
        argv,
        env=dict(env),
        cwd=cwd,
        start_new_session=True,
        stdout=subprocess.DEVNULL,
        stderr=errors if errors is not None else subprocess.PIPE,
        preexec_fn=limited if descriptors is not None else None,
    )
    try:
        deadline = time.monotonic() + 30
        while True:
            if process.poll() is not None:
                said = process.stderr.read().decode() if process.stderr else ""
                raise AssertionError(f"the server exited: {said}")
            try:
                socket.create_connection((host, port), timeout=1).close()
                break
            except OSError:
                if time.monotonic() > deadline:
                    raise AssertionError("the server did not listen within 30 s") from None
                time.sleep(0.1)
        yield f"http://{host}:{port}/mcp"
    finally:
        try:
            os.killpg(process.pid, signal.SIGTERM)
            process.wait(timeout=10)
        except (ProcessLookupError, subprocess.TimeoutExpired):
            os.killpg(process.pid, signal.SIGKILL)
            process.wait()
        if errors is not None:
            errors.close()
        if process.stderr is not None:
            process.stderr.close()


# What a client of the handshake revisions sends with each request over streamable HTTP.
HANDSHAKE_HEADERS = {
    "accept": "application/json, text/event-stream",
    "content-type": "application/json",
    "mcp-protocol-version": "2025-11-25",
}


def rpc(post: Any, url: str, method: str, params: dict[str, Any]) -> dict[str, Any]:
    """One JSON-RPC request over streamable HTTP (`post`: httpx's `post`, or a Client's), as
    a handshake-era client sends it; its `result`, or its `error` under "error"."""
    body = {"jsonrpc": "2.0", "id": 1, "method": method, "params": params}
    answer = post(url, json=body, headers=HANDSHAKE_HEADERS, timeout=60)
    text = answer.text
    if answer.headers.get("content-type", "").startswith("text/event-stream"):
        text = [line[5:] for line in text.splitlines() if line.startswith("data:")][-1]
    message: dict[str, Any] = json.loads(text)
    return message.get("result") or {"error": message["error"]}
