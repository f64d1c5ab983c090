# Part of toolgen's runtime, copied verbatim into generated packages (edit toolgen, not a copy).
"""ECMA-262 regular expressions (unicode mode, as JSON Schema's `pattern`) in Python's `re`.

`ecma_pattern` rewrites a pattern so that Python's engine gives it ECMA's meaning: `\\d`, `\\w`
and `\\b` are ASCII, `\\s` is ECMA's whitespace set, `.` stops only at line terminators, `$` is
the very end, `\\p{..}` is built from `unicodedata`. What it cannot rewrite exactly (a syntax
that is an error in unicode mode, a property other than a general category, a lookbehind
Python cannot run) gives None: the caller refuses the schema rather than guess.
"""

from __future__ import annotations

import re
import sys
import unicodedata
from functools import cache

Ranges = list[tuple[int, int]]
_MAX = sys.maxunicode
_SPACE: Ranges = [
    (0x09, 0x0D),
    (0x20, 0x20),
    (0xA0, 0xA0),
    (0x1680, 0x1680),
    (0x2000, 0x200A),
    (0x2028, 0x2029),
    (0x202F, 0x202F),
    (0x205F, 0x205F),
    (0x3000, 0x3000),
    (0xFEFF, 0xFEFF),
]
_CLASSES: dict[str, Ranges] = {
    "d": [(0x30, 0x39)],
    "w": [(0x30, 0x39), (0x41, 0x5A), (0x5F, 0x5F), (0x61, 0x7A)],
    "s": _SPACE,
}
_LINE_ENDS: Ranges = [(0x0A, 0x0A), (0x0D, 0x0D), (0x2028, 0x2029)]
_CONTROL = {"t": "\t", "n": "\n", "v": "\v", "f": "\f", "r": "\r"}
_SYNTAX = set("^$\\.*+?()[]{}|/")
_QUANTIFIER = re.compile(r"\{[0-9]+(,[0-9]*)?\}")
_LONG_NAMES = {
    "Letter": "L",
    "Cased_Letter": "LC",
    "Uppercase_Letter": "Lu",
    "Lowercase_Letter": "Ll",
    "Titlecase_Letter": "Lt",
    "Modifier_Letter": "Lm",
    "Other_Letter": "Lo",
    "Mark": "M",
    "Nonspacing_Mark": "Mn",
    "Spacing_Mark": "Mc",
    "Enclosing_Mark": "Me",
    "Number": "N",
    "Decimal_Number": "Nd",
    "digit": "Nd",
    "Letter_Number": "Nl",
    "Other_Number": "No",
    "Punctuation": "P",
    "punct": "P",
    "Symbol": "S",
    "Separator": "Z",
    "Space_Separator": "Zs",
    "Other": "C",
    "Control": "Cc",
    "cntrl": "Cc",
    "Format": "Cf",
    "Unassigned": "Cn",
    "Private_Use": "Co",
    "Surrogate": "Cs",
}
_GROUPS = {"L", "M", "N", "P", "S", "Z", "C"}


class _Invalid(Exception):
    """The pattern cannot be rewritten exactly."""


def ecma_pattern(pattern: str) -> re.Pattern[str] | None:
    """`pattern` (ECMA-262, unicode mode) as a compiled Python regex with the same meaning, or
    None when it cannot be translated exactly. Use `.search` (JSON Schema's patterns are
    unanchored)."""
    try:
        return re.compile(_Parser(pattern).translate(), re.ASCII)
    except (_Invalid, re.error, OverflowError, RecursionError):
        return None


@cache
def _category(name: str) -> tuple[tuple[int, int], ...]:
    """The code point ranges of a general category (one letter: the whole group; LC: Lu Ll Lt)."""
    wanted = {"Lu", "Ll", "Lt"} if name == "LC" else None
    out: Ranges = []
    start = -1
    for cp in range(_MAX + 2):
        cat = unicodedata.category(chr(cp)) if cp <= _MAX else ""
        hit = (cat in wanted) if wanted else (cat == name or (len(name) == 1 and cat[:1] == name))
        if hit and start < 0:
            start = cp
        elif not hit and start >= 0:
            out.append((start, cp - 1))
            start = -1
    return tuple(out)


def _complement(ranges: Ranges) -> Ranges:
    out: Ranges = []
    at = 0
    for lo, hi in sorted(ranges):
        if lo > at:
            out.append((at, lo - 1))
        at = max(at, hi + 1)
    if at <= _MAX:
        out.append((at, _MAX))
    return out


def _char(cp: int) -> str:
    """One code point as a Python class or pattern atom (escaped unless alphanumeric ASCII)."""
    c = chr(cp)
    if c.isascii() and c.isalnum():
        return c
    return f"\\x{cp:02x}" if cp < 0x100 else (f"\\u{cp:04x}" if cp < 0x10000 else f"\\U{cp:08x}")


def _items(ranges: Ranges) -> str:
    return "".join(_char(lo) if lo == hi else f"{_char(lo)}-{_char(hi)}" for lo, hi in ranges)


def _set(ranges: Ranges) -> str:
    return f"[{_items(ranges)}]" if ranges else "(?!)"


def _all_but(ranges: Ranges) -> str:
    """The class of every code point outside `ranges`, written as a negated class: the same
    match as `_set(_complement(ranges))`, and hypothesis's `from_regex` builds its strategy
    without adding each of the million code points one by one (seconds a pattern)."""
    return f"[^{_items(ranges)}]"


class _Parser:
    def __init__(self, pattern: str) -> None:
        self.s, self.i = pattern, 0
        self.names: set[str] = set()

    def fail(self) -> _Invalid:
        return _Invalid(self.s)

    def peek(self, n: int = 0) -> str:
        j = self.i + n
        return self.s[j] if j < len(self.s) else ""

    def translate(self) -> str:
        out: list[str] = []
        s = self.s
        # What a quantifier would repeat: "atom"; "quantified" (only a lazy `?` may follow);
        # "" (nothing, or an assertion, which unicode mode does not repeat). Python reads
        # `a++` as possessive and repeats a look-around: ECMA-262 refuses both.
        last = ""
        looks: list[bool] = []  # for each open group: whether it is a look-around
        while self.i < len(s):
            c = s[self.i]
            self.i += 1
            kind = "atom"
            if c == "\\":
                kind = "" if self.peek() in ("b", "B") else "atom"
                out.append(self.escape())
            elif c == "[":
                out.append(self.klass())
            elif c == ".":
                out.append(_all_but(_LINE_ENDS))
            elif c == "$":
                out.append(r"\Z")
                kind = ""
            elif c == "(":
                ahead = s[self.i : self.i + 3]
                looks.append(ahead[:2] in ("?=", "?!") or ahead in ("?<=", "?<!"))
                out.append(self.group())
                kind = ""
            elif c == "{" or c in "*+?":
                match = _QUANTIFIER.match(s, self.i - 1) if c == "{" else None
                if c == "{" and not match:
                    raise self.fail()
                if c == "?" and last == "quantified":
                    kind = ""  # lazy
                elif last != "atom":
                    raise self.fail()
                else:
                    kind = "quantified"
                out.append(match.group() if match else c)
                self.i = match.end() if match else self.i
            elif c in "}]" or (c == ")" and not looks):
                raise self.fail()
            elif c == ")":
                out.append(c)
                kind = "" if looks.pop() else "atom"
            elif c in "^|":
                out.append(c)
                kind = ""
            else:
                out.append(_char(ord(c)))
            last = kind
        return "".join(out)

    def group(self) -> str:
        if self.peek() != "?":
            return "("
        rest = self.s[self.i + 1 : self.i + 3]
        if rest[:1] in (":", "=", "!"):
            self.i += 2
            return "(?" + rest[:1]
        if rest in ("<=", "<!"):
            self.i += 3
            return "(?" + rest
        if rest[:1] == "<":
            end = self.s.find(">", self.i)
            name = self.s[self.i + 2 : end] if end > 0 else ""
            if not name.isidentifier() or not name.isascii() or name in self.names:
                raise self.fail()
            self.names.add(name)
            self.i = end + 1
            return f"(?P<{name}>"
        raise self.fail()

    def code_point(self) -> int:
        """The code point of an escape after the backslash (not a class escape), or -1."""
        c = self.peek()
        self.i += 1
        if c in _CONTROL:
            return ord(_CONTROL[c])
        if c == "0" and not self.peek().isdigit():
            return 0
        if c == "c" and self.peek().isascii() and self.peek().isalpha():
            self.i += 1
            return ord(self.s[self.i - 1]) % 32
        if c == "x":
            return self.hex(2)
        if c == "u":
            if self.peek() == "{":
                end = self.s.find("}", self.i)
                digits = self.s[self.i + 1 : end] if end > 0 else ""
                if not digits or any(d not in "0123456789abcdefABCDEF" for d in digits):
                    raise self.fail()
                self.i = end + 1
                cp = int(digits, 16)
                if cp > _MAX:
                    raise self.fail()
                return cp
            cp = self.hex(4)
            if 0xD800 <= cp < 0xDC00 and self.s[self.i : self.i + 2] == "\\u":
                self.i += 2
                low = self.hex(4)
                if 0xDC00 <= low < 0xE000:
                    return 0x10000 + ((cp - 0xD800) << 10) + (low - 0xDC00)
                self.i -= 6
            return cp
        if c and c in _SYNTAX or c == "-":
            return ord(c)
        self.i -= 1
        return -1

    def hex(self, n: int) -> int:
        digits = self.s[self.i : self.i + n]
        if len(digits) != n or any(d not in "0123456789abcdefABCDEF" for d in digits):
            raise self.fail()
        self.i += n
        return int(digits, 16)

    def class_escape(self) -> Ranges | None:
        """`\\d \\w \\s \\p{..}` and their negations (after the backslash), else None."""
        c = self.peek()
        if c.lower() in _CLASSES:
            self.i += 1
            ranges = list(_CLASSES[c.lower()])
            return _complement(ranges) if c.isupper() else ranges
        if c in "pP" and self.peek(1) == "{":
            end = self.s.find("}", self.i)
            if end < 0:
                raise self.fail()
            name = self.s[self.i + 2 : end]
            self.i = end + 1
            for prefix in ("General_Category=", "gc="):
                name = name.removeprefix(prefix)
            name = _LONG_NAMES.get(name, name)
            if name != "LC" and name not in _GROUPS and not (len(name) == 2 and name[0] in _GROUPS):
                raise self.fail()
            ranges = list(_category(name))
            if not ranges:
                raise self.fail()
            return _complement(ranges) if c == "P" else ranges
        return None

    def escape(self) -> str:
        c = self.peek()
        if not c:
            raise self.fail()
        if c in "bB":
            self.i += 1
            return "\\" + c
        if c == "k":
            end = self.s.find(">", self.i)
            if self.peek(1) != "<" or end < 0:
                raise self.fail()
            name = self.s[self.i + 2 : end]
            self.i = end + 1
            return f"(?P={name})"
        if c.isdigit() and c != "0":
            start = self.i
            while self.peek().isdigit():
                self.i += 1
            return f"(?:\\{self.s[start : self.i]})"
        if c in ("D", "W", "S"):  # outside a class: the negation written as one
            self.i += 1
            return _all_but(_CLASSES[c.lower()])
        ranges = self.class_escape()
        if ranges is not None:
            return _set(ranges)
        cp = self.code_point()
        if cp < 0:
            raise self.fail()
        return _char(cp)

    def klass(self) -> str:
        negate = self.peek() == "^"
        if negate:
            self.i += 1
        parts: list[str] = []
        previous: int | None = None  # the last single code point, for a range
        while True:
            c = self.peek()
            if not c:
                raise self.fail()
            self.i += 1
            if c == "]":
                break
            if c == "-" and previous is not None and self.peek() not in ("]", ""):
                hi, sets = self.class_atom()
                if sets is not None or hi < previous:
                    raise self.fail()
                parts[-1] = f"{_char(previous)}-{_char(hi)}"
                previous = None
                continue
            self.i -= 1
            cp, sets = self.class_atom()
            if sets is not None:
                if self.peek() == "-" and self.peek(1) not in ("]", ""):
                    raise self.fail()
                parts.append(_items(sets))
                previous = None
            else:
                parts.append(_char(cp))
                previous = cp
        body = "".join(parts)
        if not body:
            return r"[\x00-\U0010ffff]" if negate else "(?!)"
        return f"[{'^' if negate else ''}{body}]"

    def class_atom(self) -> tuple[int, Ranges | None]:
        c = self.peek()
        self.i += 1
        if c != "\\":
            return ord(c), None
        if self.peek() == "b":
            self.i += 1
            return 8, None
        sets = self.class_escape()
        if sets is not None:
            return -1, sets
        cp = self.code_point()
        if cp < 0:
            raise self.fail()
        return cp, None
