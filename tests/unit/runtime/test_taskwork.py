"""A task's record on the Board (runtime/serving/taskwork.py, tasks_watch.py), on the real
in-process store and a real redis-server: its changes followed as they are put (the store's
notices, or polling where a store gives none), writes that never undo a newer one (a late
progress event does not take a task out of `input_required`), a task seen only by its owner.
No worker runs here: the tasks stay as the test writes them."""

from __future__ import annotations

import asyncio
import time
from collections.abc import Iterator
from types import SimpleNamespace
from typing import Any

import pytest

from tests.support.redis_support import redis_server
from toolgen.runtime.serving import tasks_watch
from toolgen.runtime.serving.taskwork import Board, TaskMissing
from toolgen.runtime.store.memory import MemoryStore
from toolgen.runtime.store.named import open_store

pytest.importorskip("docket", reason="tasks are queued on Docket (the server extra)")


@pytest.fixture(scope="module")
def redis_url(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    with redis_server(tmp_path_factory.mktemp("redis")) as server:
        yield server.url


@pytest.fixture(params=["memory", "redis"])
def stores(request: pytest.FixtureRequest) -> tuple[Any, Any]:
    """Two handles on one store: the same object in process; two clients of one Redis (as two
    processes have), with a prefix of their own per test."""
    if request.param == "memory":
        store = MemoryStore()
        return store, store
    url = f"{request.getfixturevalue('redis_url')}?prefix=w{time.monotonic_ns()}"
    return open_store(url), open_store(url)


def board(store: Any) -> Board:
    return Board(SimpleNamespace(store=store), run_here=False)  # type: ignore[arg-type]


class Silent:
    """A store that tells nothing of its puts (no `anotices`): its readers poll."""

    def __init__(self, store: Any) -> None:
        self.store = store
        self.shared = store.shared
        self.aput_task, self.aget_task = store.aput_task, store.aget_task
        self.alist_tasks = store.alist_tasks
        if store.shared:
            self.connection_url, self.prefix = store.connection_url, store.prefix


class Gated:
    """A store whose next put of a task waits until `open` is set (after reading: the put of a
    write based on a record read is held between its read and its write)."""

    def __init__(self, store: Any) -> None:
        self.store, self.shared = store, store.shared
        self.aget_task, self.alist_tasks = store.aget_task, store.alist_tasks
        self.anotices = store.anotices
        self.held, self.open = asyncio.Event(), asyncio.Event()
        if store.shared:
            self.connection_url, self.prefix = store.connection_url, store.prefix

    async def aput_task(self, *args: Any, **kwargs: Any) -> bool:
        if not self.open.is_set():
            self.held.set()
            await self.open.wait()
        taken: bool = await self.store.aput_task(*args, **kwargs)
        return taken


@pytest.mark.parametrize("silent", [False, True], ids=["notified", "polled"])
def test_each_change_of_a_task_is_followed_until_it_ends(
    stores: tuple[Any, Any], silent: bool
) -> None:
    """Written through one handle, followed through the other (another process, for Redis)."""
    writer = board(stores[0])
    reader = board(Silent(stores[1]) if silent else stores[1])

    async def run() -> tuple[list[tuple[str, Any]], bool]:
        created = await writer.create("tool", {}, None)
        task_id = created["taskId"]
        seen: list[tuple[str, Any]] = []
        changes = reader.changes(task_id)
        seen.append(await _status(anext(changes)))
        await asyncio.sleep(0.05)  # the reader subscribed, or polls slower than at first
        live = reader._notices is not None and reader._notices[1].live
        await writer._working(task_id, statusMessage="1/3")
        seen.append(await _status(anext(changes)))
        await writer._working(task_id, statusMessage="2/3")
        seen.append(await _status(anext(changes)))
        await writer._end(task_id, "completed", None, {"content": []})
        seen.append(await _status(anext(changes)))
        seen.extend([(r["status"], r.get("statusMessage")) async for r in changes])  # ended
        return seen, live

    seen, live = asyncio.run(run())
    assert seen == [
        ("working", "queued for a worker"),
        ("working", "1/3"),
        ("working", "2/3"),
        ("completed", None),
    ]
    assert live is not silent  # both stores notify; a silent one is polled


async def _status(pending: Any) -> tuple[str, Any]:
    record = await asyncio.wait_for(pending, 10)
    return record["status"], record.get("statusMessage")


def test_a_task_that_expires_while_followed_ends_its_changes(stores: tuple[Any, Any]) -> None:
    tasks = board(stores[0])

    async def run() -> tuple[list[str], Any]:
        created = await tasks.create("tool", {}, 1000)
        followed = [r["status"] async for r in tasks.changes(created["taskId"])]
        try:
            await tasks.result(created["taskId"])
        except TaskMissing as missing:
            return followed, missing.expired
        return followed, None

    followed, expired = asyncio.run(run())
    assert (followed, expired) == (["working"], True)


def test_a_late_progress_event_leaves_a_task_waiting_for_its_answer(
    stores: tuple[Any, Any],
) -> None:
    """The progress write reads the task `working`, then the run's question is written
    before its own write lands: the progress is refused (another write came between), read
    again, and dropped (the task is no longer working). Without the compare-and-set it set
    the task `working` again, its question lost."""
    gated = Gated(stores[0])
    tasks, other = board(gated), board(stores[1])

    async def run() -> dict[str, Any]:
        gated.open.set()
        created = await tasks.create("tool", {}, None)
        task_id = created["taskId"]
        gated.open.clear()
        progress = tasks_watch.Progress(
            lambda message: tasks._working(task_id, statusMessage=message),
            asyncio.get_running_loop(),
        )
        progress.event(SimpleNamespace(message="half done"))
        await asyncio.wait_for(gated.held.wait(), 10)  # its record read, its put held

        def asking(record: dict[str, Any]) -> dict[str, Any]:
            return {**record, "status": "input_required", "statusMessage": "What is your name?"}

        await other._update(task_id, asking)
        gated.open.set()
        assert progress.writing is not None
        await asyncio.wait_for(progress.writing, 10)
        return await tasks.get(task_id)

    record = asyncio.run(run())
    assert (record["status"], record["statusMessage"]) == ("input_required", "What is your name?")


def test_a_task_is_seen_only_by_its_owner(stores: tuple[Any, Any]) -> None:
    tasks = board(stores[0])

    async def run() -> tuple[Any, ...]:
        mine = await tasks.create("tool", {}, None, owner="alice")
        theirs = await tasks.create("tool", {}, None, owner="bob")
        task_id = mine["taskId"]
        told = []
        for attempt in (
            tasks.get(task_id, "bob"),
            tasks.get(task_id, None),
            tasks.cancel(task_id, "bob"),
            tasks.result(task_id, "bob"),
        ):
            try:
                await attempt
            except TaskMissing as missing:
                told.append((missing.expired, str(missing)))
        never = f"{'0' * 32}.{task_id.rpartition('.')[2]}"  # a task that never was
        try:
            await tasks.get(never, "bob")
        except TaskMissing as missing:
            told.append((missing.expired, str(missing).replace(never, task_id)))
        listed = {
            owner: [r["taskId"] for r in await tasks.listed(owner)] for owner in ("alice", "bob")
        }
        kept = await tasks.get(task_id, "alice")
        return told, listed, kept["status"], mine["taskId"], theirs["taskId"]

    told, listed, status, mine, theirs = asyncio.run(run())
    assert told == [(False, f"no task {mine!r} (it was never created here)")] * 5
    assert listed == {"alice": [mine], "bob": [theirs]}
    assert status == "working"  # another's cancel did nothing
