"""MCP tasks through a fleet: 2 servers (`serve --http --store redis://`) and 2 workers
(`worker --store redis://`) on one redis-server, against direct `tools/call` of the same tool
on the same servers in the same run; then FastMCP's background tasks (fastmcp-tasks) on the
same Redis, 2 servers and 2 workers of the same tool, under the same client load
(_fastmcp_tasks.py).

Clients (threads, one HTTP connection each) alternate between the two servers. A task call
is `tools/call` with `task`, then its end asked for on the *other* server (toolgen:
`tasks/result`, which waits; FastMCP: `tasks/get` every 125 ms): its latency is from the
first request to the result. A direct call is one `tools/call`. The tool sleeps
`--sleep-ms` (default 0: the cost of the machinery alone). Printed: calls/s, p50 and p99 in
ms, their ratios to toolgen's direct call, and toolgen's to FastMCP's for each path.

Run: `python benchmarks/tasks.py [--calls 400] [--clients 8] [--sleep-ms 0]`; FastMCP's side
needs its own environment, made once with `--setup-fastmcp` (pip, from the package index),
and is skipped, saying so, without it. `--quick`: a smoke test.
"""

from __future__ import annotations

import argparse
import json
import os
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Callable
from contextlib import ExitStack
from pathlib import Path
from typing import Any

import httpx

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from benchmarks import _fastmcp_tasks as fastmcp  # noqa: E402
from benchmarks._util import load, machine, ratio, table  # noqa: E402
from tests.support import mcp_support  # noqa: E402
from tests.support.generation import generate  # noqa: E402
from tests.support.mcp_support import serving  # noqa: E402
from tests.support.redis_support import redis_server  # noqa: E402

NUMBER = {"type": "object", "properties": {"n": {"type": "integer", "description": "A number."}}}
SPECS = {
    "tools": [
        {
            "name": "work",
            "description": "Sleeps, then echoes.",
            "parameters": NUMBER,
            "returns": NUMBER,
        }
    ]
}
IMPLEMENTATION = """
import asyncio, os
import bench_tasks
from bench_tasks.tools.work import WorkTool


class Work(WorkTool):
    async def run(self, args):
        await asyncio.sleep(int(os.environ["BENCH_SLEEP_MS"]) / 1000)
        return {"n": args.n}


def registry():
    return bench_tasks.build_registry(Work())
"""


def rpc(http: httpx.Client, url: str, method: str, params: dict[str, Any]) -> dict[str, Any]:
    answer = mcp_support.rpc(http.post, url, method, params)
    assert "error" not in answer, answer
    return answer


def direct(http: httpx.Client, one: str, other: str, n: int) -> None:
    answer = rpc(http, one, "tools/call", {"name": "work", "arguments": {"n": n}})
    assert answer["structuredContent"] == {"n": n}, answer


def tasked(http: httpx.Client, one: str, other: str, n: int) -> None:
    call = {"name": "work", "arguments": {"n": n}, "task": {}}
    task = rpc(http, one, "tools/call", call)["task"]
    answer = rpc(http, other, "tasks/result", {"taskId": task["taskId"]})
    assert answer["structuredContent"] == {"n": n}, answer


def measured(
    urls: list[str], calls: int, clients: int, one: Callable[..., None]
) -> tuple[float, list[float]]:
    """Calls per second and each call's latency (ms), `clients` threads sharing `calls`."""
    latencies: list[float] = []
    lock = threading.Lock()
    each = calls // clients

    failed: list[BaseException] = []

    def client(k: int) -> None:
        with httpx.Client(timeout=60) as http:
            for i in range(each):
                first, second = urls[(k + i) % 2], urls[(k + i + 1) % 2]
                start = time.perf_counter()
                try:
                    one(http, first, second, i)
                except BaseException as error:
                    failed.append(error)
                    return
                with lock:
                    latencies.append((time.perf_counter() - start) * 1000)

    threads = [threading.Thread(target=client, args=(k,)) for k in range(clients)]
    start = time.perf_counter()
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    if failed:
        raise failed[0]
    return len(latencies) / (time.perf_counter() - start), sorted(latencies)


def percentile(values: list[float], share: float) -> float:
    return values[min(len(values) - 1, int(len(values) * share))]


def toolgen_fleet(stack: ExitStack, folder: Path, store: str, sleep_ms: int) -> list[str]:
    """Two servers and two workers of the generated package; the servers' URLs."""
    (folder / "specs").mkdir()
    (folder / "specs" / "tools.json").write_text(json.dumps(SPECS), "utf-8")
    generate(folder / "specs", folder / "out", "bench_tasks")
    (folder / "bench_impl.py").write_text(IMPLEMENTATION, "utf-8")
    path = os.pathsep.join([str(folder / "out"), str(folder), str(ROOT)])
    env = {**os.environ, "PYTHONPATH": path, "BENCH_SLEEP_MS": str(sleep_ms)}
    env.pop("TOOLGEN_STORE", None)
    worker = [sys.executable, "-m", "bench_tasks", "worker", "--registry", "bench_impl:registry"]
    workers = [
        subprocess.Popen([*worker, "--store", store], env=env, start_new_session=True)
        for _ in range(2)
    ]
    stack.callback(stopped, workers)
    serve = ("bench_tasks", "bench_impl:registry", env, "--store", store)
    return [stack.enter_context(serving(*serve)) for _ in range(2)]


def fastmcp_fleet(
    stack: ExitStack, folder: Path, store: str, sleep_ms: int, interpreter: Path
) -> list[str]:
    """Two FastMCP servers and two FastMCP workers on the same Redis; the servers' URLs."""
    env = {**os.environ, "FASTMCP_DOCKET_URL": store, "BENCH_SLEEP_MS": str(sleep_ms)}
    env["FASTMCP_LOG_LEVEL"] = "WARNING"
    processes, urls = [], []
    for _ in range(2):
        port = mcp_support.free_port()
        server, worker = fastmcp.commands(interpreter, folder, port)
        for argv in (server, worker):
            quiet = subprocess.DEVNULL
            processes.append(
                subprocess.Popen(argv, env=env, cwd=folder, stdout=quiet, start_new_session=True)
            )
        urls.append(f"http://127.0.0.1:{port}/mcp")
    stack.callback(stopped, processes)
    for url, process in zip(urls, processes[::2], strict=True):
        listening(url, process)
    return urls


def listening(url: str, process: subprocess.Popen[bytes]) -> None:
    port, deadline = int(url.split(":")[2].split("/")[0]), time.monotonic() + 60
    while True:
        assert process.poll() is None, "the FastMCP server exited"
        try:
            socket.create_connection(("127.0.0.1", port), timeout=1).close()
            return
        except OSError:
            assert time.monotonic() < deadline, "the FastMCP server did not listen within 60 s"
            time.sleep(0.1)


def stopped(processes: list[subprocess.Popen[bytes]]) -> None:
    for process in processes:
        os.killpg(process.pid, signal.SIGTERM)
    for process in processes:
        process.wait()


Rows = dict[str, tuple[float, list[float]]]


def measure(urls: list[str], calls: int, clients: int, paths: Any, name: str) -> Rows:
    direct_call, task_call = paths
    measured(urls, 2 * clients, clients, task_call)  # connections made, scripts loaded
    rows: Rows = {}
    for path, one in (("direct tools/call", direct_call), ("task: call + result", task_call)):
        rows[f"{name}, {path}"] = measured(urls, calls, clients, one)
    return rows


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--calls", type=int, default=400)
    parser.add_argument("--clients", type=int, default=8)
    parser.add_argument("--sleep-ms", type=int, default=0)
    parser.add_argument("--quick", action="store_true", help="a smoke test: 16 calls, 2 clients")
    parser.add_argument(
        "--setup-fastmcp",
        action="store_true",
        help="make FastMCP's environment (pip: " + " ".join(fastmcp.PACKAGES) + ") if missing",
    )
    options = parser.parse_args()
    calls, clients = (16, 2) if options.quick else (options.calls, options.clients)
    interpreter = fastmcp.setup() if options.setup_fastmcp else fastmcp.python()
    rows: Rows = {}
    with tempfile.TemporaryDirectory() as tmp, redis_server(Path(tmp)) as redis:
        with ExitStack() as stack:
            urls = toolgen_fleet(stack, Path(tmp), redis.url, options.sleep_ms)
            rows.update(measure(urls, calls, clients, (direct, tasked), "toolgen"))
        if interpreter is not None:
            with ExitStack() as stack:
                url = redis.url.removesuffix("/0") + "/1"  # a database of its own
                urls = fastmcp_fleet(stack, Path(tmp), url, options.sleep_ms, interpreter)
                paths = (fastmcp.direct, fastmcp.tasked)
                rows.update(measure(urls, calls, clients, paths, "FastMCP"))
    print(f"{machine()}; {load()}")
    print(f"{calls} calls, {clients} clients, the tool sleeps {options.sleep_ms} ms\n")
    base = rows["toolgen, direct tools/call"][1]
    lines = []
    for name, (rate, latencies) in rows.items():
        p50, p99 = statistics.median(latencies), percentile(latencies, 0.99)
        lines.append(
            [
                name,
                f"{rate:.0f}",
                f"{p50:.1f}",
                f"{p99:.1f}",
                ratio(p50, statistics.median(base)),
                ratio(p99, percentile(base, 0.99)),
            ]
        )
    header = ["path", "calls/s", "p50 ms", "p99 ms", "p50 / toolgen direct", "p99 / toolgen direct"]
    print(table(header, lines))
    print("\n(What the Redis store costs a direct call, against the in-process store: store.py.)")
    if interpreter is None:
        print(
            f"\nFastMCP: skipped: no environment at {fastmcp.VENV} (fastmcp-tasks cannot share "
            "ours; make it with --setup-fastmcp)"
        )
        return
    print()
    for path in ("direct tools/call", "task: call + result"):
        (ours, mine), (theirs, their) = rows[f"toolgen, {path}"], rows[f"FastMCP, {path}"]
        print(
            f"toolgen / FastMCP, {path}: calls/s {ratio(ours, theirs)}, "
            f"p50 {ratio(statistics.median(mine), statistics.median(their))}, "
            f"p99 {ratio(percentile(mine, 0.99), percentile(their, 0.99))}"
        )


if __name__ == "__main__":
    main()
