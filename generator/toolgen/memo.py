"""A memo a long-lived process may keep: a dict cleared whole once it holds its limit.

Builds ask the same questions again and again (a text's literal, a schema's strategies or
validity, a piece's token cost): a plain dict's lookup answers them faster than a cached
function's call, and clearing it whole when full keeps a process that builds many times
(a server, the tests) bounded without the bookkeeping of least-recently-used order."""

from __future__ import annotations

from collections.abc import Callable
from typing import TypeVar

K = TypeVar("K")
V = TypeVar("V")


class Bounded(dict[K, V]):
    """`keep(key, value)` stores an answer; with `make`, a missing key is answered by
    `make(key)` (so `memo[key]` is the memoised call)."""

    def __init__(self, limit: int, make: Callable[[K], V] | None = None) -> None:
        super().__init__()
        self.limit, self.make = limit, make

    def __missing__(self, key: K) -> V:
        if self.make is None:
            raise KeyError(key)
        return self.keep(key, self.make(key))

    def keep(self, key: K, value: V) -> V:
        if len(self) >= self.limit:
            self.clear()
        self[key] = value
        return value
