# Part of toolgen's runtime, copied verbatim into generated packages (edit toolgen, not a copy).
"""What a state store is (named.py opens the one a URL names).

A store keeps four kinds of state under string keys, each operation atomic on its own:

- `reserve(key, calls, per_s, now)`: a sliding window of start times. 0.0 when one more
  start fits in the last `per_s` seconds (it is counted), else the seconds until one will.
- `get(key, field, ttl_s, now)` / `put(key, field, value, ttl_s, max_entries, now)`: entries
  of a bounded map, each kept `ttl_s` seconds; past `max_entries` the oldest put goes first.
- `claim(key, expires_at)`: True for the first claim of `key`, False for every other until
  `expires_at` (seconds since the epoch, UTC), when the store may forget it.
- `acquire(key, limit, lease_s)` / `release(key, token)`: counted leases. A token when fewer
  than `limit` are held, else None. A shared store renews the leases its process holds; a
  lease whose holder died (no renewal) ends after `lease_s` seconds, freeing its slot.

- `aput_task(index, key, record, final, expires_at, version, expect)` / `aget_task(key)` /
  `alist_tasks(index)`: a task's record (text: its JSON), kept until `expires_at` (seconds
  since the epoch, UTC) and listed under `index` until then. A put is refused (False) once
  the stored record is `final`: a task that ended stays as it ended (a cancellation and a
  completion racing: the first wins); and, given `expect`, unless the stored record's
  `version` is `expect` (a compare-and-set: a write based on a record read is refused when
  another came between). `anotices()` iterates None once listening, then the key of each
  record put, by any process sharing the store. Awaitable only: tasks are served and run
  on a loop.

Each of the others has an awaitable twin (`areserve`, `aget`, ...). `now` is the registry's clock, which
the store of one process reads (so a test's fake clock drives it); a shared store reads its
server's clock, the one clock every process sees. Values are whatever the process keeps
(the in-process store) or bytes (a shared one: the caller encodes them).

A shared store that cannot be reached raises `StoreUnavailable`, naming the store; the
registry turns it into the call's `unavailable` failure (never running the call unguarded).
"""

from __future__ import annotations

from collections.abc import AsyncIterator
from typing import Any, Protocol
from urllib.parse import urlsplit, urlunsplit

ENVIRONMENT = "TOOLGEN_STORE"  # the store's URL when a registry is not given one
MEMORY = "memory://"  # the in-process store's URL


class StoreUnavailable(Exception):
    """A shared store did not answer (down, unreachable, too slow): `url` (no password),
    `reason` (what the client said)."""

    def __init__(self, url: str, reason: str) -> None:
        super().__init__(f"the state store {url} cannot be reached: {reason}")
        self.url, self.reason = url, reason


class Store(Protocol):
    url: str  # as shown: no password
    shared: bool  # seen by other processes

    def reserve(self, key: str, calls: int, per_s: float, now: float) -> float: ...
    def get(self, key: str, field: str, ttl_s: float, now: float) -> Any: ...
    def put(
        self, key: str, field: str, value: Any, ttl_s: float, max_entries: int, now: float
    ) -> None: ...
    def claim(self, key: str, expires_at: float) -> bool: ...
    def acquire(self, key: str, limit: int, lease_s: float) -> str | None: ...
    def release(self, key: str, token: str) -> None: ...
    async def areserve(self, key: str, calls: int, per_s: float, now: float) -> float: ...
    async def aget(self, key: str, field: str, ttl_s: float, now: float) -> Any: ...
    async def aput(
        self, key: str, field: str, value: Any, ttl_s: float, max_entries: int, now: float
    ) -> None: ...
    async def aclaim(self, key: str, expires_at: float) -> bool: ...
    async def aacquire(self, key: str, limit: int, lease_s: float) -> str | None: ...
    async def arelease(self, key: str, token: str) -> None: ...
    async def aput_task(
        self,
        index: str,
        key: str,
        record: str,
        final: bool,
        expires_at: float,
        version: int = 0,
        expect: int | None = None,
    ) -> bool: ...
    async def aget_task(self, key: str) -> str | None: ...
    async def alist_tasks(self, index: str) -> list[str]: ...
    def anotices(self) -> AsyncIterator[str | None]: ...


def shown(url: str) -> str:
    """The URL without its password (what messages and logs say)."""
    parts = urlsplit(url)
    if parts.password is None:
        return url
    host = parts.hostname or ""
    if parts.port is not None:
        host = f"{host}:{parts.port}"
    user = f"{parts.username}:***@" if parts.username else "***@"
    return urlunsplit((parts.scheme, user + host, parts.path, parts.query, parts.fragment))
