# Part of toolgen's runtime, copied verbatim into generated packages (edit toolgen, not a copy).
"""Nearest-name suggestions: aware of case, `_`/`-`/camelCase spelling, typos and word order.

Used by the generator's diagnostics and, copied, by generated packages at run time, where
the input is whatever a model sent: the work is bounded (long names get no typo search,
the edit distance is banded) and it stays silent when nothing is close: a wrong guess is
worse than none.
"""

from __future__ import annotations

import re
from collections.abc import Iterable

_CAMEL_BOUNDARY = re.compile(r"(?<=[a-z0-9])(?=[A-Z])")
_WORD = re.compile(r"[A-Za-z][a-z]*|[0-9]+|[^\W_]+")
MAX_TYPO_LENGTH = 64  # beyond this only spelling variants are matched: a model can send anything
MAX_NAME_LENGTH = 4096  # longer names (a 55 MB tool name) get no suggestion, at no cost


_SEPARATORS = str.maketrans("", "", "_- ")


def fold(name: str) -> str:
    """One spelling per word sequence: `fileName`, `file_name`, `File-Name` -> `filename`."""
    return name.translate(_SEPARATORS).lower()


def words(name: str) -> frozenset[str]:
    """The words of a name in any convention: `filePath`, `file_path` -> {file, path}."""
    return frozenset(w.lower() for w in _WORD.findall(_CAMEL_BOUNDARY.sub(" ", name)))


def typo_limit(length: int) -> int:
    """Edits that still read as a typo: none for 1-2 characters, then one per four, at most three."""
    return 0 if length < 3 else min(3, max(1, length // 4))


def distance(a: str, b: str, limit: int) -> int:
    """Optimal string alignment distance (a transposition counts once), or limit + 1 beyond limit.

    Tries 0, 1, ... edits: each try strips what the strings share and branches four ways, so
    the work is about 4**limit string comparisons whatever the length.
    """
    if a == b:
        return 0
    for edits in range(1, limit + 1):
        if _within(a, b, edits):
            return edits
    return limit + 1


def _within(a: str, b: str, edits: int) -> bool:
    """Whether `edits` insertions, deletions, substitutions or adjacent transpositions turn a into b."""
    if abs(len(a) - len(b)) > edits:
        return False
    start, end = 0, min(len(a), len(b))
    while start < end and a[start] == b[start]:
        start += 1
    stop_a, stop_b = len(a), len(b)
    while stop_a > start and stop_b > start and a[stop_a - 1] == b[stop_b - 1]:
        stop_a -= 1
        stop_b -= 1
    a, b = a[start:stop_a], b[start:stop_b]
    if not a or not b:
        return max(len(a), len(b)) <= edits
    if edits == 0:
        return False
    if edits == 1:  # what is left after stripping: one substitution, or one transposition
        return (len(a) == 1 and len(b) == 1) or (len(a) == 2 and a == b[::-1])
    left = edits - 1
    return (
        _within(a[1:], b[1:], left)
        or _within(a[1:], b, left)
        or _within(a, b[1:], left)
        or (
            len(a) > 1
            and len(b) > 1
            and a[0] == b[1]
            and a[1] == b[0]
            and _within(a[2:], b[2:], left)
        )
    )


def nearest(name: str, candidates: Iterable[str]) -> str | None:
    """The candidate the user most likely meant, or None when none is plausibly meant."""
    if len(name) > MAX_NAME_LENGTH:  # no name of a spec is this long: nothing to look at
        return None
    options = [c for c in candidates if c != name]
    if not options:
        return None
    folded = fold(name)
    folds = [fold(candidate) for candidate in options]
    same = [c for c, other in zip(options, folds, strict=False) if other == folded]
    if same:  # the same words in another case or spelling convention; the same case first
        lowered = name.lower()
        return next((c for c in same if c.lower() == lowered), same[0])
    if not folded or len(folded) > MAX_TYPO_LENGTH:
        return None
    limit = typo_limit(len(folded))
    letters = set(folded)
    best: tuple[int, str] | None = None
    for candidate, other in zip(options, folds, strict=False):
        if abs(len(other) - len(folded)) > limit:
            continue
        # Each edit changes the set of letters by at most two: a cheap lower bound.
        if len(letters.symmetric_difference(other)) > 2 * limit:
            continue
        d = distance(folded, other, limit)
        if d <= limit and (best is None or (d, candidate) < best):
            best = (d, candidate)
    if best is not None:
        return best[1]
    # Only names that contain the other's letters can hold its words (a cheap test, in C).
    related = [
        c
        for c, other in zip(options, folds, strict=False)
        if folded in other or (other and other in folded)
    ]
    return _same_words(name, related) or _abbreviation(folded, options)


def _same_words(name: str, options: list[str]) -> str | None:
    """`path` for `file_path`, `name_first` for `first_name`: one name's words hold the other's."""
    mine = words(name)
    if not mine or sum(len(w) for w in mine) < 4:
        return None
    found = [
        c
        for c in options
        if (theirs := words(c))
        and (mine <= theirs or theirs <= mine)
        and sum(len(w) for w in theirs) >= 4
    ]
    return found[0] if len(found) == 1 else None


def _abbreviation(folded: str, options: list[str]) -> str | None:
    """`qty` for `quantity`, `desc` for `description`: the same first letter, the rest in order."""
    if len(folded) < 3:
        return None
    found = [
        c
        for c in options
        if len(other := fold(c)) > len(folded)
        and other[0] == folded[0]
        and _in_order(folded, other)
    ]
    return found[0] if len(found) == 1 else None


def _in_order(letters: str, word: str) -> bool:
    rest = iter(word)
    return all(letter in rest for letter in letters)
