"""Nearest-name suggestions: aware of case, `_`/`-`/camelCase spelling and typos.

Used by the generator's diagnostics and, copied, by generated packages at run time.
Stays silent when nothing is close: a wrong guess is worse than none.
"""

from __future__ import annotations

import re
from collections.abc import Iterable

_CAMEL_BOUNDARY = re.compile(r"(?<=[a-z0-9])(?=[A-Z])")


def fold(name: str) -> str:
    """One spelling per word sequence: `fileName`, `file_name`, `File-Name` -> `filename`."""
    return _CAMEL_BOUNDARY.sub("", name).replace("_", "").replace("-", "").replace(" ", "").lower()


def distance(a: str, b: str, limit: int) -> int:
    """Optimal string alignment distance (a transposition counts once), or limit + 1 beyond limit."""
    if abs(len(a) - len(b)) > limit:
        return limit + 1
    previous2: list[int] = []
    previous = list(range(len(b) + 1))
    for i, ca in enumerate(a, 1):
        current = [i] + [0] * len(b)
        best = i
        for j, cb in enumerate(b, 1):
            cost = 0 if ca == cb else 1
            value = min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + cost)
            if i > 1 and j > 1 and ca == b[j - 2] and a[i - 2] == cb:
                value = min(value, previous2[j - 2] + 1)
            current[j] = value
            best = min(best, value)
        if best > limit:
            return limit + 1
        previous2, previous = previous, current
    return previous[-1]


def nearest(name: str, candidates: Iterable[str]) -> str | None:
    """The candidate the user most likely meant, or None when none is plausibly meant."""
    options = [c for c in candidates if c != name]
    if not options:
        return None
    lowered = name.lower()
    for candidate in options:  # the same word in another case
        if candidate.lower() == lowered:
            return candidate
    folded = fold(name)
    for candidate in options:  # the same words in another spelling convention
        if fold(candidate) == folded:
            return candidate
    # Typos: allow about one edit per four characters, never more than three.
    limit = min(3, max(1, len(folded) // 4))
    best: tuple[int, str] | None = None
    for candidate in sorted(options):
        d = distance(folded, fold(candidate), limit)
        if d <= limit and (best is None or d < best[0]):
            best = (d, candidate)
    return best[1] if best else None
