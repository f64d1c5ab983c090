# Part of toolgen's runtime, copied verbatim into generated packages (edit toolgen, not a copy).
"""Each change of a task's record as it happens: what `tasks/result` waits on and what status
notifications follow (taskwork.py's `Board.changes`; task_notices.py); and a run's events
written as its status message as they come (`Progress`).

The store says when a task's record is put (`anotices`: the in-process store on this
process's loops, Redis by a message its put script publishes to every process): one
subscription per loop wakes the watchers of that task, which read the record again. The
store is read on a backoff too, from `FIRST_S` up to `CAP_S` while no subscription is live
(it is starting, or the store cannot notify: then the backoff is what finds a change), and
every `LIVE_S` while one is (a fallback for a notice lost while it reconnected, and for a
task that expired, which no put announces).
"""

from __future__ import annotations

import asyncio
from collections.abc import AsyncGenerator, AsyncIterator, Awaitable, Callable
from typing import Any

FIRST_S = 0.005  # the first wait of the backoff, and after each change
CAP_S = 0.125  # the longest wait between two readings while the store cannot notify
LIVE_S = 0.5  # between two readings while it can (a fallback only)


class Notices:
    """The store's notices of task records put, on one loop: the events of the watched keys
    set as each arrives."""

    def __init__(self, store: Any) -> None:
        self.store = store
        self.live = False  # subscribed now: a put anywhere is told here
        self._events: dict[str, set[asyncio.Event]] = {}
        self._listening: asyncio.Task[None] | None = None

    def watch(self, key: str) -> asyncio.Event:
        """An event set at each put of `key` (forget it with `unwatch`)."""
        self._listen()
        event = asyncio.Event()
        self._events.setdefault(key, set()).add(event)
        return event

    def unwatch(self, key: str, event: asyncio.Event) -> None:
        watching = self._events.get(key, set())
        watching.discard(event)
        if not watching:
            self._events.pop(key, None)

    def _listen(self) -> None:
        """Subscribe, unless subscribed (one that failed is started again by the next
        watch; meanwhile the watchers poll)."""
        if self._listening is not None and not self._listening.done():
            return
        notices = getattr(self.store, "anotices", None)
        if notices is not None:
            self.live = False
            self._listening = asyncio.get_running_loop().create_task(self._listened(notices))

    async def _listened(self, notices: Callable[[], AsyncIterator[str | None]]) -> None:
        try:
            async for key in notices():
                if key is None:
                    self.live = True  # subscribed: every later put is told
                    continue
                for event in self._events.get(key, ()):
                    event.set()
        except Exception:  # noqa: BLE001 - the store is down: the watchers poll meanwhile
            pass
        finally:
            self.live = False


async def changes(
    notices: Notices,
    key: str,
    read: Callable[[], Awaitable[dict[str, Any] | None]],
    final: Callable[[dict[str, Any]], bool],
) -> AsyncGenerator[dict[str, Any], None]:
    """The record `read` gives now, then each time it changes, until `final` holds for it or
    `read` finds it gone (None). A store that fails raises (after the first reading too)."""
    event = notices.watch(key)
    try:
        record = await read()
        if record is None:
            return
        yield record
        wait = FIRST_S
        while not final(record):
            try:
                await asyncio.wait_for(event.wait(), LIVE_S if notices.live else wait)
            except TimeoutError:
                pass
            event.clear()  # before reading: a put from now on is seen, by this read or the next
            now = await read()
            if now is None:
                return
            if now == record:
                wait = min(wait * 2, CAP_S)
                continue
            record, wait = now, FIRST_S
            yield record
    finally:
        notices.unwatch(key, event)


class Progress:
    """A run's streaming events as its task's status message, by `write` (taskwork.py's, which
    writes only while the task is `working`: never past its end, never out of
    `input_required`): in order, the latest only when several came during one write."""

    def __init__(
        self, write: Callable[[str], Awaitable[Any]], loop: asyncio.AbstractEventLoop
    ) -> None:
        self.write, self.loop = write, loop
        self.pending: str | None = None
        self.writing: asyncio.Task[None] | None = None

    def event(self, event: Any) -> None:
        """`on_event` of the call: from the loop, or a sync tool's worker thread."""
        message = getattr(event, "message", None) or getattr(event, "text", None)
        if message is None:
            done, total = getattr(event, "done", None), getattr(event, "total", None)
            message = f"{done}/{total}" if done is not None and total else event.kind
        self.loop.call_soon_threadsafe(self._noted, str(message))

    def _noted(self, message: str) -> None:
        self.pending = message
        if self.writing is None or self.writing.done():
            self.writing = self.loop.create_task(self._write())

    async def _write(self) -> None:
        while self.pending is not None:
            message, self.pending = self.pending, None
            await self.write(message)
