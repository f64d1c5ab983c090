"""MCP tasks on 2026-07-28, the extension `io.modelcontextprotocol/tasks`: a client that opts
in (the extension among its request's client capabilities) is answered `tools/call` with a
task handle; `tasks/get`, `tasks/update` (a question the call asks) and `tasks/cancel` follow
it, on any server sharing the store; a `required` tool refuses a client that did not opt in.
Status notifications: 2025-11-25's `notifications/tasks/status` to the creator over stdio,
2026-07-28's `notifications/tasks` on a `subscriptions/listen` stream of another server.

One redis-server, one worker and two servers on it, shared by the module's tests (each makes
tasks of its own). The oracle is the SDK's client: its extension machinery (a ClientExtension
claiming `resultType: "task"`), its MCPError for the refusal; then toolgen's typed client,
async and sync, on the same servers.
"""

from __future__ import annotations

import asyncio
import os
import signal
import subprocess
import sys
import time
from collections.abc import Iterator
from types import ModuleType
from typing import Any, Literal

import mcp_types as types
import pytest
from mcp import StdioServerParameters
from mcp.client.client import Client
from mcp.client.extension import ClaimContext, ClientExtension, NotificationBinding, ResultClaim
from mcp.shared.exceptions import MCPError
from pydantic import ConfigDict, TypeAdapter

from tests.support.mcp_support import serving
from tests.support.redis_support import redis_server
from tests.support.runtime_support import generated_package
from tests.support.task_tools import NUMBER, RETURNS, environment, notes

pytest.importorskip("docket", reason="tasks run on Docket (the server extra)")

EXTENSION = "io.modelcontextprotocol/tasks"
GREETING = {"type": "object", "properties": {"greeting": {"type": "string"}}}
SPECS = {
    "tools": [
        {
            "name": "send",
            "description": "Sends for n seconds.",
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
            "name": "glance",
            "description": "Answers at once: never as a task.",
            "task": "forbidden",
            "parameters": NUMBER,
            "returns": RETURNS,
        },
        {
            "name": "greet",
            "description": "Asks the user's name, then greets them.",
            "task": "required",
            "parameters": {"type": "object", "properties": {}},
            "returns": GREETING,
        },
    ]
}
# The tools of tests/support/task_tools.py, and `greet`.
IMPLEMENTATIONS = """
class Greet(interface(package, "greet")):
    def run(self, args):
        answer = package.resumed()
        if answer is None:
            raise package.Suspend("What is your name?")
        return {"greeting": f"Hello, {answer.answer}"}


def registry():
    return package.build_registry(*(made(t) for t in ("send", "report", "glance")), Greet())
"""


class Fleet:
    """Two servers on one Redis, one worker: `one` and `two` are their URLs; `env` runs
    the package and its implementations."""

    def __init__(self, one: str, two: str, env: dict[str, str]) -> None:
        self.one, self.two, self.env = one, two, env

    def lines(self) -> list[str]:
        return notes(self.env)


@pytest.fixture(scope="module")
def package(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ModuleType]:
    yield from generated_package(tmp_path_factory, "tasked26", SPECS)


@pytest.fixture(scope="module")
def fleet(package: ModuleType, tmp_path_factory: pytest.TempPathFactory) -> Iterator[Fleet]:
    root = tmp_path_factory.mktemp("fleet")
    env = environment(package, root, "tasks_impls26", IMPLEMENTATIONS)
    (root / "redis").mkdir()
    registry = "tasks_impls26:registry"
    with redis_server(root / "redis") as redis:
        argv = [sys.executable, "-m", package.__name__, "worker", "--registry", registry]
        worker = subprocess.Popen([*argv, "--store", redis.url], env=env, start_new_session=True)
        try:
            with serving(package.__name__, registry, env, "--store", redis.url) as one:
                with serving(package.__name__, registry, env, "--store", redis.url) as two:
                    yield Fleet(one, two, env)
        finally:
            os.killpg(worker.pid, signal.SIGKILL)
            worker.wait()


# -- the SDK's client, with the extension as its machinery has one --------------------------------


class CreatedTask(types.Result):
    """The task handle (`resultType: "task"`), as the SDK's client claims an extension's result."""

    model_config = ConfigDict(extra="allow")
    result_type: Literal["task"] = "task"
    task_id: str
    status: str
    ttl_ms: int | None = None
    poll_interval_ms: int | None = None


class Tasks(ClientExtension):
    """The extension on the SDK's client: a task handle followed with `tasks/get` (on the
    same connection, or `poller`'s) until it ends; its result is the call's."""

    identifier = EXTENSION

    def __init__(self, seen: list[dict[str, Any]] | None = None) -> None:
        self.seen = seen if seen is not None else []

    def claims(self) -> list[ResultClaim[Any]]:
        return [ResultClaim(result_type="task", model=CreatedTask, resolve=self.resolve)]

    async def resolve(self, created: CreatedTask, ctx: ClaimContext) -> types.CallToolResult:
        self.seen.append(created.model_dump(by_alias=True))
        request = types.GetTaskRequest(params=types.GetTaskRequestParams(task_id=created.task_id))
        while True:
            found = await ctx.session.send_request(request, TypeAdapter(dict[str, Any]))
            self.seen.append(found)
            if found["status"] == "completed":
                return types.CallToolResult.model_validate(found["result"])
            assert found["status"] == "working", found
            await asyncio.sleep(found["pollIntervalMs"] / 1000)


def test_the_sdks_client_opting_in_gets_a_task_and_its_result(fleet: Fleet) -> None:
    async def called() -> tuple[Any, ...]:
        extension = Tasks()
        async with Client(fleet.one, extensions=[extension]) as client:
            advertised = client.server_capabilities.extensions or {}
            result = await client.call_tool("report", {"n": 0.1})
            plain = await client.call_tool("glance", {"n": 0})  # forbidden: answered at once
        return advertised, result, plain, extension.seen

    advertised, result, plain, seen = asyncio.run(called())
    assert EXTENSION in advertised
    assert result.structured_content == {"n": 0.1} and not result.is_error
    assert plain.structured_content == {"n": 0}
    created, *polled = seen
    assert created["resultType"] == "task" and created["status"] == "working"
    assert created["ttlMs"] == 3_600_000 and created["pollIntervalMs"] == 500
    assert polled[-1]["status"] == "completed" and polled[-1]["resultType"] == "complete"
    assert len(seen) == 2 + sum(p["status"] == "working" for p in polled)  # one claim only


def test_a_required_tool_refuses_a_client_that_did_not_opt_in(fleet: Fleet) -> None:
    async def refused() -> tuple[MCPError, Any, MCPError]:
        async with Client(fleet.one) as client:
            with pytest.raises(MCPError) as call:
                await client.call_tool("report", {"n": 0})
            plain = await client.call_tool("send", {"n": 0})  # optional: a plain call
            request = types.GetTaskRequest(params=types.GetTaskRequestParams(task_id="x"))
            with pytest.raises(MCPError) as get:
                await client.session.send_request(request, TypeAdapter(dict[str, Any]))
        return call.value, plain, get.value

    call, plain, get = asyncio.run(refused())
    assert call.error.code == types.MISSING_REQUIRED_CLIENT_CAPABILITY
    assert call.error.data == {"requiredCapabilities": {"extensions": {EXTENSION: {}}}}
    assert "runs only as a task" in call.error.message
    assert plain.structured_content == {"n": 0}
    assert get.error.code == types.MISSING_REQUIRED_CLIENT_CAPABILITY


# -- toolgen's typed client, across the two servers ------------------------------------------------


def test_the_typed_client_starts_on_one_server_and_follows_on_the_other(
    fleet: Fleet, package: ModuleType
) -> None:
    from importlib import import_module

    client = import_module(f"{package.__name__}.client")
    result_class = import_module(f"{package.__name__}.tools.send").SendResult

    async def follow() -> tuple[Any, ...]:
        async with client.connect(fleet.one) as one, client.connect(fleet.two) as two:
            assert one.remote.client.protocol_version == "2026-07-28"
            started = await one.start("send", n=0.1)
            handle = started.on(two.remote)
            value = await handle.result()
            ended = await handle.status()
            report = await one.report(n=0)  # a required tool's method: a task, awaited
            running = await one.start("send", n=60)
            while not any(x.startswith("send started") for x in fleet.lines()[-1:]):
                await asyncio.sleep(0.02)
            other = running.on(two.remote)
            cancelled = await other.cancel()
            outcome = await running.outcome()
        return value, ended.status, report, cancelled.status, outcome

    value, ended, report, cancelled, outcome = asyncio.run(follow())
    assert isinstance(value, result_class) and value.n == 0.1 and ended == "completed"
    assert report.n == 0
    assert cancelled == "cancelled" and outcome.failure.kind == "cancelled"
    deadline = time.monotonic() + 15
    while "send cancelled" not in fleet.lines():  # the call stopped on the worker
        assert time.monotonic() < deadline, fleet.lines()
        time.sleep(0.02)


def test_a_task_that_asks_waits_input_required_and_resumes_on_tasks_update(
    fleet: Fleet, package: ModuleType
) -> None:
    from importlib import import_module

    client = import_module(f"{package.__name__}.client")

    async def named(reply: str) -> str | None:
        return reply

    async def asked() -> tuple[Any, ...]:
        async with client.connect(fleet.one) as silent:
            handle = await silent.start("greet")
            waiting = await handle.outcome()  # no one to answer: it waits on
            status = await handle.status()
        answer = lambda question: named(f"Ada ({question})")  # noqa: E731
        async with client.connect(fleet.two, answer=answer) as tools:
            other = handle.on(tools.remote)
            greeting = await other.result()
        return waiting, status, greeting

    waiting, status, greeting = asyncio.run(asked())
    assert waiting.failure.kind == "suspended" and "What is your name?" in waiting.failure.message
    assert status.status == "input_required"
    assert greeting.greeting == "Hello, Ada (What is your name?)"


def test_the_sync_client_starts_a_task_with_the_same_handle(
    fleet: Fleet, package: ModuleType
) -> None:
    from importlib import import_module

    client = import_module(f"{package.__name__}.client")
    with client.connect_sync(fleet.two) as tools:
        handle = tools.start("send", n=0.05)
        assert handle.result().n == 0.05
        assert handle.status().status == "completed"
    with client.connect_sync(fleet.one, protocol="legacy") as tools:
        handle = tools.start("send", n=0.05)
        assert handle.outcome().data() == {"n": 0.05}
        assert handle.status().status == "completed"


# -- status notifications ------------------------------------------------------------------------


class Notices(ClientExtension):
    """The SDK's client observing a notification its core tables do not hold (its
    NotificationBinding), its params validated by `params_type`."""

    identifier = "io.toolgen/task-notices"

    def __init__(self, method: str, params_type: type[Any]) -> None:
        self.method, self.params_type = method, params_type
        self.got: list[Any] = []
        self.ended = asyncio.Event()

    def notifications(self) -> list[NotificationBinding[Any]]:
        return [
            NotificationBinding(method=self.method, params_type=self.params_type, handler=self.on)
        ]

    async def on(self, params: Any) -> None:
        self.got.append(params)
        if params.status in ("completed", "failed", "cancelled"):
            self.ended.set()


def test_on_2025_11_25_over_stdio_the_creator_is_told_each_status_change(
    fleet: Fleet, package: ModuleType
) -> None:
    """`notifications/tasks/status`, checked with mcp_types' TaskStatusNotification."""
    argv = ["-m", package.__name__, "serve", "--stdio", "--registry", "tasks_impls26:registry"]
    command = StdioServerParameters(command=sys.executable, args=argv, env=fleet.env)
    notices = Notices("notifications/tasks/status", types.TaskStatusNotificationParams)

    async def told() -> dict[str, Any]:
        async with Client(command, mode="legacy", extensions=[notices]) as client:
            dispatcher: Any = client.session._dispatcher
            params = {"name": "send", "arguments": {"n": 0.3}, "task": {}}
            created = await dispatcher.send_raw_request("tools/call", params, {})
            await asyncio.wait_for(notices.ended.wait(), 30)
        task: dict[str, Any] = created["task"]
        return task

    created = asyncio.run(told())
    assert all(p.task_id == created["taskId"] for p in notices.got)
    statuses = [(p.status, p.status_message) for p in notices.got]
    assert statuses == [("working", "running"), ("completed", None)], statuses
    wire = types.TaskStatusNotification(params=notices.got[-1])
    assert wire.method == "notifications/tasks/status" and wire.params.ttl == created["ttl"]


class Detailed(types.Result):
    """`notifications/tasks`'s params: the DetailedTask, as `tasks/get` answers it."""

    model_config = ConfigDict(extra="allow")
    task_id: str
    status: str
    ttl_ms: int | None
    poll_interval_ms: int | None = None
    result: dict[str, Any] | None = None


def test_on_2026_07_28_a_listener_is_told_of_a_task_another_server_created(fleet: Fleet) -> None:
    """`subscriptions/listen` with `taskIds` on the second server, for a task made on the first
    and run by the worker: `notifications/tasks` as its status changes, then the stream ends."""
    notices = Notices("notifications/tasks", Detailed)

    async def told() -> tuple[Any, ...]:
        async with Client(fleet.one, extensions=[Tasks()]) as one:
            created = await one.session.call_tool("send", {"n": 0.3}, allow_claimed=True)
        async with Client(fleet.two, extensions=[Tasks(), notices]) as two:
            wanted = types.SubscriptionFilter.model_validate({"taskIds": [created.task_id]})
            params = types.SubscriptionsListenRequestParams(notifications=wanted)
            request = types.SubscriptionsListenRequest(params=params)
            ended = await two.session.send_request(request, types.SubscriptionsListenResult)
            async with Client(fleet.two) as stranger:  # no opt-in: refused
                with pytest.raises(MCPError) as refused:
                    await stranger.session.send_request(request, types.SubscriptionsListenResult)
        return created, ended, refused.value

    created, ended, refused = asyncio.run(told())
    assert isinstance(created, CreatedTask)
    assert ended.meta is not None and "io.modelcontextprotocol/subscriptionId" in ended.meta
    assert {n.task_id for n in notices.got} == {created.task_id}
    assert notices.got[-1].status == "completed"
    assert notices.got[-1].result["structuredContent"] == {"n": 0.3}
    assert all(n.status == "working" for n in notices.got[:-1])
    assert refused.error.code == types.MISSING_REQUIRED_CLIENT_CAPABILITY
