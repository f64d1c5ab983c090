# Part of toolgen's runtime, copied verbatim into generated packages (edit toolgen, not a copy).
"""Which suspended-call records have been used: each record (control.py) is resumed once.

A registry holds one store, shared by every registry derived from it (`add`, `without`, ...),
as its rate limits are. The store is the whole of what makes a record single-use: the
record itself is signed but says nothing of whether it was used.

A store is any object with one method:

    consume(record_id: str, expires_at: float) -> bool   (or an awaitable of a bool)

True exactly once per `record_id`: the first call marks it used and returns True, every
other call (in any thread or task, at any time until `expires_at`) returns False. It must be
atomic: of any number of concurrent calls for one id, one gets True. `expires_at` is the
record's expiry in seconds since the epoch (UTC); after it the registry refuses the record
before asking, so the store may forget the id then. A fleet-wide store (a Redis
`SET id 1 NX EXAT expires_at`) implements the same method, and may return an awaitable:
`aresume` awaits it; `resume` runs it to completion.

`UsedRecords` is the store of one process: thread-safe (a lock) and asyncio-safe (`consume`
never awaits, so no task switch happens inside it). Records resumed in other processes are
not seen: several processes (`serve --workers N`, several machines) that must refuse each
other's used records need a shared store, passed as `Registry(..., records=store)`.
"""

from __future__ import annotations

import heapq
import threading
import time
from typing import Any, Protocol


class RecordStore(Protocol):
    def consume(self, record_id: str, expires_at: float) -> Any:
        """True the first time for `record_id` (it is used now), False ever after."""


class UsedRecords:
    """The ids of the records used in this process, each kept until its record expires."""

    def __init__(self) -> None:
        self._used: set[str] = set()
        self._expiring: list[tuple[float, str]] = []  # a heap: the first to expire first
        self._lock = threading.Lock()

    def consume(self, record_id: str, expires_at: float) -> bool:
        with self._lock:
            now = time.time()
            while self._expiring and self._expiring[0][0] < now:  # past use: forgotten
                self._used.discard(heapq.heappop(self._expiring)[1])
            if record_id in self._used:
                return False
            self._used.add(record_id)
            heapq.heappush(self._expiring, (expires_at, record_id))
            return True
