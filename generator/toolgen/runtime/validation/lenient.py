# Part of toolgen's runtime, copied verbatim into generated packages (edit toolgen, not a copy).
"""A reader of one JSON value, with Python's words and single-quoted strings allowed, into
JSON text: the tokenizer of the repairs (repair.py) and of glued calls (glued.py).

It knows JSON's grammar: strings, with their escapes, are read whole (nothing inside one is
ever rewritten), a word or a number whole (`1.5e3`, `tru`). It is linear in the text and
iterative (no recursion, whatever the nesting), and says where it stopped and why: what is
still open, whether the value so far is complete, what it read the Python way.

- The words `None`, `True`, `False` outside strings read as `null`, `true`, `false` (when
  allowed).
- A single-quoted string (when allowed) is read as the string Python reads, with Python's own
  escapes (`\\'`, `\\xNN`, octal, `\\/` is a backslash and a slash); an escape Python refuses or
  warns about reading (`\\N{...}`, `\\x4`, a surrogate, a line break) is refused. A
  double-quoted string that JSON and Python read differently (`\\/`, a surrogate pair) is
  noted (`twofold`): text read the Python way holding one is not repaired.
"""

from __future__ import annotations

import json
import re

SPACE = " \t\n\r"
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
PYTHON_WORDS = {"None": "null", "True": "true", "False": "false"}
CLOSERS = {"{": "}", "[": "]"}

# What the reader expects next.
_VALUE, _VALUE_OR_CLOSE, _KEY, _KEY_OR_CLOSE, _COLON, _AFTER = range(6)


def skip(text: str, at: int) -> int:
    """Where the text goes on after the whitespace at `at`."""
    found = _SPACES.match(text, at)
    return found.end() if found is not None else at


class Reader:
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
            at = skip(text, at)
            if state == _AFTER and not stack:
                return at
            if at >= size:
                break
            char = text[at]
            if state == _AFTER:  # a comma, or the bracket that closes the innermost one
                if char == ",":
                    state = _KEY if stack[-1] == "{" else _VALUE
                elif char == CLOSERS[stack[-1]]:
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
        elif word in PYTHON_WORDS and self.allow_python:
            self.python.add(word)
            self.out.append(PYTHON_WORDS[word])
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
