"""The agent-framework glue (runtime/serving/frameworks.py, in a generated package's `_runtime`): a
registry's tools in the OpenAI Agents SDK, pydantic-ai and LangChain, each driven offline by the
framework's own scripted model. For each: the framework is given toolgen's definitions, a
valid call runs the implementation and its result reaches the model, an invalid call reaches
the model as toolgen's message without running anything, the registry's policies hold (a
deadline, injected values), and an image reaches the model as an image."""

from __future__ import annotations

import asyncio
import importlib
import socket
import sys
from collections.abc import Iterator
from types import ModuleType
from typing import Any

import pytest

from tests.support.runtime_support import generated_package, interface

PNG = b"\x89PNG\r\n\x1a\n" + bytes(24)  # what the runtime reads as an image/png
SPECS = {
    "tools": [
        {
            "name": "weather.current",
            "description": "Get the current weather for a city.",
            "parameters": {
                "type": "object",
                "properties": {
                    "location": {
                        "type": "string",
                        "minLength": 1,
                        "description": "City and country",
                    },
                    "unit": {
                        "type": "string",
                        "enum": ["celsius", "fahrenheit"],
                        "default": "celsius",
                        "description": "Temperature unit",
                    },
                    # A name LangChain's StructuredTool would take for its own (and drop).
                    "config": {
                        "type": "object",
                        "properties": {"detail": {"type": "boolean", "description": "More"}},
                        "description": "Options",
                    },
                },
                "required": ["location"],
            },
            "returns": {
                "type": "object",
                "properties": {"temperature": {"type": "number"}},
                "required": ["temperature"],
            },
        },
        {
            "name": "whoami",
            "description": "Says who the user is.",
            "parameters": {"type": "object"},
            "injected": {"user": {"type": "string"}},
            "returns": {"type": "object", "properties": {"user": {"type": "string"}}},
        },
        {
            "name": "wait",
            "description": "Waits.",
            "flags": ["parallel"],
            "parameters": {
                "type": "object",
                "properties": {"seconds": {"type": "number", "description": "How long"}},
                "required": ["seconds"],
            },
        },
        {
            "name": "chart",
            "description": "Draws a chart.",
            "content": ["image"],
            "parameters": {"type": "object"},
            "returns": {"type": "object", "properties": {"points": {"type": "integer"}}},
        },
        # A map: OpenAI's strict mode cannot express it, so toolgen exports the tool non-strict.
        {
            "name": "tag",
            "description": "Tags things.",
            "parameters": {
                "type": "object",
                "properties": {
                    "labels": {
                        "type": "object",
                        "additionalProperties": {"type": "string"},
                        "description": "Labels",
                    }
                },
            },
        },
    ]
}
DEADLINE_S = 0.2


@pytest.fixture(scope="module")
def package(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ModuleType]:
    yield from generated_package(tmp_path_factory, "frameworks_pkg", SPECS)


@pytest.fixture(scope="module")
def frameworks(package: ModuleType) -> ModuleType:
    return importlib.import_module(f"{package.__name__}._runtime.serving.frameworks")


@pytest.fixture(autouse=True)
def offline(monkeypatch: pytest.MonkeyPatch) -> None:
    """No framework reaches for the network (a model, tracing): every connection is refused."""

    def refuse(*args: Any, **kwargs: Any) -> Any:
        raise OSError("network access in a test")

    monkeypatch.setattr(socket.socket, "connect", refuse)
    monkeypatch.setattr(socket, "getaddrinfo", refuse)


class Tools:
    """One implementation of each tool, recording the arguments (and injected values) it ran with."""

    def __init__(self, package: ModuleType) -> None:
        self.runs: list[tuple[str, dict[str, Any]]] = []
        self.package = package

    def registry(self) -> Any:
        return self.package.build_registry(
            *(self.make(t["name"]) for t in SPECS["tools"]), timeout_s=DEADLINE_S
        )

    def make(self, name: str) -> Any:
        tools, package = self, self.package

        class Impl(interface(package, name)):  # type: ignore[misc]
            async def run(self, arguments: Any, *injected: Any) -> Any:
                sent = arguments.model_dump(mode="json", exclude_unset=True)
                tools.runs.append((name, {**sent, **{k: v for i in injected for k, v in i}}))
                if name == "weather.current":
                    return {"temperature": 21.5}
                if name == "whoami":
                    return {"user": injected[0].user}
                if name == "wait":
                    await asyncio.sleep(arguments.seconds)
                if name == "chart":
                    return package.Output({"points": 3}, content=[package.Image.of(PNG)])
                return {}

        return Impl()


@pytest.fixture
def tools(package: ModuleType) -> Tools:
    return Tools(package)


def parameters(package: ModuleType, provider: str, **options: Any) -> dict[str, Any]:
    """Each tool's parameters in toolgen's definitions, by provider-safe name."""
    found = {}
    for definition in package.tool_definitions(provider, **options):
        function = definition.get("function", definition)
        found[function["name"]] = function["parameters"]
    return found


def test_a_framework_missing_is_an_import_error_naming_what_to_install(
    frameworks: ModuleType, tools: Tools, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setitem(sys.modules, "agents", None)  # as if not installed
    with pytest.raises(
        ImportError, match="openai_agents_tools needs openai-agents: pip install openai-agents"
    ):
        frameworks.openai_agents_tools(tools.registry())


def test_names_pick_tools_by_canonical_or_provider_safe_name(
    frameworks: ModuleType, tools: Tools, package: ModuleType
) -> None:
    registry = tools.registry()
    picked = frameworks.langchain_tools(registry, ["weather.current", "whoami"])
    assert [t.name for t in picked] == ["weather_current", "whoami"]
    assert [
        t.name for t in frameworks.openai_agents_tools(registry, names=["weather_current"])
    ] == ["weather_current"]
    with pytest.raises(package.UnknownToolError, match="Did you mean .whoami."):
        frameworks.pydantic_ai_toolset(registry, ["whoamy"])
    # The package's own names for them, as the docs write them, are these functions.
    assert [t.name for t in package.langchain_tools(registry, ["whoami"])] == ["whoami"]
    assert [t.name for t in package.openai_agents_tools(registry, ["whoami"])] == ["whoami"]
    assert (
        type(package.pydantic_ai_toolset(registry, ["whoami"])).__name__
        == type(frameworks.pydantic_ai_toolset(registry, ["whoami"])).__name__
    )


# -- OpenAI Agents SDK -------------------------------------------------------------------------------


def agents_run(
    frameworks: ModuleType, registry: Any, turns: list[list[Any]], **options: Any
) -> dict[str, Any]:
    """Run an Agent on a scripted model making these calls, turn by turn; the outputs it was sent."""
    from agents import Agent, RunConfig, Runner
    from agents.testing import ScriptedModel, assistant_message

    model = ScriptedModel([*turns, [assistant_message("done")]])
    agent = Agent(
        name="host", model=model, tools=frameworks.openai_agents_tools(registry, **options)
    )
    result = asyncio.run(Runner.run(agent, "go", run_config=RunConfig(tracing_disabled=True)))
    assert result.final_output == "done"
    model.assert_complete()
    assert model.last_call is not None
    return {
        item["call_id"]: item["output"]
        for item in model.last_call.input
        if isinstance(item, dict) and item.get("type") == "function_call_output"
    }


def test_agents_sdk_tools_are_toolgens_strict_responses_definitions(
    frameworks: ModuleType, tools: Tools, package: ModuleType
) -> None:
    made = {t.name: t for t in frameworks.openai_agents_tools(tools.registry())}
    assert list(made) == [
        "chart",
        "tag",
        "wait",
        "weather_current",
        "whoami",
    ]  # provider-safe names
    for name, schema in parameters(package, "openai-responses", strict=True).items():
        assert made[name].params_json_schema == schema
    assert made["weather_current"].strict_json_schema and not made["tag"].strict_json_schema
    assert made["weather_current"].description == "Get the current weather for a city."


def test_agents_sdk_runs_valid_calls_and_shows_the_model_toolgens_message_for_invalid_ones(
    frameworks: ModuleType, tools: Tools
) -> None:
    from agents.testing import function_call

    outputs = agents_run(
        frameworks,
        tools.registry(),
        [
            [
                function_call("weather_current", {"loction": "Paris"}, call_id="bad"),
                function_call("weather_current", '{"location": 3}', call_id="wrong_type"),
            ],
            [
                function_call(
                    "weather_current",
                    {"location": "Paris", "config": {"detail": True}},
                    call_id="good",
                )
            ],
        ],
    )
    assert 'loction: unknown key; did you mean "location"?' in outputs["bad"]
    assert "location: expected a string" in outputs["wrong_type"]
    assert outputs["good"] == '{"temperature":21.5}'
    assert tools.runs == [("weather.current", {"location": "Paris", "config": {"detail": True}})]


def test_agents_sdk_calls_keep_the_registrys_deadline_and_injected_values(
    frameworks: ModuleType, tools: Tools
) -> None:
    from agents.testing import function_call

    outputs = agents_run(
        frameworks,
        tools.registry(),
        [
            [
                function_call("whoami", {}, call_id="who"),
                function_call("wait", {"seconds": 5}, call_id="slow"),
            ],
        ],
        injected={"user": "ada"},
    )
    assert outputs["who"] == '{"user":"ada"}'
    assert f"tool 'wait' did not finish within {DEADLINE_S:g} s" in outputs["slow"]


def test_agents_sdk_shows_the_model_an_image_as_an_image(
    frameworks: ModuleType, tools: Tools
) -> None:
    from agents.testing import function_call

    output = agents_run(frameworks, tools.registry(), [[function_call("chart", {}, call_id="c")]])[
        "c"
    ]
    assert output[0] == {"type": "input_text", "text": '{"points":3}'}
    assert output[1]["type"] == "input_image" and output[1]["image_url"].startswith(
        "data:image/png;base64,"
    )


# -- pydantic-ai -----------------------------------------------------------------------------------


def pydantic_ai_run(
    frameworks: ModuleType, registry: Any, turns: list[list[Any]], **options: Any
) -> tuple[dict[str, Any], Any]:
    """Run an Agent on a FunctionModel making these calls, turn by turn: the tool return parts
    the model was sent, by call id, and what the model was told of the tools."""
    from pydantic_ai import Agent
    from pydantic_ai.messages import ModelResponse, TextPart, ToolCallPart, ToolReturnPart
    from pydantic_ai.models.function import AgentInfo, FunctionModel

    returns: dict[str, Any] = {}
    told: list[AgentInfo] = []

    def respond(messages: list[Any], info: AgentInfo) -> ModelResponse:
        told.append(info)
        returns.update(
            {p.tool_call_id: p for m in messages for p in m.parts if isinstance(p, ToolReturnPart)}
        )
        if len(told) > len(turns):
            return ModelResponse(parts=[TextPart("done")])
        return ModelResponse(
            parts=[
                ToolCallPart(name, arguments, tool_call_id=call_id)
                for name, arguments, call_id in turns[len(told) - 1]
            ]
        )

    agent = Agent(
        FunctionModel(respond), toolsets=[frameworks.pydantic_ai_toolset(registry, **options)]
    )
    assert asyncio.run(agent.run("go")).output == "done"
    return returns, told[0]


def test_pydantic_ai_is_given_toolgens_schemas_and_runs_a_tool_not_flagged_parallel_alone(
    frameworks: ModuleType, tools: Tools, package: ModuleType
) -> None:
    _, told = pydantic_ai_run(frameworks, tools.registry(), [])
    given = {t.name: t for t in told.function_tools}
    assert {name: t.parameters_json_schema for name, t in given.items()} == parameters(
        package, "openai"
    )
    assert given["weather_current"].sequential and not given["wait"].sequential
    assert given["weather_current"].description == "Get the current weather for a city."


def test_pydantic_ai_retries_with_toolgens_message_and_runs_only_the_valid_call(
    frameworks: ModuleType, tools: Tools
) -> None:
    returns, _ = pydantic_ai_run(
        frameworks,
        tools.registry(),
        [
            [
                ("weather_current", '{"loction": "Paris"}', "bad"),
                ("weather_current", '{"location": 3}', "wrong_type"),
                ("weather_current", '["Paris"]', "array"),
                ("weather_current", '{"location": "Par', "cut"),
            ],
            [("weather_current", {"location": "Paris", "config": {"detail": True}}, "good")],
        ],
        max_retries=4,
    )
    retried = {k: p.content for k, p in returns.items() if p.outcome == "retried"}
    assert set(retried) == {"bad", "wrong_type", "array", "cut"}
    assert 'loction: unknown key; did you mean "location"?' in retried["bad"]
    assert "location: expected a string" in retried["wrong_type"]
    assert "arguments: expected an object, got an array" in retried["array"]
    assert "invalid JSON at line 1" in retried["cut"]  # toolgen's words, not pydantic's
    assert returns["good"].outcome == "success" and returns["good"].content == {"temperature": 21.5}
    assert tools.runs == [("weather.current", {"location": "Paris", "config": {"detail": True}})]


def test_pydantic_ai_calls_keep_the_registrys_deadline_and_injected_values(
    frameworks: ModuleType, tools: Tools
) -> None:
    returns, _ = pydantic_ai_run(
        frameworks,
        tools.registry(),
        [
            [("whoami", "{}", "who"), ("wait", {"seconds": 5}, "slow")],
        ],
        injected={"user": "ada"},
    )
    assert returns["who"].content == {"user": "ada"}
    assert returns["slow"].outcome == "failed"  # ToolFailed: told, not asked to fix its call
    assert f"tool 'wait' did not finish within {DEADLINE_S:g} s" in returns["slow"].content


def test_pydantic_ai_shows_the_model_an_image_as_binary_content(
    frameworks: ModuleType, tools: Tools
) -> None:
    from pydantic_ai import BinaryContent

    returns, _ = pydantic_ai_run(frameworks, tools.registry(), [[("chart", "{}", "c")]])
    text, image = returns["c"].content
    assert text == '{"points":3}'
    assert (
        isinstance(image, BinaryContent) and image.media_type == "image/png" and image.data == PNG
    )


# -- LangChain -------------------------------------------------------------------------------------


def langchain_run(
    frameworks: ModuleType,
    registry: Any,
    calls: list[dict[str, Any]],
    *,
    use_async: bool = False,
    **options: Any,
) -> dict[str, Any]:
    """A fake chat model's tool calls run as an agent runs them (`tool.invoke(tool_call)`):
    the ToolMessages that go back to the model, by call id."""
    from langchain_core.language_models.fake_chat_models import GenericFakeChatModel
    from langchain_core.messages import AIMessage

    model = GenericFakeChatModel(messages=iter([AIMessage(content="", tool_calls=calls)]))
    by_name = {t.name: t for t in frameworks.langchain_tools(registry, **options)}
    message = model.invoke("go")
    assert isinstance(message, AIMessage)

    async def all_async() -> list[Any]:
        return [await by_name[call["name"]].ainvoke(call) for call in message.tool_calls]

    if use_async:
        answers = asyncio.run(all_async())
    else:
        answers = [by_name[call["name"]].invoke(call) for call in message.tool_calls]
    return {answer.tool_call_id: answer for answer in answers}


def test_langchain_tools_bind_toolgens_schemas(
    frameworks: ModuleType, tools: Tools, package: ModuleType
) -> None:
    from langchain_core.utils.function_calling import convert_to_openai_tool

    made = frameworks.langchain_tools(tools.registry())
    expected = parameters(package, "openai")
    for tool in made:
        bound = convert_to_openai_tool(tool)["function"]
        assert (
            bound["parameters"] == expected[tool.name] and bound["description"] == tool.description
        )


@pytest.mark.parametrize("use_async", [False, True], ids=["invoke", "ainvoke"])
def test_langchain_runs_valid_calls_and_answers_invalid_ones_with_toolgens_message(
    frameworks: ModuleType, tools: Tools, use_async: bool
) -> None:
    answers = langchain_run(
        frameworks,
        tools.registry(),
        [
            {"name": "weather_current", "args": {"loction": "Paris"}, "id": "bad"},
            {"name": "weather_current", "args": {"location": 3}, "id": "wrong_type"},
            {
                "name": "weather_current",
                "args": {"location": "Paris", "config": {"detail": True}},
                "id": "good",
            },
        ],
        use_async=use_async,
    )
    assert answers["bad"].status == "error" and 'did you mean "location"?' in answers["bad"].content
    assert (
        answers["wrong_type"].status == "error"
        and "location: expected a string" in answers["wrong_type"].content
    )
    assert answers["good"].status == "success" and answers["good"].content == '{"temperature":21.5}'
    # `config` reached the tool: an argument of that name is not taken for LangChain's own.
    assert tools.runs == [("weather.current", {"location": "Paris", "config": {"detail": True}})]


@pytest.mark.parametrize("use_async", [False, True], ids=["invoke", "ainvoke"])
def test_langchain_calls_keep_the_registrys_deadline_and_injected_values(
    frameworks: ModuleType, tools: Tools, use_async: bool
) -> None:
    answers = langchain_run(
        frameworks,
        tools.registry(),
        [
            {"name": "whoami", "args": {}, "id": "who"},
            {"name": "wait", "args": {"seconds": 5}, "id": "slow"},
        ],
        use_async=use_async,
        injected={"user": "ada"},
    )
    assert answers["who"].content == '{"user":"ada"}'
    assert answers["slow"].status == "error"
    assert f"tool 'wait' did not finish within {DEADLINE_S:g} s" in answers["slow"].content


def test_langchain_shows_the_model_an_image_as_an_image_block(
    frameworks: ModuleType, tools: Tools
) -> None:
    answer = langchain_run(
        frameworks, tools.registry(), [{"name": "chart", "args": {}, "id": "c"}]
    )["c"]
    text, image = answer.content
    assert text == {"type": "text", "text": '{"points":3}'}
    assert image["type"] == "image" and image["mime_type"] == "image/png"
