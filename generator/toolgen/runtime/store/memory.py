# Part of toolgen's runtime, copied verbatim into generated packages (edit toolgen, not a copy).
"""The store of one process (base.py's interface): the default, with no server.

Thread-safe (one lock) and asyncio-safe (no operation awaits inside, so no task switch
happens within one). Values are kept as they are given (no encoding). Windows and entries
run on the caller's clock (`now`: the registry's monotonic clock); claims on wall time.
Nothing here is seen by another process: several processes serving one package each have
their own limits, caches and records (`serve --workers N` says so at start).
"""

from __future__ import annotations

import heapq
import itertools
import threading
import time
from collections import OrderedDict, deque
from collections.abc import AsyncIterator
from typing import TYPE_CHECKING, Any

from .base import MEMORY

if TYPE_CHECKING:
    import asyncio  # a call loads it only when it runs on a loop (anotices imports it then)


class MemoryStore:
    url = MEMORY
    shared = False

    def __init__(self) -> None:
        self._windows: dict[str, deque[float]] = {}
        self._maps: dict[str, OrderedDict[str, tuple[float, Any]]] = {}
        self._claimed: set[str] = set()
        self._expiring: list[tuple[float, str]] = []  # a heap: the first claim to expire first
        self._leases: dict[str, set[str]] = {}
        self._tokens = itertools.count(1)
        # key -> final, record, expires_at, version
        self._tasks: dict[str, tuple[bool, str, float, int]] = {}
        self._indexes: dict[str, set[str]] = {}
        self._listeners: list[tuple[asyncio.AbstractEventLoop, asyncio.Queue[str | None]]] = []
        self._lock = threading.Lock()

    def reserve(self, key: str, calls: int, per_s: float, now: float) -> float:
        with self._lock:
            starts = self._windows.get(key)
            if starts is None:
                starts = self._windows[key] = deque()
            while starts and now - starts[0] >= per_s:
                starts.popleft()
            if len(starts) < calls:
                starts.append(now)
                return 0.0
            return per_s - (now - starts[0])

    def get(self, key: str, field: str, ttl_s: float, now: float) -> Any:
        with self._lock:
            entries = self._maps.get(key)
            found = None if entries is None else entries.get(field)
            if found is None:
                return None
            stored, value = found
            if now - stored >= ttl_s:
                del entries[field]  # type: ignore[union-attr]
                return None
            return value

    def put(
        self, key: str, field: str, value: Any, ttl_s: float, max_entries: int, now: float
    ) -> None:
        with self._lock:
            entries = self._maps.get(key)
            if entries is None:
                entries = self._maps[key] = OrderedDict()
            entries[field] = (now, value)
            entries.move_to_end(field)
            while len(entries) > max_entries:
                entries.popitem(last=False)

    def claim(self, key: str, expires_at: float) -> bool:
        with self._lock:
            now = time.time()
            while self._expiring and self._expiring[0][0] < now:  # past expiry: forgotten
                self._claimed.discard(heapq.heappop(self._expiring)[1])
            if key in self._claimed:
                return False
            self._claimed.add(key)
            heapq.heappush(self._expiring, (expires_at, key))
            return True

    def acquire(self, key: str, limit: int, lease_s: float) -> str | None:
        """A lease of one process ends only when released: no holder here dies alone."""
        with self._lock:
            held = self._leases.setdefault(key, set())
            if len(held) >= limit:
                return None
            token = str(next(self._tokens))
            held.add(token)
            return token

    def release(self, key: str, token: str) -> None:
        with self._lock:
            self._leases.get(key, set()).discard(token)

    async def areserve(self, key: str, calls: int, per_s: float, now: float) -> float:
        return self.reserve(key, calls, per_s, now)

    async def aget(self, key: str, field: str, ttl_s: float, now: float) -> Any:
        return self.get(key, field, ttl_s, now)

    async def aput(
        self, key: str, field: str, value: Any, ttl_s: float, max_entries: int, now: float
    ) -> None:
        self.put(key, field, value, ttl_s, max_entries, now)

    async def aclaim(self, key: str, expires_at: float) -> bool:
        return self.claim(key, expires_at)

    async def aacquire(self, key: str, limit: int, lease_s: float) -> str | None:
        return self.acquire(key, limit, lease_s)

    async def arelease(self, key: str, token: str) -> None:
        self.release(key, token)

    async def aput_task(
        self,
        index: str,
        key: str,
        record: str,
        final: bool,
        expires_at: float,
        version: int = 0,
        expect: int | None = None,
    ) -> bool:
        with self._lock:
            found = self._live(key)
            if found is not None and found[0]:
                return False
            if expect is not None and (found is None or found[3] != expect):
                return False
            self._tasks[key] = (final, record, expires_at, version)
            self._indexes.setdefault(index, set()).add(key)
            for loop, queue in self._listeners:
                try:
                    loop.call_soon_threadsafe(queue.put_nowait, key)
                except RuntimeError:  # its loop closed: the listener is gone
                    pass
            return True

    async def anotices(self) -> AsyncIterator[str | None]:
        """None once listening, then the key of each task record put, as it is put."""
        import asyncio

        listener = (asyncio.get_running_loop(), asyncio.Queue[str | None]())
        with self._lock:
            self._listeners.append(listener)
        try:
            yield None
            while True:
                yield await listener[1].get()
        finally:
            with self._lock:
                self._listeners.remove(listener)

    async def aget_task(self, key: str) -> str | None:
        with self._lock:
            found = self._live(key)
            return None if found is None else found[1]

    async def alist_tasks(self, index: str) -> list[str]:
        with self._lock:
            keys = self._indexes.get(index, set())
            live = {key: found for key in keys if (found := self._live(key)) is not None}
            keys.intersection_update(live)
            return [found[1] for _, found in sorted(live.items(), key=lambda kv: kv[1][2])]

    def _live(self, key: str) -> tuple[bool, str, float, int] | None:
        """A task's record until it expires (then forgotten); the lock is held."""
        found = self._tasks.get(key)
        if found is not None and found[2] <= time.time():
            del self._tasks[key]
            return None
        return found
