"""Enqueue-to-start latency of the task engines considered for long-running tool calls
(docs/decisions/0013-a-task-engine-for-long-calls.md): one worker and the enqueuer in one
process on one event loop (one clock), each job enqueued after the previous one started, so
the figure is what a lone task call waits before its tool runs, not a throughput.

Each engine runs against a redis-server on a free loopback port started for the run, and,
where it has one, in its in-process mode. An engine that is not installed is skipped, saying
so: install the candidates in a scratch environment (`pip install pydocket taskiq
taskiq-redis`; arq and dramatiq each in its own, arq pins an older redis client).

Run: `python benchmarks/task_engines.py [--jobs 200] [--engine docket]`.
"""

from __future__ import annotations

import argparse
import asyncio
import statistics
import sys
import tempfile
import time
from collections.abc import Awaitable, Callable
from datetime import timedelta
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from tests.support.redis_support import redis_server  # noqa: E402

Measure = Callable[[str, int], Awaitable[list[float]]]


async def _latencies(
    enqueue: Callable[[int], Awaitable[Any]], started: dict[int, float], jobs: int
) -> list[float]:
    """Milliseconds from before each enqueue to the job's first line (jobs in turn)."""
    waits = []
    for i in range(jobs):
        before = time.perf_counter()
        await enqueue(i)
        while i not in started:
            await asyncio.sleep(0.0002)
        waits.append((started[i] - before) * 1000)
    return waits


async def docket(url: str, jobs: int) -> list[float]:
    from docket import Docket, Worker

    started: dict[int, float] = {}

    async def job(i: int) -> None:
        started[i] = time.perf_counter()

    async with Docket(name=f"bench-{time.time_ns()}", url=url) as d:
        d.register(job)
        async with Worker(
            d,
            minimum_check_interval=timedelta(milliseconds=5),
            redelivery_timeout=timedelta(seconds=5),
        ) as worker:
            running = asyncio.create_task(worker.run_forever())
            try:
                return await _latencies(lambda i: d.add(job)(i), started, jobs)
            finally:
                running.cancel()


async def taskiq(url: str, jobs: int) -> list[float]:
    from taskiq import InMemoryBroker
    from taskiq.api import run_receiver_task

    started: dict[int, float] = {}
    if url == "memory://":
        broker: Any = InMemoryBroker()
    else:
        from taskiq_redis import RedisStreamBroker

        broker = RedisStreamBroker(url, queue_name=f"bench-{time.time_ns()}")

    @broker.task
    async def job(i: int) -> None:
        started[i] = time.perf_counter()

    await broker.startup()
    receiving = None if url == "memory://" else asyncio.create_task(run_receiver_task(broker))
    try:
        return await _latencies(lambda i: job.kiq(i), started, jobs)
    finally:
        if receiving is not None:
            receiving.cancel()
        await broker.shutdown()


async def arq(url: str, jobs: int) -> list[float]:
    from arq import create_pool
    from arq.connections import RedisSettings
    from arq.worker import Worker, func

    if url == "memory://":
        raise LookupError("no in-process mode")
    started: dict[int, float] = {}

    async def job(ctx: Any, i: int) -> None:
        started[i] = time.perf_counter()

    settings = RedisSettings.from_dsn(url)
    pool = await create_pool(settings)
    worker = Worker(
        [func(job, name="job")], redis_pool=pool, poll_delay=0.005, handle_signals=False
    )
    running = asyncio.create_task(worker.async_run())
    try:
        return await _latencies(lambda i: pool.enqueue_job("job", i), started, jobs)
    finally:
        running.cancel()
        await worker.close()


async def dramatiq(url: str, jobs: int) -> list[float]:
    import dramatiq as dq
    from dramatiq import Worker

    started: dict[int, float] = {}
    if url == "memory://":
        from dramatiq.brokers.stub import StubBroker

        broker: Any = StubBroker()
    else:
        from dramatiq.brokers.redis import RedisBroker

        broker = RedisBroker(url=url, namespace=f"bench-{time.time_ns()}")
    dq.set_broker(broker)

    @dq.actor(broker=broker)
    def job(i: int) -> None:  # runs on a worker thread: dramatiq's actors are sync
        started[i] = time.perf_counter()

    worker = Worker(broker, worker_threads=1, worker_timeout=5)
    worker.start()
    try:
        return await _latencies(lambda i: asyncio.to_thread(job.send, i), started, jobs)
    finally:
        worker.stop()


ENGINES: dict[str, Measure] = {"docket": docket, "taskiq": taskiq, "arq": arq, "dramatiq": dramatiq}


def _row(engine: str, where: str, waits: list[float]) -> str:
    waits = sorted(waits)
    p50 = statistics.median(waits)
    p99 = waits[min(len(waits) - 1, int(len(waits) * 0.99))]
    return f"| {engine} | {where} | {len(waits)} | {p50:.2f} | {p99:.2f} |"


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--jobs", type=int, default=200)
    parser.add_argument("--engine", action="append", choices=sorted(ENGINES))
    args = parser.parse_args(argv)
    print("| engine | broker | jobs | p50 ms | p99 ms |\n|---|---|---:|---:|---:|")
    with tempfile.TemporaryDirectory() as folder, redis_server(Path(folder)) as server:
        for name in args.engine or list(ENGINES):
            for where, url in (("memory", "memory://"), ("redis", server.url)):
                try:
                    waits = asyncio.run(ENGINES[name](url, args.jobs))
                except ImportError as exc:
                    print(f"| {name} | {where} | not installed: {exc} | | |")
                    break
                except LookupError as exc:
                    print(f"| {name} | {where} | {exc} | | |")
                    continue
                print(_row(name, where, waits), flush=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
