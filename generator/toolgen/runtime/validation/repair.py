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
- `quotes`: a single-quoted string (a key or a value) read as the string Python reads, with
  Python's own escapes (`\\'`, `\\xNN`, octal, `\\/` is a backslash and a slash); an escape
  Python refuses or warns about reading (`\\N{...}`, `\\x4`, a surrogate, a line break) is
  refused. In text read the Python way (with a Python word or a single-quoted string), a
  double-quoted string that JSON and Python read differently (`\\/`, a surrogate pair) is
  refused too.
- `truncated`: when the text ends right after a complete value (or after a comma following
  one), the arrays and objects left open are closed. Text that ends inside a string, inside
  a word (`tru`), after a key or a colon, right after an opening bracket, or right after a
  number's last digit (`12` may have been cut from `123`: only a comma, a bracket or a space
  after it shows it is whole) is not repaired: that would invent or change a value.
- `split`: two or more calls glued into one, the name an exact concatenation of known tool
  names and the text exactly as many JSON values back to back (`split(name, text, names)`:
  only the registry knows the names and which tools allow it).

The text is read once, by a small tokenizer that knows JSON's grammar (strings, with their
escapes, are read whole, so nothing inside one is ever rewritten): linear in the text,
iterative (no recursion, whatever the nesting). The JSON text it writes is parsed again, as
strictly as any arguments, so a repair yields only what that text says.
"""

from __future__ import annotations

import json
import logging
import re
from collections.abc import Collection, Iterable
from dataclasses import dataclass
from typing import Any

from pydantic_core import from_json

from .duplicates import duplicate_key

# Every kind of repair `x-repair` may list.
KINDS = ("fence", "trailing", "python", "quotes", "split", "truncated")
# What `x-repair: true` allows: all but `truncated`, which closes what the model may have meant
# to continue (it must be asked for by name).
BY_DEFAULT = frozenset(KINDS) - {"truncated"}
MAX_PARTS = 8  # calls glued into one name, at most (more is not a slip)
# The logger's name is public (docs/errors.md): `<package>._runtime.repair`, as the module was
# named before the runtime had subpackages.
_log = logging.getLogger(__name__.rsplit(".", 2)[0] + ".repair")

_SPACE = " \t\n\r"
_SPACES = re.compile(r"[ \t\n\r]*")
_DOUBLE = re.compile(r'"[^"\\]*(?:\\.[^"\\]*)*"', re.S)
_SINGLE = re.compile(r"'[^'\\]*(?:\\.[^'\\]*)*'", re.S)
# In a single-quoted string: an escape (hex, 4 or 8 hex digits, octal, any other character), a
# double quote, or a control character (JSON escapes them; Python refuses a raw line break).
_SINGLE_ESCAPE = re.compile(
    r'\\(?:x([0-9a-fA-F]{2})|u([0-9a-fA-F]{4})|U([0-9a-fA-F]{8})|([0-7]{1,3})|(.))|"|[\x00-\x1f]',
    re.S,
)
# Python's one-character escapes, as JSON writes them (`\\<line break>` continues the line).
_PYTHON_ESCAPES = {
    "\\": "\\\\",
    "'": "'",
    '"': '\\"',
    "a": "\\u0007",
    "b": "\\b",
    "f": "\\f",
    "n": "\\n",
    "r": "\\r",
    "t": "\\t",
    "v": "\\u000b",
    "\n": "",
}
_REFUSED_ESCAPES = frozenset("xuUN\r")  # incomplete (`\\x4`), named, or a CR line break
# In a double-quoted string: the escapes JSON and Python read differently.
_DOUBLE_ESCAPE = re.compile(r"\\(?:(/)|u([dD][89a-fA-F][0-9a-fA-F]{2})|.)", re.S)
_WORD = re.compile(r"[A-Za-z0-9_$.+-]+")  # a word or a number, read whole (`1.5e3`, `tru`)
_NUMBER = re.compile(r"-?(?:0|[1-9][0-9]*)(?:\.[0-9]+)?(?:[eE][+-]?[0-9]+)?")
_JSON_WORDS = {"true": "true", "false": "false", "null": "null"}
_PYTHON_WORDS = {"None": "null", "True": "true", "False": "false"}
# A code fence: three or more backticks or tildes, an optional language, then the value.
_FENCE = re.compile(r"(`{3,}|~{3,})[ \t]*[A-Za-z0-9_+.-]*[ \t]*\r?\n?")
_FENCE_LINE = re.compile(r"^[ \t]*(`{3,}|~{3,})", re.M)
_CLOSERS = {"{": "}", "[": "]"}
# Text after a value that is not prose: it starts with a JSON (or Python) token, a number
# included (`0`, `-1`, `.5`, `- -1`: Python's signs), or holds a bracket, a quoted key or a code fence anywhere.
_CONTINUES = re.compile(
    r"""[,:"'{}\[\]]|[+-][+\- \t\n\r]*\.?[0-9]|\.?[0-9]"""
    r"|(?:true|false|null|None|True|False|NaN|Infinity)\b"
)
_NOT_PROSE = re.compile(r"""[{}\[\]]|```|~~~|"[^"\n]*"\s*:|'[^'\n]*'\s*:""")

# What the reader expects next.
_VALUE, _VALUE_OR_CLOSE, _KEY, _KEY_OR_CLOSE, _COLON, _AFTER = range(6)


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
    start = _skip(text, 0)
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
    read = _Reader(text, "python" in allowed, "quotes" in allowed)
    end = read.value(_skip(text, start))
    rest = _skip(text, end)
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
        read.out.extend(_CLOSERS[c] for c in reversed(read.stack))
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
        words = [w for w in _PYTHON_WORDS if w in read.python]
        made["python"] = (
            f"read Python literals {'/'.join(words)} as {'/'.join(_PYTHON_WORDS[w] for w in words)}"
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
    return _skip(text, end)


def _ignorable(trailing: str) -> bool:
    """Prose after the value (it starts after whitespace): nothing that may continue the value
    or add to the arguments (a JSON token first; a bracket, a quoted key or a fence anywhere)."""
    return _CONTINUES.match(trailing) is None and _NOT_PROSE.search(trailing) is None


def _count(number: int, noun: str) -> str:
    return f"{number} {noun}{'' if number == 1 else 's'}"


def _skip(text: str, at: int) -> int:
    found = _SPACES.match(text, at)
    return found.end() if found is not None else at


class _Reader:
    """Reads one JSON value (with the Python words and single quotes allowed) into JSON text.

    After `value(at)`: `out`, the value's JSON text so far; `stack`, the brackets still open
    (empty when the value is complete); `closable`, whether it stopped right after a complete
    value (or a comma after one: `comma`; not after a number the text ends with); `python`,
    the Python words read; `quotes`, whether a single-quoted string was read; `twofold`,
    whether a double-quoted string was read that JSON and Python read differently."""

    def __init__(self, text: str, python: bool, quotes: bool) -> None:
        self.text = text
        self.allow_python, self.allow_quotes = python, quotes
        self.out: list[str] = []
        self.stack: list[str] = []
        self.closable = False
        self.comma = False
        self.python: set[str] = set()
        self.quotes = False
        self.twofold = False  # a double-quoted string JSON and Python read differently
        self.cut_number = False  # the last word read is a number the text ends with

    def value(self, at: int) -> int:
        """Read from `at`; returns where the reading stopped (after the value when complete)."""
        text, out, stack = self.text, self.out, self.stack
        state = _VALUE
        size = len(text)
        while True:
            at = _skip(text, at)
            if state == _AFTER and not stack:
                return at
            if at >= size:
                break
            char = text[at]
            if state == _AFTER:  # a comma, or the bracket that closes the innermost one
                if char == ",":
                    state = _KEY if stack[-1] == "{" else _VALUE
                elif char == _CLOSERS[stack[-1]]:
                    stack.pop()
                else:
                    break
                out.append(char)
                self.comma = char == ","
                at += 1
                continue
            if state == _COLON:
                if char != ":":
                    break
                out.append(":")
                state, at = _VALUE, at + 1
                continue
            if char == "}" and state == _KEY_OR_CLOSE or char == "]" and state == _VALUE_OR_CLOSE:
                out.append(char)
                stack.pop()
                state, at = _AFTER, at + 1
                continue
            if state in (_KEY, _KEY_OR_CLOSE):  # a key
                found = self._string(at)
                if found is None:
                    break
                state, at = _COLON, found
            elif char in "{[":
                out.append(char)
                stack.append(char)
                state = _KEY_OR_CLOSE if char == "{" else _VALUE_OR_CLOSE
                at += 1
            else:
                found = self._string(at) if char in "\"'" else self._word(at)
                if found is None:
                    break
                state, at = _AFTER, found
            self.comma = False
        # Stopped: at the end of the text, or at something that does not continue the value.
        # A number the text ends with may be cut short: not a complete value.
        whole = state == _AFTER and not self.cut_number
        self.closable = bool(stack) and (whole or self.comma)
        return at

    def _string(self, at: int) -> int | None:
        """A string at `at` (double quotes, or single when allowed) -> its end, else None."""
        text = self.text
        if text[at] == '"':
            found = _DOUBLE.match(text, at)
            if found is None:
                return None
            string = found.group()
            if "\\" in string and not self.twofold:
                self.twofold = any(
                    m.group(1) or m.group(2) for m in _DOUBLE_ESCAPE.finditer(string)
                )
            self.out.append(string)
            return found.end()
        if text[at] != "'" or not self.allow_quotes:
            return None
        found = _SINGLE.match(text, at)
        if found is None:
            return None
        try:
            self.out.append('"' + _SINGLE_ESCAPE.sub(_escape, found.group()[1:-1]) + '"')
        except _Refused:
            return None
        self.quotes = True
        return found.end()

    def _word(self, at: int) -> int | None:
        """A number, `true`/`false`/`null`, or a Python word when allowed -> its end, else None."""
        found = _WORD.match(self.text, at)
        if found is None:
            return None
        word = found.group()
        if word in _JSON_WORDS:
            self.out.append(word)
        elif word in _PYTHON_WORDS and self.allow_python:
            self.python.add(word)
            self.out.append(_PYTHON_WORDS[word])
        elif _NUMBER.fullmatch(word):
            self.out.append(word)
            self.cut_number = found.end() == len(self.text)
        else:
            return None
        return found.end()


class _Refused(Exception):
    """A single-quoted string with an escape Python refuses or warns about: no repair."""


def _escape(found: re.Match[str]) -> str:
    """One escape, double quote or control character of a single-quoted string, as JSON writes
    what Python reads (_Refused where Python refuses it, or it is a surrogate)."""
    whole = found.group()
    if whole == '"':
        return '\\"'
    if len(whole) == 1:  # a control character: a raw line break ends a Python string
        if whole in "\n\r\x00":
            raise _Refused
        return json.dumps(whole)
    hexes, octal, other = (
        found.group(1) or found.group(2) or found.group(3),
        found.group(4),
        found.group(5),
    )
    if hexes is not None or octal is not None:
        point = int(hexes, 16) if hexes is not None else int(octal, 8)
        if point > 0x10FFFF or 0xD800 <= point <= 0xDFFF:
            raise _Refused
        return json.dumps(chr(point))[1:-1]
    if other in _PYTHON_ESCAPES:
        return _PYTHON_ESCAPES[other]
    if other in _REFUSED_ESCAPES:
        raise _Refused
    return json.dumps(whole)[1:-1]  # an escape Python does not know: the backslash stays


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
    at = _skip(text, 0)
    while at < len(text):
        if len(values) == len(parts):
            return None
        read = _Reader(text, False, False)
        end = read.value(at)
        if read.stack or end == at:
            return None
        part = text[at:end].rstrip(_SPACE)
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


def warning(tool: str, made: Iterable[Repair]) -> str:
    """The line of `ToolResult.warnings` that tells a host what was repaired in a call."""
    return f"the arguments of tool '{tool}' were repaired: " + "; ".join(r.message for r in made)


def tell(tool: str, made: Iterable[Repair]) -> None:
    """Log the repairs of one call at INFO on this module's logger (as coercions are)."""
    for made_one in made:
        _log.info("tool %s: arguments repaired (%s): %s", tool, made_one.kind, made_one.message)
