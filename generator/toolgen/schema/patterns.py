"""How a spec's `pattern` (ECMA-262, unicode mode) is read: the one place lint, lowering and
the strategies ask.

- `ecma`: its exact ECMA-262 reading in Python's `re` (the runtime's translation, which the
  generated package's exact check uses too), or None when it has none;
- `pydantic_exact`: whether pydantic-core's own engine (Rust's `regex`) reads it exactly as
  ECMA-262 does, so that a generated class's `Field(pattern=...)` can enforce it; any other
  pattern with an ECMA reading is left to the exact check;
- `refusal`: what to tell the author of a pattern with no exact reading (check rule
  `pattern-invalid`): why, and what to write instead;
- `python_compiles`: whether Python's `re` compiles it at all (what a provider's definition
  may carry as it is).
"""

from __future__ import annotations

import re
import warnings
from functools import lru_cache

import pydantic_core
from pydantic_core import core_schema

from toolgen.runtime.validation.exact.ecma import ecma_pattern

# Literal characters, classes of literal characters and ranges, anchors, groups, alternation
# and quantifiers. A class escape (\d \w \s \b: Unicode in Rust, ASCII in ECMA), `.` (line
# terminators differ), `(?` (flags, look-around) or \u escapes are left to the exact check.
_PLAIN = re.compile(r"(?:[^\\.(]|\\[^A-Za-z0-9]|\((?!\?))*")
# Inside a class, Rust reads these as set operations; ECMA-262 (without the v flag) as characters.
_SET_OPERATORS = ("&&", "--", "~~")
_CLASS = re.compile(r"\[(?:\\.|[^\]\\])*\]")
_POSIX = re.compile(r"\[:(\^?)([a-z]+):\]")
_POSIX_CLASSES = {
    "alpha": "[A-Za-z]",
    "digit": "[0-9]",
    "alnum": "[A-Za-z0-9]",
    "upper": "[A-Z]",
    "lower": "[a-z]",
    "space": "\\s",
    "xdigit": "[0-9A-Fa-f]",
    "word": "\\w",
    "punct": "\\p{P}",
    "blank": "[ \\t]",
    "cntrl": "\\p{Cc}",
}
# Escapes of other engines, with what ECMA-262 writes instead.
_FOREIGN_ESCAPES = {
    "Z": ("Python reads it as the end of the string", "$"),
    "z": ("Rust and Perl read it as the end of the string", "$"),
    "A": ("Python, Rust and Perl read it as the start of the string", "^"),
    "h": ("Perl reads it as a horizontal space", "[ \\t]"),
    "N": ("Python reads \\N{...} as a named character", "the character itself, or \\u{...}"),
}


@lru_cache(maxsize=1024)
def python_compiles(pattern: str) -> bool:
    """True when `re` compiles `pattern`; `\\p{L}` and other ECMA-only constructs do not."""
    try:
        with warnings.catch_warnings():  # "possible nested set": a meaning `re` may change
            warnings.simplefilter("ignore", FutureWarning)
            re.compile(pattern)
        return True
    except (re.error, RecursionError, OverflowError):
        return False


@lru_cache(maxsize=1024)
def ecma(pattern: str) -> re.Pattern[str] | None:
    """A spec's pattern as Python `re` with its ECMA-262 meaning (the runtime's translation,
    which the generated package's exact check uses too), or None when it has no exact one."""
    return ecma_pattern(pattern)


@lru_cache(maxsize=1024)
def pydantic_exact(pattern: str) -> bool:
    """True when pydantic-core's default engine (Rust's `regex`) enforces `pattern` exactly as
    ECMA-262 does: the pattern has an ECMA reading, uses only syntax both engines read alike
    (`_PLAIN`, and classes without what Rust reads as nested classes, POSIX classes or set
    operations, or as a literal `]`), and Rust compiles it."""
    return (
        _PLAIN.fullmatch(pattern) is not None
        and "\\u" not in pattern
        and _plain_classes(pattern)
        and ecma(pattern) is not None
        and _rust_compiles(pattern)
    )


def _plain_classes(pattern: str) -> bool:
    """No class Rust reads otherwise: `[` inside a class (a nested class, `[[:alpha:]]`), a
    set operator, or an empty class (`[]`, `[^]`: Rust takes the `]` as a member)."""
    i, n = 0, len(pattern)
    while i < n:
        if pattern[i] == "\\":
            i += 2
            continue
        if pattern[i] != "[":
            i += 1
            continue
        i += 2 if pattern[i + 1 : i + 2] == "^" else 1
        if pattern[i : i + 1] == "]":
            return False
        start = i
        while i < n and pattern[i] != "]":
            if pattern[i] == "[":
                return False
            i += 2 if pattern[i] == "\\" else 1
        if any(operator in pattern[start:i] for operator in _SET_OPERATORS):
            return False
        i += 1
    return True


def _rust_compiles(pattern: str) -> bool:
    try:
        pydantic_core.SchemaValidator(core_schema.str_schema(pattern=pattern))
        return True
    except pydantic_core.SchemaError:
        return False


def refusal(pattern: str) -> tuple[str, str]:
    """(why `pattern`, which has no exact ECMA-262 reading, is refused; what to write instead)."""
    posix = _POSIX.search(pattern)
    if posix:
        name = posix.group(2)
        instead = _POSIX_CLASSES.get(name, "the characters it means, as a class of ranges")
        return (
            f"[:{name}:] is a POSIX class, which no ECMA-262 engine has: ECMA-262 reads "
            f"`[[:{name}:]` as the class of the characters "
            f"`{''.join(dict.fromkeys('[:' + name))}`, then a lone `]`",
            f"write {instead} for [:{name}:]",
        )
    foreign = re.search(r"(?<!\\)(?:\\\\)*\\([ZzAhN])", pattern)
    if foreign:
        letter = foreign.group(1)
        meaning, instead = _FOREIGN_ESCAPES[letter]
        return (
            f"\\{letter} is not an ECMA-262 escape ({meaning})",
            f"write {instead} for \\{letter}",
        )
    if "(?P" in pattern:
        return (
            "`(?P<name>...)` and `(?P=name)` are Python's syntax, not ECMA-262's",
            "write (?<name>...) and \\k<name>",
        )
    if re.search(r"\(\?[a-zA-Z-]+[):]", pattern):
        return (
            "inline flags such as (?i) are not ECMA-262",
            "spell the cases out ([Aa]) or drop the flag",
        )
    outside = _CLASS.sub(
        "x", pattern.replace("\\\\", "x")
    )  # classes and escaped backslashes as atoms
    if re.search(r"(?<!\\)(?:[*+?]|\{[0-9]+(?:,[0-9]*)?\})[+*]", outside):
        return (
            "a quantifier of a quantifier (`a++`, a possessive quantifier in Python and Perl) "
            "is not ECMA-262",
            "write one quantifier (a+), or a lazy one (a+?)",
        )
    if re.search(r"\\[pP]\{", pattern) and python_compiles(
        re.sub(r"\\[pP]\{[^}]*\}", "x", pattern)
    ):
        return (
            "it uses a Unicode property other than a general category (\\p{L}, \\p{Lu}, ...), "
            "which the runtime cannot check exactly",
            "write a general category, or the characters as ranges ([\\u0370-\\u03ff])",
        )
    return (
        "it is not a valid ECMA-262 regular expression (JSON Schema reads patterns in "
        "unicode mode), so every engine would read it its own way",
        "close every group and class, and escape a literal ( ) [ ] { } as \\( \\) \\[ \\] \\{ \\}",
    )
