"""The built-in library served over MCP, end to end through the official SDK's client (a real
`ClientSession`), over stdio and over streamable HTTP (stateless, two worker processes, a bearer
token): the listing is the package's own `tool_definitions("mcp")`, calls and failures read as
they do in process, a cancelled call stops, and a request without the token is refused.

Then hostile peers, against two small generated packages (`hostile`): the refusals to start,
DNS-rebinding checks on loopback, tools that raise, exit or interrupt, the server's log of
failures, merged registries, idle and slow clients, and the listing's cache hint."""

from __future__ import annotations

import json
import os
import resource
import socket
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
from mcp.client.stdio import stdio_client
from mcp.client.streamable_http import streamable_http_client
from mcp.shared.exceptions import MCPError

from tests.support.generation import REPO
from tests.support.mcp_support import free_port, python_path, serving

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
async def _http(url: str, token: str | None = TOKEN, mode: str = "auto") -> AsyncIterator[Client]:
    headers = {"Authorization": f"Bearer {token}"} if token else {}
    async with httpx2.AsyncClient(headers=headers, timeout=60) as http:
        async with Client(
            streamable_http_client(url, http_client=http), read_timeout_seconds=60, mode=mode
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


@pytest.mark.parametrize("mode", ["legacy", "auto"])
async def test_a_result_over_a_mebibyte_reaches_the_sdks_client(
    workspace: Path, http_url: str, mode: str
) -> None:
    """The SDK's client refuses an SSE event over 1 MiB: a handshake-era call that sent
    nothing before its result is answered in JSON, as 2026-07-28 calls are."""
    lines = "".join(f"{n:06d} {'x' * 92}\n" for n in range(12_000))  # 1.2 MB
    (workspace / "large.txt").write_text(lines, encoding="utf-8")
    async with _http(http_url, mode=mode) as client:
        answer = await client.call_tool("read_file", {"path": "large.txt"})
    assert not answer.is_error, answer.content
    assert answer.structured_content is not None
    content = answer.structured_content["content"]
    assert len(content) > 1_200_000 and content.endswith(f"011999 {'x' * 92}")


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


# -- hostile peers: a package whose tools fail every way, and a second one to merge with it ---------

HOSTILE_IMPL = """
import asyncio
import os
import sys
from typing import Any

import hostile_a
import hostile_b
from hostile_a.tools import crash, exit_async, interrupt, leave
from hostile_b.tools import echo, nap


class Crash(crash.CrashTool):
    def run(self, arguments: Any) -> Any:
        raise RuntimeError("the inner detail " + os.environ["HOSTILE_MARK"])


class Leave(leave.LeaveTool):
    def run(self, arguments: Any) -> Any:
        sys.exit(3)


class Interrupt(interrupt.InterruptTool):
    def run(self, arguments: Any) -> Any:
        raise KeyboardInterrupt


class ExitAsync(exit_async.ExitAsyncTool):
    async def run(self, arguments: Any) -> Any:
        await asyncio.sleep(0)
        raise SystemExit(4)


class Echo(echo.EchoTool):
    def run(self, arguments: Any) -> Any:
        return {"said": arguments.text}


class Nap(nap.NapTool):
    async def run(self, arguments: Any) -> Any:
        try:
            await asyncio.sleep(arguments.seconds)
        except asyncio.CancelledError:  # said, for a test to wait for instead of the nap's end
            open(arguments.marker + ".cancelled", "w").close()
            raise
        with open(arguments.marker, "w") as mark:  # only when not cancelled
            mark.write("slept")
        return {"said": "slept"}


a = hostile_a.build_registry(Crash(), Leave(), Interrupt(), ExitAsync())
b = hostile_b.build_registry(Echo(), Nap())
merged_ab = a + b
merged_ba = b + a
"""
HOSTILE_TOOLS = {"crash", "leave", "interrupt", "exit_async"}
MERGED_TOOLS = HOSTILE_TOOLS | {"echo", "nap"}


@pytest.fixture(scope="module")
def hostile(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """Two generated packages (hostile_a: tools that fail, exit or interrupt; hostile_b: echo,
    and nap, which sleeps, then writes a marker) and `hostile_impl`, their registries alone and merged in either order."""
    from tests.support._generated import spec, write_specs
    from tests.support.generation import generate

    root = tmp_path_factory.mktemp("hostile")
    failing = [spec(name, description=f"The tool {name} for tests.") for name in HOSTILE_TOOLS]
    echo = spec("echo", {"text": {"type": "string"}}, required=["text"])
    echo["returns"] = {"type": "object", "properties": {"said": {"type": "string"}}}
    nap = spec(
        "nap",
        {"seconds": {"type": "number"}, "marker": {"type": "string"}},
        required=["seconds", "marker"],
    )
    nap["returns"] = echo["returns"]
    generate(write_specs(root / "a", sorted(failing, key=lambda s: s["name"])), root, "hostile_a")
    generate(write_specs(root / "b", [echo, nap]), root, "hostile_b")
    (root / "hostile_impl.py").write_text(HOSTILE_IMPL, encoding="utf-8")
    return root


def _hostile_env(root: Path, **extra: str) -> dict[str, str]:
    return {**python_path(root), "HOSTILE_MARK": "s3cr3t-mark", "TOOLGEN_MCP_TOKEN": TOKEN, **extra}


def _port(url: str) -> int:
    return int(url.split(":")[2].split("/")[0])


# What a raw tools/list request sends (the SDK's client sends the same).
RAW_HEADERS = {"Authorization": f"Bearer {TOKEN}", "Accept": "application/json, text/event-stream"}
LISTING = {"jsonrpc": "2.0", "id": 1, "method": "tools/list"}


def _serve(root: Path, *options: str, **extra: str) -> subprocess.CompletedProcess[str]:
    """`python -m hostile_a serve ...` run to its end (30 s at most: one that serves is killed)."""
    argv = [sys.executable, "-m", "hostile_a", "serve", "--registry", "hostile_impl:a", *options]
    try:
        return subprocess.run(
            argv,
            env=_hostile_env(root, **extra),
            stdin=subprocess.DEVNULL,
            capture_output=True,
            text=True,
            timeout=30,
        )
    except subprocess.TimeoutExpired as served:
        raise AssertionError(f"the server started: {served.stderr!r}") from None


@pytest.mark.parametrize(
    ("options", "name", "value"),
    [
        (("--http", "--port", "0"), "TOOLGEN_MCP_TOKEN", ""),
        (("--stdio",), "TOOLGEN_MCP_TOKEN", "  "),
        (("--http", "--port", "0", "--token-env", "MY_TOKEN"), "MY_TOKEN", ""),
    ],
)
def test_an_empty_token_refuses_to_start(
    hostile: Path, options: tuple[str, ...], name: str, value: str
) -> None:
    done = _serve(hostile, *options, **{name: value})
    assert done.returncode == 2
    assert done.stderr.strip().count("\n") == 0  # one line
    assert f"{name} is set but empty" in done.stderr


@pytest.mark.parametrize(
    ("name", "value"),
    [("TOOLGEN_SERVE_HEADERS_S", "soon"), ("TOOLGEN_SERVE_BODY_S", "0")],
)
def test_a_deadline_set_but_not_seconds_refuses_to_start(
    hostile: Path, name: str, value: str
) -> None:
    # Refused before anything is served: 192.0.2.1 (TEST-NET-1) is on no interface, so a server
    # that went on would fail to bind, not serve.
    done = _serve(hostile, "--http", "--host", "192.0.2.1", "--port", "1", **{name: value})
    assert done.returncode == 2
    assert done.stderr.strip().count("\n") == 0  # one line, no traceback
    assert done.stderr.startswith(f"python -m hostile_a serve: {name}={value!r} is not a number")
    assert "set it to a positive number" in done.stderr


def test_serving_beyond_loopback_needs_a_token(hostile: Path) -> None:
    # 192.0.2.1 (TEST-NET-1) is on no interface: a server that went on would fail to bind.
    unset = {"TOOLGEN_MCP_TOKEN": "x"}
    argv = [sys.executable, "-m", "hostile_a", "serve", "--registry", "hostile_impl:a", "--http"]
    env = {k: v for k, v in _hostile_env(hostile, **unset).items() if k != "TOOLGEN_MCP_TOKEN"}
    where = ["--host", "192.0.2.1", "--port", str(free_port())]
    refused = subprocess.run([*argv, *where], env=env, capture_output=True, text=True, timeout=30)
    assert refused.returncode == 2
    assert "--host 192.0.2.1 is not a loopback address: set TOOLGEN_MCP_TOKEN" in refused.stderr
    insecure = [*argv, *where, "--insecure-no-auth"]
    tried = subprocess.run(insecure, env=env, capture_output=True, text=True, timeout=30)
    assert "loopback" not in tried.stderr  # it went on (to fail binding an address it lacks)


@pytest.mark.parametrize("address", ["127.0.0.1", "127.0.0.2", "127.1.2.3", "::1", "localhost"])
def test_every_loopback_address_is_loopback(address: str) -> None:
    from toolgen.runtime.serving.server import loopback

    assert loopback(address) and loopback("::ffff:127.0.0.1") and loopback("[::1]")
    assert not loopback("10.0.0.1") and not loopback("0.0.0.0") and not loopback("example.com")


async def test_a_loopback_server_refuses_another_host_or_origin(hostile: Path) -> None:
    env = _hostile_env(hostile)
    with serving("hostile_a", "hostile_impl:a", env, cwd=hostile, host="127.0.0.2") as url:
        port = _port(url)
        async with httpx2.AsyncClient(headers=RAW_HEADERS) as http:
            rebound = await http.post(url, json=LISTING, headers={"Host": f"evil.example:{port}"})
            foreign = await http.post(url, json=LISTING, headers={"Origin": "http://evil.example"})
            local = await http.post(
                url, json=LISTING, headers={"Origin": f"http://127.0.0.2:{port}"}
            )
    assert rebound.status_code == 421
    assert foreign.status_code == 403
    assert local.status_code not in (403, 421)


@asynccontextmanager
async def _hostile_client(
    transport: str, root: Path, registry: str, log: Path
) -> AsyncIterator[Client]:
    env = _hostile_env(root)
    if transport == "http":
        with serving("hostile_a", registry, env, cwd=root, log=log) as url:
            async with _http(url) as client:
                yield client
        return
    argv = ["-m", "hostile_a", "serve", "--stdio", "--registry", registry]
    server = StdioServerParameters(command=sys.executable, cwd=root, env=env, args=argv)
    with log.open("w") as errors:
        async with Client(stdio_client(server, errlog=errors), read_timeout_seconds=60) as client:
            yield client


async def test_a_tool_that_exits_fails_its_call_only(
    transport: str, hostile: Path, tmp_path: Path
) -> None:
    log = tmp_path / "server.log"
    async with _hostile_client(transport, hostile, "hostile_impl:merged_ab", log) as client:
        answers = {name: await client.call_tool(name, {}) for name in sorted(HOSTILE_TOOLS)}
        after = await client.call_tool("echo", {"text": "still here"})
    for name, answer in answers.items():
        assert answer.is_error, name
        assert answer.meta is not None and answer.meta["io.toolgen/failure"]["kind"] == "internal"
        assert answer.content[0].text == f"tool '{name}' failed unexpectedly"  # type: ignore[union-attr]
    assert not after.is_error and after.structured_content == {"said": "still here"}


async def test_a_failed_call_is_logged_on_the_server_only(
    transport: str, hostile: Path, tmp_path: Path
) -> None:
    log = tmp_path / "server.log"
    async with _hostile_client(transport, hostile, "hostile_impl:a", log) as client:
        answer = await client.call_tool("crash", {})
    text = answer.content[0].text  # type: ignore[union-attr]
    assert answer.is_error and "s3cr3t-mark" not in text and "Traceback" not in text
    written = log.read_text(encoding="utf-8")
    assert "ERROR" in written and "crash failed (internal)" in written
    assert "Traceback (most recent call last)" in written
    assert "RuntimeError: the inner detail s3cr3t-mark" in written


@pytest.mark.parametrize("registry", ["hostile_impl:merged_ab", "hostile_impl:merged_ba"])
async def test_a_merged_registry_serves_the_tools_of_both_packages(
    transport: str, hostile: Path, tmp_path: Path, registry: str
) -> None:
    log = tmp_path / "server.log"
    async with _hostile_client(transport, hostile, registry, log) as client:
        listed = await client.list_tools()
        echoed = await client.call_tool("echo", {"text": "hi"})
        crashed = await client.call_tool("crash", {})
        again = await client.call_tool("echo", {"text": "again"})
    assert {tool.name for tool in listed.tools} == MERGED_TOOLS
    assert echoed.structured_content == {"said": "hi"}
    assert crashed.is_error and again.structured_content == {"said": "again"}


async def test_idle_connections_do_not_starve_a_request(hostile: Path, tmp_path: Path) -> None:
    """1,100 sockets that never send a byte, against a server that may hold 1,024 files: a
    request that comes after them is answered (each waits 10 s at most)."""
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    if hard != resource.RLIM_INFINITY and hard < 1400:
        pytest.skip(f"this process may hold {hard} files, and needs 1,400")
    resource.setrlimit(resource.RLIMIT_NOFILE, (max(soft, 1400), hard))
    idle: list[socket.socket] = []
    env = _hostile_env(hostile)
    try:
        with serving("hostile_a", "hostile_impl:b", env, cwd=hostile, descriptors=1024) as url:
            port = _port(url)
            for _ in range(1100):
                idle.append(socket.create_connection(("127.0.0.1", port), timeout=10))
            async with httpx2.AsyncClient(headers=RAW_HEADERS, timeout=10) as http:
                answered = await http.post(url, json=LISTING)
            assert answered.status_code == 200
            assert "echo" in answered.text
    finally:
        for held in idle:
            held.close()
        resource.setrlimit(resource.RLIMIT_NOFILE, (soft, hard))


async def test_past_the_cap_requests_under_way_go_on_and_a_new_one_is_answered_503(
    hostile: Path, tmp_path: Path
) -> None:
    """A server that may hold 80 files holds 16 connections (64 kept for the rest): with 16
    calls under way, none of them is closed for a 17th connection, whose request is answered
    503; the 16 calls end with their results."""
    env = _hostile_env(hostile)

    def nap(n: int) -> dict[str, Any]:
        params = {"name": "nap", "arguments": {"seconds": 8, "marker": str(tmp_path / str(n))}}
        return {"jsonrpc": "2.0", "id": n, "method": "tools/call", "params": params}

    with serving("hostile_a", "hostile_impl:b", env, cwd=hostile, descriptors=80) as url:
        limits = httpx2.Limits(max_connections=40)
        async with httpx2.AsyncClient(headers=RAW_HEADERS, timeout=30, limits=limits) as http:
            answers: dict[int, httpx2.Response] = {}

            async def call(n: int) -> None:
                answers[n] = await http.post(url, json=nap(n))

            async with anyio.create_task_group() as calls:
                for n in range(16):
                    calls.start_soon(call, n)
                # Once every call is under way (each on a connection of its own), a request
                # on a new connection is refused: asked until it is, while the calls nap.
                statuses: list[int] = []
                with anyio.move_on_after(5):
                    while 503 not in statuses:
                        await anyio.sleep(0.2)
                        async with httpx2.AsyncClient(headers=RAW_HEADERS, timeout=30) as late:
                            statuses.append((await late.post(url, json=LISTING)).status_code)
    assert statuses[-1] == 503 and set(statuses) <= {200, 503}, statuses
    assert sorted(answers) == list(range(16))
    assert all('"said":"slept"' in answer.text for answer in answers.values())


@pytest.mark.parametrize(
    ("transport", "options", "mode"),
    [
        ("stdio", (), "legacy"),
        ("stdio", (), "auto"),
        ("http", (), "auto"),  # stateless, 2026-07-28
        ("http", (), "legacy"),  # stateless, the handshake
        ("http", ("--stateful",), "legacy"),  # a session, the handshake
        ("http", ("--workers", "2"), "legacy"),  # the cancellation may reach the other worker
    ],
    ids=["stdio-legacy", "stdio", "http", "http-legacy", "stateful-legacy", "workers-legacy"],
)
async def test_a_cancelled_call_is_cancelled_on_the_server(
    hostile: Path, tmp_path: Path, transport: str, options: tuple[str, ...], mode: str
) -> None:
    """The client gives up three calls of nap (3 s, then it writes its marker): the server
    cancels each (the nap says so as it is cancelled), so no marker is written, and the
    connection goes on."""
    markers = [tmp_path / f"slept-{n}" for n in range(3)]
    env = _hostile_env(hostile)

    async def cancel_then_echo(client: Client) -> Any:
        for marker in markers:
            with anyio.move_on_after(0.7):
                await client.call_tool("nap", {"seconds": 3, "marker": str(marker)})
        # Each nap ended by its cancellation (else, past 3 s, it would have written its marker).
        with anyio.move_on_after(30):
            while not all(Path(f"{marker}.cancelled").exists() for marker in markers):
                await anyio.sleep(0.05)
        return await client.call_tool("echo", {"text": "after"})

    if transport == "http":
        with serving("hostile_a", "hostile_impl:b", env, *options, cwd=hostile) as url:
            async with _http(url, mode=mode) as client:
                after = await cancel_then_echo(client)
    else:
        argv = ["-m", "hostile_a", "serve", "--stdio", "--registry", "hostile_impl:b"]
        server = StdioServerParameters(command=sys.executable, cwd=hostile, env=env, args=argv)
        async with Client(server, read_timeout_seconds=60, mode=mode) as client:
            after = await cancel_then_echo(client)
    assert [marker.name for marker in markers if marker.exists()] == []
    assert all(Path(f"{marker}.cancelled").exists() for marker in markers)
    assert after.structured_content == {"said": "after"}


async def test_a_cancellation_names_only_the_calls_of_its_own_client(
    hostile: Path, tmp_path: Path
) -> None:
    """On a stateless server, each handshake-era client's answers carry a tag of its own: a
    cancellation under another tag, or none, leaves a call running; under its own, it stops
    it. A GET with a tag is refused (the server opens no stream of its own)."""
    env = _hostile_env(hostile)

    def nap(request_id: int, marker: Path) -> dict[str, Any]:
        arguments = {"seconds": 2, "marker": str(marker)}
        params = {"name": "nap", "arguments": arguments}
        return {"jsonrpc": "2.0", "id": request_id, "method": "tools/call", "params": params}

    def cancel(request_id: int) -> dict[str, Any]:
        params = {"requestId": request_id}
        return {"jsonrpc": "2.0", "method": "notifications/cancelled", "params": params}

    with serving("hostile_a", "hostile_impl:b", env, cwd=hostile) as url:
        async with httpx2.AsyncClient(headers=RAW_HEADERS, timeout=30) as http:
            first, second = [(await http.post(url, json=_initialize(1))) for _ in range(2)]
            mine, theirs = (r.headers["mcp-session-id"] for r in (first, second))
            refused = await http.get(url, headers={"mcp-session-id": mine})
            answers: list[httpx2.Response] = []

            async def call(request_id: int, marker: Path) -> None:
                tagged = {"mcp-session-id": mine}
                answers.append(await http.post(url, json=nap(request_id, marker), headers=tagged))

            async with anyio.create_task_group() as calls:
                calls.start_soon(call, 7, tmp_path / "kept")
                await anyio.sleep(0.5)
                await http.post(url, json=cancel(7), headers={"mcp-session-id": theirs})
                await http.post(url, json=cancel(7))
            async with anyio.create_task_group() as calls:
                calls.start_soon(call, 8, tmp_path / "cancelled")
                await anyio.sleep(0.5)
                await http.post(url, json=cancel(8), headers={"mcp-session-id": mine})
    assert mine != theirs and len(mine) >= 16
    assert refused.status_code == 405
    assert (tmp_path / "kept").exists() and '"said":"slept"' in answers[0].text
    assert not (tmp_path / "cancelled").exists()
    assert "the client cancelled the call" in answers[1].text


async def test_a_cancellation_reaches_a_call_on_another_server_through_the_fleets_store(
    hostile: Path, tmp_path: Path
) -> None:
    """Two servers on one Redis (two machines behind a load balancer): a handshake-era call
    runs on one, its cancellation reaches the other, which holds no such call and writes it
    into the store, where the running call finds it: the call stops before its nap ends.
    Without a shared store the same cancellation leaves the call running."""
    from tests.support.redis_support import redis_server

    env = _hostile_env(hostile)

    def nap(marker: Path) -> dict[str, Any]:
        params = {"name": "nap", "arguments": {"seconds": 4, "marker": str(marker)}}
        return {"jsonrpc": "2.0", "id": 7, "method": "tools/call", "params": params}

    cancel = {"jsonrpc": "2.0", "method": "notifications/cancelled", "params": {"requestId": 7}}

    async def cancelled_elsewhere(one: str, other: str, marker: Path) -> str:
        async with httpx2.AsyncClient(headers=RAW_HEADERS, timeout=30) as http:
            tag = (await http.post(one, json=_initialize(1))).headers["mcp-session-id"]
            tagged = {"mcp-session-id": tag}
            answers: list[httpx2.Response] = []

            async def call() -> None:
                answers.append(await http.post(one, json=nap(marker), headers=tagged))

            async with anyio.create_task_group() as calls:
                calls.start_soon(call)
                await anyio.sleep(1)
                told = await http.post(other, json=cancel, headers=tagged)
                assert told.status_code == 202, told.text
        return answers[0].text

    (tmp_path / "redis").mkdir()
    with redis_server(tmp_path / "redis") as redis:
        store = ("--store", redis.url)
        with serving("hostile_a", "hostile_impl:b", env, *store, cwd=hostile) as one:
            with serving("hostile_a", "hostile_impl:b", env, *store, cwd=hostile) as other:
                answer = await cancelled_elsewhere(one, other, tmp_path / "fleet")
    assert "the client cancelled the call" in answer
    assert not (tmp_path / "fleet").exists()
    with serving("hostile_a", "hostile_impl:b", env, cwd=hostile) as one:
        with serving("hostile_a", "hostile_impl:b", env, cwd=hostile) as other:
            alone = await cancelled_elsewhere(one, other, tmp_path / "alone")
    assert (tmp_path / "alone").exists() and '"said":"slept"' in alone


def _initialize(request_id: int) -> dict[str, Any]:
    params = {
        "protocolVersion": "2025-06-18",
        "capabilities": {},
        "clientInfo": {"name": "raw", "version": "1"},
    }
    return {"jsonrpc": "2.0", "id": request_id, "method": "initialize", "params": params}


async def test_the_listing_carries_the_cache_hint_it_is_given(hostile: Path) -> None:
    env = _hostile_env(hostile)
    with serving("hostile_a", "hostile_impl:b", env, "--list-ttl-ms", "60000", cwd=hostile) as url:
        async with _http(url) as client:
            listed = await client.list_tools()
    assert listed.ttl_ms == 60000 and listed.cache_scope == "private"
    assert [tool.name for tool in listed.tools] == ["echo", "nap"]


def test_a_client_slow_to_send_its_request_is_cut_off(hostile: Path) -> None:
    """Headers that never end, a body that never ends: the server closes each connection at
    its deadline, the body's still open when the headers' is closed (deadlines of 1 s and 5 s
    set here; their defaults, 10 s and 30 s, are tests/unit/runtime/test_slow_clients.py's)."""
    env = _hostile_env(hostile, TOOLGEN_SERVE_HEADERS_S="1", TOOLGEN_SERVE_BODY_S="5")
    with serving("hostile_a", "hostile_impl:b", env, cwd=hostile) as url:
        port = _port(url)
        head = f"POST /mcp HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\n".encode()
        headers = socket.create_connection(("127.0.0.1", port), timeout=60)
        body = socket.create_connection(("127.0.0.1", port), timeout=60)
        with headers, body:
            headers.sendall(head)  # and never the blank line that ends them
            rest = f"Authorization: Bearer {TOKEN}\r\nContent-Type: application/json\r\n"
            body.sendall(head + rest.encode() + b"Content-Length: 100\r\n\r\n{")
            assert headers.recv(1024) == b""  # closed, with nothing said
            body.setblocking(False)
            with pytest.raises(BlockingIOError):  # open still, nothing said: its own deadline
                body.recv(4096)
            body.setblocking(True)
            said = body.recv(4096)
            assert said == b"", said


def test_a_kept_connection_left_idle_is_closed(hostile: Path) -> None:
    """A kept-alive connection serves a second request at once, and is closed once it idles
    (KEEP_ALIVE_S, 5 s; waited for up to 30 s)."""
    env = _hostile_env(hostile)
    with serving("hostile_a", "hostile_impl:b", env, cwd=hostile) as url:
        port = _port(url)
        body = json.dumps(LISTING).encode()
        head = (
            f"POST /mcp HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nAuthorization: Bearer {TOKEN}\r\n"
            "Content-Type: application/json\r\nAccept: application/json, text/event-stream\r\n"
            f"Content-Length: {len(body)}\r\n\r\n"
        ).encode()
        with socket.create_connection(("127.0.0.1", port), timeout=30) as kept:
            answers = []
            for _ in range(2):  # one connection, two requests in turn
                kept.sendall(head + body)
                answers.append(_one_answer(kept))
            idle_closed = kept.recv(1024)
    assert all(answer.startswith(b"HTTP/1.1 200") for answer in answers), answers
    assert all(b'"echo"' in answer for answer in answers)
    assert idle_closed == b""


def _one_answer(sock: socket.socket) -> bytes:
    """One HTTP answer read off `sock`: its head and a body of Content-Length bytes."""
    data = b""
    while b"\r\n\r\n" not in data:
        data += sock.recv(65536)
    head, _, rest = data.partition(b"\r\n\r\n")
    length = next(
        int(line.split(b":")[1])
        for line in head.split(b"\r\n")
        if line.lower().startswith(b"content-length:")
    )
    while len(rest) < length:
        rest += sock.recv(65536)
    return head + b"\r\n\r\n" + rest


async def test_a_host_bug_fails_that_call_only(hostile: Path) -> None:
    """An `inject` that raises (in process, the SDK's client on the server object): the call is
    an internal failure, and the next call is answered."""
    sys.path.insert(0, str(hostile))
    try:
        import hostile_b
        from hostile_b.server import mcp_server
        from hostile_impl import b  # type: ignore[import-not-found]

        calls = iter([True, False])

        def inject(tool: str, headers: Any) -> None:
            if next(calls):
                raise LookupError("a bug of the host's")

        server = mcp_server(b, name=hostile_b.__name__, inject=inject)
        async with Client(server) as client:
            failed = await client.call_tool("echo", {"text": "one"})
            answered = await client.call_tool("echo", {"text": "two"})
    finally:
        sys.path.remove(str(hostile))
    assert failed.is_error and failed.meta is not None
    assert failed.meta["io.toolgen/failure"]["kind"] == "internal"
    assert failed.content[0].text == "tool 'echo' failed unexpectedly"  # type: ignore[union-attr]
    assert answered.structured_content == {"said": "two"}
