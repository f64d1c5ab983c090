# Part of toolgen's runtime, copied verbatim into generated packages (edit toolgen, not a copy).
"""The per-registry state of the call policies: rate limits, result caches, concurrency.

- `rate_limit: {calls, per_s, when_exceeded}`: at most `calls` calls start in any window of
  `per_s` seconds (a sliding window of start times). Past it, a call waits for the oldest start
  to leave the window (`wait`), or fails as `rate_limited` saying how long to wait (`fail`).
- `cache: {ttl_s, max_entries}` (only for idempotent tools; lint refuses it elsewhere): a
  successful result is kept for `ttl_s` seconds, keyed by the validated arguments and the
  injected values (so two users never share an entry), and answers the same call again
  without running the tool. The oldest entry goes first past `max_entries`.

- `Registry(max_concurrency=N)`: at most N tools run at once, counted among the threads
  that use `call` and, apart, among the tasks of each event loop that use `acall`.

Time comes from the registry's clock (`monotonic()`), so tests pass a fake one. The state is
shared by every registry derived from one (`add`, `without`, ...), and is thread-safe.
"""

from __future__ import annotations

import json
import threading
from collections import OrderedDict, deque
from contextlib import AbstractAsyncContextManager, AbstractContextManager, nullcontext
from typing import Any


class RateLimit:
    def __init__(self, calls: int, per_s: float, wait: bool) -> None:
        self.calls, self.per_s, self.wait = calls, per_s, wait
        self._starts: deque[float] = deque()
        self._lock = threading.Lock()

    def reserve(self, now: float) -> float:
        """0.0 when a call may start now (it is counted), else the seconds until one may."""
        with self._lock:
            while self._starts and now - self._starts[0] >= self.per_s:
                self._starts.popleft()
            if len(self._starts) < self.calls:
                self._starts.append(now)
                return 0.0
            return self.per_s - (now - self._starts[0])


class Cache:
    def __init__(self, ttl_s: float, max_entries: int) -> None:
        self.ttl_s, self.max_entries = ttl_s, max_entries
        self._entries: OrderedDict[str, tuple[float, Any]] = OrderedDict()
        self._lock = threading.Lock()

    def get(self, key: str, now: float) -> Any:
        with self._lock:
            found = self._entries.get(key)
            if found is None:
                return None
            stored, result = found
            if now - stored >= self.ttl_s:
                del self._entries[key]
                return None
            return result

    def put(self, key: str, result: Any, now: float) -> None:
        with self._lock:
            self._entries[key] = (now, result)
            self._entries.move_to_end(key)
            while len(self._entries) > self.max_entries:
                self._entries.popitem(last=False)


def cache_key(arguments: Any, injected: Any) -> str:
    """The validated arguments and injected values as one canonical text (keys sorted)."""
    return json.dumps([arguments, injected], sort_keys=True, separators=(",", ":"), default=repr)


class Policies:
    """One registry family's rate limiters and caches, by tool name, made on first use, and
    its concurrency slots (`max_concurrency`): one count for the threads calling `call`, one
    for each event loop's tasks calling `acall`."""

    def __init__(self, max_concurrency: int | None = None) -> None:
        self.limits: dict[str, RateLimit] = {}
        self.caches: dict[str, Cache] = {}
        self._lock = threading.Lock()
        self.max_concurrency = max_concurrency
        self._threads = None if max_concurrency is None else threading.Semaphore(max_concurrency)
        self._loops: Any = None  # event loop -> asyncio.Semaphore (a WeakKeyDictionary)

    def thread_slot(self) -> AbstractContextManager[Any]:
        """Held while a tool runs for `call`."""
        return nullcontext() if self._threads is None else self._threads

    def task_slot(self) -> AbstractAsyncContextManager[Any]:
        """Held while a tool runs for `acall` (in the running event loop)."""
        if self.max_concurrency is None:
            return nullcontext()
        import asyncio
        import weakref

        loop = asyncio.get_running_loop()
        with self._lock:
            if self._loops is None:
                self._loops = weakref.WeakKeyDictionary()
            slots: asyncio.Semaphore = self._loops.get(loop)
            if slots is None:
                slots = self._loops[loop] = asyncio.Semaphore(self.max_concurrency)
            return slots

    def limit(self, tool: str, declared: tuple[int, float, bool]) -> RateLimit:
        with self._lock:
            found = self.limits.get(tool)
            if found is None:
                found = self.limits[tool] = RateLimit(*declared)
            return found

    def cache(self, tool: str, declared: tuple[float, int]) -> Cache:
        with self._lock:
            found = self.caches.get(tool)
            if found is None:
                found = self.caches[tool] = Cache(*declared)
            return found
