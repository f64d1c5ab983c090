# Part of toolgen's runtime, copied verbatim into generated packages (edit toolgen, not a copy).
"""The state of the call policies: rate limits, result caches, concurrency, kept in the
registry's store (the store group: this process's, or one a fleet shares).

- `rate_limit: {calls, per_s, when_exceeded}`: at most `calls` calls start in any window of
  `per_s` seconds (a sliding window of start times). Past it, a call waits for the oldest start
  to leave the window (`wait`), or fails as `rate_limited` saying how long to wait (`fail`).
- `cache: {ttl_s, max_entries}` (only for idempotent tools; lint refuses it elsewhere): a
  successful result is kept for `ttl_s` seconds, keyed by the validated arguments and the
  injected values (so two users never share an entry), and answers the same call again
  without running the tool. The oldest entry goes first past `max_entries`.
- `Registry(max_concurrency=N)`: at most N tools run at once. In-process: counted among the
  threads that use `call` and, apart, among the tasks of each event loop that use `acall`.
  With a shared store: among every call of every process that shares it, each slot a lease
  the store ends when its holder stops renewing it (a killed worker never keeps one).

With the in-process store, each operation answers at once, on the registry's clock
(`monotonic()`), so tests pass a fake one. With a shared store, an operation is an `Ask`: a
step of `Registry._policed` that `call` carries out in its thread and `acall` awaits; its
answer is the store's, or the `StoreUnavailable` it raised, which the call ends on
(`unavailable`). The state is shared by every registry derived from one (`add`,
`without`, ...), and is thread-safe.
"""

from __future__ import annotations

import hashlib
import json
import threading
from collections.abc import Callable
from contextlib import AbstractAsyncContextManager, AbstractContextManager, nullcontext
from typing import Any

from ..results.result import ToolFailure, ToolInfo, ToolResult
from ..store.base import StoreUnavailable
from ..store.memory import MemoryStore
from . import kept

SLOTS = "slots"  # the store's key of the registry's concurrency leases
SLOT_POLL_S = 0.005  # how long a call waits before asking again for a fleet slot


class Ask:
    """One operation of a shared store, as a step of `_policed`: `run` in this thread,
    `arun` awaited; the answer (through `then`), or the StoreUnavailable raised."""

    __slots__ = ("sync", "asynchronous", "args", "then")

    def __init__(
        self,
        sync: Callable[..., Any],
        asynchronous: Callable[..., Any],
        args: tuple[Any, ...],
        then: Callable[[Any], Any] | None = None,
    ) -> None:
        self.sync, self.asynchronous, self.args, self.then = sync, asynchronous, args, then

    def run(self) -> Any:
        try:
            answer = self.sync(*self.args)
        except StoreUnavailable as exc:
            return exc
        return answer if self.then is None else self.then(answer)

    async def arun(self) -> Any:
        try:
            answer = await self.asynchronous(*self.args)
        except StoreUnavailable as exc:
            return exc
        return answer if self.then is None else self.then(answer)


def cache_key(arguments: Any, injected: Any) -> str:
    """The validated arguments and injected values as one canonical text (keys sorted)."""
    return json.dumps([arguments, injected], sort_keys=True, separators=(",", ":"), default=repr)


def unavailable(tool: str, exc: StoreUnavailable) -> ToolResult:
    """The call did not run: the store its policies need did not answer. Retryable."""
    message = (
        f"tool '{tool}' was not run: {exc}. Its rate limit, cache, concurrency or approval "
        "record is kept there; call it again shortly"
    )
    return ToolResult(tool, failure=ToolFailure("unavailable", message, True), exception=exc)


class Policies:
    """One registry family's store and concurrency slots: the store holds the rate-limit
    windows and caches by tool name (`rate:<tool>`, `cache:<tool>`) and, when shared, the
    concurrency leases (`slots`); in-process, one semaphore for the threads calling `call`
    and one for each event loop's tasks calling `acall`."""

    def __init__(self, max_concurrency: int | None = None, store: Any = None) -> None:
        self.store: Any = MemoryStore() if store is None else store
        self.shared = bool(self.store.shared)
        self.max_concurrency = max_concurrency
        self._threads = None
        if max_concurrency is not None and not self.shared:
            self._threads = threading.Semaphore(max_concurrency)
        self._lock = threading.Lock()
        self._loops: Any = None  # event loop -> asyncio.Semaphore (a WeakKeyDictionary)
        # The fleet's concurrency limit: leases in the shared store, asked for by `_policed`.
        self.fleet_slots = max_concurrency if self.shared else None

    def thread_slot(self) -> AbstractContextManager[Any]:
        """Held while a tool runs for `call` (in-process slots)."""
        return nullcontext() if self._threads is None else self._threads

    def task_slot(self) -> AbstractAsyncContextManager[Any]:
        """Held while a tool runs for `acall` (in-process slots, in the running event loop)."""
        if self.max_concurrency is None or self.shared:
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

    def reserve(self, tool: str, declared: tuple[int, float, bool], now: float) -> Any:
        """0.0 when a call of `tool` may start (it is counted), else the seconds until one
        may; an Ask of it with a shared store."""
        args = (f"rate:{tool}", declared[0], declared[1], now)
        if self.shared:
            return Ask(self.store.reserve, self.store.areserve, args)
        return self.store.reserve(*args)

    def cached(self, info: ToolInfo, key: str, now: float) -> Any:
        """The result kept for this call's `key`, or None; an Ask of it with a shared store."""
        ttl_s, _ = info.cache  # type: ignore[misc]
        if not self.shared:
            return self.store.get(f"cache:{info.name}", key, ttl_s, now)
        args = (f"cache:{info.name}", _digest(key), ttl_s, now)
        return Ask(self.store.get, self.store.aget, args, lambda raw: kept.revived(info, raw))

    def keep(self, info: ToolInfo, key: str, result: ToolResult, now: float) -> Ask | None:
        """Keep an ok result for `key`: at once, or an Ask with a shared store."""
        ttl_s, max_entries = info.cache  # type: ignore[misc]
        if not self.shared:
            self.store.put(f"cache:{info.name}", key, result, ttl_s, max_entries, now)
            return None
        value = kept.encoded(result)
        args = (f"cache:{info.name}", _digest(key), value, ttl_s, max_entries, now)
        return Ask(self.store.put, self.store.aput, args)

    def acquire(self) -> Ask:
        """A fleet slot's lease token, or None when every slot is held."""
        args = (SLOTS, self.fleet_slots, self.store.lease_s)
        return Ask(self.store.acquire, self.store.aacquire, args)

    def release(self, token: str) -> Ask:
        return Ask(self.store.release, self.store.arelease, (SLOTS, token))

    def let_go(self, token: str) -> None:
        """A call left while it held a fleet slot (cancelled, interrupted): released here if
        the store answers, else its lease ends unrenewed."""
        try:
            self.store.release(SLOTS, token)
        except StoreUnavailable:
            pass


def _digest(key: str) -> str:
    return hashlib.sha256(key.encode()).hexdigest()
