"""Long calls as MCP tasks (2025-11-25): a `tools/call` with `task` answers at once with the
task; `tasks/get`, `tasks/result`, `tasks/cancel`, `tasks/list` follow it. One server with the
in-process store runs its tasks itself; servers on a Redis store queue them for `worker`
processes, and any server answers for any task; a worker killed mid-call leaves an idempotent
tool's task to another worker, and fails any other's as lost. Real servers, workers and
redis-server, as subprocesses; the client is JSON-RPC over HTTP.
"""

from __future__ import annotations

import asyncio
import os
import signal
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from types import ModuleType
from typing import Any

import httpx
import pytest

from tests.support import mcp_support
from tests.support.mcp_support import serving
from tests.support.redis_support import RedisServer, redis_server
from tests.support.runtime_support import generated_package
from tests.support.task_tools import NUMBER, RETURNS, environment, notes

pytest.importorskip("docket", reason="tasks run on Docket (the server extra)")

SPECS = {
    "tools": [
        {
            "name": "recount",
            "description": "Counts again for n seconds; safe to run twice.",
            "flags": ["idempotent"],
            "parameters": NUMBER,
            "returns": RETURNS,
        },
        {
            "name": "send",
            "description": "Sends for n seconds; running it twice sends twice.",
            "parameters": NUMBER,
            "returns": RETURNS,
        },
        {
            "name": "report",
            "description": "Writes a report for n seconds: only as a task.",
            "task": "required",
            "parameters": NUMBER,
            "returns": RETURNS,
        },
        {
            "name": "stepped",
            "description": "Says it is half done, then waits to be let finish.",
            "flags": ["streaming"],
            "parameters": NUMBER,
            "returns": RETURNS,
        },
        {
            "name": "glance",
            "description": "Answers at once: never as a task.",
            "task": "forbidden",
            "parameters": NUMBER,
            "returns": RETURNS,
        },
    ]
}
# The tools of tests/support/task_tools.py, and `stepped`.
IMPLEMENTATIONS = """
def stepped():
    class Stepped(interface(package, "stepped")):
        async def run(self, args):
            yield package.Progress(1, 2)
            while not os.path.exists(os.environ["TASKS_NOTES"] + ".go"):
                await asyncio.sleep(0.02)
            yield {"n": 2}

    return Stepped()


def registry():
    tools = [made(t) for t in ("recount", "send", "report", "glance")]
    return package.build_registry(*tools, stepped())
"""


@pytest.fixture(scope="module")
def package(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ModuleType]:
    yield from generated_package(tmp_path_factory, "tasked", SPECS)


@pytest.fixture
def env(package: ModuleType, tmp_path: Path) -> dict[str, str]:
    return environment(package, tmp_path, "tasks_impls", IMPLEMENTATIONS)


@pytest.fixture
def redis(tmp_path: Path) -> Iterator[RedisServer]:
    (tmp_path / "redis").mkdir()
    with redis_server(tmp_path / "redis") as server:
        yield server


def rpc(url: str, method: str, params: dict[str, Any]) -> dict[str, Any]:
    return mcp_support.rpc(httpx.post, url, method, params)


def start(url: str, tool: str, n: float, ttl: int | None = None) -> dict[str, Any]:
    task: dict[str, Any] = {} if ttl is None else {"ttl": ttl}
    answer = rpc(url, "tools/call", {"name": tool, "arguments": {"n": n}, "task": task})
    handle: dict[str, Any] = answer["task"]
    return handle


def until(url: str, task_id: str, *statuses: str, within_s: float = 15) -> dict[str, Any]:
    deadline = time.monotonic() + within_s
    while True:
        found = rpc(url, "tasks/get", {"taskId": task_id})
        if found.get("status") in statuses or time.monotonic() > deadline:
            return found
        time.sleep(0.05)


def wait_for(env: dict[str, str], seen: Any, within_s: float = 15) -> None:
    """Until what the tools noted satisfies `seen(lines)`."""
    deadline = time.monotonic() + within_s
    while not seen(notes(env)):
        assert time.monotonic() < deadline, notes(env)
        time.sleep(0.02)


def test_one_server_runs_its_tasks_and_answers_for_them(env: dict[str, str]) -> None:
    with serving("tasked", "tasks_impls:registry", env) as url:
        hello = rpc(
            url,
            "initialize",
            {
                "protocolVersion": "2025-11-25",
                "capabilities": {},
                "clientInfo": {"name": "t", "version": "0"},
            },
        )
        assert hello["capabilities"]["tasks"]["requests"] == {"tools": {"call": {}}}
        handle = start(url, "recount", 0.2)
        assert handle["status"] == "working" and handle["ttl"] == 3_600_000
        done = rpc(url, "tasks/result", {"taskId": handle["taskId"]})
        assert done["structuredContent"] == {"n": 0.2} and not done.get("isError")
        assert done["_meta"]["io.modelcontextprotocol/related-task"] == {"taskId": handle["taskId"]}
        assert rpc(url, "tasks/get", {"taskId": handle["taskId"]})["status"] == "completed"
        listed = rpc(url, "tasks/list", {})["tasks"]
        assert [t["taskId"] for t in listed] == [handle["taskId"]]

        running = start(url, "send", 30)
        wait_for(env, lambda lines: "send" in {line.split()[0] for line in lines})  # under way
        cancelled = rpc(url, "tasks/cancel", {"taskId": running["taskId"]})
        assert cancelled["status"] == "cancelled"
        again = rpc(url, "tasks/cancel", {"taskId": running["taskId"]})
        assert "already ended (cancelled)" in again["error"]["message"]

        brief = start(url, "recount", 0, ttl=300)
        time.sleep(0.7)
        expired = rpc(url, "tasks/get", {"taskId": brief["taskId"]})
        assert "expired" in expired["error"]["message"], expired
        unknown = rpc(url, "tasks/get", {"taskId": "nothing"})
        assert "never created" in unknown["error"]["message"]
    assert notes(env).count("send done") == 0  # the cancelled call never got past its sleep


def worker(env: dict[str, str], store: str) -> subprocess.Popen[bytes]:
    argv = [sys.executable, "-m", "tasked", "worker", "--registry", "tasks_impls:registry"]
    argv += ["--store", store, "--redelivery-s", "1"]
    return subprocess.Popen(argv, env=env, start_new_session=True)


def stop(*processes: subprocess.Popen[bytes]) -> None:
    for process in processes:
        if process.poll() is None:
            os.killpg(process.pid, signal.SIGKILL)
        process.wait()


def test_two_servers_queue_for_workers_and_answer_for_each_others_tasks(
    env: dict[str, str], redis: RedisServer
) -> None:
    workers = [worker(env, redis.url), worker(env, redis.url)]
    try:
        with serving("tasked", "tasks_impls:registry", env, "--store", redis.url) as one:
            with serving("tasked", "tasks_impls:registry", env, "--store", redis.url) as two:
                handles = [start(one, "recount", 0.1), start(two, "send", 0.1)]
                for handle in handles:
                    other = two if handle is handles[0] else one
                    done = rpc(other, "tasks/result", {"taskId": handle["taskId"]})
                    assert done["structuredContent"] == {"n": 0.1}
                listed = {t["taskId"] for t in rpc(one, "tasks/list", {})["tasks"]}
                assert listed == {h["taskId"] for h in handles}
                # A cancellation through the other server stops the call on its worker.
                running = start(one, "send", 60)
                # the second `send started`: the call runs on a worker
                wait_for(env, lambda lines: sum(x.startswith("send started") for x in lines) == 2)
                assert (
                    rpc(two, "tasks/cancel", {"taskId": running["taskId"]})["status"] == "cancelled"
                )
                wait_for(env, lambda lines: "send cancelled" in lines)
    finally:
        stop(*workers)


@pytest.mark.parametrize(
    ("tool", "status", "finished"),
    [("recount", "completed", 1), ("send", "failed", 0)],
    ids=["idempotent-run-again", "other-failed-as-lost"],
)
def test_a_worker_killed_mid_call(
    env: dict[str, str], redis: RedisServer, tool: str, status: str, finished: int
) -> None:
    workers = [worker(env, redis.url), worker(env, redis.url)]
    try:
        with serving("tasked", "tasks_impls:registry", env, "--store", redis.url) as url:
            handle = start(url, tool, 1)  # long enough to be killed mid-call
            began = f"{tool} started "
            wait_for(env, lambda lines: any(line.startswith(began) for line in lines))
            pid = int(next(line for line in notes(env) if line.startswith(began)).split()[2])
            killed = next(w for w in workers if w.pid == pid)
            killed.send_signal(signal.SIGKILL)
            killed.wait()
            ended = until(url, handle["taskId"], "completed", "failed", within_s=20)
            assert ended["status"] == status, ended
            result = rpc(url, "tasks/result", {"taskId": handle["taskId"]})
    finally:
        stop(*workers)
    assert notes(env).count(f"{tool} done") == finished
    if status == "failed":
        assert "the worker running this call was lost" in ended["statusMessage"]
        assert result["isError"] is True
        assert "may have had effects" in result["content"][0]["text"]
    else:
        assert result["structuredContent"] == {"n": 1}
        started = [line for line in notes(env) if line.startswith("recount started")]
        assert len(started) == 2  # on the killed worker, then on the other


def test_the_typed_client_starts_a_task_follows_it_and_reads_its_typed_result(
    env: dict[str, str], package: ModuleType
) -> None:
    from importlib import import_module

    client = import_module(f"{package.__name__}.client")
    result_class = import_module(f"{package.__name__}.tools.recount").RecountResult
    errors = import_module(f"{package.__name__}._runtime.errors")

    async def follow(url: str) -> tuple[Any, ...]:
        async with client.connect(url, protocol="legacy") as tools:
            handle = await tools.start("recount", n=0.1)
            value = await handle.result()
            ended = await handle.status()
            running = await tools.start("send", n=30)
            cancelled = await running.cancel()
            with pytest.raises(errors.ToolCallError) as refused:
                await tools.start("recount", n="many")
            return value, ended.status, cancelled.status, refused.value.kind

    with serving("tasked", "tasks_impls:registry", env) as url:
        value, ended, cancelled, refused = asyncio.run(follow(url))
    assert isinstance(value, result_class) and value.n == 0.1
    assert (ended, cancelled, refused) == ("completed", "cancelled", "invalid_arguments")


def test_a_tool_declares_whether_it_runs_as_a_task_and_is_held_to_it(
    env: dict[str, str], package: ModuleType
) -> None:
    from importlib import import_module

    client = import_module(f"{package.__name__}.client")

    async def typed(url: str) -> Any:
        async with client.connect(url, protocol="legacy") as tools:
            return await tools.report(n=0.1)  # its ordinary method: a task, awaited

    with serving("tasked", "tasks_impls:registry", env) as url:
        listed = {t["name"]: t.get("execution") for t in rpc(url, "tools/list", {})["tools"]}
        assert listed["report"] == {"taskSupport": "required"}
        assert listed["glance"] == {"taskSupport": "forbidden"} and listed["send"] is None
        plain = rpc(url, "tools/call", {"name": "report", "arguments": {"n": 0}})
        assert plain["error"]["code"] == -32601
        assert "runs only as a task" in plain["error"]["message"]
        tasked = rpc(url, "tools/call", {"name": "glance", "arguments": {"n": 0}, "task": {}})
        assert tasked["error"]["code"] == -32601
        assert rpc(url, "tools/call", {"name": "glance", "arguments": {"n": 0}})[
            "structuredContent"
        ]
        value = asyncio.run(typed(url))
    assert value.n == 0.1
    assert notes(env).count("report done") == 1


def test_a_streaming_tools_events_are_its_tasks_status_message(env: dict[str, str]) -> None:
    with serving("tasked", "tasks_impls:registry", env) as url:
        handle = start(url, "stepped", 0)
        deadline = time.monotonic() + 15
        while (found := rpc(url, "tasks/get", {"taskId": handle["taskId"]}))[
            "statusMessage"
        ] != "1/2":
            assert time.monotonic() < deadline and found["status"] == "working", found
            time.sleep(0.05)
        Path(env["TASKS_NOTES"] + ".go").touch()  # let it finish
        done = rpc(url, "tasks/result", {"taskId": handle["taskId"]})
    assert done["structuredContent"] == {"n": 2}


def test_over_stdio_the_server_runs_its_tasks_itself(
    env: dict[str, str], package: ModuleType
) -> None:
    from importlib import import_module

    client = import_module(f"{package.__name__}.client")
    command = [
        sys.executable,
        "-m",
        "tasked",
        "serve",
        "--stdio",
        "--registry",
        "tasks_impls:registry",
    ]

    async def follow() -> tuple[Any, ...]:
        async with client.connect(command, env=env, protocol="legacy") as tools:
            handle = await tools.start("recount", n=0.1)
            value = await handle.result()
            return value.n, (await handle.status()).status

    assert asyncio.run(follow()) == (0.1, "completed")
