"""A fleet whose workers are killed: 20 task calls of an idempotent tool and 20 of a
non-idempotent one, each with its worker SIGKILLed once at a point drawn from a seeded
random (after the worker took the task, before the tool starts; while the tool runs; after
it returned, before its result is stored; after the result is stored, before the queue
heard of it), a replacement worker started for each one that dies.

Every run, every death and every final write to the store is noted (an append-only file),
so "ran twice" and "stored twice" are counted: an idempotent tool's 20 tasks complete, each
result stored exactly once; a non-idempotent tool's tasks complete or fail as lost, and
none runs twice. Real server, workers and redis-server, as subprocesses.
"""

from __future__ import annotations

import os
import random
import signal
import subprocess
import sys
import time
from collections import Counter
from collections.abc import Iterator
from pathlib import Path
from types import ModuleType
from typing import Any

import httpx
import pytest

from tests.support import mcp_support, task_tools
from tests.support.mcp_support import serving
from tests.support.redis_support import redis_server
from tests.support.runtime_support import generated_package
from tests.support.task_tools import environment

pytest.importorskip("docket", reason="tasks run on Docket (the server extra)")
redis_client = pytest.importorskip("redis", reason="the store's client")

TASKS = 20  # per tool
WORKERS = 4  # alive at once, each running one task at a time
REDELIVERY_S = 1.0  # how long a dead worker's task waits for another
SEED = 20261128
# Where a worker dies, once per task (the implementation below kills its own process there).
POINTS = ("taken", "running", "returned", "stored")
LOST = "the worker running this call was lost"

PARAMETERS = {
    "type": "object",
    "properties": {
        "label": {"type": "string", "description": "The task's name in the notes."},
        "die": {"type": "string", "enum": list(POINTS), "description": "Where to die."},
        "at": {"type": "number", "description": "Seconds into the run, for `running`."},
    },
    "required": ["label", "die"],
}
RETURNS = {
    "type": "object",
    "properties": {"label": {"type": "string"}, "run": {"type": "string"}},
    "required": ["label", "run"],
}
SPECS = {
    "tools": [
        {
            "name": "tally",
            "description": "Counts again; safe to run twice.",
            "flags": ["idempotent"],
            "parameters": PARAMETERS,
            "returns": RETURNS,
        },
        {
            "name": "post",
            "description": "Posts; running it twice posts twice.",
            "parameters": PARAMETERS,
            "returns": RETURNS,
        },
    ]
}
# In a worker, the store's task reads and writes are wrapped: the worker dies where a task's
# `die` says (once per task: the first to create `died-<label>`), and each final write is
# noted with whether the store took it. Notes: `ran|returned <label> <run>`,
# `killed <label> <point> <pid>`, `stored <label> <status> <taken>`.
# After tests/support/task_tools.py's head (`package`, `note`), tools of their own.
IMPLEMENTATIONS = """
import json, signal, uuid


def die(arguments, point):
    if arguments.get("die") != point:
        return
    try:
        os.close(os.open(NOTES.parent / f"died-{arguments['label']}", os.O_CREAT | os.O_EXCL))
    except FileExistsError:
        return  # this task's worker died already: its replacement lives
    note("killed", arguments["label"], point, str(os.getpid()))
    os.kill(os.getpid(), signal.SIGKILL)


def made(tool):
    class Noted(interface(package, tool)):
        async def run(self, args):
            run = f"{os.getpid()}.{uuid.uuid4().hex[:8]}"
            note("ran", args.label, run)
            if args.die == "running":
                await asyncio.sleep(args.at or 0)
                die({"label": args.label, "die": args.die}, "running")
            note("returned", args.label, run)
            return {"label": args.label, "run": run}

    return Noted()


def watched(store):
    get, put = store.aget_task, store.aput_task

    async def aget_task(key):
        found = await get(key)
        if found is not None:  # a worker reads a task's record only to run it
            die(json.loads(found)["arguments"], "taken")
        return found

    async def aput_task(index, key, record, final, expires_at, **versions):
        arguments = json.loads(record)["arguments"]
        if final:
            die(arguments, "returned")
        taken = await put(index, key, record, final, expires_at, **versions)
        if final:
            note("stored", arguments["label"], json.loads(record)["status"], str(taken))
            die(arguments, "stored")
        return taken

    store.aget_task, store.aput_task = aget_task, aput_task


def registry():
    built = package.build_registry(made("tally"), made("post"))
    if os.environ.get("TASKS_WORKER"):
        watched(built.store)
    return built
"""
# The workers are forked from one process that imported the package and Docket once: a fresh
# interpreter costs over a second of CPU here, and 40 of them were most of the test's time.
# Each child runs what `python -m killed worker ARGS` runs.
FLEET = """
import os, sys

import docket  # imported before the forks, as the rest
import killed_impls
from killed._runtime.serving.command import main

size, argv = int(sys.argv[1]), ["worker", *sys.argv[2:]]


def worker():
    pid = os.fork()
    if pid == 0:
        try:
            os._exit(main(argv, "killed"))
        except BaseException:
            os._exit(1)
    return pid


for _ in range(size):
    worker()
while True:
    pid, status = os.wait()
    killed_impls.note("died", str(pid), str(status))
    worker()
"""


@pytest.fixture(scope="module")
def package(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ModuleType]:
    yield from generated_package(tmp_path_factory, "killed", SPECS)


@pytest.fixture
def env(package: ModuleType, tmp_path: Path) -> dict[str, str]:
    return environment(package, tmp_path, "killed_impls", IMPLEMENTATIONS)


class Fleet:
    """`size` workers kept alive by a supervisor that forks a replacement for each one that
    dies; it notes `died <pid> <status>` for each."""

    def __init__(self, env: dict[str, str], store: str, size: int, folder: Path) -> None:
        (folder / "killed_fleet.py").write_text(FLEET, "utf-8")
        argv = [sys.executable, str(folder / "killed_fleet.py"), str(size), "--registry"]
        argv += ["killed_impls:registry", "--store", store]
        argv += ["--concurrency", "1", "--redelivery-s", str(REDELIVERY_S)]
        fleet_env = {**env, "TASKS_WORKER": "1"}
        self.process = subprocess.Popen(argv, env=fleet_env, start_new_session=True)

    def stop(self) -> None:
        os.killpg(self.process.pid, signal.SIGKILL)  # the supervisor and its workers
        self.process.wait()


def notes(env: dict[str, str]) -> list[list[str]]:
    return [line.split() for line in task_tools.notes(env)]


def test_tasks_survive_workers_killed_at_every_point(env: dict[str, str], tmp_path: Path) -> None:
    rng = random.Random(SEED)
    plans: dict[str, dict[str, Any]] = {}
    for tool in ("tally", "post"):
        points = list(POINTS) * (TASKS // len(POINTS))
        rng.shuffle(points)
        for number, point in enumerate(points):
            at = round(rng.uniform(0, 0.2), 3) if point == "running" else 0
            plans[f"{tool}-{number}"] = {"tool": tool, "die": point, "at": at}
    (tmp_path / "redis").mkdir()
    with redis_server(tmp_path / "redis") as redis:
        tasks, ended, records = run(env, plans, redis.url, tmp_path)
        in_store = _store_records(redis.url)
    noted = notes(env)
    deaths = [n for n in noted if n[0] == "died"]
    killed = Counter(n[1] for n in noted if n[0] == "killed")
    ran = {label: [n[2] for n in noted if n[:2] == ["ran", label]] for label in plans}
    returned = {label: {n[2] for n in noted if n[:2] == ["returned", label]} for label in plans}
    stored = Counter(n[1] for n in noted if n[0] == "stored" and n[3] == "True")
    assert killed == Counter(list(plans)) and len(deaths) == len(plans)  # one each
    assert stored == Counter(list(plans))  # each task's end written to the store exactly once
    assert in_store == {(t, b"1") for t in tasks.values()}  # every record there, final
    for label, plan in plans.items():
        record, result = records[label], ended[label]
        if record["status"] == "completed":
            assert result["structuredContent"]["label"] == label
            assert result["structuredContent"]["run"] in returned[label], (label, plan)
        if plan["tool"] == "tally":
            assert record["status"] == "completed", (label, plan, record)
            assert len(ran[label]) >= 1
        else:
            assert len(ran[label]) <= 1, (label, plan, ran[label])  # never run twice
            assert record["status"] in ("completed", "failed"), (label, plan, record)
            if record["status"] == "failed":
                assert LOST in record["statusMessage"], (label, plan, record)
                assert result["isError"] is True and LOST in result["content"][0]["text"]
    # Where the death fell decides what became of a non-idempotent call: only one killed
    # after its result was stored completes.
    for label, plan in plans.items():
        if plan["tool"] == "post":
            completed = records[label]["status"] == "completed"
            assert completed == (plan["die"] == "stored"), (label, plan, records[label])


def run(
    env: dict[str, str], plans: dict[str, dict[str, Any]], store: str, folder: Path
) -> tuple[dict[str, str], dict[str, Any], dict[str, Any]]:
    """Each plan's task created through a server, the fleet working until every task has
    ended: the task ids, their results and their records."""
    fleet = Fleet(env, store, WORKERS, folder)
    try:
        with serving("killed", "killed_impls:registry", env, "--store", store) as url:
            tasks = {}
            for label, plan in plans.items():
                arguments = {"label": label, "die": plan["die"], "at": plan["at"]}
                call = {"name": plan["tool"], "arguments": arguments, "task": {}}
                tasks[label] = rpc(url, "tools/call", call)["task"]["taskId"]
            # Every task ends with a final write its worker notes (a completion, or a
            # redelivered call failed as lost).
            deadline = time.monotonic() + 90
            while {n[1] for n in notes(env) if n[0] == "stored" and n[3] == "True"} != set(tasks):
                assert time.monotonic() < deadline, "tasks stuck:\n" + "\n".join(
                    sorted(set(tasks) - {n[1] for n in notes(env) if n[0] == "stored"})
                )
                time.sleep(0.05)
            ended = {label: rpc(url, "tasks/result", {"taskId": t}) for label, t in tasks.items()}
            records = {label: rpc(url, "tasks/get", {"taskId": t}) for label, t in tasks.items()}
    finally:
        fleet.stop()
    return tasks, ended, records


def rpc(url: str, method: str, params: dict[str, Any]) -> dict[str, Any]:
    return mcp_support.rpc(httpx.post, url, method, params)


def _store_records(url: str) -> set[tuple[str, bytes]]:
    """Each task record in the store (its id) and its `final` flag."""
    client = redis_client.Redis.from_url(url)
    try:
        keys = client.keys("toolgen:task:*")
        return {(k.decode().removeprefix("toolgen:task:"), client.hget(k, "f")) for k in keys}
    finally:
        client.close()
