# Part of toolgen's runtime, copied verbatim into generated packages (edit toolgen, not a copy).
"""Tool calls in each provider's own shapes in; results in the same provider's shapes out.

No SDK is imported: calls are read from plain dicts shaped like each SDK's types (or
from the SDK's own pydantic objects, read through `model_dump`), and answers are plain
dicts that the same SDK takes as the next request's input (answers.py writes them, content
blocks included):

| provider         | calls read from                                    | answer                                   |
|------------------|----------------------------------------------------|------------------------------------------|
| openai           | `message.tool_calls` (or a ChatCompletion)          | `[{"role": "tool", ...}]` messages        |
| openai-responses | `response.output` `function_call` items            | `[{"type": "function_call_output", ...}]` |
| anthropic        | `message.content` `tool_use` blocks (or a Message) | `{"role": "user", "content": [tool_result...]}` |
| gemini           | `function_call` parts (or a GenerateContentResponse)| `{"role": "user", "parts": [function_response...]}` |
| mcp              | a `tools/call` request (JSON-RPC or its params)     | `CallToolResult` (or its JSON-RPC response) |
| bedrock          | Converse `output.message.content` `toolUse` blocks | `{"role": "user", "content": [{"toolResult": ...}]}` |

Names are canonical or provider-safe (`math_factorial` for `math.factorial`); the
registry maps them back. A name is passed on as the model sent it: one that is not a string
(`null`, a number, an object) is an unknown tool's failure, answered as any other. Validation failures travel as the model-facing message. A call
glued from several (`get_weatherget_time` with `{"city": "Paris"}{"tz": "UTC"}`), when every
part's tool allows it (`x-repair` with `split`), is run as its parts, in order, and answered
once under its id: each part's result labelled with its tool's name (answers.Parts).
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable, Mapping
from contextlib import AbstractContextManager, nullcontext
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from .. import kinds
from ..errors import injected_values
from . import answers
from .answers import Call, Parts

if TYPE_CHECKING:
    from ..calls.registry import Registry
    from ..results.result import ToolResult


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


def _name(sent: Any) -> str:
    """A call's tool name as the model sent it: typed as the string it should be, passed on
    whatever it is (the registry answers anything else as an unknown tool)."""
    name: str = sent
    return name


# -- reading calls --------------------------------------------------------------------------------


def openai_calls(payload: Any) -> list[Call]:
    """Chat Completions `message.tool_calls` (function calls only)."""
    items = _items(
        payload, lambda d: d["choices"][0]["message"]["tool_calls"], lambda d: d["tool_calls"]
    )
    return [
        Call(
            item.get("id"),
            _name(item["function"].get("name")),
            item["function"].get("arguments") or "{}",
        )
        for item in items
        if item.get("type", "function") == "function" and isinstance(item.get("function"), Mapping)
    ]


def responses_calls(payload: Any) -> list[Call]:
    """Responses `output` items of type `function_call` (messages and reasoning items are skipped)."""
    items = _items(payload, lambda d: d["output"])
    return [
        Call(item.get("call_id"), _name(item.get("name")), item.get("arguments") or "{}")
        for item in items
        if item.get("type") == "function_call"
    ]


def anthropic_calls(payload: Any) -> list[Call]:
    """Messages `content` blocks of type `tool_use`."""
    items = _items(payload, lambda d: d["content"])
    return [
        Call(item.get("id"), _name(item.get("name")), item.get("input") or {})
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
            calls.append(Call(call.get("id"), _name(call.get("name")), call.get("args") or {}))
    return calls


def bedrock_calls(payload: Any) -> list[Call]:
    """Converse content blocks holding `toolUse` (or a whole Converse response)."""
    items = _items(payload, lambda d: d["output"]["message"]["content"], lambda d: d["content"])
    return [
        Call(use.get("toolUseId"), _name(use.get("name")), use.get("input") or {})
        for item in items
        if isinstance(use := item.get("toolUse"), Mapping)
    ]


def mcp_call(payload: Any) -> Call:
    """A `tools/call` request: the JSON-RPC message, or its `params`."""
    data = plain(payload)
    params = data.get("params", data) if isinstance(data, Mapping) else None
    if not isinstance(params, Mapping) or "name" not in params:
        raise ValueError("expected a tools/call request with params.name")
    request_id = data.get("id") if isinstance(data, Mapping) and "params" in data else None
    return Call(
        None if request_id is None else str(request_id),
        params["name"],
        params.get("arguments") or {},
    )


# -- whole turns ----------------------------------------------------------------------------------


Turn = list[tuple[Call, "ToolResult | Parts"]]


@dataclass(frozen=True)
class Adapter:
    read: Callable[[Any], list[Call]]
    answer: Callable[[Call, ToolResult | Parts], dict[str, Any]]  # one call's answer (answers.py)
    wrap: Callable[[Any, list[dict[str, Any]], Turn], Any]  # the turn's answers, as sent back


def _mcp_wrap(payload: Any, answers: list[dict[str, Any]], turn: Turn) -> Any:
    data = plain(payload)
    if isinstance(data, Mapping) and "params" in data and "id" in data:
        return {"jsonrpc": "2.0", "id": data["id"], "result": answers[0]}
    return answers[0]


def _user(key: str) -> Callable[[Any, list[dict[str, Any]], Turn], Any]:
    """The answers as one user message, under `key` (Anthropic and Bedrock `content`, Gemini
    `parts`)."""
    return lambda _, answers, turn: {"role": "user", key: answers}


ADAPTERS: dict[str, Adapter] = {
    # Chat: the turn's tool messages, then one user message with the content they cannot hold.
    kinds.OPENAI: Adapter(
        openai_calls,
        answers.openai,
        lambda _, messages, turn: messages + answers.openai_content(turn),
    ),
    kinds.OPENAI_RESPONSES: Adapter(
        responses_calls, answers.responses, lambda _, items, turn: items
    ),
    kinds.ANTHROPIC: Adapter(anthropic_calls, answers.anthropic, _user("content")),
    kinds.GEMINI: Adapter(gemini_calls, answers.gemini, _user("parts")),
    kinds.MCP: Adapter(lambda payload: [mcp_call(payload)], answers.mcp, _mcp_wrap),
    kinds.BEDROCK: Adapter(bedrock_calls, answers.bedrock, _user("content")),
}


def adapter(provider: str) -> Adapter:
    if provider not in ADAPTERS:
        raise ValueError(f"unknown provider {provider!r}; one of: {', '.join(kinds.PROVIDERS)}")
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
    injected_values(injected)
    chosen = adapter(provider)
    read = chosen.read(calls)
    told = _told(registry, provider, read)
    if told is None:  # no tool of the registry reads the call's context: nothing to tell
        turn = [(call, _called(registry, call, injected)) for call in read]
    else:
        turn = []
        for call in read:
            with told(call):
                turn.append((call, _called(registry, call, injected)))
    return chosen.wrap(calls, [chosen.answer(c, r) for c, r in turn], turn)


def _told(
    registry: Registry, provider: str, read: list[Call]
) -> Callable[[Call], AbstractContextManager[None]] | None:
    """What each call of the turn is told of itself and the others (calls/context.py), when a
    tool or guard of the registry reads it; else None."""
    if not getattr(registry, "wants_context", bool)():
        return None
    from ..calls.context import TurnCall, calling

    everyone = [TurnCall(c.id, c.name, c.arguments) for c in read]

    def told(call: Call) -> AbstractContextManager[None]:
        others = tuple(t for c, t in zip(read, everyone, strict=True) if c is not call)
        return calling(call_id=call.id, provider=provider, turn=others)

    return told


def _called(
    registry: Registry, call: Call, injected: Mapping[str, Any] | None
) -> ToolResult | Parts:
    """One call's result; of a call glued from several (a name no tool has), its parts'."""
    if call.name not in registry:
        split = getattr(registry, "call_split", None)  # (a registry of an older runtime: none)
        parts = None if split is None else split(call.name, call.arguments, injected=injected)
        if parts is not None:
            return Parts(call.name, tuple(parts))
    return registry.call(call.name, call.arguments, injected=injected)


async def _acalled(
    registry: Registry, call: Call, injected: Mapping[str, Any] | None
) -> ToolResult | Parts:
    """`_called`, awaited."""
    if call.name not in registry:
        split = getattr(registry, "acall_split", None)
        parts = None if split is None else await split(call.name, call.arguments, injected=injected)
        if parts is not None:
            return Parts(call.name, tuple(parts))
    return await registry.acall(call.name, call.arguments, injected=injected)


async def arespond(
    registry: Registry, provider: str, calls: Any, *, injected: Mapping[str, Any] | None = None
) -> Any:
    """`respond`, with the calls of one turn run concurrently where their tools allow it.

    Calls of tools flagged `parallel` that follow each other run together; a call of any other
    tool (or of a tool the registry does not know, a glued call's parts included) is a
    barrier: it starts once every call before it has finished, and the calls after it wait
    for it. Answers keep the calls' order.
    """
    injected_values(injected)  # raised once, before any call runs (not once per call)
    chosen = adapter(provider)
    read = chosen.read(calls)
    told = _told(registry, provider, read)

    async def one(call: Call) -> Any:
        with nullcontext() if told is None else told(call):
            return await registry.acall(call.name, call.arguments, injected=injected)

    async def called(call: Call) -> Any:
        with nullcontext() if told is None else told(call):
            return await _acalled(registry, call, injected)

    results: list[Any] = []
    batch: list[Any] = []
    for call in [*read, None]:
        if call is not None and _parallel(registry, call.name):
            batch.append(call)
            continue
        if batch:
            results += await asyncio.gather(*(one(c) for c in batch))
            batch = []
        if call is not None:
            results.append(await called(call))
    turn = list(zip(read, results, strict=False))
    return chosen.wrap(calls, [chosen.answer(c, r) for c, r in turn], turn)


def _parallel(registry: Registry, name: Any) -> bool:
    """Whether the call's tool may run beside others (flag `parallel`); False if unknown."""
    if not isinstance(name, str) or name not in registry:
        return False
    return "parallel" in registry.info(name).flags
