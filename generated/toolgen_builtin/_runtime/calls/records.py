# Part of toolgen's runtime, copied verbatim into generated packages (edit toolgen, not a copy).
"""Which suspended-call records have been used: each record (control.py) is resumed once.

A registry holds one record store, shared by every registry derived from it (`add`,
`without`, ...), as its rate limits are. The store is the whole of what makes a record
single-use: the record itself is signed but says nothing of whether it was used.

A record store is any object with one method:

    consume(record_id: str, expires_at: float) -> bool   (or an awaitable of a bool)

True exactly once per `record_id`: the first call marks it used and returns True, every
other call (in any thread or task, at any time until `expires_at`) returns False. It must be
atomic: of any number of concurrent calls for one id, one gets True. `expires_at` is the
record's expiry in seconds since the epoch (UTC); after it the registry refuses the record
before asking, so the store may forget the id then. `resume` runs an awaitable answer to
completion; `aresume` awaits it, or calls `aconsume` where the store has one.

The default is `StoreRecords` over the registry's state store (the store group): a claim of
`record:<id>` there, so records used in one process are refused in every process that
shares the store (Redis: `SET key 1 NX EXAT expires_at`). `UsedRecords` is the same over a
store of this process alone. A shared store that does not answer makes the resume an
`unavailable` result (the record stays unused, to resume again).
"""

from __future__ import annotations

import inspect
from typing import Any, Protocol

from ..store.base import StoreUnavailable
from ..store.memory import MemoryStore
from . import execution


class RecordStore(Protocol):
    def consume(self, record_id: str, expires_at: float) -> Any:
        """True the first time for `record_id` (it is used now), False ever after."""


class StoreRecords:
    """The records used, as claims in a state store (base.py's `claim`)."""

    def __init__(self, store: Any) -> None:
        self.store = store

    def consume(self, record_id: str, expires_at: float) -> bool:
        return bool(self.store.claim(f"record:{record_id}", expires_at))

    async def aconsume(self, record_id: str, expires_at: float) -> bool:
        return bool(await self.store.aclaim(f"record:{record_id}", expires_at))


class UsedRecords(StoreRecords):
    """The ids of the records used in this process, each kept until its record expires."""

    def __init__(self) -> None:
        super().__init__(MemoryStore())


def consumed(records: RecordStore, record_id: str, expires_at: float) -> Any:
    """The store's answer (True: used now), or the StoreUnavailable it raised."""
    try:
        used = records.consume(record_id, expires_at)
        return execution.awaited(used) if inspect.isawaitable(used) else used
    except StoreUnavailable as exc:
        return exc


async def aconsumed(records: RecordStore, record_id: str, expires_at: float) -> Any:
    """`consumed`, awaited."""
    try:
        aconsume = getattr(records, "aconsume", None)
        used = (
            records.consume(record_id, expires_at)
            if aconsume is None
            else aconsume(record_id, expires_at)
        )
        return (await used) if inspect.isawaitable(used) else used
    except StoreUnavailable as exc:
        return exc
