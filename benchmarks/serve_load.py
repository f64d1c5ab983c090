"""A generated package served over MCP under load: `python -m toolgen_builtin serve --http`
against the same tool written by hand with the `mcp` SDK's own `MCPServer` (fastmcp_baseline.py).

Both servers are subprocesses on free ports of 127.0.0.1: stateless streamable HTTP, uvicorn,
`--workers` worker processes each (default 2). The toolgen server serves the built-in library
(`--registry implementations:registry`); the load calls one cheap tool, `summarize_numbers`.
The load comes from `--client-processes` other processes (default 2): `--clients` asyncio tasks
in all (default 50), each with its own `mcp.Client` (one HTTP connection), connected and warmed
up by one call before the clock starts, then making `--calls` `tools/call` calls each (default
200), one after another. Rounds alternate between the servers (`--rounds`, default 3; medians).

Measured per server: errors (any exception, any result with isError), throughput (calls over
the wall time from the start signal to the last answer), per-call latency p50/p99, the CPU time
the server's process tree and the clients spent per call (/proc), and the resident memory of
the server's process tree (the sum of VmRSS) after one call and after the last round.

Run: `python benchmarks/serve_load.py [--rounds 3] [--quick]`. Every subprocess runs in its own
process group and is killed on the way out (an error, Ctrl-C, or `--timeout`, default 900 s).
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import ctypes
import json
import os
import shutil
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))
from _util import PYTHON, ROOT, bench_env, load, machine, ratio, table

TOOL = "summarize_numbers"
ARGUMENTS = {
    "values": [3, 1.5, 4, 10, 2.25, 7, 5.5, 8, 0.5, 6, 9.75, 1, 3.5, 12, 4.25, 2],
    "percentiles": [25, 50, 95],
}
TICK = os.sysconf("SC_CLK_TCK")


# -- the client processes ---------------------------------------------------------------------------


async def user(url: str, calls: int, ready: asyncio.Event, go: asyncio.Event) -> dict[str, Any]:
    """One client: connect, one warm-up call, wait for the start, then `calls` calls in turn."""
    from mcp import Client

    latencies: list[float] = []
    errors: list[str] = []
    async with Client(url, read_timeout_seconds=60) as client:
        await client.call_tool(TOOL, ARGUMENTS)
        ready.set()
        await go.wait()
        for _ in range(calls):
            start = time.perf_counter()
            try:
                result = await client.call_tool(TOOL, ARGUMENTS)
            except Exception as error:  # noqa: BLE001 (every failure is counted, none stops the load)
                errors.append(f"{type(error).__name__}: {error}"[:300])
                continue
            latencies.append(time.perf_counter() - start)
            if result.is_error:
                errors.append(f"isError: {result.content[0].text if result.content else ''}"[:300])
    return {"latencies": latencies, "errors": errors}


async def clients(url: str, count: int, calls: int) -> None:
    """A client process: `count` clients; "ready" on stdout once all are connected, then the
    load starts at a line on stdin; the results as one JSON line."""
    go = asyncio.Event()
    readies = [asyncio.Event() for _ in range(count)]
    tasks = [asyncio.create_task(user(url, calls, ready, go)) for ready in readies]
    waiting = asyncio.gather(*(r.wait() for r in readies))
    await asyncio.wait([waiting, *tasks], return_when=asyncio.FIRST_COMPLETED)
    if not waiting.done():  # a client failed before it was ready
        waiting.cancel()
        await asyncio.gather(*tasks)  # raises its exception
    print("ready", flush=True)
    await asyncio.get_running_loop().run_in_executor(None, sys.stdin.readline)
    cpu, start = time.process_time(), time.monotonic()
    go.set()
    done = await asyncio.gather(*tasks)
    print(
        json.dumps(
            {
                "start": start,
                "end": time.monotonic(),
                "cpu": time.process_time() - cpu,
                "latencies": [t for d in done for t in d["latencies"]],
                "errors": [e for d in done for e in d["errors"]],
            }
        ),
        flush=True,
    )


# -- subprocesses ---------------------------------------------------------------------------------


def _die_with_parent() -> None:
    """In the child before exec: SIGTERM when this script dies, even by SIGKILL (Linux)."""
    ctypes.CDLL(None).prctl(1, signal.SIGTERM)  # PR_SET_PDEATHSIG


def spawn(
    cmd: list[str], env: dict[str, str], log: Path | None = None, **pipes: Any
) -> subprocess.Popen[str]:
    """A subprocess in its own process group, its output to `log` (or a pipe)."""
    with open(log or os.devnull, "w") as out:
        return subprocess.Popen(
            cmd,
            cwd=ROOT,
            env=env,
            text=True,
            start_new_session=True,
            preexec_fn=_die_with_parent,  # noqa: PLW1509 (no threads here)
            stdout=out if log else subprocess.PIPE,
            stderr=subprocess.STDOUT if log else None,
            **pipes,
        )


def serve_with_nodelay(argv: list[str]) -> None:
    """`--nodelay-serve CMD...`: run a server command (`-m MODULE ...` or `SCRIPT ...`) with
    uvicorn's multi-worker listener made with IPPROTO_TCP, so that asyncio sets TCP_NODELAY on
    each connection (uvicorn binds with proto 0, and Nagle then holds each response's last
    segment for the client's delayed ACK: about 40 ms per request on a kept-alive connection)."""
    import runpy

    import uvicorn

    bind = uvicorn.Config.bind_socket

    def bind_socket(self: uvicorn.Config) -> socket.socket:
        sock = bind(self)
        return socket.socket(sock.family, sock.type, socket.IPPROTO_TCP, fileno=sock.detach())

    uvicorn.Config.bind_socket = bind_socket  # type: ignore[method-assign]
    if argv[0] == "-m":
        sys.argv = argv[1:]
        runpy.run_module(argv[1], run_name="__main__", alter_sys=True)
    else:
        sys.argv = argv
        runpy.run_path(argv[0], run_name="__main__")


def stop(proc: subprocess.Popen[str]) -> None:
    """SIGTERM to the process group, SIGKILL after 5 s."""
    for sig, wait in ((signal.SIGTERM, 5), (signal.SIGKILL, 5)):
        with contextlib.suppress(ProcessLookupError):
            os.killpg(proc.pid, sig)
        try:
            proc.wait(wait)
            break
        except subprocess.TimeoutExpired:
            continue
    with contextlib.suppress(ProcessLookupError):  # the group outlives its leader: kill the rest
        os.killpg(proc.pid, signal.SIGKILL)


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def wait_listening(proc: subprocess.Popen[str], port: int, log: Path, timeout: float = 60) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if proc.poll() is not None:
            raise RuntimeError(f"the server exited {proc.returncode}:\n{log.read_text()[-3000:]}")
        with socket.socket() as s:
            if s.connect_ex(("127.0.0.1", port)) == 0:
                return
        time.sleep(0.1)
    raise RuntimeError(
        f"the server did not listen on port {port} within {timeout} s:\n{log.read_text()[-3000:]}"
    )


def tree(pid: int) -> list[int]:
    """`pid` and its descendants, from /proc."""
    found, todo = [], [pid]
    while todo:
        p = todo.pop()
        found.append(p)
        with contextlib.suppress(OSError):
            for task in os.listdir(f"/proc/{p}/task"):
                todo += [
                    int(c) for c in Path(f"/proc/{p}/task/{task}/children").read_text().split()
                ]
    return found


def rss_mb(pid: int) -> float:
    total = 0
    for p in tree(pid):
        with contextlib.suppress(OSError):
            line = next(
                li
                for li in Path(f"/proc/{p}/status").read_text().splitlines()
                if li.startswith("VmRSS:")
            )
            total += int(line.split()[1])
    return total / 1024


def cpu_s(pid: int) -> dict[int, float]:
    """CPU seconds (user and system) of each process of the tree."""
    found = {}
    for p in tree(pid):
        with contextlib.suppress(OSError):
            fields = Path(f"/proc/{p}/stat").read_text().rpartition(")")[2].split()
            found[p] = (int(fields[11]) + int(fields[12])) / TICK  # utime, stime
    return found


# -- the load test ----------------------------------------------------------------------------------


def check(url: str) -> dict[str, Any]:
    """One call from this process: the structured result (both servers must give the same)."""
    from mcp import Client

    async def call() -> dict[str, Any]:
        async with Client(url, read_timeout_seconds=30) as client:
            result = await client.call_tool(TOOL, ARGUMENTS)
        assert not result.is_error and result.structured_content, result
        return result.structured_content

    return asyncio.run(call())


def load_round(
    server: subprocess.Popen[str], url: str, args: argparse.Namespace, env: dict[str, str]
) -> dict[str, Any]:
    shares = [
        args.clients // args.client_processes + (i < args.clients % args.client_processes)
        for i in range(args.client_processes)
    ]
    procs = [
        spawn(
            [PYTHON, __file__, "--client", url, "--clients", str(n), "--calls", str(args.calls)],
            env,
            stdin=subprocess.PIPE,
        )
        for n in shares
        if n
    ]
    try:
        for proc in procs:
            if proc.stdout.readline().strip() != "ready":
                raise RuntimeError(
                    f"a client process did not connect (exit {proc.wait()}; its error is above)"
                )
        cpu = cpu_s(server.pid)
        for proc in procs:
            proc.stdin.write("go\n")
            proc.stdin.flush()
        lines = [proc.stdout.readline() for proc in procs]
        if not all(lines):
            raise RuntimeError("a client process died during the load (its error is above)")
        results = [json.loads(line) for line in lines]
        cpu = {p: t - cpu.get(p, 0.0) for p, t in cpu_s(server.pid).items()}
    finally:
        for proc in procs:
            stop(proc)
    latencies = sorted(t for r in results for t in r["latencies"])
    wall = max(r["end"] for r in results) - min(r["start"] for r in results)
    calls = args.clients * args.calls
    server_cpu = sum(cpu.values())
    return {
        "throughput": calls / wall,
        "p50": 1000 * latencies[len(latencies) // 2] if latencies else 0.0,
        "p99": 1000 * latencies[int(len(latencies) * 0.99)] if latencies else 0.0,
        "server_cpu": 1000 * server_cpu / calls,
        "busiest": 100 * max(cpu.values()) / (server_cpu or 1),
        "client_cpu": 1000 * sum(r["cpu"] for r in results) / calls,
        "errors": [e for r in results for e in r["errors"]],
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--clients", type=int, default=50, help="concurrent clients in all")
    parser.add_argument(
        "--calls", type=int, default=200, help="tools/call calls per client and round"
    )
    parser.add_argument("--workers", type=int, default=2, help="worker processes of each server")
    parser.add_argument("--client-processes", type=int, default=2)
    parser.add_argument(
        "--timeout", type=int, default=900, help="seconds before everything is stopped"
    )
    parser.add_argument(
        "--quick", action="store_true", help="a smoke test: 1 round, 4 clients, 10 calls"
    )
    parser.add_argument(
        "--nodelay",
        action="store_true",
        help="both servers with TCP_NODELAY (see serve_with_nodelay)",
    )
    parser.add_argument("--client", metavar="URL", help=argparse.SUPPRESS)  # a client process
    parser.add_argument(
        "--nodelay-serve", nargs=argparse.REMAINDER, help=argparse.SUPPRESS
    )  # a server
    args = parser.parse_args()
    if args.nodelay_serve:
        serve_with_nodelay(args.nodelay_serve)
        return
    if args.client:
        asyncio.run(clients(args.client, args.clients, args.calls))
        return
    if args.quick:
        args.rounds, args.clients, args.calls, args.client_processes = 1, 4, 10, 1

    def stopped(sig: int, frame: Any) -> None:
        why = f"--timeout {args.timeout} s" if sig == signal.SIGALRM else signal.Signals(sig).name
        raise SystemExit(f"serve_load.py: stopped ({why}); every subprocess is stopped too")

    signal.signal(signal.SIGTERM, stopped)
    signal.signal(signal.SIGALRM, stopped)
    signal.alarm(args.timeout)
    folder = Path(tempfile.mkdtemp(prefix="serve_load_"))
    env = bench_env(
        folder / "pycache", PYTHONPATH=os.pathsep.join([str(ROOT / "generated"), str(ROOT)])
    )
    ports = {"toolgen": free_port(), "FastMCP baseline": free_port()}
    commands = {
        "toolgen": [
            PYTHON,
            "-m",
            "toolgen_builtin",
            "serve",
            "--http",
            "--port",
            str(ports["toolgen"]),
            "--workers",
            str(args.workers),
            "--registry",
            "implementations:registry",
        ],
        "FastMCP baseline": [
            PYTHON,
            str(ROOT / "benchmarks" / "fastmcp_baseline.py"),
            "--port",
            str(ports["FastMCP baseline"]),
            "--workers",
            str(args.workers),
        ],
    }
    servers: dict[str, subprocess.Popen[str]] = {}
    try:
        for name, cmd in commands.items():
            cmd = [PYTHON, __file__, "--nodelay-serve", *cmd[1:]] if args.nodelay else cmd
            servers[name] = spawn(cmd, env, log=folder / f"{name}.log")
        urls = {name: f"http://127.0.0.1:{port}/mcp" for name, port in ports.items()}
        for name, proc in servers.items():
            wait_listening(proc, ports[name], folder / f"{name}.log")
        answers = {name: check(url) for name, url in urls.items()}
        if answers["toolgen"] != answers["FastMCP baseline"]:
            raise RuntimeError(f"the servers answer differently: {answers}")
        memory = {name: [rss_mb(proc.pid)] for name, proc in servers.items()}
        rounds: dict[str, list[dict[str, Any]]] = {name: [] for name in servers}
        for _ in range(args.rounds):
            for name, proc in servers.items():
                rounds[name].append(load_round(proc, urls[name], args, env))
        for name, proc in servers.items():
            memory[name].append(rss_mb(proc.pid))
    except BaseException:
        print(f"serve_load.py: the servers' output is in {folder}", file=sys.stderr)
        raise
    finally:
        signal.alarm(0)
        for proc in servers.values():
            stop(proc)
    shutil.rmtree(folder, ignore_errors=True)
    report(args, rounds, memory)


def report(
    args: argparse.Namespace,
    rounds: dict[str, list[dict[str, Any]]],
    memory: dict[str, list[float]],
) -> None:
    print(f"{machine()}; {load()}; clients and servers share the cores")
    print(
        f"{args.clients} clients in {args.client_processes} processes x {args.calls} calls of {TOOL}, "
        f"servers of {args.workers} workers{' (TCP_NODELAY)' if args.nodelay else ''}, "
        f"{args.rounds} rounds (medians)\n"
    )
    tg, base = rounds["toolgen"], rounds["FastMCP baseline"]
    rows = []
    for key, label, fmt in (
        ("throughput", "throughput (calls/s)", "{:.0f}"),
        ("p50", "latency p50 (ms)", "{:.1f}"),
        ("p99", "latency p99 (ms)", "{:.1f}"),
        ("server_cpu", "server CPU per call (ms)", "{:.2f}"),
        ("busiest", "busiest worker's share of it (%)", "{:.0f}"),
        ("client_cpu", "client CPU per call (ms)", "{:.2f}"),
    ):
        a, b = statistics.median(r[key] for r in tg), statistics.median(r[key] for r in base)
        rows.append([label, fmt.format(a), fmt.format(b), "" if key == "busiest" else ratio(a, b)])
    for i, when in enumerate(("after one call", "after the load")):
        a, b = memory["toolgen"][i], memory["FastMCP baseline"][i]
        rows.append([f"server RSS {when} (MB, process tree)", f"{a:.0f}", f"{b:.0f}", ratio(a, b)])
    errors = {name: [e for r in rs for e in r["errors"]] for name, rs in rounds.items()}
    rows.append(["errors", str(len(errors["toolgen"])), str(len(errors["FastMCP baseline"])), ""])
    print(table(["", "toolgen", "FastMCP baseline", "ratio"], rows))
    for name, found in errors.items():
        for error in sorted(set(found))[:5]:
            print(f"\n{name}: {found.count(error)} x {error}")


if __name__ == "__main__":
    main()
