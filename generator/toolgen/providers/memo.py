"""A memo of the exporters' rewrites and findings, keyed on the identity of the schema object."""

from __future__ import annotations

import functools
from collections.abc import Callable
from typing import Any, TypeVar

R = TypeVar("R")

MEMO_LIMIT = 20_000


def memoised_by_identity(lower: Callable[[Any], R]) -> Callable[[Any], R]:
    """`lower(parameters)`, computed once per `parameters` object of the IR.

    Every variant of every target starts from the same `parameters` objects (two dozen calls
    a tool). A memo keyed on content (the JSON text) cost a serialisation per call, and as a
    bounded LRU it missed on every call once a build had more tools than its size: cyclic
    access evicts each entry just before its reuse. This memo is cleared whole when full, so
    a larger build only costs the rewrites. Results are shared: exporters build new nodes
    rather than change them (as `transform` does), and nothing changes an IR's schema after
    lowering. A lowering that raises (Inexpressible) is not memoised."""
    memo: dict[int, tuple[Any, R]] = {}

    @functools.wraps(lower)
    def memoised(parameters: Any) -> R:
        hit = memo.get(id(parameters))
        if hit is not None and hit[0] is parameters:
            return hit[1]
        if len(memo) >= MEMO_LIMIT:
            memo.clear()
        result = lower(parameters)
        memo[id(parameters)] = (
            parameters,
            result,
        )  # holding `parameters` keeps its id from being reused
        return result

    return memoised
