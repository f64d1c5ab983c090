# Part of toolgen's runtime, copied verbatim into generated packages (edit toolgen, not a copy).
"""Tool calls in each provider's own shapes in; results in the same provider's shapes out.

No SDK is imported: calls are read from plain dicts shaped like each SDK's types (or
from the SDK's own pydantic objects, read through `model_dump`), and answers are plain
dicts that the same SDK takes as the next request's input:

| provider         | calls read from                                    | answer                                   |
|------------------|----------------------------------------------------|------------------------------------------|
| openai           | `message.tool_calls` (or a ChatCompletion)          | `[{"role": "tool", ...}]` messages        |
| openai-responses | `response.output` `function_call` items            | `[{"type": "function_call_output", ...}]` |
| anthropic        | `message.content` `tool_use` blocks (or a Message) | `{"role": "user", "content": [tool_result...]}` |
| gemini           | `function_call` parts (or a GenerateContentResponse)| `{"role": "user", "parts": [function_response...]}` |
| mcp              | a `tools/call` request (JSON-RPC or its params)     | `CallToolResult` (or its JSON-RPC response) |
| bedrock          | Converse `output.message.content` `toolUse` blocks | `{"role": "user", "content": [{"toolResult": ...}]}` |

Names are canonical or provider-safe (`math_factorial` for `math.factorial`); the
registry maps them back. Validation failures travel as the model-facing message.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from .registry import Registry
    from .results import ToolResult


@dataclass(frozen=True)
class Call:
    """One tool call, whatever provider sent it."""

    id: str | None
    name: str
    arguments: Any  # a dict, or a JSON string (OpenAI), validated by the registry


def plain(value: Any) -> Any:
    """An SDK object as the JSON it stands for (pydantic models dump themselves)."""
    dump = getattr(value, "model_dump", None)
    if callable(dump):
        return dump(mode="json", exclude_none=True)
    if isinstance(value, Mapping):
        return {k: plain(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [plain(v) for v in value]
    return value


def _get(item: Mapping[str, Any], *names: str) -> Any:
    """The first of `names` present (SDKs dump snake_case, REST payloads use camelCase)."""
    for name in names:
        if name in item and item[name] is not None:
            return item[name]
    return None


def _items(
    payload: Any, *containers: Callable[[Mapping[str, Any]], Any]
) -> list[Mapping[str, Any]]:
    """The list of items in a payload that is that list, or a whole response holding it."""
    data = plain(payload)
    if isinstance(data, Mapping):
        for container in containers:
            try:
                found = container(data)
            except (KeyError, IndexError, TypeError):
                continue
            if isinstance(found, list):
                data = found
                break
    if not isinstance(data, list):
        raise ValueError(f"expected a list of tool calls, not {type(payload).__name__}")
    return [item for item in data if isinstance(item, Mapping)]


# -- reading calls --------------------------------------------------------------------------------


def openai_calls(payload: Any) -> list[Call]:
    """Chat Completions `message.tool_calls` (function calls only)."""
    items = _items(
        payload, lambda d: d["choices"][0]["message"]["tool_calls"], lambda d: d["tool_calls"]
    )
    return [
        Call(
            item.get("id"),
            str(item["function"].get("name")),
            item["function"].get("arguments") or "{}",
        )
        for item in items
        if item.get("type", "function") == "function" and isinstance(item.get("function"), Mapping)
    ]


def responses_calls(payload: Any) -> list[Call]:
    """Responses `output` items of type `function_call` (messages and reasoning items are skipped)."""
    items = _items(payload, lambda d: d["output"])
    return [
        Call(item.get("call_id"), str(item.get("name")), item.get("arguments") or "{}")
        for item in items
        if item.get("type") == "function_call"
    ]


def anthropic_calls(payload: Any) -> list[Call]:
    """Messages `content` blocks of type `tool_use`."""
    items = _items(payload, lambda d: d["content"])
    return [
        Call(item.get("id"), str(item.get("name")), item.get("input") or {})
        for item in items
        if item.get("type") == "tool_use"
    ]


def gemini_calls(payload: Any) -> list[Call]:
    """`function_call` parts (or bare FunctionCalls, as `response.function_calls` lists them)."""
    items = _items(payload, lambda d: d["candidates"][0]["content"]["parts"], lambda d: d["parts"])
    calls = []
    for item in items:
        call = _get(item, "function_call", "functionCall") or (
            item if "name" in item and "args" in item else None
        )
        if isinstance(call, Mapping):
            calls.append(Call(call.get("id"), str(call.get("name")), call.get("args") or {}))
    return calls


def bedrock_calls(payload: Any) -> list[Call]:
    """Converse content blocks holding `toolUse` (or a whole Converse response)."""
    items = _items(payload, lambda d: d["output"]["message"]["content"], lambda d: d["content"])
    return [
        Call(use.get("toolUseId"), str(use.get("name")), use.get("input") or {})
        for item in items
        if isinstance(use := item.get("toolUse"), Mapping)
    ]


def mcp_call(payload: Any) -> Call:
    """A `tools/call` request: the JSON-RPC message, or its `params`."""
    data = plain(payload)
    params = data.get("params", data) if isinstance(data, Mapping) else None
    if not isinstance(params, Mapping) or not isinstance(params.get("name"), str):
        raise ValueError("expected a tools/call request with params.name")
    request_id = data.get("id") if isinstance(data, Mapping) and "params" in data else None
    return Call(
        None if request_id is None else str(request_id),
        params["name"],
        params.get("arguments") or {},
    )


# -- answering ------------------------------------------------------------------------------------


def _value(result: ToolResult) -> Any:
    assert result.value is not None
    return result.data()


def openai_answer(call: Call, result: ToolResult) -> dict[str, Any]:
    return {"role": "tool", "tool_call_id": call.id or "", "content": result.text()}


def responses_answer(call: Call, result: ToolResult) -> dict[str, Any]:
    return {"type": "function_call_output", "call_id": call.id or "", "output": result.text()}


def anthropic_answer(call: Call, result: ToolResult) -> dict[str, Any]:
    return {
        "type": "tool_result",
        "tool_use_id": call.id or "",
        "content": result.text(),
        "is_error": not result.ok,
    }


def gemini_answer(call: Call, result: ToolResult) -> dict[str, Any]:
    response = {"output": _value(result)} if result.ok else {"error": result.text()}
    body: dict[str, Any] = {"name": call.name, "response": response}
    if call.id:
        body["id"] = call.id
    return {"function_response": body}


def bedrock_answer(call: Call, result: ToolResult) -> dict[str, Any]:
    content = (
        [{"json": _value(result)}]
        if result.ok and isinstance(_value(result), dict)
        else [{"text": result.text()}]
    )
    return {
        "toolResult": {
            "toolUseId": call.id or "",
            "content": content,
            "status": "success" if result.ok else "error",
        }
    }


def mcp_answer(call: Call, result: ToolResult) -> dict[str, Any]:
    """`CallToolResult`: text content always; `structuredContent` when the value is a JSON object."""
    answer: dict[str, Any] = {
        "content": [{"type": "text", "text": result.text()}],
        "isError": not result.ok,
    }
    if result.ok and isinstance(value := _value(result), dict):
        answer["structuredContent"] = (
            value  # validated by the tool's Result model (its outputSchema)
        )
    return answer


# -- whole turns ----------------------------------------------------------------------------------


@dataclass(frozen=True)
class Adapter:
    read: Callable[[Any], list[Call]]
    answer: Callable[[Call, ToolResult], dict[str, Any]]
    wrap: Callable[[Any, list[dict[str, Any]]], Any]


def _mcp_wrap(payload: Any, answers: list[dict[str, Any]]) -> Any:
    data = plain(payload)
    if isinstance(data, Mapping) and "params" in data and "id" in data:
        return {"jsonrpc": "2.0", "id": data["id"], "result": answers[0]}
    return answers[0]


ADAPTERS: dict[str, Adapter] = {
    "openai": Adapter(openai_calls, openai_answer, lambda _, answers: answers),
    "openai-responses": Adapter(responses_calls, responses_answer, lambda _, answers: answers),
    "anthropic": Adapter(
        anthropic_calls, anthropic_answer, lambda _, answers: {"role": "user", "content": answers}
    ),
    "gemini": Adapter(
        gemini_calls, gemini_answer, lambda _, answers: {"role": "user", "parts": answers}
    ),
    "mcp": Adapter(lambda payload: [mcp_call(payload)], mcp_answer, _mcp_wrap),
    "bedrock": Adapter(
        bedrock_calls, bedrock_answer, lambda _, answers: {"role": "user", "content": answers}
    ),
}
PROVIDERS = tuple(ADAPTERS)


def adapter(provider: str) -> Adapter:
    if provider not in ADAPTERS:
        raise ValueError(f"unknown provider {provider!r}; one of: {', '.join(PROVIDERS)}")
    return ADAPTERS[provider]


def respond(
    registry: Registry, provider: str, calls: Any, *, injected: Mapping[str, Any] | None = None
) -> Any:
    """Run a turn's tool calls given in a provider's own shape (in order); answer in that shape.

    `calls`: OpenAI `message.tool_calls`, Responses `output`, Anthropic `content`, Gemini
    parts, an MCP `tools/call` request or Bedrock Converse content (or the whole response
    holding them), as the table above says. `registry` may hold the tools of several
    generated packages (`a + b`).
    """
    chosen = adapter(provider)
    read = chosen.read(calls)
    answers = [
        chosen.answer(call, registry.call(call.name, call.arguments, injected=injected))
        for call in read
    ]
    return chosen.wrap(calls, answers)


async def arespond(
    registry: Registry, provider: str, calls: Any, *, injected: Mapping[str, Any] | None = None
) -> Any:
    """`respond`, with the calls of one turn run concurrently where their tools allow it.

    Calls of tools flagged `parallel` that follow each other run together; a call of any other
    tool (or of a tool the registry does not know) is a barrier: it starts once every call
    before it has finished, and the calls after it wait for it. Answers keep the calls' order.
    """
    chosen = adapter(provider)
    read = chosen.read(calls)
    results: list[Any] = []
    batch: list[Any] = []
    for call in [*read, None]:
        if call is not None and _parallel(registry, call.name):
            batch.append(call)
            continue
        if batch:
            results += await asyncio.gather(
                *(registry.acall(c.name, c.arguments, injected=injected) for c in batch)
            )
            batch = []
        if call is not None:
            results.append(await registry.acall(call.name, call.arguments, injected=injected))
    return chosen.wrap(calls, [chosen.answer(c, r) for c, r in zip(read, results)])


def _parallel(registry: Registry, name: Any) -> bool:
    """Whether the call's tool may run beside others (flag `parallel`); False if unknown."""
    if not isinstance(name, str) or name not in registry:
        return False
    return "parallel" in registry.info(name).flags
