"""What the Redis state store costs a direct call, against the in-process store of the
same run: a rate-limited tool (one Lua script per call: the window) and a tool with no
fleet-wide policy (which never touches the store: the ratio should be 1).

A redis-server on a free loopback port is started for the run (Debian's `redis-server`),
each registry calls through `Registry.call` and `await Registry.acall` (one event loop, each
call awaited in turn). Times are medians over rounds, measured round-robin; the overhead is
the Redis row minus the in-process row of the same tool and path.

Run: `python benchmarks/store.py [--calls 2000] [--rounds 5]` (`--quick`: a smoke test).
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
from collections.abc import Callable
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from benchmarks._util import load, machine, ratio, table  # noqa: E402
from tests.support.redis_support import redis_server  # noqa: E402
from tests.support.runtime_support import interface  # noqa: E402

NUMBER = {"type": "object", "properties": {"n": {"type": "integer", "description": "A number."}}}
SPECS = {
    "tools": [
        {
            "name": "limited",
            "description": "Echoes its number, under a rate limit it never reaches.",
            "rate_limit": {"calls": 1_000_000_000, "per_s": 1},
            "parameters": NUMBER,
            "returns": NUMBER,
        },
        {
            "name": "plain",
            "description": "Echoes its number.",
            "parameters": NUMBER,
            "returns": NUMBER,
        },
    ]
}


def build(folder: Path) -> Any:
    from toolgen.config import BuildOptions
    from toolgen.pipeline import build as build_package
    from toolgen.write import apply, plan

    specs = folder / "specs"
    specs.mkdir()
    (specs / "tools.json").write_text(json.dumps(SPECS), "utf-8")
    options = BuildOptions(package="bench_store")
    result = build_package(specs, options)
    assert result.ok, [d.text() for d in result.diagnostics if d.is_error]
    out = folder / "out"
    out.mkdir()
    apply(out, plan(out, result.files, options))
    sys.path.insert(0, str(out))
    package = importlib.import_module("bench_store")
    tools = [
        type(name, (interface(package, name),), {"run": lambda self, args: {"n": args.n}})()
        for name in ("limited", "plain")
    ]
    return package, tools


def timed(calls: int, one: Callable[[], Any]) -> float:
    """Seconds per call of `calls` calls, each checked ok."""
    start = time.perf_counter()
    for _ in range(calls):
        result = one()
        assert result.ok, result
    return (time.perf_counter() - start) / calls


def atimed(loop: asyncio.AbstractEventLoop, calls: int, one: Callable[[], Any]) -> float:
    async def run() -> float:
        start = time.perf_counter()
        for _ in range(calls):
            result = await one()
            assert result.ok, result
        return (time.perf_counter() - start) / calls

    return loop.run_until_complete(run())


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--calls", type=int, default=2000)
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--quick", action="store_true", help="a smoke test: few calls, 1 round")
    options = parser.parse_args()
    calls, rounds = (50, 1) if options.quick else (options.calls, options.rounds)
    with tempfile.TemporaryDirectory() as tmp, redis_server(Path(tmp)) as server:
        package, tools = build(Path(tmp))
        stores = {"in-process": "memory://", "Redis": server.url}
        registries = {k: package.build_registry(*tools, store=url) for k, url in stores.items()}
        loop = asyncio.new_event_loop()
        times: dict[tuple[str, str, str], list[float]] = {}
        for registry in registries.values():  # connections made and scripts loaded first
            for tool in ("limited", "plain"):
                timed(1, lambda r=registry, t=tool: r.call(t, {"n": 0}))
                atimed(loop, 1, lambda r=registry, t=tool: r.acall(t, {"n": 0}))
        for _ in range(rounds):
            for tool in ("limited", "plain"):
                for store, registry in registries.items():
                    arguments = {"n": 1}
                    sync = timed(calls, lambda r=registry, t=tool: r.call(t, arguments))
                    aio = atimed(loop, calls, lambda r=registry, t=tool: r.acall(t, arguments))
                    times.setdefault((tool, "call", store), []).append(sync)
                    times.setdefault((tool, "acall", store), []).append(aio)
        loop.close()
    rows = []
    for tool in ("limited", "plain"):
        for path in ("call", "acall"):
            local = statistics.median(times[(tool, path, "in-process")])
            shared = statistics.median(times[(tool, path, "Redis")])
            rows.append(
                [
                    f"`{tool}` ({'rate_limit' if tool == 'limited' else 'no policy'}), {path}",
                    f"{local * 1e6:.1f}",
                    f"{shared * 1e6:.1f}",
                    ratio(shared, local),
                    f"{(shared - local) * 1e3:.3f}",
                ]
            )
    print(f"{machine()}; {load()}")
    print(f"{calls} calls per path and round, {rounds} round(s), medians\n")
    header = ["tool, path", "in-process µs/call", "Redis µs/call", "Redis / in-process"]
    print(table([*header, "Redis overhead ms/call"], rows))


if __name__ == "__main__":
    main()
