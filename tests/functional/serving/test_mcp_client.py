"""The typed client a generated package holds, against the same package served: in this process
(the SDK's in-memory transport) and over stdio in both protocol eras (the handshake revisions,
and 2026-07-28 with its input-required results)."""

from __future__ import annotations

import asyncio
import importlib
import json
import shutil
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest

from tests.support.mcp_support import IMPLEMENTATIONS, PACKAGE, conformance_package, python_path


@pytest.fixture(scope="module")
def pkg(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ModuleType]:
    out = conformance_package(tmp_path_factory.mktemp("client"))
    sys.path[:0] = [str(out), str(IMPLEMENTATIONS)]
    try:
        package = importlib.import_module(PACKAGE)
        importlib.import_module(f"{PACKAGE}.client")
        yield package
    finally:
        sys.path.remove(str(out))
        sys.path.remove(str(IMPLEMENTATIONS))
        for name in [m for m in sys.modules if m.split(".")[0] in (PACKAGE, "conformance_impl")]:
            del sys.modules[name]


@pytest.fixture(scope="module")
def impl(pkg: ModuleType) -> ModuleType:
    return importlib.import_module("conformance_impl")


class Sent:
    """The server's own record of the `tools/call` requests that reached it (an `mcp` server
    middleware): what the client sent, not what it meant to."""

    def __init__(self) -> None:
        self.calls: list[str] = []

    async def __call__(self, ctx: Any, call_next: Any) -> Any:
        if ctx.method == "tools/call":
            self.calls.append(ctx.params["name"])
        return await call_next(ctx)


def _served(pkg: ModuleType, registry: Any, sent: Sent | None = None) -> Any:
    server = importlib.import_module(f"{PACKAGE}.server").mcp_server(registry, name=PACKAGE)
    if sent is not None:
        server.middleware.append(sent)
    return server


def test_methods_return_typed_results_and_invalid_arguments_are_never_sent(
    pkg: ModuleType, impl: ModuleType
) -> None:
    sent = Sent()
    tools_module = pkg.tools

    async def scenario() -> None:
        async with pkg.client.connect(_served(pkg, impl.registry, sent)) as tools:
            total = await tools.add_numbers(a=2, b=3.5)
            assert (
                isinstance(total, tools_module.add_numbers.AddNumbersResult) and total.root == 5.5
            )
            whole = await tools.remote.call("add_numbers", {"a": 1, "b": 2})
            assert (whole.value.root, whole.metadata) == (
                3,
                "Exact for integers; floats may round.",
            )
            typed = tools_module.count_slowly.CountSlowlyArguments(to=2)
            assert await tools.count_slowly(typed) == tools_module.count_slowly.CountSlowlyResult(
                counted=2
            )
            with pytest.raises(pkg.ToolArgumentsError, match="to: .*1000"):
                await tools.count_slowly(to=5000)
            with pytest.raises(pkg.ToolArgumentsError, match='too: unknown key; did you mean "to"'):
                await tools.count_slowly(too=3)
            with pytest.raises(TypeError, match="not both"):
                await tools.count_slowly(typed, to=3)

    asyncio.run(scenario())
    assert sent.calls == ["add_numbers", "add_numbers", "count_slowly"]


def test_failures_raise_with_their_kind_and_content_comes_back_as_blocks(
    pkg: ModuleType, impl: ModuleType
) -> None:
    async def scenario() -> None:
        async with pkg.client.connect(_served(pkg, impl.registry)) as tools:
            with pytest.raises(pkg.ToolCallError) as failed:
                await tools.test_error_handling()
            assert failed.value.kind == "always_fails"
            assert "This tool intentionally returns an error for testing" in failed.value.message
            mixed = await tools.remote.call("test_multiple_content_types", {})
            assert mixed.ok and [type(b).__name__ for b in mixed.content] == ["Image", "Document"]
            assert mixed.content[0] == pkg.Image.of(impl.png())
            assert mixed.content[1].data == b'{"test":"data","value":123}'

    asyncio.run(scenario())


def test_the_sync_facade(pkg: ModuleType, impl: ModuleType) -> None:
    with pkg.client.connect_sync(_served(pkg, impl.registry)) as tools:
        assert tools.add_numbers(a=1, b=2).root == 3
        events = list(tools.remote.stream("count_slowly", {"to": 2}))
        with pytest.raises(pkg.ToolArgumentsError):
            tools.add_numbers(a="one", b=2)
    assert events[-1].result.value.counted == 2


def test_a_call_approved_during_it_streams_its_events_and_logs(
    pkg: ModuleType, impl: ModuleType
) -> None:
    """What a call does once the user approved it reaches the client as a first run's would."""
    from mcp import Client

    logged: list[str] = []

    async def log(params: Any) -> None:
        logged.append(params.data)

    async def yes(context: Any, params: Any) -> Any:
        from mcp_types import ElicitResult

        return ElicitResult(action="accept")

    async def scenario(protocol: str) -> list[Any]:
        remote_module = importlib.import_module(f"{PACKAGE}._runtime.serving.remote")
        served = _served(pkg, impl.registry)
        holder: list[Any] = []

        async def on_message(message: Any) -> None:
            await holder[0].on_message(message)

        async with Client(
            served,
            mode=protocol,
            elicitation_callback=yes,
            logging_callback=log,  # type: ignore[arg-type]
            log_level="info",
            message_handler=on_message,
        ) as client:
            holder.append(
                remote_module.Remote(client, {"export_notes": pkg.tool_info("export_notes")})
            )
            return [event async for event in holder[0].stream("export_notes")]

    impl.LOG.setLevel("INFO")  # the host's choice of what its tools log (serve --log-level)
    try:
        for protocol in ("legacy", "2026-07-28"):
            logged.clear()
            events = asyncio.run(scenario(protocol))
            assert [(e.done, e.message) for e in events[:-1]] == [
                (1, "note 1 of 2"),
                (2, "note 2 of 2"),
            ], protocol
            assert events[-1].result.value.exported == 2 and logged == ["exporting"], protocol
    finally:
        impl.LOG.setLevel("NOTSET")


def _stdio(package: Path) -> list[str]:
    return [
        sys.executable,
        "-m",
        PACKAGE,
        "serve",
        "--stdio",
        "--registry",
        "conformance_impl:registry",
    ]


@pytest.mark.parametrize("protocol", ["legacy", "auto"])
def test_over_stdio_approvals_questions_streams_and_cancellation(
    pkg: ModuleType, protocol: str, tmp_path: Path
) -> None:
    """`legacy`: the server asks during the call (elicitation requests); `auto` (2026-07-28):
    it answers input-required, with the signed suspended call as its request state."""
    package = Path(pkg.__file__).parents[1]
    marks = tmp_path / "marks"
    env = {**python_path(package, IMPLEMENTATIONS), "COUNT_MARKS": str(marks)}
    asked: list[str] = []

    async def approve(prompt: str) -> bool:
        asked.append(prompt)
        return "n1" in prompt

    async def answer(question: str) -> str | None:
        asked.append(question)
        return "blue"

    async def scenario() -> None:
        async with pkg.client.connect(
            _stdio(package), env=env, protocol=protocol, approve=approve, answer=answer
        ) as tools:
            assert tools.remote.client.protocol_version == (
                "2025-11-25" if protocol == "legacy" else "2026-07-28"
            )
            assert (await tools.remove_note(id="n1")).removed == "n1"
            with pytest.raises(pkg.ToolCallError) as rejected:
                await tools.remove_note(id="n2")
            assert rejected.value.kind == "rejected"
            assert (
                await tools.test_elicitation(message="Favourite colour?")
            ).root == "User response: 'blue'"
            events = [event async for event in tools.remote.stream("count_slowly", {"to": 3})]
            assert [e.text for e in events[:-1]] == ["1 ", "2 ", "3 "]
            assert events[-1].result.value.counted == 3
            with pytest.raises(TimeoutError):
                await asyncio.wait_for(tools.count_slowly(to=1000), 0.5)
            for _ in range(100):  # the server was told, and cancelled the call
                if marks.exists():
                    break
                await asyncio.sleep(0.05)
            assert marks.read_text() == "cancelled\n"
        async with pkg.client.connect(_stdio(package), env=env, protocol=protocol) as unasked:
            with pytest.raises(pkg.ToolCallError, match="cannot ask the user") as refused:
                await unasked.remove_note(id="n1")
            assert refused.value.kind == "suspended"

    asyncio.run(scenario())
    assert asked == [
        'Allow tool \'remove_note\' to run with {"id": "n1"}?',
        'Allow tool \'remove_note\' to run with {"id": "n2"}?',
        "Favourite colour?",
    ]


def test_any_server_with_the_same_secret_resumes_a_suspended_call(pkg: ModuleType) -> None:
    """2026-07-28 over stateless HTTP: the retry that carries the user's answer may reach another
    worker, or another machine; the signed request state is the whole call, and one key
    (TOOLGEN_SECRET) is shared. A server with another key refuses the state; the server that
    resumed it refuses it sent back again, and one whose signature is not hex as tampered."""
    from mcp import Client
    from mcp.shared.exceptions import MCPError
    from mcp_types import INVALID_PARAMS, ElicitResult, InputRequiredResult

    from tests.support.mcp_support import serving

    package = Path(pkg.__file__).parents[1]
    env = python_path(package, IMPLEMENTATIONS)

    async def never(context: Any, params: Any) -> Any:
        raise AssertionError("the test answers by hand")

    async def scenario(first: str, second: str, other: str) -> None:
        async with Client(first, elicitation_callback=never) as client:
            asked = await client.session.call_tool(
                "remove_note", {"id": "n1"}, allow_input_required=True
            )
        assert isinstance(asked, InputRequiredResult) and asked.request_state is not None
        assert asked.input_requests is not None and list(asked.input_requests) == ["toolgen"]
        accepted = {"toolgen": ElicitResult(action="accept")}
        async with Client(second, elicitation_callback=never) as client:
            done = await client.session.call_tool(
                "remove_note",
                {"id": "n1"},
                input_responses=accepted,
                request_state=asked.request_state,
                allow_input_required=True,
            )
        assert done.structured_content == {"removed": "n1"}  # type: ignore[union-attr]
        state = json.loads(asked.request_state)
        non_hex = json.dumps({**state, "signature": "é" * 64})
        async with Client(second, elicitation_callback=never) as client:
            for sent, refusal in (
                (asked.request_state, "already used"),  # sent back twice: refused, not run
                (non_hex, "signature does not match"),  # not an internal error
            ):
                with pytest.raises(MCPError, match=refusal) as refused:
                    await client.session.call_tool(
                        "remove_note",
                        {"id": "n1"},
                        input_responses=accepted,
                        request_state=sent,
                        allow_input_required=True,
                    )
                assert refused.value.error.code == INVALID_PARAMS
        async with Client(other, elicitation_callback=never) as client:
            with pytest.raises(MCPError, match="signature does not match"):
                await client.session.call_tool(
                    "remove_note",
                    {"id": "n1"},
                    input_responses=accepted,
                    request_state=asked.request_state,
                    allow_input_required=True,
                )

    shared = {**env, "TOOLGEN_SECRET": "one key for every worker"}
    with (
        serving(PACKAGE, "conformance_impl:registry", shared) as first,
        serving(PACKAGE, "conformance_impl:registry", shared) as second,
        serving(
            PACKAGE, "conformance_impl:registry", {**env, "TOOLGEN_SECRET": "another key, as long"}
        ) as other,
    ):
        asyncio.run(scenario(first, second, other))


@pytest.mark.skipif(
    shutil.which("npx") is None, reason="npx is not on PATH (Node.js runs the reference server)"
)
def test_a_real_servers_tools_imported_then_called_through_the_generated_client(
    tmp_path: Path,
) -> None:
    """`toolgen import --from mcp-server` on the MCP reference server, `generate`, then the
    generated client calls that server's tools and reads their results as the specs' types."""
    from tests.support.generation import generate
    from tests.support.mcp_support import EVERYTHING

    done = subprocess.run(
        [
            sys.executable,
            "-m",
            "toolgen",
            "import",
            "--from",
            "mcp-server",
            EVERYTHING,
            "--out",
            str(tmp_path / "specs"),
            "--timeout",
            "120",
        ],
        capture_output=True,
        text=True,
        timeout=180,
    )
    assert done.returncode == 0, done.stderr
    generate(tmp_path / "specs", tmp_path / "out", "everything")
    sys.path.insert(0, str(tmp_path / "out"))
    try:
        client = importlib.import_module("everything.client")
        package = importlib.import_module("everything")

        async def scenario() -> None:
            async with client.connect(EVERYTHING, timeout_s=120) as tools:
                assert (await tools.echo(message="hi")).root == "Echo: hi"
                assert (await tools.get_sum(a=2, b=3)).root == "The sum of 2 and 3 is 5."
                weather = await tools.get_structured_content(location="Chicago")
                assert type(weather).__name__ == "GetStructuredContentResult"
                assert isinstance(weather.temperature, float) and isinstance(
                    weather.conditions, str
                )
                image = await tools.remote.call("get-tiny-image", {})
                assert image.ok and [type(b).__name__ for b in image.content] == ["Image"]
                assert image.content[0].mime_type == "image/png"
                with pytest.raises(package.ToolArgumentsError, match='expected one of "New York"'):
                    await tools.get_structured_content(location="Paris")

        asyncio.run(scenario())
    finally:
        sys.path.remove(str(tmp_path / "out"))
        for name in [m for m in sys.modules if m.split(".")[0] == "everything"]:
            del sys.modules[name]


def test_a_host_injects_values_from_each_requests_headers(
    pkg: ModuleType, impl: ModuleType
) -> None:
    """`mcp_server(registry, inject=...)`: the host's function gets the tool and the HTTP
    request's headers, and its values reach the implementation (never the model's schema)."""
    import threading

    import httpx2
    import uvicorn
    from mcp import Client
    from mcp.client.streamable_http import streamable_http_client

    from tests.support.mcp_support import free_port

    (listed,) = [d for d in pkg.tool_definitions("mcp") if d["name"] == "whoami"]
    assert listed["inputSchema"]["properties"] == {}  # the model never sees `user`
    port = free_port()
    server = uvicorn.Server(
        uvicorn.Config(impl.headers_app(), host="127.0.0.1", port=port, log_level="warning")
    )
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()

    async def caller(user: str | None) -> Any:
        headers = {"X-User": user} if user else {}
        async with httpx2.AsyncClient(headers=headers) as http:
            async with Client(
                streamable_http_client(f"http://127.0.0.1:{port}/mcp", http_client=http)
            ) as client:
                return (await client.call_tool("whoami", {})).structured_content

    try:
        for _ in range(100):
            if server.started:
                break
            threading.Event().wait(0.05)
        assert asyncio.run(caller("ada")) == {"user": "ada"}
        assert asyncio.run(caller(None)) == {"user": "nobody"}
    finally:
        server.should_exit = True
        thread.join(timeout=10)


def test_any_tool_and_parameter_name_is_a_method_and_a_keyword(tmp_path: Path) -> None:
    """The client's methods take the tool's parameters as keywords whatever they are called
    (`name`, `arguments`, `self`), and a tool called `remote` does not hide the connection."""
    from tests.support._generated import package, spec

    echo = {
        "name": {"type": "string"},
        "arguments": {"type": "integer"},
        "self": {"type": "boolean"},
    }
    tools_specs = [spec("remote", echo, required=["name"]), spec("self", {})]
    with package(tmp_path, tools_specs) as pkg:
        client = importlib.import_module(f"{pkg.__name__}.client")
        server = importlib.import_module(f"{pkg.__name__}.server")

        remote, self_ = (
            importlib.import_module(f"{pkg.__name__}.tools.{m}") for m in ("remote", "self")
        )

        class Remote(remote.RemoteTool):  # type: ignore[name-defined]
            def run(self, arguments: Any) -> Any:
                return arguments.model_dump()

        class Self(self_.SelfTool):  # type: ignore[name-defined]
            def run(self, arguments: Any) -> Any:
                return "me"

        async def scenario() -> None:
            served = server.mcp_server(pkg.build_registry(Remote(), Self()), name="names")
            async with client.connect(served) as tools:
                echoed = await tools.remote_(name="n", arguments=2, self=True)
                assert echoed.root == {"name": "n", "arguments": 2, "self": True}
                assert (await tools.self()).root == "me"
                assert (await tools.remote.call("remote", name="m")).value.root["name"] == "m"

        asyncio.run(scenario())
