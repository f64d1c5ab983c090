# Part of toolgen's runtime, copied verbatim into generated packages (edit toolgen, not a copy).
"""Repairs of malformed argument text, as a tool's spec allows them (`x-repair`), each reported.

Models wrap the JSON of a call's arguments in a Markdown fence, write prose after it, write
Python's `None`/`True`/`False` or single-quoted strings, glue two calls into one, or stop in
the middle. `repair(text, allowed)` reads such text as the JSON value it holds, with the list
of what it had to read past (`Repair` records, for the host), or gives None. It is tried only
once the text failed to parse (valid JSON is returned untouched, with no repair), after the
limits of payload.py were checked, and it never invents or changes a value:

- `fence`: a Markdown code fence around the value (```` ``` ````, ```` ```json ````, `~~~`),
  with prose before it allowed; the value inside is read as it is.
- `trailing`: prose after a complete value is ignored; text that may continue or add to the
  arguments is not prose, and the call is refused: text starting with a JSON token (`,`, `:`, a
  quote, a bracket, a number, `true`, `None`, ...: `, "dry_run": true}` or `0`), or holding a
  bracket, a quoted key (`"k":`) or a code fence anywhere.
- `python`: the words `None`, `True`, `False` outside strings read as `null`, `true`, `false`.
- `quotes`: a single-quoted string (a key or a value) read as the string Python reads; an
  escape Python refuses or warns about is refused, and so is, in text read the Python way
  (with a Python word or a single-quoted string), a double-quoted string that JSON and
  Python read differently (lenient.py says which).
- `truncated`: when the text ends right after a complete value (or after a comma following
  one), the arrays and objects left open are closed. Text that ends inside a string, inside
  a word (`tru`), after a key or a colon, right after an opening bracket, or right after a
  number's last digit (`12` may have been cut from `123`: only a comma, a bracket or a space
  after it shows it is whole) is not repaired: that would invent or change a value.
- `split`: two or more calls glued into one (glued.py: only the registry knows the names
  and which tools allow it).

The text is read once, by the tokenizer of lenient.py (strings are read whole, so nothing
inside one is ever rewritten; linear in the text, iterative). The JSON text it writes is
parsed again, as strictly as any arguments, so a repair yields only what that text says.
This module owns the kinds, which text each repairs (the fence, the prose after a value,
what is left open) and how a repair is told: the `Repair` records, the host's warning line
and the log.
"""

from __future__ import annotations

import logging
import re
from collections.abc import Collection, Iterable
from dataclasses import dataclass
from typing import Any

from pydantic_core import from_json

from .duplicates import duplicate_key
from .lenient import CLOSERS, PYTHON_WORDS, Reader, skip

# Every kind of repair `x-repair` may list.
KINDS = ("fence", "trailing", "python", "quotes", "split", "truncated")
# What `x-repair: true` allows: all but `truncated`, which closes what the model may have meant
# to continue (it must be asked for by name).
BY_DEFAULT = frozenset(KINDS) - {"truncated"}
# The logger's name is public (docs/errors.md): `<package>._runtime.repair`, as the module was
# named before the runtime had subpackages.
_log = logging.getLogger(__name__.rsplit(".", 2)[0] + ".repair")

# A code fence: three or more backticks or tildes, an optional language, then the value.
_FENCE = re.compile(r"(`{3,}|~{3,})[ \t]*[A-Za-z0-9_+.-]*[ \t]*\r?\n?")
_FENCE_LINE = re.compile(r"^[ \t]*(`{3,}|~{3,})", re.M)
# Text after a value that is not prose: it starts with a JSON (or Python) token, a number
# included (`0`, `-1`, `.5`, `- -1`: Python's signs), or holds a bracket, a quoted key or a code fence anywhere.
_CONTINUES = re.compile(
    r"""[,:"'{}\[\]]|[+-][+\- \t\n\r]*\.?[0-9]|\.?[0-9]"""
    r"|(?:true|false|null|None|True|False|NaN|Infinity)\b"
)
_NOT_PROSE = re.compile(r"""[{}\[\]]|```|~~~|"[^"\n]*"\s*:|'[^'\n]*'\s*:""")


@dataclass(frozen=True)
class Repair:
    """One repair made to a call's argument text: its kind (`KINDS`) and a sentence for the host.

    The sentence never quotes what the model sent (it may hold secrets): it counts."""

    kind: str
    message: str

    def to_dict(self) -> dict[str, str]:
        return {"kind": self.kind, "message": self.message}

    def __str__(self) -> str:
        return self.message


def repair(
    text: str | bytes | bytearray, allowed: Collection[str]
) -> tuple[Any, tuple[Repair, ...]] | None:
    """(the JSON value the text holds, the repairs made), or None when the kinds `allowed`
    cannot make it one. Valid JSON is returned as it is, with no repair."""
    if not isinstance(text, str):
        try:
            text = bytes(text).decode("utf-8")
        except UnicodeDecodeError:
            return None
    try:
        return from_json(text, allow_inf_nan=False), ()
    except ValueError:
        pass
    if not allowed:
        return None
    return _repaired(text, frozenset(allowed))


def _repaired(text: str, allowed: frozenset[str]) -> tuple[Any, tuple[Repair, ...]] | None:
    made: dict[str, str] = {}
    start = skip(text, 0)
    fence = ""
    opened = _FENCE.match(text, start) if text.startswith(("```", "~~~"), start) else None
    if opened is None and start < len(text) and text[start] not in "{[":
        # Prose, then a fence on a line of its own: the first fence is the value's.
        line = _FENCE_LINE.search(text, start)
        if line is not None:
            opened = _FENCE.match(text, line.start(1))
    if opened is not None:
        if "fence" not in allowed:
            return None
        prose = len(text[start : opened.start()].strip())
        before = f" and {_count(prose, 'character')} of text before it" if prose else ""
        made["fence"] = f"removed a Markdown code fence{before}"
        fence = opened.group(1)
        start = opened.end()
    read = Reader(text, "python" in allowed, "quotes" in allowed)
    end = read.value(skip(text, start))
    rest = skip(text, end)
    if read.stack:  # the text stops before the value is complete
        closing = _closing(text, rest, fence)
        if not read.closable or (rest < len(text) and closing is None):
            return None
        if "truncated" not in allowed:
            return None
        opened_count = len(read.stack)
        dropped = "dropped a comma at the end and " if read.comma else ""
        if read.comma:
            read.out.pop()
        read.out.extend(CLOSERS[c] for c in reversed(read.stack))
        made["truncated"] = f"{dropped}closed {_count(opened_count, 'bracket')} the text left open"
        rest = len(text) if closing is None else closing
    elif fence:  # the closing fence (if the text has one: it may have been cut off)
        closing = _closing(text, rest, fence)
        rest = rest if closing is None else closing
    if rest < len(text):
        trailing = text[rest:]
        if "trailing" not in allowed or not _ignorable(trailing):
            return None
        made["trailing"] = f"ignored {_count(len(trailing), 'character')} after the JSON value"
    if (read.python or read.quotes) and read.twofold:
        return None  # text read the Python way, holding a string Python reads otherwise
    if read.python:  # (read only when allowed, as single quotes)
        words = [w for w in PYTHON_WORDS if w in read.python]
        made["python"] = (
            f"read Python literals {'/'.join(words)} as {'/'.join(PYTHON_WORDS[w] for w in words)}"
        )
    if read.quotes:
        made["quotes"] = "read single-quoted strings as JSON strings"
    if not made:
        return None
    written = "".join(read.out)
    if duplicate_key(written) is not None:
        return None  # a key twice: its reading would hide a value
    try:
        value = from_json(written, allow_inf_nan=False)
    except ValueError:
        return None
    return value, tuple(Repair(kind, made[kind]) for kind in KINDS if kind in made)


def _closing(text: str, at: int, fence: str) -> int | None:
    """Where the text goes on after the closing fence at `at` (after whitespace), else None."""
    if not fence or not text.startswith(fence, at):
        return None
    end = at + len(fence)
    while end < len(text) and text[end] == fence[0]:
        end += 1
    return skip(text, end)


def _ignorable(trailing: str) -> bool:
    """Prose after the value (it starts after whitespace): nothing that may continue the value
    or add to the arguments (a JSON token first; a bracket, a quoted key or a fence anywhere)."""
    return _CONTINUES.match(trailing) is None and _NOT_PROSE.search(trailing) is None


def _count(number: int, noun: str) -> str:
    return f"{number} {noun}{'' if number == 1 else 's'}"


def warning(tool: str, made: Iterable[Repair]) -> str:
    """The line of `ToolResult.warnings` that tells a host what was repaired in a call."""
    return f"the arguments of tool '{tool}' were repaired: " + "; ".join(r.message for r in made)


def tell(tool: str, made: Iterable[Repair]) -> None:
    """Log the repairs of one call at INFO on this module's logger (as coercions are)."""
    for made_one in made:
        _log.info("tool %s: arguments repaired (%s): %s", tool, made_one.kind, made_one.message)
