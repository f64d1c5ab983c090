"""Whether Python's `re` reads a spec's `pattern` (ECMA-262), and its exact ECMA-262 reading."""

from __future__ import annotations

import re
from functools import lru_cache

from toolgen.runtime.validation.exact.ecma import ecma_pattern


@lru_cache(maxsize=1024)
def python_compiles(pattern: str) -> bool:
    """True when `re` compiles `pattern`; `\\p{L}` and other ECMA-only constructs do not."""
    try:
        re.compile(pattern)
        return True
    except (re.error, RecursionError, OverflowError):
        return False


@lru_cache(maxsize=1024)
def ecma(pattern: str) -> re.Pattern[str] | None:
    """A spec's pattern as Python `re` with its ECMA-262 meaning (the runtime's translation,
    which the generated package's exact check uses too), or None when it has no exact one."""
    return ecma_pattern(pattern)
