"""Whether Python's `re` reads a spec's `pattern` (ECMA-262): the one test every stage asks."""

from __future__ import annotations

import re
from functools import lru_cache


@lru_cache(maxsize=1024)
def python_compiles(pattern: str) -> bool:
    """True when `re` compiles `pattern`; `\\p{L}` and other ECMA-only constructs do not."""
    try:
        re.compile(pattern)
        return True
    except (re.error, RecursionError, OverflowError):
        return False
