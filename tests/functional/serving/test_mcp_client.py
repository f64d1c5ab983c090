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
    with pytest.raises(pkg.ToolCallError) as failed:  # out of `with`, in no exception group
        with pkg.client.connect_sync(_served(pkg, impl.registry)) as tools:
            tools.test_error_handling()
    assert type(failed.value) is pkg.ToolCallError and failed.value.kind == "always_fails"


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
    tools_specs = [spec("remote", echo, required=["name"]), spec("self", {}), spec("start", {})]
    with package(tmp_path, tools_specs) as pkg:
        client = importlib.import_module(f"{pkg.__name__}.client")
        server = importlib.import_module(f"{pkg.__name__}.server")

        remote, self_, start = (
            importlib.import_module(f"{pkg.__name__}.tools.{m}")
            for m in ("remote", "self", "start")
        )

        class Remote(remote.RemoteTool):  # type: ignore[name-defined]
            def run(self, arguments: Any) -> Any:
                return arguments.model_dump()

        class Self(self_.SelfTool):  # type: ignore[name-defined]
            def run(self, arguments: Any) -> Any:
                return "me"

        class Start(start.StartTool):  # type: ignore[name-defined]
            def run(self, arguments: Any) -> Any:
                return "go"

        async def scenario() -> None:
            registry = pkg.build_registry(Remote(), Self(), Start())
            served = server.mcp_server(registry, name="names")
            async with client.connect(served) as tools:
                echoed = await tools.remote_(name="n", arguments=2, self=True)
                assert echoed.root == {"name": "n", "arguments": 2, "self": True}
                assert (await tools.self()).root == "me"
                assert (await tools.start_()).root == "go"  # `start` starts a task
                assert (await tools.remote.call("remote", name="m")).value.root["name"] == "m"

        asyncio.run(scenario())


# -- failures: each reaches the caller as ToolCallError with its kind --------------------------------


def _hostile(answers: dict[str, Any], schemas: dict[str, Any] | None = None) -> Any:
    """An MCP server (the SDK's low-level one) whose tools answer `answers[name]`: a
    CallToolResult's JSON, or an async function of the call's arguments. `schemas`: the
    outputSchema it lists for a tool."""
    import mcp_types as types
    from mcp.server.lowlevel import Server

    async def list_tools(ctx: Any, params: Any) -> Any:
        listed = [
            types.Tool(
                name=name,
                input_schema={"type": "object"},
                output_schema=(schemas or {}).get(name),
            )
            for name in answers
        ]
        return types.ListToolsResult(tools=listed)

    async def call_tool(ctx: Any, params: Any) -> Any:
        answer = answers[params.name]
        if callable(answer):
            answer = await answer(params.arguments or {})
        return types.CallToolResult.model_validate(answer)

    return Server("hostile", on_list_tools=list_tools, on_call_tool=call_tool)


def _text(text: str) -> dict[str, Any]:
    return {"content": [{"type": "text", "text": text}]}


def test_a_hostile_servers_answers_fail_as_invalid_result_and_the_connection_stays_usable(
    pkg: ModuleType,
) -> None:
    """What breaks `returns` (with or without the server's outputSchema), the size the caller
    set, JSON nesting, the spec's `content`, or base64: `invalid_result`, never an SDK
    exception nor a RecursionError, and the next call still works."""
    png = "iVBORw0KGgo="
    answers: dict[str, Any] = {
        "add_numbers": _text("[" * 3000),  # as JSON: nested past the limit, under the size
        "count_slowly": {"content": [], "structuredContent": {"counted": "many"}},
        "test_simple_text": _text("x" * 5000),
        "test_image_content": {
            "content": [{"type": "audio", "data": png, "mimeType": "audio/wav"}]
        },
        "test_audio_content": {
            "content": [{"type": "audio", "data": "not base64!", "mimeType": "audio/wav"}]
        },
        "json_schema_2020_12_tool": _text("{}"),
    }
    schemas = {"count_slowly": {"type": "object", "properties": {"counted": {"type": "integer"}}}}

    async def scenario() -> dict[str, Any]:
        kinds: dict[str, Any] = {}
        async with pkg.client.connect(_hostile(answers, schemas), max_result_bytes=4096) as tools:
            for name, arguments in [
                ("add_numbers", {"a": 1, "b": 2}),
                ("count_slowly", {"to": 1}),
                ("test_simple_text", {}),
                ("test_image_content", {}),
                ("test_audio_content", {}),
            ]:
                result = await tools.remote.call(name, arguments)
                assert result.failure is not None, name
                kinds[name] = (result.failure.kind, result.failure.message)
                with pytest.raises(pkg.ToolCallError) as failed:
                    await tools.remote.value(name, object, arguments)
                assert failed.value.kind == "invalid_result", name
            after = await tools.remote.call("json_schema_2020_12_tool", {})
            kinds["after"] = (after.failure, after.ok)
        return kinds

    kinds = asyncio.run(scenario())
    assert {name: kind for name, (kind, _) in kinds.items() if name != "after"} == dict.fromkeys(
        ["add_numbers", "count_slowly", "test_simple_text", "test_image_content"]
        + ["test_audio_content"],
        "invalid_result",
    )
    assert "nested more than 64 levels deep" in kinds["add_numbers"][1]
    assert "counted" in kinds["count_slowly"][1]
    assert "the limit is 4096" in kinds["test_simple_text"][1]
    assert "audio content; the spec's `content` declares image" in kinds["test_image_content"][1]
    assert "base64" in kinds["test_audio_content"][1]
    assert kinds["after"] == (None, True)


def test_arguments_refused_before_sending_are_a_tool_call_error_too(
    pkg: ModuleType, impl: ModuleType
) -> None:
    sent = Sent()

    async def scenario() -> None:
        async with pkg.client.connect(_served(pkg, impl.registry, sent)) as tools:
            with pytest.raises(pkg.ToolCallError) as refused:
                await tools.count_slowly(to=5000)
            assert isinstance(refused.value, pkg.ToolArgumentsError)
            assert refused.value.kind == "invalid_arguments"
            assert refused.value.issues[0].path == "to"
            whole = await tools.remote.call("count_slowly", {"to": 5000})
            assert whole.failure is not None and whole.failure.kind == "invalid_arguments"
            with pytest.raises(
                TypeError,
                match=r"test_elicitation takes its arguments as keywords \(message=\.\.\.\)",
            ):
                await tools.test_elicitation("Favourite colour?")

    asyncio.run(scenario())
    assert sent.calls == []


def test_a_timeout_then_the_next_call_and_an_error_leaving_connect_unwrapped(
    pkg: ModuleType,
) -> None:
    async def slow(arguments: dict[str, Any]) -> Any:
        await asyncio.sleep(float(arguments.get("a", 0)))
        return {"content": [], "structuredContent": 1}

    async def scenario() -> None:
        async with pkg.client.connect(_hostile({"add_numbers": slow}), timeout_s=0.3) as tools:
            with pytest.raises(pkg.ToolCallError) as late:
                await tools.add_numbers(a=5, b=0)
            assert late.value.kind == "timeout"
            assert (await tools.add_numbers(a=0, b=0)).root == 1
            raise FileNotFoundError("the caller's own")  # an OSError, as a lost connection's

    with pytest.raises(FileNotFoundError) as raised:  # not an exception group holding it
        asyncio.run(scenario())
    assert type(raised.value) is FileNotFoundError and raised.value.args == ("the caller's own",)


def test_a_server_that_dies_during_a_call_is_unavailable(pkg: ModuleType, tmp_path: Path) -> None:
    from tests.support.mcp_support import free_port

    script = tmp_path / "dies.py"
    script.write_text(
        "import os\n"
        "import anyio\n"
        "from mcp.server.lowlevel import Server\n"
        "from mcp.server.stdio import stdio_server\n"
        "async def call(ctx, params):\n"
        "    os._exit(3)\n"
        "server = Server('dies', on_call_tool=call)\n"
        "async def main():\n"
        "    async with stdio_server() as (read, write):\n"
        "        await server.run(read, write, server.create_initialization_options())\n"
        "anyio.run(main)\n"
    )

    async def scenario() -> None:
        async with pkg.client.connect([sys.executable, str(script)], timeout_s=30) as tools:
            with pytest.raises(pkg.ToolCallError) as lost:
                await tools.add_numbers(a=1, b=2)
            assert lost.value.kind == "unavailable"
            gone = await tools.remote.call("add_numbers", {"a": 1, "b": 2})
            assert gone.failure is not None and gone.failure.kind == "unavailable"

    async def nobody() -> None:
        async with pkg.client.connect(f"http://127.0.0.1:{free_port()}/mcp", timeout_s=30):
            raise AssertionError("connected to a port nothing listens on")

    asyncio.run(scenario())
    with pytest.raises(pkg.ToolCallError) as refused:
        asyncio.run(nobody())
    assert refused.value.kind == "unavailable"


def test_a_missing_token_is_unauthorized_with_the_servers_reason(pkg: ModuleType) -> None:
    from tests.support.mcp_support import serving

    package = Path(pkg.__file__).parents[1]
    env = {**python_path(package, IMPLEMENTATIONS), "TEST_TOKEN": "open sesame"}

    async def scenario(url: str, token: str | None) -> Any:
        async with pkg.client.connect(url, token=token) as tools:
            return await tools.add_numbers(a=1, b=2)

    options = ("--token-env", "TEST_TOKEN")
    with serving(PACKAGE, "conformance_impl:registry", env, *options) as url:
        for token in (None, "wrong"):
            with pytest.raises(pkg.ToolCallError) as refused:
                asyncio.run(scenario(url, token))
            assert refused.value.kind == "unauthorized"
            assert "401: a bearer token is required" in refused.value.message
            assert str(refused.value).startswith("unauthorized: the server refused the request")
        assert asyncio.run(scenario(url, "open sesame")).root == 3


def test_partial_data_and_warnings_reach_the_caller(tmp_path: Path) -> None:
    """The server's warnings (here the tool's deprecation, which only the server tells) and
    the failure's partial data ride in the result's `_meta`; the client's own warnings (a
    deprecated parameter it was given) join them."""
    from mcp import Client

    from tests.support._generated import package, spec

    tools_specs = [
        spec(
            "export",
            {"count": {"type": "integer"}, "format": {"type": "string", "deprecated": True}},
            errors={"quota": {"description": "Out of quota."}},
            deprecated={"reason": "Exports move to the archive.", "replacement": "archive"},
        )
    ]
    with package(tmp_path, tools_specs) as pkg:
        client = importlib.import_module(f"{pkg.__name__}.client")
        server = importlib.import_module(f"{pkg.__name__}.server")
        export = importlib.import_module(f"{pkg.__name__}.tools.export")

        class Export(export.ExportTool):  # type: ignore[name-defined]
            def run(self, arguments: Any) -> Any:
                raise pkg.ToolError("quota", "out of quota", partial_data={"done": 2})

        async def scenario() -> None:
            served = server.mcp_server(pkg.build_registry(Export()), name="partial")
            async with Client(served) as sdk:
                answer = await sdk.call_tool("export", {"count": 3})
            assert answer.meta is not None
            assert answer.meta["io.toolgen/failure"]["partial_data"] == {"done": 2}
            [deprecation] = answer.meta["io.toolgen/warnings"]
            assert "tool 'export' is deprecated: Exports move to the archive" in deprecation
            async with client.connect(served) as tools:
                result = await tools.remote.call("export", {"count": 3, "format": "csv"})
                assert result.failure is not None
                assert result.failure.kind == "quota" and "out of quota" in result.failure.message
                assert result.failure.partial_data == {"done": 2}
                assert any("format" in w for w in result.warnings), result.warnings
                assert deprecation in result.warnings
                with pytest.raises(pkg.ToolCallError) as failed:
                    await tools.export(count=3, format="csv")
                assert failed.value.partial_data == {"done": 2} and failed.value.warnings

        asyncio.run(scenario())


@pytest.mark.parametrize("protocol", ["legacy", "auto"])
def test_a_foreign_servers_progress_reaches_the_stream(tmp_path: Path, protocol: str) -> None:
    """A server written with the SDK alone sends standard progress notifications: `stream`
    yields each as a Progress, before the result."""
    from tests.support._generated import package, spec

    count = spec("count", {"steps": {"type": "integer"}}, required=["steps"])
    count["returns"] = {"type": "string"}
    server = [sys.executable, str(Path(__file__).parents[2] / "data" / "mcp_progress_server.py")]
    with package(tmp_path, [count]) as pkg:
        client = importlib.import_module(f"{pkg.__name__}.client")

        async def scenario() -> list[Any]:
            async with client.connect(server, protocol=protocol) as tools:
                return [event async for event in tools.remote.stream("count", {"steps": 3})]

        *progress, final = asyncio.run(scenario())
        assert progress == [pkg.Progress(i, 3, f"step {i}") for i in (1, 2, 3)]
    assert final.result.value.root == "counted to 3"


DUMP_IMPL = """
from typing import Any
import {package}
from {package}.tools import dump


class Dump(dump.DumpTool):
    async def run(self, arguments: Any) -> Any:
        yield {package}.Progress(1, 2, "half")
        yield {{"text": "x" * arguments.size}}


registry = {package}.build_registry(Dump())
"""


def test_a_streamed_result_over_a_mebibyte_reaches_the_generated_client(tmp_path: Path) -> None:
    """Progress before the result: the answer is an SSE stream, its result one event larger
    than the SDK's 1 MiB cap on one, which the generated client raises to its own limit."""
    from tests.support._generated import package, spec
    from tests.support.mcp_support import serving

    dump = spec("dump", {"size": {"type": "integer"}}, required=["size"], flags=["streaming"])
    dump["returns"] = {"type": "object", "properties": {"text": {"type": "string"}}}
    with package(tmp_path, [dump]) as pkg:
        client = importlib.import_module(f"{pkg.__name__}.client")
        impl = tmp_path / "dump_impl.py"
        impl.write_text(DUMP_IMPL.format(package=pkg.__name__), encoding="utf-8")

        async def scenario(url: str) -> list[Any]:
            async with client.connect(url, protocol="legacy") as tools:
                return [event async for event in tools.remote.stream("dump", {"size": 1_500_000})]

        env = python_path(tmp_path / "out", tmp_path)
        with serving(pkg.__name__, "dump_impl:registry", env) as url:
            progress, final = asyncio.run(scenario(url))
        assert progress == pkg.Progress(1, 2, "half")
    assert final.result.ok, final.result.failure
    assert len(final.result.value.text) == 1_500_000


@pytest.mark.parametrize("mode", ["legacy", "auto"])
def test_a_result_after_progress_over_the_sdks_event_limit_is_a_tool_error(
    tmp_path: Path, mode: str
) -> None:
    """The SDK's own client (handshake era) refuses one SSE event over 1 MiB, and a result sent
    after progress can only be one: the server answers it as a tool error naming the size and
    the limit, which the model reads, instead of a result the client drops (an MCPError for a
    broken stream); the same call without progress, or smaller, reaches it whole."""
    import httpx2
    from mcp import Client
    from mcp.client.streamable_http import DEFAULT_MAX_SSE_EVENT_SIZE, streamable_http_client

    from tests.support._generated import package, spec
    from tests.support.mcp_support import serving

    dump = spec("dump", {"size": {"type": "integer"}}, required=["size"], flags=["streaming"])
    dump["returns"] = {"type": "object", "properties": {"text": {"type": "string"}}}
    with package(tmp_path, [dump]) as pkg:
        impl = tmp_path / "dump_impl.py"
        impl.write_text(DUMP_IMPL.format(package=pkg.__name__), encoding="utf-8")
        progress: list[float] = []

        async def noted(done: float, total: float | None, message: str | None) -> None:
            progress.append(done)

        async def scenario(url: str) -> list[Any]:
            async with httpx2.AsyncClient(timeout=60) as http:
                transport = streamable_http_client(url, http_client=http)
                async with Client(transport, read_timeout_seconds=60, mode=mode) as sdk:
                    return [
                        await sdk.call_tool("dump", {"size": size}, progress_callback=noted)
                        for size in (1_500_000, 400_000)
                    ] + [await sdk.call_tool("dump", {"size": 1_500_000})]

        env = python_path(tmp_path / "out", tmp_path)
        with serving(pkg.__name__, "dump_impl:registry", env) as url:
            large, small, alone = asyncio.run(scenario(url))
    assert progress == [1.0, 1.0]
    assert large.is_error and large.meta is not None
    assert large.meta["io.toolgen/failure"] == {"kind": "result_too_large", "retryable": False}
    message = large.content[0].text  # type: ignore[union-attr]
    limit = f"{DEFAULT_MAX_SSE_EVENT_SIZE:,}"
    assert message.startswith("the result is 3,000,") and f"over the {limit} bytes" in message
    assert not small.is_error and len(small.structured_content["text"]) == 400_000
    assert not alone.is_error and len(alone.structured_content["text"]) == 1_500_000


def test_over_http_a_result_past_the_size_is_cut_off_as_it_is_read(pkg: ModuleType) -> None:
    """Streamable HTTP: the response is counted as it arrives and dropped past the limit
    (not read whole, then measured)."""
    from tests.support.mcp_support import serving

    package = Path(pkg.__file__).parents[1]

    async def scenario(url: str) -> tuple[Any, Any]:
        async with pkg.client.connect(url, max_result_bytes=500) as tools:
            large = await tools.remote.call("test_multiple_content_types", {})
            return large.failure, await tools.add_numbers(a=1, b=2)

    env = python_path(package, IMPLEMENTATIONS)
    with serving(PACKAGE, "conformance_impl:registry", env) as url:
        failure, after = asyncio.run(scenario(url))
    assert failure.kind == "invalid_result"
    assert failure.message == "the server's result was refused: larger than the limit of 500 bytes"
    assert after.root == 3


# A server written by hand (no SDK, so nothing checks what it sends): JSON-RPC lines on stdio,
# a tool whose answer holds a content block of a type MCP does not define.
RAW_SERVER = """
import json, sys
for line in sys.stdin:
    message = json.loads(line)
    if "id" not in message:
        continue
    method, params = message.get("method"), message.get("params") or {}
    result = {
        "initialize": {
            "protocolVersion": params.get("protocolVersion"),
            "capabilities": {"tools": {}},
            "serverInfo": {"name": "raw", "version": "1"},
        },
        "tools/list": {"tools": [{"name": "test_image_content", "inputSchema": {"type": "object"}}]},
        "tools/call": {"content": [{"type": "hologram", "data": "AAAA"}]},
    }.get(method)
    if result is None:
        answer = {"id": message["id"], "error": {"code": -32601, "message": "unknown"}}
    else:
        answer = {"id": message["id"], "result": result}
    print(json.dumps({"jsonrpc": "2.0", **answer}), flush=True)
"""


def test_a_content_type_mcp_does_not_define_is_invalid_result(
    pkg: ModuleType, tmp_path: Path
) -> None:
    script = tmp_path / "raw.py"
    script.write_text(RAW_SERVER)

    async def scenario() -> Any:
        command = [sys.executable, str(script)]
        async with pkg.client.connect(command, protocol="legacy", timeout_s=30) as tools:
            with pytest.raises(pkg.ToolCallError) as refused:
                await tools.test_image_content()
            return refused.value

    refused = asyncio.run(scenario())
    assert refused.kind == "invalid_result" and "hologram" in refused.message
