"""Round trips per provider: a tool call built with that provider's SDK types (a response as the
SDK parses it) is dispatched to an implementation, and the answer, including a validation
error and an implementation failure, is what the same SDK takes as the next request's input.

The generated package is the `providers` golden case (tests/golden/cases/providers/expected).
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from types import ModuleType
from typing import Any

import jsonschema
import pytest
from pydantic import TypeAdapter

from tests.support.generation import case_output, imported
from tests.support.provider_checks import check_mcp_result, typed_dict_problems

GOOD = {"shape": {"kind": "circle", "radius": 2.0}, "unit": "m"}
BAD = {
    "shape": {"kind": "circle", "radus": 2.0},
    "unit": "m",
}  # a misspelt key: the validator's message
BOOM = {"shape": {"kind": "rectangle", "width": 1, "height": 2}, "unit": None, "label": "boom"}


@pytest.fixture(scope="module")
def package() -> Iterator[ModuleType]:
    with imported(case_output("providers"), "providers") as package:
        yield package


@pytest.fixture(scope="module")
def registry(package: ModuleType) -> Any:
    import importlib

    shape = importlib.import_module("providers.tools.shape_area")
    order = importlib.import_module("providers.tools.order_create")

    class ShapeArea(shape.ShapeAreaTool):  # type: ignore[misc, name-defined]
        def run(self, arguments: Any) -> Any:
            if arguments.label == "boom":
                raise RuntimeError("the disk is on fire")  # internals: never shown to a model
            s = arguments.shape
            area = 3.14159 * s.radius**2 if s.kind == "circle" else s.width * s.height
            return shape.ShapeAreaResult(area=area)

    class OrderCreate(order.OrderCreateTool):  # type: ignore[misc, name-defined]
        async def run(
            self, arguments: Any
        ) -> Any:  # async implementations go through the same path
            return {"order_id": f"o-{len(arguments.items)}", "total": 9.5}

    return package.build_registry(ShapeArea(), OrderCreate())


def _assert_three(texts: list[str]) -> None:
    """The ok, invalid and failing calls, in order, as a model reads them."""
    assert json.loads(texts[0]) == {"area": pytest.approx(12.566, abs=1e-3)}
    assert "shape.area" in texts[1] and "radus" in texts[1] and "radius" in texts[1], texts[1]
    assert "failed unexpectedly" in texts[2] and "fire" not in texts[2], texts[2]


# -- OpenAI Chat Completions ----------------------------------------------------------------------


def test_openai_chat_round_trip(registry: Any, package: ModuleType) -> None:
    from openai.types.chat import (
        ChatCompletion,
        ChatCompletionMessageParam,
        ChatCompletionToolMessageParam,
    )

    calls = [
        {
            "id": f"call_{i}",
            "type": "function",
            "function": {"name": "shape_area", "arguments": json.dumps(a)},
        }
        for i, a in enumerate((GOOD, BAD, BOOM))
    ]
    completion = ChatCompletion.model_validate(
        {
            "id": "chatcmpl-1",
            "object": "chat.completion",
            "created": 1,
            "model": "gpt-test",
            "choices": [
                {
                    "index": 0,
                    "finish_reason": "tool_calls",
                    "logprobs": None,
                    "message": {"role": "assistant", "content": None, "tool_calls": calls},
                }
            ],
        }
    )
    answers = package.respond(registry, "openai", completion.choices[0].message.tool_calls)
    for answer in answers:
        assert typed_dict_problems(ChatCompletionToolMessageParam, answer) == []
    assert [a["tool_call_id"] for a in answers] == ["call_0", "call_1", "call_2"]
    _assert_three([a["content"] for a in answers])
    # the whole next request: the assistant turn, then the tool answers
    history = [completion.choices[0].message.model_dump(exclude_none=True), *answers]
    TypeAdapter(list[ChatCompletionMessageParam]).validate_python(history)
    # a whole ChatCompletion is read too
    assert package.respond(registry, "openai", completion) == answers


def test_openai_strict_call_with_nulls_for_optional_fields(
    registry: Any, package: ModuleType
) -> None:
    """Under strict, optional fields are nullable and the model sends null for "absent"."""
    from openai.types.chat import ChatCompletionMessageToolCall

    [definition] = [
        d
        for d in package.tool_definitions("openai", strict=True)
        if d["function"]["name"] == "order_create"
    ]
    assert definition["function"]["strict"] is True
    arguments = {
        "customer": {
            "name": "Ada",
            "email": None,
            "address": {"street": "1 Way", "city": "Rome", "zip": None},
        },
        "items": [{"sku": "ABC-1234", "quantity": 2, "gift": None}],
        "priority": None,
        "due": None,
        "coupon": None,
        "note": None,
    }
    jsonschema.validate(
        arguments, definition["function"]["parameters"]
    )  # what a strict model may send
    call = ChatCompletionMessageToolCall.model_validate(
        {
            "id": "call_9",
            "type": "function",
            "function": {"name": "order_create", "arguments": json.dumps(arguments)},
        }
    )
    [answer] = package.respond(registry, "openai", [call])
    assert json.loads(answer["content"]) == {"order_id": "o-1", "total": 9.5}, answer["content"]


# -- OpenAI Responses -----------------------------------------------------------------------------


def test_openai_responses_round_trip(registry: Any, package: ModuleType) -> None:
    from openai.types.responses import Response, ResponseInputParam
    from openai.types.responses.response_input_param import FunctionCallOutput

    items: list[dict[str, Any]] = [{"type": "reasoning", "id": "rs_1", "summary": []}]
    items += [
        {
            "type": "function_call",
            "id": f"fc_{i}",
            "call_id": f"call_{i}",
            "name": "shape_area",
            "arguments": json.dumps(a),
            "status": "completed",
        }
        for i, a in enumerate((GOOD, BAD, BOOM))
    ]
    response = Response.model_validate(
        {
            "id": "resp_1",
            "object": "response",
            "created_at": 1,
            "model": "gpt-test",
            "output": items,
            "parallel_tool_calls": True,
            "tool_choice": "auto",
            "tools": [],
        }
    )
    answers = package.respond(registry, "openai-responses", response.output)
    for answer in answers:
        assert typed_dict_problems(FunctionCallOutput, answer) == []
    assert [a["call_id"] for a in answers] == ["call_0", "call_1", "call_2"]
    _assert_three([a["output"] for a in answers])
    next_input = [item.model_dump(exclude_none=True) for item in response.output] + answers
    TypeAdapter(ResponseInputParam).validate_python(next_input)


# -- Anthropic ------------------------------------------------------------------------------------


def test_anthropic_round_trip(registry: Any, package: ModuleType) -> None:
    from anthropic.types import Message, MessageParam, ToolResultBlockParam

    content: list[dict[str, Any]] = [{"type": "text", "text": "Let me compute."}]
    content += [
        {"type": "tool_use", "id": f"toolu_{i}", "name": "shape_area", "input": a}
        for i, a in enumerate((GOOD, BAD, BOOM))
    ]
    message = Message.model_validate(
        {
            "id": "msg_1",
            "type": "message",
            "role": "assistant",
            "model": "claude-test",
            "content": content,
            "stop_reason": "tool_use",
            "stop_sequence": None,
            "usage": {"input_tokens": 1, "output_tokens": 1},
        }
    )
    answer = package.respond(registry, "anthropic", message.content)
    assert answer["role"] == "user"
    for block in answer["content"]:
        assert typed_dict_problems(ToolResultBlockParam, block) == []
    assert [b["is_error"] for b in answer["content"]] == [False, True, True]
    assert [b["tool_use_id"] for b in answer["content"]] == ["toolu_0", "toolu_1", "toolu_2"]
    _assert_three([b["content"] for b in answer["content"]])
    conversation = [
        {
            "role": "assistant",
            "content": [b.model_dump(exclude_none=True) for b in message.content],
        },
        answer,
    ]
    TypeAdapter(list[MessageParam]).validate_python(conversation)
    assert package.respond(registry, "anthropic", message) == answer


# -- Gemini ---------------------------------------------------------------------------------------


def test_gemini_round_trip(registry: Any, package: ModuleType) -> None:
    from google.genai import types

    response = types.GenerateContentResponse.model_validate(
        {
            "candidates": [
                {
                    "content": {
                        "role": "model",
                        "parts": [
                            {"function_call": {"id": f"fc_{i}", "name": "shape_area", "args": a}}
                            for i, a in enumerate((GOOD, BAD, BOOM))
                        ],
                    }
                }
            ],
        }
    )
    answer = package.respond(registry, "gemini", response.candidates[0].content.parts)
    content = types.Content.model_validate(answer)  # extra='forbid' at every level
    responses = [part.function_response for part in content.parts]
    assert [r.id for r in responses] == ["fc_0", "fc_1", "fc_2"]
    assert [r.name for r in responses] == ["shape_area"] * 3
    assert responses[0].response == {"output": {"area": pytest.approx(12.566, abs=1e-3)}}
    assert set(responses[1].response) == set(responses[2].response) == {"error"}
    _assert_three(
        [
            json.dumps(responses[0].response["output"]),
            responses[1].response["error"],
            responses[2].response["error"],
        ]
    )
    # what response.function_calls gives is read too, and the whole response
    assert package.respond(registry, "gemini", response.function_calls) == answer
    assert package.respond(registry, "gemini", response) == answer


# -- MCP ------------------------------------------------------------------------------------------


def test_mcp_round_trip(registry: Any, package: ModuleType) -> None:
    import mcp.types

    [definition] = [d for d in package.tool_definitions("mcp") if d["name"] == "shape.area"]
    schema = definition["outputSchema"]
    results = []
    for i, arguments in enumerate((GOOD, BAD, BOOM)):
        request = mcp.types.JSONRPCRequest(
            jsonrpc="2.0",
            id=i,
            method="tools/call",
            params={"name": "shape.area", "arguments": arguments},
        )
        reply = package.respond(
            registry, "mcp", request.model_dump(mode="json", by_alias=True, exclude_none=True)
        )
        mcp.types.JSONRPCResponse.model_validate(reply)
        assert reply["id"] == i
        assert check_mcp_result(reply["result"], schema) == []
        results.append(reply["result"])
    assert [r["isError"] for r in results] == [False, True, True]
    assert results[0]["structuredContent"] == json.loads(results[0]["content"][0]["text"])
    _assert_three([r["content"][0]["text"] for r in results])
    # the typed request object, and its bare params, are read too
    typed = mcp.types.CallToolRequest(
        params=mcp.types.CallToolRequestParams(name="shape.area", arguments=GOOD)
    )
    assert package.respond(registry, "mcp", typed) == results[0]


def test_mcp_structured_content_is_checked_against_the_output_schema(package: ModuleType) -> None:
    """An implementation whose result breaks outputSchema is an error, never invalid structuredContent."""
    import importlib

    shape = importlib.import_module("providers.tools.shape_area")

    class Broken(shape.ShapeAreaTool):  # type: ignore[misc, name-defined]
        def run(self, arguments: Any) -> Any:
            return {"area": "large"}

    reply = package.respond(
        package.build_registry(Broken()), "mcp", {"name": "shape.area", "arguments": GOOD}
    )
    assert reply["isError"] is True and "structuredContent" not in reply
    [definition] = [d for d in package.tool_definitions("mcp") if d["name"] == "shape.area"]
    bad = {
        "content": [{"type": "text", "text": "{}"}],
        "structuredContent": {"area": "large"},
        "isError": False,
    }
    assert check_mcp_result(bad, definition["outputSchema"]) != []  # the check itself can fail


# -- Bedrock --------------------------------------------------------------------------------------


def test_bedrock_round_trip(registry: Any, package: ModuleType) -> None:
    from botocore.validate import ParamValidator

    from tests.support.provider_checks import _converse_shape

    assistant = {
        "role": "assistant",
        "content": [
            {"toolUse": {"toolUseId": f"tu_{i}", "name": "shape_area", "input": a}}
            for i, a in enumerate((GOOD, BAD, BOOM))
        ],
    }
    response = {"output": {"message": assistant}, "stopReason": "tool_use"}
    answer = package.respond(registry, "bedrock", response)
    statuses = [block["toolResult"]["status"] for block in answer["content"]]
    assert statuses == ["success", "error", "error"]
    texts = [
        json.dumps(answer["content"][0]["toolResult"]["content"][0]["json"]),
        *(b["toolResult"]["content"][0]["text"] for b in answer["content"][1:]),
    ]
    _assert_three(texts)
    request = {
        "modelId": "anthropic.claude",
        "messages": [{"role": "user", "content": [{"text": "area?"}]}, assistant, answer],
        "toolConfig": {"tools": package.tool_definitions("bedrock")},
    }
    report = ParamValidator().validate(request, _converse_shape())
    assert not report.has_errors(), report.generate_report()


# -- shared behaviour -----------------------------------------------------------------------------


def test_unknown_tool_and_provider(registry: Any, package: ModuleType) -> None:
    [answer] = package.respond(
        registry,
        "openai",
        [{"id": "c", "type": "function", "function": {"name": "shape_aera", "arguments": "{}"}}],
    )
    assert "shape_area" in answer["content"] or "shape.area" in answer["content"]  # did you mean
    with pytest.raises(ValueError, match="unknown provider"):
        package.respond(registry, "openia", [])


def test_async_respond_runs_a_turn(registry: Any, package: ModuleType) -> None:
    import asyncio

    calls = [
        {"type": "tool_use", "id": "a", "name": "shape_area", "input": GOOD},
        {"type": "tool_use", "id": "b", "name": "order_create", "input": {"customer": {}}},
    ]
    answer = asyncio.run(package.arespond(registry, "anthropic", calls))
    assert [b["is_error"] for b in answer["content"]] == [False, True]
