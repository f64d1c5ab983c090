"""What the spec declares about running a tool, enforced by the generated registry (runtime/calls/execution.py):
deadlines (sync and async, `call` and `acall`, the tool's own or the registry's), sync
implementations kept off the event loop, async ones called from inside a running loop, and
`retryable` carried to the failure. Real threads and tasks, short real deadlines.
"""

from __future__ import annotations

import asyncio
import contextvars
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest

from tests.support.runtime_support import FakeClock, generated_package
from tests.support.runtime_support import interface as interface_of

SPECS = {
    "tools": [
        {
            "name": "slow",
            "description": "Sleeps as long as asked.",
            "timeout_s": 0.3,
            "parameters": {
                "type": "object",
                "properties": {"seconds": {"type": "number", "description": "How long."}},
                "required": ["seconds"],
            },
        },
        {
            "name": "slow_safe",
            "description": "Sleeps as long as asked; idempotent.",
            "timeout_s": 0.3,
            "flags": ["idempotent"],
            "parameters": {
                "type": "object",
                "properties": {"seconds": {"type": "number", "description": "How long."}},
                "required": ["seconds"],
            },
        },
        {
            "name": "free",
            "description": "Sleeps as long as asked; no deadline of its own.",
            "parameters": {
                "type": "object",
                "properties": {"seconds": {"type": "number", "description": "How long."}},
                "required": ["seconds"],
            },
        },
        {
            "name": "together",
            "description": "Sleeps as long as asked, beside other calls.",
            "flags": ["parallel"],
            "parameters": {
                "type": "object",
                "properties": {"seconds": {"type": "number", "description": "How long."}},
                "required": ["seconds"],
            },
        },
        {
            "name": "flaky",
            "description": "Fails with the kind it is told.",
            "parameters": {
                "type": "object",
                "properties": {"kind": {"type": "string", "description": "Which."}},
                "required": ["kind"],
            },
            "errors": {
                "busy": {"description": "Try again later.", "retryable": True},
                "gone": {"description": "It will not come back."},
            },
        },
    ]
}
HELD = threading.Event()  # what the tool that never returns waits for
FLOW = contextvars.ContextVar("flow", default="none")


@pytest.fixture(scope="module")
def package(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ModuleType]:
    yield from generated_package(tmp_path_factory, "runs", SPECS)
    HELD.set()


def _sync(package: ModuleType, tool: str) -> Any:
    interface = interface_of(package, tool)

    class Sync(interface):  # type: ignore[misc, valid-type]
        seen: list[str] = []

        def run(self, arguments: Any) -> Any:
            Sync.seen.append(FLOW.get())
            if tool == "flaky":
                raise package.ToolError(arguments.kind, f"it is {arguments.kind}")
            if arguments.seconds < 0:
                HELD.wait()  # never returns while the test runs
            time.sleep(arguments.seconds)
            return {}

    return Sync()


def _async(package: ModuleType, tool: str, cleaned: list[str]) -> Any:
    base = interface_of(package, tool)

    class Async(base):  # type: ignore[misc, valid-type]
        async def run(self, arguments: Any) -> Any:
            try:
                await asyncio.sleep(arguments.seconds)
            finally:
                cleaned.append(tool)  # cancellation runs the cleanup
            return {}

    return Async()


def _timed(function: Any) -> tuple[Any, float]:
    started = time.monotonic()
    outcome = function()
    return outcome, time.monotonic() - started


def test_a_sync_tool_past_its_deadline_is_a_timeout_failure(package: ModuleType) -> None:
    registry = package.Registry([_sync(package, "slow"), _sync(package, "slow_safe")])
    result, took = _timed(lambda: registry.call("slow", {"seconds": 2}))
    assert 0.25 < took < 1.0, took
    assert result.failure.kind == "timeout" and not result.failure.retryable
    assert result.failure.message == (
        "tool 'slow' did not finish within 0.3 s; it may have had effects before it "
        "was stopped: check before calling it again"
    )
    result = registry.call("slow_safe", {"seconds": 2})
    assert (
        result.failure.kind == "timeout" and result.failure.retryable
    )  # idempotent: safe to call again
    assert "calling it again is safe" in result.failure.message
    assert registry.call("slow", {"seconds": 0.01}).ok  # within the deadline: the result as usual


def test_a_sync_tool_that_never_returns_does_not_hold_the_call(package: ModuleType) -> None:
    registry = package.Registry([_sync(package, "slow")])
    result, took = _timed(lambda: registry.call("slow", {"seconds": -1}))
    assert result.failure.kind == "timeout" and took < 1.0
    result, took = _timed(lambda: registry.call("slow", {"seconds": -1}))  # another worker takes it
    assert result.failure.kind == "timeout" and took < 1.0
    assert any(
        t.name == "toolgen-worker" and t.daemon for t in threading.enumerate()
    )  # never blocks exit


def test_an_async_tool_past_its_deadline_is_cancelled(package: ModuleType) -> None:
    cleaned: list[str] = []
    registry = package.Registry([_async(package, "slow", cleaned)])
    result, took = _timed(lambda: registry.call("slow", {"seconds": 5}))
    assert result.failure.kind == "timeout" and took < 1.0 and cleaned == ["slow"]
    result, took = _timed(lambda: asyncio.run(registry.acall("slow", {"seconds": 5})))
    assert result.failure.kind == "timeout" and took < 1.0 and cleaned == ["slow", "slow"]


def test_acall_runs_an_async_tool_in_the_callers_task_within_its_deadline(
    package: ModuleType,
) -> None:
    """No thread and no task of its own, with or without a deadline; the deadline still
    cancels it (its cleanup runs), a TimeoutError it raises itself is its own failure, and
    its sys.exit() is its failure too: on a loop, escaping would stop every call served."""
    seen: list[Any] = []

    def tool(name: str, raising: BaseException | None = None) -> Any:
        class Async(interface_of(package, name)):  # type: ignore[misc]
            async def run(self, arguments: Any) -> Any:
                seen.append((asyncio.current_task(), threading.current_thread()))
                if raising is not None:
                    raise raising
                await asyncio.sleep(arguments.seconds)
                return {}

        return Async()

    registry = package.Registry([tool("slow"), tool("free")])

    async def turn() -> list[Any]:
        results = [
            await registry.acall("slow", {"seconds": 0}),
            await registry.acall("free", {"seconds": 0}),
            await registry.acall("slow", {"seconds": 5}),
        ]
        assert all(s == (asyncio.current_task(), threading.current_thread()) for s in seen)
        return results

    timed, free, late = asyncio.run(turn())
    assert timed.ok and free.ok and late.failure.kind == "timeout"
    assert len(seen) == 3  # each ran once, in the caller's task and thread
    own = package.Registry([tool("slow", TimeoutError("the upstream timed out"))])
    failed = asyncio.run(own.acall("slow", {"seconds": 0}))
    assert failed.failure.kind == "internal" and isinstance(failed.exception, TimeoutError)
    exiting = package.Registry([tool("free", SystemExit(3))])
    exited = asyncio.run(exiting.acall("free", {"seconds": 0}))
    assert exited.failure.kind == "internal" and isinstance(exited.exception, SystemExit)


def test_the_registry_deadline_applies_where_the_tool_declares_none(package: ModuleType) -> None:
    with pytest.raises(ValueError, match="more than 0"):
        package.Registry([], timeout_s=0)
    registry = package.Registry([_sync(package, "free"), _sync(package, "slow")], timeout_s=0.1)
    result, took = _timed(lambda: registry.call("free", {"seconds": 2}))
    assert (
        result.failure.kind == "timeout" and "within 0.1 s" in result.failure.message and took < 0.8
    )
    assert registry.call(
        "slow", {"seconds": 0.2}
    ).ok  # its own 0.3 s wins over the registry's 0.1 s
    for derived in (
        registry.without("slow"),
        registry + package.Registry(),
        registry.only_categories(),
    ):
        assert derived.timeout_s == 0.1
    assert (
        package.Registry([_sync(package, "free")]).call("free", {"seconds": 0.4}).ok
    )  # no deadline at all


def test_acall_runs_sync_tools_off_the_event_loop(package: ModuleType) -> None:
    registry = package.Registry([_sync(package, "free")])

    async def turn() -> list[Any]:
        ticks = 0

        async def ticking() -> None:
            nonlocal ticks
            for _ in range(10):
                await asyncio.sleep(0.02)
                ticks += 1

        results = await asyncio.gather(
            *(registry.acall("free", {"seconds": 0.3}) for _ in range(3)), ticking()
        )
        assert ticks == 10  # the loop went on while the three ran
        return results[:3]

    results, took = _timed(lambda: asyncio.run(turn()))
    assert all(r.ok for r in results) and took < 0.6, (
        took
    )  # together, not one after another (0.9 s)


def test_calls_run_with_the_callers_context_variables(package: ModuleType) -> None:
    tool = _sync(package, "slow")
    registry = package.Registry([tool])
    token = FLOW.set("traced")
    try:
        assert registry.call("slow", {"seconds": 0}).ok  # in a worker: the deadline
        asyncio.run(registry.acall("slow", {"seconds": 0}))
    finally:
        FLOW.reset(token)
    assert type(tool).seen[-2:] == ["traced", "traced"]


def test_call_of_an_async_tool_works_inside_a_running_loop(package: ModuleType) -> None:
    """A sync `call` from a coroutine (Jupyter, a web handler): the tool runs on a fresh loop."""
    registry = package.Registry([_async(package, "free", [])])

    async def handler() -> Any:
        return registry.call("free", {"seconds": 0.01})

    assert asyncio.run(handler()).ok


def test_retryable_declared_kinds_reach_the_failure(package: ModuleType) -> None:
    registry = package.Registry([_sync(package, "flaky")])
    busy, gone = registry.call("flaky", {"kind": "busy"}), registry.call("flaky", {"kind": "gone"})
    assert (busy.failure.kind, busy.failure.retryable) == ("busy", True)
    assert (gone.failure.kind, gone.failure.retryable) == ("gone", False)
    assert package.tool_info("flaky").retryable_errors == frozenset({"busy"})


def test_an_async_tool_that_ignores_cancellation_is_answered_after_the_grace(
    package: ModuleType,
) -> None:
    base = interface_of(package, "slow")

    class Stubborn(base):  # type: ignore[misc, valid-type]
        async def run(self, arguments: Any) -> Any:
            try:
                await asyncio.sleep(arguments.seconds)
            except asyncio.CancelledError:
                await asyncio.to_thread(time.sleep, 1)  # its "cleanup" takes longer than the grace
            return {}

    result, took = _timed(lambda: package.Registry([Stubborn()]).call("slow", {"seconds": 5}))
    assert result.failure.kind == "timeout" and "within 0.3 s" in result.failure.message
    assert took < 0.9, took  # 0.3 s, then at most the grace (0.2 s)


def test_a_turn_runs_parallel_tools_together_and_the_others_alone_in_order(
    package: ModuleType,
) -> None:
    log: list[tuple[str, str, float]] = []
    started = time.monotonic()

    def logged(tool: str) -> Any:
        base = interface_of(package, tool)

        class Logged(base):  # type: ignore[misc, valid-type]
            def run(self, arguments: Any) -> Any:
                log.append((tool, "start", time.monotonic() - started))
                time.sleep(arguments.seconds)
                log.append((tool, "end", time.monotonic() - started))
                return {}

        return Logged()

    registry = package.Registry([logged("together"), logged("free")])
    call = lambda i, tool: {
        "type": "tool_use",
        "id": str(i),
        "name": tool,
        "input": {"seconds": 0.2},
    }  # noqa: E731
    turn = [
        call(0, "together"),
        call(1, "together"),
        call(2, "free"),
        call(3, "together"),
        call(4, "together"),
    ]
    answer, took = _timed(lambda: asyncio.run(package.arespond(registry, "anthropic", turn)))
    assert [b["tool_use_id"] for b in answer["content"]] == ["0", "1", "2", "3", "4"]
    assert took > 0.55, took  # at least three steps of 0.2 s: [0, 1], then 2 alone, then [3, 4]
    ends = {tool_end for tool_end in log if tool_end[1] == "end"}
    free_start = next(t for tool, what, t in log if tool == "free" and what == "start")
    free_end = next(t for tool, what, t in log if tool == "free" and what == "end")
    together = sorted(t for tool, what, t in log if tool == "together" and what == "start")
    finished = sorted(t for tool, what, t in log if tool == "together" and what == "end")
    assert (
        together[1] < finished[0] and together[3] < finished[2]
    )  # each pair ran at once (not by load: by order)
    assert together[1] < free_start  # the first two started before the barrier
    assert together[2] >= free_end  # and the last two only once it was done
    assert len(ends) == 5


RETRIED = {
    "tools": [
        {
            "name": "wobbly",
            "description": "Fails the first times it is called.",
            "retry": {"attempts": 4, "backoff_s": 0.5, "max_backoff_s": 1.5},
            "parameters": {
                "type": "object",
                "properties": {
                    "fails": {"type": "integer", "description": "How often."},
                    "kind": {"type": "string", "description": "As what."},
                },
                "required": ["fails", "kind"],
            },
            "errors": {
                "busy": {"description": "Try again later.", "retryable": True},
                "gone": {"description": "It will not come back."},
            },
        },
        {
            "name": "limited",
            "description": "Answers at most two calls a second; fails past it.",
            "rate_limit": {"calls": 2, "per_s": 1},
            "parameters": {
                "type": "object",
                "properties": {"fails": {"type": "integer", "description": "Unused."}},
            },
        },
        {
            "name": "patient",
            "description": "Answers at most two calls a second; waits past it.",
            "rate_limit": {"calls": 2, "per_s": 1, "when_exceeded": "wait"},
            "parameters": {
                "type": "object",
                "properties": {"fails": {"type": "integer", "description": "Unused."}},
            },
        },
        {
            "name": "lookup",
            "description": "The same answer for the same question, for a minute.",
            "flags": ["idempotent"],
            "cache": {"ttl_s": 60, "max_entries": 2},
            "parameters": {
                "type": "object",
                "properties": {"fails": {"type": "integer", "description": "Which."}},
                "required": ["fails"],
            },
            "returns": {
                "type": "object",
                "properties": {"call": {"type": "integer"}},
                "required": ["call"],
            },
            "injected": {"user": {"type": "string", "description": "Whose."}},
        },
        {
            "name": "shaky",
            "description": "Raises unexpectedly the first times; safe to call again.",
            "flags": ["retryable"],
            "retry": {"attempts": 2},
            "parameters": {
                "type": "object",
                "properties": {"fails": {"type": "integer", "description": "How often."}},
                "required": ["fails"],
            },
        },
    ]
}


@pytest.fixture(scope="module")
def retried(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ModuleType]:
    yield from generated_package(tmp_path_factory, "retried", RETRIED)


def _counting(package: ModuleType, tool: str) -> Any:
    interface = interface_of(package, tool)

    class Counting(interface):  # type: ignore[misc, valid-type]
        calls = 0

        def run(self, arguments: Any, *injected: Any) -> Any:
            type(self).calls += 1
            if tool == "lookup":
                return {"call": type(self).calls}
            if tool in ("limited", "patient"):
                return {}
            if type(self).calls <= arguments.fails:
                if tool == "shaky":
                    raise RuntimeError("flaked")
                raise package.ToolError(
                    arguments.kind, f"{arguments.kind}, call {type(self).calls}"
                )
            return {}

    return Counting()


def test_retryable_failures_are_called_again_with_backoff(retried: ModuleType) -> None:
    clock = FakeClock()
    tool = _counting(retried, "wobbly")
    registry = retried.Registry([tool], clock=clock)
    result = registry.call("wobbly", {"fails": 2, "kind": "busy"})
    assert (
        result.ok and result.attempts == 3 and type(tool).calls == 3 and clock.waits == [0.5, 1.0]
    )
    clock.waits.clear()
    type(tool).calls = 0
    result = registry.call("wobbly", {"fails": 9, "kind": "busy"})  # the budget runs out
    assert (result.failure.kind, result.attempts, type(tool).calls) == ("busy", 4, 4)
    assert clock.waits == [0.5, 1.0, 1.5] and result.failure.message.endswith(
        "busy, call 4"
    )  # capped at max_backoff_s
    type(tool).calls = 0
    result = registry.call("wobbly", {"fails": 9, "kind": "gone"})  # not retryable: called once
    assert (result.failure.kind, result.attempts, type(tool).calls) == ("gone", 1, 1)
    assert retried.tool_info("wobbly").retry == (4, 0.5, 1.5)


def test_async_retries_wait_on_the_clock_too(retried: ModuleType) -> None:
    clock = FakeClock()
    tool = _counting(retried, "wobbly")
    registry = retried.Registry([tool], clock=clock)
    result = asyncio.run(registry.acall("wobbly", {"fails": 1, "kind": "busy"}))
    assert result.ok and result.attempts == 2 and clock.waits == [0.5]


def test_a_tool_flagged_retryable_is_called_again_after_an_unexpected_exception(
    retried: ModuleType,
) -> None:
    tool = _counting(retried, "shaky")
    registry = retried.Registry([tool], clock=FakeClock())
    assert registry.call("shaky", {"fails": 1}).attempts == 2
    type(tool).calls = 0
    result = registry.call("shaky", {"fails": 5})
    assert (result.failure.kind, result.failure.retryable, result.attempts) == ("internal", True, 2)


def test_a_rate_limit_fails_or_waits_past_its_calls(retried: ModuleType) -> None:
    clock = FakeClock()
    registry = retried.Registry(
        [_counting(retried, "limited"), _counting(retried, "patient")], clock=clock
    )
    assert registry.call("limited", {}).ok and registry.call("limited", {}).ok
    third = registry.call("limited", {})
    assert (third.failure.kind, third.failure.retryable) == ("rate_limited", True)
    assert (
        third.failure.message == "tool 'limited' takes at most 2 calls in 1 s; call it again in 1 s"
    )
    clock.now += 0.6
    assert not registry.call("limited", {}).ok  # the window slides: both calls are still in it
    clock.now += 0.4
    assert registry.call("limited", {}).ok  # one second after the first two
    assert registry.call("patient", {}).ok and registry.call("patient", {}).ok and not clock.waits
    assert registry.call("patient", {}).ok and clock.waits == [1.0]  # waited for a slot, then ran
    assert asyncio.run(registry.acall("patient", {})).ok and clock.waits == [1.0]  # a slot was free
    assert asyncio.run(registry.acall("patient", {})).ok and clock.waits == [1.0, 1.0]
    derived = registry.without("limited")  # one slot is left in this second: the limit is shared
    assert derived.call("patient", {}).ok and clock.waits == [1.0, 1.0]
    assert derived.call("patient", {}).ok and clock.waits == [1.0, 1.0, 1.0]


def test_a_cache_answers_the_same_call_until_it_expires(retried: ModuleType) -> None:
    clock = FakeClock()
    tool = _counting(retried, "lookup")
    registry = retried.Registry([tool], clock=clock)
    ask = lambda n, user="ada": registry.call("lookup", {"fails": n}, injected={"user": user})  # noqa: E731
    assert ask(1).data() == {"call": 1} and ask(1).data() == {"call": 1}  # run once
    assert ask(1, "bob").data() == {"call": 2}  # another user's values: another entry
    assert asyncio.run(
        registry.acall("lookup", '{"fails": 1}', injected={"user": "ada"})
    ).data() == {"call": 1}
    clock.now += 60
    assert ask(1).data() == {"call": 3}  # expired
    assert ask(2).data() == {"call": 4} and ask(3).data() == {"call": 5}  # two entries at most
    assert ask(1).data() == {"call": 6} and type(tool).calls == 6  # the oldest went first


def test_lint_refuses_a_cache_on_a_tool_that_is_not_idempotent(tmp_path: Path) -> None:
    from toolgen.pipeline import check_specs

    (tmp_path / "t.yaml").write_text(
        "name: t\ndescription: Sends a message.\ncache: {ttl_s: 5}\n", "utf-8"
    )
    diagnostics, _ = check_specs(tmp_path)
    [found] = [d for d in diagnostics if d.rule == "cache-not-idempotent"]
    assert found.is_error and (found.line, found.col) == (3, 1)


@pytest.mark.parametrize("how", ["call", "acall"])
def test_a_sync_tool_past_its_deadline_can_see_that_its_call_is_over(
    package: ModuleType, how: str
) -> None:
    seen = threading.Event()

    class Polite(interface_of(package, "slow")):  # type: ignore[misc, valid-type]
        def run(self, arguments: Any) -> Any:
            assert not package.cancelled()
            stop = time.monotonic() + 5
            while time.monotonic() < stop:
                if package.cancelled():
                    seen.set()  # it stops instead of working on unseen
                    return {}
                time.sleep(0.01)
            return {}

    registry = package.Registry([Polite()])
    if how == "call":
        result = registry.call("slow", {"seconds": 1})
    else:
        result = asyncio.run(registry.acall("slow", {"seconds": 1}))
    assert result.failure.kind == "timeout"
    assert seen.wait(2)
    assert not package.cancelled()  # outside a call: nothing to stop
