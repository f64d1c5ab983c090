# Part of toolgen's runtime, copied verbatim into generated packages (edit toolgen, not a copy).
"""A call glued from several (`x-repair: split`): a name that is an exact concatenation of
known tool names, and text that is exactly as many JSON values back to back. Only the
registry knows the names and which tools allow it (calls/prepare.py); each part is then a
call of its own, reported as repaired (`split_message`).
"""

from __future__ import annotations

from collections.abc import Iterable

from pydantic_core import from_json

from .lenient import SPACE, Reader, skip

MAX_PARTS = 8  # calls glued into one name, at most (more is not a slip)


def split(
    name: str, text: str | bytes | bytearray, names: Iterable[str]
) -> list[tuple[str, str]] | None:
    """A call glued from several: its parts (a known name, that call's JSON text), in order,
    when `name` is one exact concatenation of `names` (of two or more; any other way to cut
    it refused as ambiguous) and `text` is exactly as many JSON values back to back (only
    whitespace between and around them); else None."""
    parts = segment(name, names)
    if parts is None:
        return None
    if not isinstance(text, str):
        try:
            text = bytes(text).decode("utf-8")
        except UnicodeDecodeError:
            return None
    values: list[str] = []
    at = skip(text, 0)
    while at < len(text):
        if len(values) == len(parts):
            return None
        read = Reader(text, False, False)
        end = read.value(at)
        if read.stack or end == at:
            return None
        part = text[at:end].rstrip(SPACE)
        try:
            from_json(part, allow_inf_nan=False)
        except ValueError:
            return None
        values.append(part)
        at = end
    if len(values) != len(parts):
        return None
    return list(zip(parts, values, strict=False))


def segment(name: str, names: Iterable[str]) -> list[str] | None:
    """`name` as the one way to write it as two or more of `names` (at most MAX_PARTS) one
    after the other, else None (no way, or more than one)."""
    known = {n for n in names if n}
    lengths = sorted({len(n) for n in known})
    if not lengths or not name or len(name) > MAX_PARTS * lengths[-1]:
        return None
    size = len(name)
    ways = [0] * (size + 1)  # ways to write name[i:] (counted up to 2: more is as ambiguous)
    step = [0] * (size + 1)  # the length of the first name of one of them
    ways[size] = 1
    for i in range(size - 1, -1, -1):
        total = 0
        for length in lengths:
            if i + length > size:
                break
            if ways[i + length] and name[i : i + length] in known:
                total += ways[i + length]
                step[i] = length
        ways[i] = min(total, 2)
    if ways[0] != 1:
        return None
    parts, i = [], 0
    while i < size:
        parts.append(name[i : i + step[i]])
        i += step[i]
    return parts if 2 <= len(parts) <= MAX_PARTS else None


def split_message(name: str, parts: list[str], index: int) -> str:
    """The `split` repair's sentence for part `index` of a glued call."""
    return (
        f"ran the glued call {name} as {len(parts)} calls ({', '.join(parts)}): "
        f"this is call {index + 1}"
    )
