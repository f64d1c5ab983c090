"""A task belongs to the subject that created it: on a server that authenticates its clients
(OAuth, tokens of an authorization server the test runs), another subject asking for the task
is answered as for a task that never was, in both eras (2025-11-25's `tasks/get`,
`tasks/result`, `tasks/cancel`; 2026-07-28's `tasks/get`, `tasks/update`, `tasks/cancel`,
and `subscriptions/listen`, which follows none of another's tasks), and `tasks/list` lists
the caller's own. A real server (its tasks run in it); the clients
are JSON-RPC over HTTP (2025-11-25) and toolgen's typed client (2026-07-28).
"""

from __future__ import annotations

import asyncio
from collections.abc import Iterator
from functools import partial
from importlib import import_module
from types import ModuleType
from typing import Any

import httpx
import pytest
from mcp.shared.exceptions import MCPError

from tests.support import mcp_support
from tests.support.mcp_support import serving
from tests.support.oauth_support import Issuer, issuer
from tests.support.runtime_support import generated_package
from tests.support.task_tools import NUMBER, RETURNS, environment

pytest.importorskip("docket", reason="tasks run on Docket (the server extra)")

SPECS = {
    "tools": [
        {
            "name": "send",
            "description": "Sends for n seconds.",
            "parameters": NUMBER,
            "returns": RETURNS,
        }
    ]
}
IMPLEMENTATIONS = """
def registry():
    return package.build_registry(made("send"))
"""
AUDIENCE = "https://tools.example.com/mcp"


@pytest.fixture(scope="module")
def package(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ModuleType]:
    yield from generated_package(tmp_path_factory, "owned", SPECS)


@pytest.fixture(scope="module")
def authority() -> Iterator[Issuer]:
    with issuer() as found:
        yield found


@pytest.fixture(scope="module")
def url(
    package: ModuleType, authority: Issuer, tmp_path_factory: pytest.TempPathFactory
) -> Iterator[str]:
    env = environment(package, tmp_path_factory.mktemp("owned"), "owned_impls", IMPLEMENTATIONS)
    env = {k: v for k, v in env.items() if k != "TOOLGEN_MCP_TOKEN" and "_AUTH_" not in k}
    env["TOOLGEN_AUTH_ISSUER"] = authority.url
    with serving("owned", "owned_impls:registry", env, "--auth-audience", AUDIENCE) as found:
        yield found


def rpc(url: str, token: str, method: str, params: dict[str, Any]) -> dict[str, Any]:
    def post(url: str, headers: dict[str, str], **rest: Any) -> httpx.Response:
        return httpx.post(url, headers={**headers, "Authorization": f"Bearer {token}"}, **rest)

    return mcp_support.rpc(post, url, method, params)


def never(task_id: str) -> str:
    """An id of the same shape (the same expiry) that no task has."""
    return f"{'0' * 32}.{task_id.rpartition('.')[2]}"


def test_on_2025_11_25_another_subject_is_told_of_no_such_task(url: str, authority: Issuer) -> None:
    alice = authority.token(audience=AUDIENCE, sub="alice")
    bob = authority.token(audience=AUDIENCE, sub="bob")
    send = {"name": "send", "arguments": {"n": 30}, "task": {}}
    task_id = rpc(url, alice, "tools/call", send)["task"]["taskId"]
    theirs = rpc(url, bob, "tools/call", {**send, "arguments": {"n": 0}})["task"]["taskId"]
    unknown = never(task_id)
    for method in ("tasks/get", "tasks/result", "tasks/cancel"):
        foreign = rpc(url, bob, method, {"taskId": task_id})["error"]
        missing = rpc(url, bob, method, {"taskId": unknown})["error"]
        assert foreign == {**missing, "message": missing["message"].replace(unknown, task_id)}
        assert "never created" in foreign["message"], foreign
    assert [t["taskId"] for t in rpc(url, alice, "tasks/list", {})["tasks"]] == [task_id]
    assert [t["taskId"] for t in rpc(url, bob, "tasks/list", {})["tasks"]] == [theirs]
    assert rpc(url, alice, "tasks/get", {"taskId": task_id})["status"] == "working"
    assert rpc(url, alice, "tasks/cancel", {"taskId": task_id})["status"] == "cancelled"


def test_on_2026_07_28_another_subject_is_told_of_no_such_task(
    url: str, authority: Issuer, package: ModuleType
) -> None:
    client = import_module(f"{package.__name__}.client")
    sent = import_module(f"{package.__name__}._runtime.serving.remote_tasks").sent
    alice = authority.token(audience=AUDIENCE, sub="alice")
    bob = authority.token(audience=AUDIENCE, sub="bob")

    async def asked(remote: Any, method: str, params: dict[str, Any]) -> Any:
        try:
            return await sent(remote, method, params)
        except MCPError as error:
            return error.error.code, error.error.message

    async def run() -> tuple[Any, ...]:
        mine = partial(client.connect, url, token=alice)
        async with mine() as tools, client.connect(url, token=bob) as other:
            assert tools.remote.client.protocol_version == "2026-07-28"
            handle = await tools.start("send", n=30)
            task_id, unknown = handle.task_id, never(handle.task_id)
            told = []
            for method, params in (
                ("tasks/get", {}),
                ("tasks/cancel", {}),
                ("tasks/update", {"inputResponses": {"ask-1": {"action": "decline"}}}),
            ):
                foreign = await asked(other.remote, method, {"taskId": task_id, **params})
                missing = await asked(other.remote, method, {"taskId": unknown, **params})
                told.append((foreign, missing))
            listen = {"notifications": {"taskIds": [task_id]}}
            ended = await sent(other.remote, "subscriptions/listen", listen)  # nothing honoured
            status = (await handle.status()).status  # still running: the listen did not follow it
            cancelled = (await handle.cancel()).status
        return task_id, unknown, told, ended, status, cancelled

    task_id, unknown, told, ended, status, cancelled = asyncio.run(run())
    assert "io.modelcontextprotocol/subscriptionId" in ended["_meta"]
    for foreign, missing in told:
        assert foreign == (missing[0], missing[1].replace(unknown, task_id)), (foreign, missing)
        assert "never created" in foreign[1]
    assert (status, cancelled) == ("working", "cancelled")  # the other's cancel did nothing
