"""The built-in library served over MCP, end to end through the official SDK's client (a real
`ClientSession`), over stdio and over streamable HTTP (stateless, two worker processes, a bearer
token): the listing is the package's own `tool_definitions("mcp")`, calls and failures read as
they do in process, a cancelled call stops, and a request without the token is refused."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from collections.abc import AsyncIterator, Iterator
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any

import anyio
import httpx2
import pytest
from mcp import Client, StdioServerParameters
from mcp.client.streamable_http import streamable_http_client
from mcp.shared.exceptions import MCPError

from tests.support.generation import REPO
from tests.support.mcp_support import python_path, serving

pytestmark = pytest.mark.anyio
TOKEN = "a-token-for-the-tests"
BUILTIN = REPO / "generated"
# The command of the call the tests cancel: findable among the machine's processes, and this
# run's own (another test run on the same machine must not be mistaken for it).
MARK = f"sleep 987{os.getpid()}"


@pytest.fixture
def anyio_backend() -> str:
    return "asyncio"


@pytest.fixture(scope="module")
def workspace(tmp_path_factory: pytest.TempPathFactory) -> Path:
    root = tmp_path_factory.mktemp("workspace")
    (root / "notes.txt").write_text("one\ntwo\n", encoding="utf-8")
    return root


def _env(workspace: Path) -> dict[str, str]:
    # Every built-in tool registered (the browser starts Chromium only when called).
    return {
        **python_path(BUILTIN),
        "TOOLGEN_WORKSPACE": str(workspace),
        "TOOLGEN_ENABLE_PROCESSES": "1",
        "TOOLGEN_ENABLE_BROWSER": "1",
        "TOOLGEN_MCP_TOKEN": TOKEN,
    }


@pytest.fixture(scope="module")
def http_url(workspace: Path) -> Iterator[str]:
    with serving(
        "toolgen_builtin",
        "implementations:registry",
        _env(workspace),
        "--workers",
        "2",
        cwd=workspace,
    ) as url:
        yield url


@asynccontextmanager
async def _stdio(workspace: Path) -> AsyncIterator[Client]:
    server = StdioServerParameters(
        command=sys.executable,
        cwd=workspace,
        env=_env(workspace),
        args=[
            "-m",
            "toolgen_builtin",
            "serve",
            "--stdio",
            "--registry",
            "implementations:registry",
        ],
    )
    async with Client(server, read_timeout_seconds=60) as client:
        yield client


@asynccontextmanager
async def _http(url: str, token: str | None = TOKEN) -> AsyncIterator[Client]:
    headers = {"Authorization": f"Bearer {token}"} if token else {}
    async with httpx2.AsyncClient(headers=headers, timeout=60) as http:
        async with Client(
            streamable_http_client(url, http_client=http), read_timeout_seconds=60
        ) as client:
            yield client


@asynccontextmanager
async def _connected(transport: str, workspace: Path, http_url: str) -> AsyncIterator[Client]:
    if transport == "stdio":
        async with _stdio(workspace) as client:
            yield client
    else:
        async with _http(http_url) as client:
            yield client


@pytest.fixture(params=["stdio", "http"])
def transport(request: pytest.FixtureRequest) -> str:
    return str(request.param)


def _builtin_definitions() -> list[dict[str, Any]]:
    sys.path.insert(0, str(BUILTIN))
    try:
        import toolgen_builtin

        return toolgen_builtin.tool_definitions("mcp")
    finally:
        sys.path.remove(str(BUILTIN))


def _in_process(workspace: Path, name: str, arguments: dict[str, Any]) -> Any:
    """The result's value as the built-in registry gives it in this process."""
    sys.path.insert(0, str(BUILTIN))
    try:
        import implementations

        return implementations.registry(workspace).call(name, arguments).to_dict()["result"]
    finally:
        sys.path.remove(str(BUILTIN))


async def test_the_listing_is_the_packages_mcp_definitions(
    transport: str, workspace: Path, http_url: str
) -> None:
    async with _connected(transport, workspace, http_url) as client:
        listed = await client.list_tools()
    wire = [tool.model_dump(mode="json", by_alias=True, exclude_none=True) for tool in listed.tools]
    assert wire == _builtin_definitions()
    assert len(wire) == 20


async def test_a_call_answers_as_the_registry_does_in_process(
    transport: str, workspace: Path, http_url: str
) -> None:
    async with _connected(transport, workspace, http_url) as client:
        answer = await client.call_tool("read_file", {"path": "notes.txt"})
    assert not answer.is_error
    assert answer.structured_content == _in_process(workspace, "read_file", {"path": "notes.txt"})
    assert "1\tone" in answer.structured_content["content"]
    assert json.loads(answer.content[0].text) == answer.structured_content  # type: ignore[union-attr]


async def test_invalid_arguments_are_a_tool_error_the_model_can_act_on(
    transport: str, workspace: Path, http_url: str
) -> None:
    async with _connected(transport, workspace, http_url) as client:
        answer = await client.call_tool("read_file", {"pth": "notes.txt"})
        failed = await client.call_tool("read_file", {"path": "missing.txt"})
        with pytest.raises(MCPError, match="unknown tool 'read_fil'"):
            await client.call_tool("read_fil", {"path": "notes.txt"})
    text = answer.content[0].text  # type: ignore[union-attr]
    assert answer.is_error and 'pth: unknown key; did you mean "path"?' in text
    assert answer.meta is not None
    assert answer.meta["io.toolgen/failure"] == {"kind": "invalid_arguments", "retryable": False}
    assert (
        failed.is_error
        and failed.meta is not None
        and failed.meta["io.toolgen/failure"]["kind"] == "not_found"
    )


def _running(mark: str) -> bool:
    found = subprocess.run(["pgrep", "-f", mark], capture_output=True, text=True)
    return bool(found.stdout.strip())


async def test_a_cancelled_call_stops(transport: str, workspace: Path, http_url: str) -> None:
    assert not _running(MARK)
    async with _connected(transport, workspace, http_url) as client:
        with anyio.move_on_after(3):
            await client.call_tool("run_shell", {"command": MARK})
        with anyio.fail_after(10):  # the server cancels the call: the command is killed
            while _running(MARK):
                await anyio.sleep(0.1)
        after = await client.call_tool("summarize_numbers", {"values": [1, 2, 3]})
    assert not after.is_error


async def test_http_refuses_a_request_without_the_token(http_url: str) -> None:
    for headers in ({}, {"Authorization": "Bearer wrong"}):
        async with httpx2.AsyncClient(headers=headers) as http:
            response = await http.post(
                http_url, json={"jsonrpc": "2.0", "id": 1, "method": "tools/list"}
            )
        assert response.status_code == 401
        assert response.headers["www-authenticate"] == "Bearer"
    listed = None
    with pytest.raises(BaseExceptionGroup) as refused:  # the SDK's client: no session, no listing
        async with _http(http_url, token="wrong") as client:
            listed = await client.list_tools()
    assert listed is None and refused.group_contains(MCPError)
