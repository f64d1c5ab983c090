"""The run context (runtime/calls/context.py): an implementation whose `run` takes `ctx` gets the
call's id, provider, the turn's other calls, the caller, its deadline and injected values, sync
and async, streaming too; one that does not ask pays nothing (the fast path keeps it)."""

from __future__ import annotations

import asyncio
from collections.abc import Iterator
from types import ModuleType
from typing import Any

import pytest

from tests.support.runtime_support import generated_package, interface

TEXT = {
    "type": "object",
    "properties": {"text": {"type": "string", "description": "What to use"}},
    "required": ["text"],
}
SPECS = {
    "tools": [
        {"name": "look", "description": "Look at text. Returns it.", "parameters": TEXT},
        {
            "name": "later",
            "description": "Look at text later. Returns it.",
            "timeout_s": 30,
            "parameters": TEXT,
        },
        {
            "name": "watch",
            "description": "Watch text. Returns it.",
            "flags": ["streaming"],
            "parameters": TEXT,
        },
        {
            "name": "mine",
            "description": "Read the user's text. Returns it.",
            "parameters": TEXT,
            "injected": {"user": {"type": "string"}},
        },
        {"name": "plain", "description": "Echo text. Returns it.", "parameters": TEXT},
    ]
}


@pytest.fixture(scope="module")
def package(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ModuleType]:
    yield from generated_package(tmp_path_factory, "contexted", SPECS)


@pytest.fixture
def seen() -> list[Any]:
    return []


@pytest.fixture
def registry(package: ModuleType, seen: list[Any]) -> Any:
    RunContext = package.RunContext

    class Look(interface(package, "look")):  # type: ignore[misc]
        def run(self, arguments: Any, ctx: RunContext | None = None) -> Any:
            seen.append(ctx)
            return {}

    class Later(interface(package, "later")):  # type: ignore[misc]
        async def run(self, arguments: Any, *, context: RunContext | None = None) -> Any:
            await asyncio.sleep(0)
            seen.append(context)
            return {}

    class Watch(interface(package, "watch")):  # type: ignore[misc]
        def run(self, arguments: Any, ctx: Any = None) -> Any:
            seen.append(ctx)
            yield package.Chunk("a")
            yield {}

    class Mine(interface(package, "mine")):  # type: ignore[misc]
        def run(self, arguments: Any, injected: Any, ctx: Any = None) -> Any:
            seen.append(ctx)
            return {}

    class Plain(interface(package, "plain")):  # type: ignore[misc]
        def run(self, arguments: Any) -> Any:
            return {}

    tools = [Look(), Later(), Watch(), Mine(), Plain()]
    return package.build_registry(
        *tools,
        inject=lambda tool: {"user": "ada", "db": "main"} if tool != "mine" else {"user": "ada"},
    )


def test_a_run_that_asks_gets_its_context(registry: Any, seen: list[Any]) -> None:
    assert registry.call("look", {"text": "a"}).ok
    (ctx,) = seen
    assert (ctx.tool, ctx.call_id, ctx.provider, ctx.turn, ctx.caller) == (
        "look",
        None,
        None,
        (),
        None,
    )
    assert ctx.deadline is None and ctx.remaining_s() is None
    assert dict(ctx.injected) == {"user": "ada", "db": "main"}  # the registry's inject


def test_async_and_streaming_runs_get_theirs_with_the_deadline(
    package: ModuleType, registry: Any, seen: list[Any]
) -> None:
    assert asyncio.run(registry.acall("later", {"text": "a"})).ok
    assert registry.call("later", {"text": "a"}).ok
    events: list[Any] = []
    assert registry.call("watch", {"text": "a"}, on_event=events.append).ok
    assert asyncio.run(registry.acall("watch", {"text": "a"})).ok
    later, again, watched, awatched = seen
    for ctx in (later, again):
        assert ctx.tool == "later" and 0 < ctx.remaining_s() <= 30
    assert watched.tool == awatched.tool == "watch" and [e.kind for e in events] == ["chunk"]


def test_a_tool_s_injected_values_are_its_validated_ones(registry: Any, seen: list[Any]) -> None:
    assert registry.call("mine", {"text": "a"}, injected={"user": "bob"}).ok
    assert dict(seen[0].injected) == {"user": "bob"}


def test_a_provider_turn_tells_each_call_of_the_others(
    package: ModuleType, registry: Any, seen: list[Any]
) -> None:
    calls = [
        {
            "id": "c1",
            "type": "function",
            "function": {"name": "look", "arguments": '{"text": "1"}'},
        },
        {
            "id": "c2",
            "type": "function",
            "function": {"name": "plain", "arguments": '{"text": "2"}'},
        },
    ]
    package.respond(registry, "openai", calls)
    asyncio.run(package.arespond(registry, "openai", calls))
    for ctx in seen:
        assert (ctx.call_id, ctx.provider) == ("c1", "openai")
        assert [(t.id, t.name, t.arguments) for t in ctx.turn] == [("c2", "plain", '{"text": "2"}')]


def test_the_host_says_who_calls(package: ModuleType, registry: Any, seen: list[Any]) -> None:
    with package.calling(caller="ada@example.com", call_id="r-7"):
        registry.call("look", {"text": "a"})
        with package.calling(provider="anthropic"):  # what an outer block said is kept
            asyncio.run(registry.acall("look", {"text": "a"}))
    registry.call("look", {"text": "a"})
    first, inner, outside = seen
    assert (first.caller, first.call_id, first.provider) == ("ada@example.com", "r-7", None)
    assert (inner.caller, inner.call_id, inner.provider) == ("ada@example.com", "r-7", "anthropic")
    assert outside.caller is None


def test_a_tool_that_does_not_ask_pays_nothing(package: ModuleType, registry: Any) -> None:
    assert "plain" in registry._fast and "look" not in registry._fast
    assert registry.wants_context()
    only = package.build_registry(registry["plain"])
    assert not only.wants_context() and "plain" in only._fast


def test_which_parameter_asks_is_read_from_the_signature() -> None:
    from typing import Optional

    from toolgen.runtime.calls.context import RunContext, wants

    def by_name(arguments: Any, ctx: Any = None) -> None: ...
    def by_class(arguments: Any, *, seen: RunContext) -> None: ...
    def by_union(arguments: Any, seen: RunContext | None = None) -> None: ...
    def by_optional(arguments: Any, seen: Optional[RunContext] = None) -> None: ...  # noqa: UP045
    def positional_only(arguments: Any, ctx: Any = None, /) -> None: ...
    def nothing(arguments: Any, injected: Any) -> None: ...

    class Callable:
        def __call__(self, arguments: Any, ctx: Any = None) -> None: ...

    by_class.__annotations__["seen"] = RunContext  # the class itself, not a string
    by_union.__annotations__["seen"] = RunContext | None
    by_optional.__annotations__["seen"] = Optional[RunContext]  # noqa: UP045
    assert [wants(f) for f in (by_name, by_class, by_union, by_optional)] == [
        "ctx",
        "seen",
        "seen",
        "seen",
    ]
    assert wants(positional_only) is None and wants(nothing) is None
    assert wants(Callable()) == "ctx"  # no code of its own: read through inspect
