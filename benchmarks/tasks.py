"""MCP tasks through a fleet: 2 servers (`serve --http --store redis://`) and 2 workers
(`worker --store redis://`) on one redis-server, against direct `tools/call` of the same tool
on the same servers in the same run.

Clients (threads, one HTTP connection each) alternate between the two servers. A task call
is `tools/call` with `task`, then `tasks/result` on the *other* server (which waits for the
end): its latency is from the first request to the result. A direct call is one `tools/call`.
The tool sleeps `--sleep-ms` (default 0: the cost of the machinery alone). Printed: calls/s,
p50 and p99 in ms, and the task path's ratios to the direct one.

Run: `python benchmarks/tasks.py [--calls 400] [--clients 8] [--sleep-ms 0]`.
"""

from __future__ import annotations

import argparse
import json
import os
import signal
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

    def client(k: int) -> None:
        with httpx.Client(timeout=60) as http:
            for i in range(each):
                first, second = urls[(k + i) % 2], urls[(k + i + 1) % 2]
                start = time.perf_counter()
                one(http, first, second, i)
                with lock:
                    latencies.append((time.perf_counter() - start) * 1000)

    threads = [threading.Thread(target=client, args=(k,)) for k in range(clients)]
    start = time.perf_counter()
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    return len(latencies) / (time.perf_counter() - start), sorted(latencies)


def percentile(values: list[float], share: float) -> float:
    return values[min(len(values) - 1, int(len(values) * share))]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--calls", type=int, default=400)
    parser.add_argument("--clients", type=int, default=8)
    parser.add_argument("--sleep-ms", type=int, default=0)
    parser.add_argument("--quick", action="store_true", help="a smoke test: 16 calls, 2 clients")
    options = parser.parse_args()
    calls, clients = (16, 2) if options.quick else (options.calls, options.clients)
    with tempfile.TemporaryDirectory() as tmp, redis_server(Path(tmp)) as redis:
        folder = Path(tmp)
        (folder / "specs").mkdir()
        (folder / "specs" / "tools.json").write_text(json.dumps(SPECS), "utf-8")
        generate(folder / "specs", folder / "out", "bench_tasks")
        (folder / "bench_impl.py").write_text(IMPLEMENTATION, "utf-8")
        path = os.pathsep.join([str(folder / "out"), str(folder), str(ROOT)])
        env = {**os.environ, "PYTHONPATH": path, "BENCH_SLEEP_MS": str(options.sleep_ms)}
        env.pop("TOOLGEN_STORE", None)
        store = ["--store", redis.url]
        worker = [
            sys.executable,
            "-m",
            "bench_tasks",
            "worker",
            "--registry",
            "bench_impl:registry",
        ]
        with ExitStack() as stack:
            workers = [
                subprocess.Popen([*worker, *store], env=env, start_new_session=True)
                for _ in range(2)
            ]
            stack.callback(lambda: [os.killpg(w.pid, signal.SIGTERM) for w in workers])
            urls = [
                stack.enter_context(serving("bench_tasks", "bench_impl:registry", env, *store))
                for _ in range(2)
            ]
            measured(urls, 2 * clients, clients, tasked)  # connections made, scripts loaded
            rows: dict[str, tuple[float, list[float]]] = {}
            for name, one in (("direct tools/call", direct), ("task: call + result", tasked)):
                rows[name] = measured(urls, calls, clients, one)
    base_rate, base = rows["direct tools/call"]
    print(f"{machine()}; {load()}")
    print(f"{calls} calls, {clients} clients, the tool sleeps {options.sleep_ms} ms\n")
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
    header = ["path", "calls/s", "p50 ms", "p99 ms", "p50 / direct", "p99 / direct"]
    print(table(header, lines))


if __name__ == "__main__":
    main()
