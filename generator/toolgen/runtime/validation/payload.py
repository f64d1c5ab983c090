# Part of toolgen's runtime, copied verbatim into generated packages (edit toolgen, not a copy).
"""The limits on arguments (as JSON text, or as a dict or list), checked before any parsing.

Text is measured before parsing (its length; its bracket nesting when it has many brackets).
A dict or list is measured by `measure`: an iterative walk counting what its JSON text would
hold, stopping as soon as a limit is passed, so its cost is bounded by the limits too.
Reading text and explaining broken JSON is jsontext.py's; the nesting a class bounds,
nesting.py's.
"""

from __future__ import annotations

import itertools
import operator
import re
from dataclasses import dataclass
from typing import Any

from ..errors import ArgumentIssue

_STRINGS = re.compile(r'"(?:[^"\\]|\\.)*"', re.DOTALL)
_BRACKETS = {ord("["): "\x02", ord("{"): "\x02", ord("]"): "\x00", ord("}"): "\x00"}


@dataclass(frozen=True)
class Limits:
    """What a call may send. Text beyond these gets a `limit` issue, never a parse."""

    max_bytes: int = 1_000_000  # length of JSON text (characters or bytes), or a dict's as text
    max_depth: int = 64  # nesting of arrays and objects
    max_issues: int = 20  # issues listed; `ToolArgumentsError.total` counts them all

    @property
    def max_errors(self) -> int:
        """pydantic errors read (translated, or tried as repairs) per round; the rest are counted."""
        return max(1000, 50 * self.max_issues)

    def __post_init__(self) -> None:
        if min(self.max_bytes, self.max_depth, self.max_issues) < 1:
            raise ValueError("limits must be positive")


LIMITS = Limits()


def check(text: str | bytes | bytearray, limits: Limits) -> ArgumentIssue | None:
    """A `limit` issue for text too large or too deeply nested to parse, else None. Cheap when small."""
    if len(text) > limits.max_bytes:
        return ArgumentIssue(
            "",
            "limit",
            f"{len(text)} characters long; the limit is {limits.max_bytes}",
            suggestion="send less data",
        )
    if isinstance(text, str):
        opens = text.count("{") + text.count("[")
    else:
        opens = text.count(b"{") + text.count(b"[")
    if opens > limits.max_depth and depth(text) > limits.max_depth:
        return _too_deep(limits)
    return None


_FLAT = frozenset({str, int, float, bool, type(None)})
FLAT_KEYS = 64


def flat(value: dict[Any, Any]) -> bool:
    """At most FLAT_KEYS keys, no array or object inside: nothing to walk before validating
    (pydantic-core's pass over it is bounded by its few values; a long string is only referenced).
    A C-speed test: the valid path of a typical call stays one pydantic-core call."""
    return len(value) <= FLAT_KEYS and _FLAT.issuperset(map(type, value.values()))


def measure(value: Any, limits: Limits) -> ArgumentIssue | None:
    """A `limit` issue for a dict or list larger or deeper than the limits, else None
    (`measured`'s issue)."""
    return measured(value, limits)[0]


def measured(value: Any, limits: Limits) -> tuple[ArgumentIssue | None, int]:
    """A `limit` issue for a dict or list larger or deeper than the limits, else None; and
    the members of its arrays and objects counted before it stopped.

    Size is counted as the value's JSON text would be, at least: a string by its length and
    quotes, a key by its length, quotes and colon, any other value as one character, each
    member's comma, each array's or object's brackets. The walk is iterative (no recursion
    limit), breadth first, and stops once a limit is passed: at most about `max_bytes`
    steps, however large the value (a value shared many times counts at every use, as in
    its text; a cycle is "too deep").
    """
    budget, max_depth = limits.max_bytes, limits.max_depth
    level: list[Any] = [value]
    depth = seen = 0
    while level:
        depth += 1
        if depth > max_depth:
            return _too_deep(limits), seen
        below: list[Any] = []
        push = below.append
        for node in level:
            # Brackets, and one character (a comma, or a value's least) per member: the loop
            # below runs only when its length fits what is left.
            budget -= 2 + len(node)
            seen += len(node)
            if isinstance(node, dict):
                try:
                    budget -= sum(map(len, node)) + 3 * len(node)  # keys: quotes and colon
                except TypeError:  # a key that is not a string (a host's dict)
                    budget -= 4 * len(node)
                members: Any = node.values()
            else:
                members = node
            if budget < 0:
                return _too_large(limits), seen
            for item in members:
                kind = type(item)
                if kind is str:
                    budget -= len(item) + 1
                elif kind is dict or kind is list:
                    push(item)
                elif kind in _FLAT:
                    continue
                elif isinstance(item, str):
                    budget -= len(item) + 1
                elif isinstance(item, (dict, list, tuple)):
                    push(item)
            if budget < 0:
                return _too_large(limits), seen
        level = below
    return None, seen


def _too_large(limits: Limits) -> ArgumentIssue:
    return ArgumentIssue(
        "",
        "limit",
        f"more than {limits.max_bytes} characters as JSON, the limit",
        suggestion="send less data",
    )


def _too_deep(limits: Limits) -> ArgumentIssue:
    return ArgumentIssue(
        "",
        "limit",
        f"nested more than {limits.max_depth} levels deep",
        suggestion="flatten the structure",
    )


def depth(text: str | bytes | bytearray) -> int:
    """How deeply arrays and objects nest in JSON text (brackets inside strings do not count)."""
    if not isinstance(text, str):
        text = bytes(text).decode("utf-8", "replace")
    skeleton = _STRINGS.sub("", text)
    ups = _only(skeleton)
    steps = map(operator.sub, ups.encode("latin-1"), itertools.repeat(1))
    return max(itertools.accumulate(steps), default=0)


def _only(skeleton: str) -> str:
    """Brackets as \\x02 (open) and \\x00 (close); everything else removed."""
    kept = re.sub(r"[^\[\]{}]+", "", skeleton)
    return kept.translate(_BRACKETS)
