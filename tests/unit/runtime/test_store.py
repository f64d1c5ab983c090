"""The state stores (runtime/store/): the in-process one and Redis, one interface, the same
answers; which a URL names; a Redis that does not answer raises StoreUnavailable."""

from __future__ import annotations

import asyncio
import gc
import sys
import time
import warnings
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.support.redis_support import free_port, redis_server
from toolgen.runtime.store.base import StoreUnavailable, shown
from toolgen.runtime.store.memory import MemoryStore
from toolgen.runtime.store.named import open_store


@pytest.fixture(scope="module")
def redis_url(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    with redis_server(tmp_path_factory.mktemp("redis")) as server:
        yield server.url


@pytest.fixture(params=["memory", "redis"])
def store(request: pytest.FixtureRequest) -> Any:
    """Each store, empty: a Redis store gets a prefix of its own per test."""
    if request.param == "memory":
        return MemoryStore()
    url = request.getfixturevalue("redis_url")
    return open_store(f"{url}?prefix=t{time.monotonic_ns()}&lease_s=0.5")


def test_a_url_names_the_store(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("TOOLGEN_STORE", raising=False)
    assert type(open_store()) is MemoryStore
    assert type(open_store("memory://")) is MemoryStore
    monkeypatch.setenv("TOOLGEN_STORE", "redis://127.0.0.1:1/0?prefix=p")
    found = open_store()
    assert (found.shared, found.prefix, found.url) == (True, "p", "redis://127.0.0.1:1/0?prefix=p")
    with pytest.raises(ValueError, match="not a store URL"):
        open_store("mysql://db")
    with pytest.raises(ValueError, match="lease_s='0'"):
        open_store("redis://127.0.0.1:1/0?lease_s=0")


def test_a_redis_url_without_the_client_says_which_extra(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(sys.modules, "redis", None)  # as if it were not installed
    monkeypatch.delitem(sys.modules, "toolgen.runtime.store.redis", raising=False)
    with pytest.raises(ImportError, match="install the package's `redis` extra"):
        open_store("redis://127.0.0.1:1/0")


def test_a_shown_url_hides_the_password() -> None:
    assert shown("redis://:hunter2@db:6379/1") == "redis://***@db:6379/1"
    assert shown("redis://app:hunter2@db/0") == "redis://app:***@db/0"
    assert shown("redis://db:6379/0") == "redis://db:6379/0"


def test_a_window_counts_calls_starts(store: Any) -> None:
    now = 1000.0
    assert [store.reserve("rate:w", 3, 60, now) for _ in range(3)] == [0.0, 0.0, 0.0]
    waited = store.reserve("rate:w", 3, 60, now)
    assert 59 < waited <= 60  # until the oldest start leaves the window
    assert store.reserve("rate:other", 1, 60, now) == 0.0  # another key, another window


def test_a_window_frees_a_start_once_it_is_past(store: Any) -> None:
    assert store.reserve("rate:s", 1, 0.2, 1000.0) == 0.0
    assert store.reserve("rate:s", 1, 0.2, 1000.0) > 0
    time.sleep(0.25)  # the shared store reads its server's clock
    assert store.reserve("rate:s", 1, 0.2, 1000.25) == 0.0


def test_a_map_keeps_entries_for_their_ttl_and_drops_the_oldest(store: Any) -> None:
    value = b"v" if store.shared else object()
    store.put("cache:m", "a", value, 60, 2, 1000.0)
    assert store.get("cache:m", "a", 60, 1000.0) == value
    store.put("cache:m", "b", value, 60, 2, 1000.0)
    time.sleep(0.002)
    store.put("cache:m", "c", value, 60, 2, 1000.0)
    assert store.get("cache:m", "a", 60, 1000.0) is None  # the oldest, past max_entries
    assert store.get("cache:m", "c", 60, 1000.0) == value
    time.sleep(0.15)
    assert store.get("cache:m", "c", 0.1, 1000.2) is None  # past its ttl


def test_a_claim_is_true_once(store: Any) -> None:
    later = time.time() + 60
    assert [store.claim("record:x", later) for _ in range(3)] == [True, False, False]
    assert store.claim("record:y", later) is True


def test_leases_are_counted_and_released(store: Any) -> None:
    first, second = store.acquire("slots", 2, 0.5), store.acquire("slots", 2, 0.5)
    assert first and second and first != second
    assert store.acquire("slots", 2, 0.5) is None
    store.release("slots", first)
    third = store.acquire("slots", 2, 0.5)
    assert third is not None
    store.release("slots", second)
    store.release("slots", third)


def test_the_awaitable_twins_answer_the_same(store: Any) -> None:
    async def run() -> list[Any]:
        later = time.time() + 60
        await store.aput("cache:a", "k", b"v", 60, 5, 1000.0)
        token = await store.aacquire("slots", 1, 0.5)
        answers = [
            await store.areserve("rate:a", 1, 60, 1000.0),
            await store.areserve("rate:a", 1, 60, 1000.0) > 0,
            await store.aget("cache:a", "k", 60, 1000.0),
            await store.aclaim("record:a", later),
            await store.aclaim("record:a", later),
            await store.aacquire("slots", 1, 0.5),
        ]
        await store.arelease("slots", token)
        return answers

    assert asyncio.run(run()) == [0.0, True, b"v", True, False, None]


def test_a_task_record_is_kept_listed_and_final_once_it_ends(store: Any) -> None:
    async def run() -> tuple[Any, ...]:
        later = time.time() + 60
        first = await store.aput_task("tasks", "task:a", '{"s": "working"}', False, later)
        await store.aput_task("tasks", "task:b", '{"b": 1}', False, later + 1)
        ended = await store.aput_task("tasks", "task:a", '{"s": "cancelled"}', True, later)
        after = await store.aput_task("tasks", "task:a", '{"s": "completed"}', True, later)
        return (
            first,
            ended,
            after,
            await store.aget_task("task:a"),
            await store.aget_task("task:none"),
            await store.alist_tasks("tasks"),
        )

    assert asyncio.run(run()) == (
        True,
        True,
        False,  # a final record stays as it ended
        '{"s": "cancelled"}',
        None,
        ['{"s": "cancelled"}', '{"b": 1}'],  # the first to expire first
    )


def test_a_task_put_expecting_a_version_is_refused_once_another_came_between(store: Any) -> None:
    async def run() -> tuple[Any, ...]:
        later = time.time() + 60
        put = store.aput_task
        made = await put("tasks", "task:c", "v0", False, later, version=0)
        first = await put("tasks", "task:c", "v1", False, later, version=1, expect=0)
        stale = await put("tasks", "task:c", "late", False, later, version=1, expect=0)
        none = await put("tasks", "task:gone", "v1", False, later, version=1, expect=0)
        return made, first, stale, none, await store.aget_task("task:c")

    # a write based on version 0 is refused once version 1 is stored; one expecting a record
    # that is not there is refused too
    assert asyncio.run(run()) == (True, True, False, False, "v1")


def test_each_task_put_is_told_to_a_listener(store: Any) -> None:
    async def run() -> list[str | None]:
        later = time.time() + 60
        notices = store.anotices()
        told = [await anext(notices)]  # None: listening
        await store.aput_task("tasks", "task:n", "{}", False, later)
        await store.aput_task("tasks", "task:n", "{}", True, later)
        await store.aput_task("tasks", "task:n", "{}", True, later)  # refused: not told
        await store.aput_task("tasks", "task:m", "{}", False, later)
        for _ in range(3):
            told.append(await asyncio.wait_for(anext(notices), 5))
        await notices.aclose()
        return told

    assert asyncio.run(run()) == [None, "task:n", "task:n", "task:m"]


def test_a_task_record_is_forgotten_when_it_expires(store: Any) -> None:
    async def run() -> tuple[Any, ...]:
        soon = time.time() + 1.2
        await store.aput_task("tasks", "task:short", "{}", False, soon)
        await store.aput_task("tasks", "task:long", '{"l": 1}', False, soon + 60)
        kept = await store.aget_task("task:short")
        await asyncio.sleep(max(0.0, soon - time.time()) + 1.1)  # Redis expires on whole seconds
        return kept, await store.aget_task("task:short"), await store.alist_tasks("tasks")

    assert asyncio.run(run()) == ("{}", None, ['{"l": 1}'])


def test_a_dead_holders_lease_ends_and_a_live_one_is_renewed(redis_url: str) -> None:
    url = f"{redis_url}?prefix=lease{time.monotonic_ns()}&lease_s=0.3"
    dead, live, other = open_store(url), open_store(url), open_store(url)
    gone = dead.acquire("slots", 2, 0.3)
    kept = live.acquire("slots", 2, 0.3)
    assert gone and kept
    dead._forget(gone)  # its process stops renewing: as if it were killed
    time.sleep(0.8)  # well past one lease: the live holder renewed twice meanwhile
    found = other.acquire("slots", 2, 0.3)
    assert found is not None  # the dead holder's slot is free
    assert other.acquire("slots", 2, 0.3) is None  # the live holder's is still held
    live.release("slots", kept)
    other.release("slots", found)


def test_a_store_that_does_not_answer_raises_naming_it() -> None:
    port = free_port()  # nothing listens there
    store = open_store(f"redis://:pw@127.0.0.1:{port}/0?timeout_s=0.5")
    with pytest.raises(StoreUnavailable) as raised:
        store.reserve("rate:x", 1, 1, 0.0)
    assert raised.value.url == f"redis://***@127.0.0.1:{port}/0?timeout_s=0.5"
    assert str(raised.value).startswith(f"the state store {raised.value.url} cannot be reached: ")
    assert "pw" not in str(raised.value)
    with pytest.raises(StoreUnavailable):
        asyncio.run(store.aclaim("record:x", time.time() + 5))


def test_redis_comes_back_without_a_new_store(tmp_path: Path) -> None:
    with redis_server(tmp_path) as server:
        store = open_store(server.url + "?timeout_s=0.5")
        assert store.claim("record:z", time.time() + 60) is True
        server.stop()
        with pytest.raises(StoreUnavailable):
            store.claim("record:z2", time.time() + 60)
        server.start()  # empty again: nothing persisted
        assert store.claim("record:z2", time.time() + 60) is True


def test_a_loop_closed_without_ending_its_generators_has_its_client_dropped(
    redis_url: str,
) -> None:
    """`loop.close()` alone does not close the loop's client (asyncio.run's end does): the
    next loop's first call drops it, so the clients kept stay one per live loop."""
    store = open_store(f"{redis_url}?prefix=loops{time.monotonic_ns()}")
    held = []
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", ResourceWarning)  # the dropped clients' sockets
        for n in range(3):
            loop = asyncio.new_event_loop()
            assert loop.run_until_complete(store.aclaim(f"closed{n}", time.time() + 60))
            loop.close()
            held.append(len(store._loops))
        assert asyncio.run(store.aclaim("ran", time.time() + 60))
        gc.collect()
    assert held == [1, 1, 1]  # each new loop dropped the closed one's
    assert len(store._loops) == 0  # asyncio.run's loop closed its own as it ended


def test_a_close_that_never_ends_is_left_and_the_next_one_runs(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """redis.closed: each close waited for at most CLOSE_S; one that fails or hangs does not
    stop the next, nor hold its caller (a subscription's `finally` at a loop's end)."""
    redis_store = pytest.importorskip("toolgen.runtime.store.redis")
    monkeypatch.setattr(redis_store, "CLOSE_S", 0.05)
    ran: list[str] = []

    async def hangs() -> None:
        ran.append("hangs")
        await asyncio.Event().wait()

    async def fails() -> None:
        ran.append("fails")
        raise ConnectionError("gone")

    async def ends() -> None:
        ran.append("ends")

    # (unbounded, the hanging close would never return: this test then fails after a minute)
    asyncio.run(asyncio.wait_for(redis_store.closed(hangs, fails, ends), 60))
    assert ran == ["hangs", "fails", "ends"]
