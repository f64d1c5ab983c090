"""Streaming tools (runtime/calls/streaming.py): a generator `run`, sync or async, drained by the
registry under the call's deadline; events reach the host as they come (`on_event`,
`astream`), the result is checked like any other, and a stream cut short is closed so that
its cleanup runs. Real threads and tasks, short waits."""

from __future__ import annotations

import asyncio
import threading
import time
from collections.abc import Iterator
from types import ModuleType
from typing import Any

import pytest

from tests.support.runtime_support import generated_package, interface

COUNT = {
    "type": "object",
    "properties": {
        "n": {"type": "integer", "description": "How many."},
        "pause": {"type": "number", "description": "Seconds between."},
    },
    "required": ["n"],
}
TOTAL = {"type": "object", "properties": {"total": {"type": "integer"}}, "required": ["total"]}
SPECS = {
    "tools": [
        {
            "name": "count",
            "description": "Counts, as it goes.",
            "flags": ["streaming"],
            "parameters": COUNT,
            "returns": TOTAL,
        },
        {
            "name": "acount",
            "description": "Counts, as it goes (async).",
            "flags": ["streaming"],
            "parameters": COUNT,
            "returns": TOTAL,
        },
        {
            "name": "endless",
            "description": "Counts until stopped.",
            "flags": ["streaming"],
            "timeout_s": 0.3,
            "parameters": COUNT,
            "returns": TOTAL,
        },
        {
            "name": "aendless",
            "description": "Counts until stopped (async).",
            "flags": ["streaming"],
            "timeout_s": 0.3,
            "parameters": COUNT,
            "returns": TOTAL,
        },
        {"name": "plain", "description": "Not streaming.", "parameters": COUNT, "returns": TOTAL},
    ]
}


@pytest.fixture(scope="module")
def package(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ModuleType]:
    yield from generated_package(tmp_path_factory, "streams", SPECS)


class Log:
    def __init__(self) -> None:
        self.cleaned: list[str] = []
        self.finished: dict[str, float] = {}
        self.done = threading.Event()


def tools(package: ModuleType, log: Log, result: Any = None) -> list[Any]:
    def sync_count(name: str) -> Any:
        class Count(interface(package, name)):  # type: ignore[misc]
            def run(self, arguments: Any) -> Any:
                try:
                    i = 0
                    while name == "endless" or i < arguments.n:
                        i += 1
                        yield package.Progress(i, None if name == "endless" else arguments.n)
                        yield package.Chunk(f"{i}\n")
                        time.sleep(arguments.pause or 0)
                    log.finished[name] = time.monotonic()
                    return result if result is not None else {"total": i}
                finally:
                    log.cleaned.append(name)
                    log.done.set()

        return Count()

    def async_count(name: str) -> Any:
        class ACount(interface(package, name)):  # type: ignore[misc]
            async def run(self, arguments: Any) -> Any:
                try:
                    i = 0
                    while name == "aendless" or i < arguments.n:
                        i += 1
                        yield package.Progress(i, arguments.n)
                        yield package.Partial({"so_far": i})
                        await asyncio.sleep(arguments.pause or 0)
                    log.finished[name] = time.monotonic()
                    yield result if result is not None else {"total": i}
                finally:
                    log.cleaned.append(name)
                    log.done.set()

        return ACount()

    class Plain(interface(package, "plain")):  # type: ignore[misc]
        def run(self, arguments: Any) -> Any:
            yield {"total": 1}  # a generator, but the spec does not say it streams

    return [
        sync_count("count"),
        async_count("acount"),
        sync_count("endless"),
        async_count("aendless"),
        Plain(),
    ]


def test_call_hands_each_event_to_the_host_then_checks_the_result(package: ModuleType) -> None:
    log = Log()
    registry = package.Registry(tools(package, log))
    for name in ("count", "acount"):
        events: list[Any] = []
        result = registry.call(name, {"n": 3}, on_event=events.append)
        assert result.ok and result.data() == {"total": 3}
        assert [e.kind for e in events] == [
            "progress",
            "chunk" if name == "count" else "partial",
        ] * 3
        assert events[0] == package.Progress(1, 3) and not events[0].is_final
    assert registry.call("count", {"n": 2}).data() == {"total": 2}  # events are optional
    assert log.cleaned == ["count", "acount", "count"]


def test_acall_drains_sync_and_async_streams_off_the_event_loop(package: ModuleType) -> None:
    log = Log()
    registry = package.Registry(tools(package, log))

    async def both() -> list[Any]:
        events: list[Any] = []
        results = await asyncio.gather(
            registry.acall("count", {"n": 2, "pause": 0.2}, on_event=events.append),
            registry.acall("acount", {"n": 2, "pause": 0.2}, on_event=events.append),
        )
        return [results, events]

    started = time.monotonic()
    results, events = asyncio.run(both())
    assert time.monotonic() - started < 0.7  # the sync stream did not hold the loop
    assert [r.data() for r in results] == [{"total": 2}, {"total": 2}] and len(events) == 8


@pytest.mark.parametrize("name", ["count", "acount"])
def test_astream_yields_events_as_they_come_then_the_final_result(
    package: ModuleType, name: str
) -> None:
    log = Log()
    registry = package.Registry(tools(package, log))

    async def collect() -> list[tuple[float, Any]]:
        return [
            (time.monotonic(), event)
            async for event in registry.astream(name, {"n": 3, "pause": 0.1})
        ]

    seen = asyncio.run(collect())
    first_at, first = seen[0]
    assert (
        first.kind == "progress" and first_at < log.finished[name] - 0.15
    )  # before the tool finished
    final = seen[-1][1]
    assert final.is_final and not final.was_interrupted and final.result.data() == {"total": 3}
    assert [e.kind for _, e in seen[:-1]].count("progress") == 3


def test_astream_of_a_tool_that_does_not_stream_is_its_final_result(package: ModuleType) -> None:
    registry = package.Registry(tools(package, Log()))

    async def collect() -> list[Any]:
        return [event async for event in registry.astream("count", {"n": "x"})]

    [final] = asyncio.run(collect())
    assert final.is_final and final.result.failure.kind == "invalid_arguments"


@pytest.mark.parametrize("name", ["endless", "aendless"])
@pytest.mark.parametrize("how", ["call", "acall"])
def test_the_deadline_covers_the_whole_stream_and_its_cleanup_runs(
    package: ModuleType, name: str, how: str
) -> None:
    log = Log()
    registry = package.Registry(tools(package, log))
    events: list[Any] = []
    started = time.monotonic()
    if how == "call":
        result = registry.call(name, {"n": 0, "pause": 0.05}, on_event=events.append)
    else:
        result = asyncio.run(registry.acall(name, {"n": 0, "pause": 0.05}, on_event=events.append))
    assert result.failure.kind == "timeout" and time.monotonic() - started < 1.0
    assert len(events) >= 4  # it streamed until the deadline
    assert log.done.wait(2) and log.cleaned == [name]  # closed: its finally ran


@pytest.mark.parametrize("name", ["count", "acount"])
def test_leaving_astream_early_cancels_the_call_and_closes_the_stream(
    package: ModuleType, name: str
) -> None:
    log = Log()
    registry = package.Registry(tools(package, log))

    async def first_only() -> Any:
        async for event in registry.astream(name, {"n": 100, "pause": 0.05}):
            return event
        return None

    assert asyncio.run(first_only()).kind == "progress"
    assert log.done.wait(2) and log.cleaned == [name] and name not in log.finished


def test_a_streams_result_is_checked_and_its_form_enforced(package: ModuleType) -> None:
    bad = package.Registry(tools(package, Log(), result={"total": "three"}))
    assert bad.call("count", {"n": 1}).failure.kind == "invalid_result"
    assert bad.call("acount", {"n": 1}).failure.kind == "invalid_result"
    registry = package.Registry(tools(package, Log()))
    assert (
        registry.call("plain", {"n": 1}).failure.kind == "invalid_result"
    )  # not declared streaming
    assert registry.call("acount", {"n": 0}).ok  # a stream may have no events

    class NoResult(interface(package, "count")):  # type: ignore[misc]
        def run(self, arguments: Any) -> Any:
            yield package.Chunk("only this")

    broken = package.Registry([NoResult()]).call("count", {"n": 1})
    assert broken.failure.kind == "internal" and "ended without a result" in str(broken.exception)
