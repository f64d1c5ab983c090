"""The one way spec text reaches Python source: as inert literals.

Literals come out in black's own form (quotes, escapes, docstring indentation), so a
generated module needs no formatter pass to be black-stable. Property-tested against
`ast.parse`, `ast.literal_eval` and black with arbitrary text.
"""

from __future__ import annotations

import math
from typing import Any


def py_literal(value: Any) -> str:
    """A Python expression that evaluates to the JSON value `value`."""
    if value is None or isinstance(value, bool):
        return repr(value)
    if isinstance(value, int):
        return repr(value)
    if isinstance(value, float):
        if not math.isfinite(value):
            raise ValueError("JSON has no NaN or infinity")
        return repr(value).replace("e+", "e")  # `1e16`, as black writes `1e+16`
    if isinstance(value, str):
        return py_string(value)
    if isinstance(value, list):
        return "[" + ", ".join(py_literal(v) for v in value) + "]"
    if isinstance(value, dict):
        return (
            "{"
            + ", ".join(f"{py_literal(str(k))}: {py_literal(v)}" for k, v in value.items())
            + "}"
        )
    raise TypeError(f"not a JSON value: {type(value).__name__}")


def py_string(text: str) -> str:
    """A string literal as black writes it: double quotes unless the text has more `"` than `'`.

    Backslashes, the chosen quote, control characters, lone surrogates and every
    non-printable code point are escaped (lowercase hex, as repr and black write them).
    """
    quote = "'" if text.count('"') > text.count("'") else '"'
    body = (
        text.replace("\\", "\\\\").replace(quote, "\\" + quote)
        if "\\" in text or quote in text
        else text
    )
    if not body.isprintable():  # rare: whole-string passes first, one character at a time last
        body = body.replace("\n", "\\n").replace("\r", "\\r").replace("\t", "\\t")
        if not body.isprintable():
            body = "".join(
                ch if ch.isprintable() else repr(ch)[1:-1] for ch in body
            )  # \xNN, \uNNNN, \UNNNNNNNN
    return quote + body + quote


def py_docstring(text: str, indent: int = 0) -> str:
    """A docstring for `text` at `indent`, laid out as black lays docstrings out.

    Triple-quoted when that is safe, else a plain literal. A multi-line docstring has its
    continuation lines dedented, re-indented to `indent` and right-stripped, and the
    closing quotes on a line of their own, which is what black leaves unchanged.
    """
    body = text.strip()
    unsafe = (
        not body
        or "\\" in body
        or '"""' in body
        or body.startswith('"')
        or body.endswith('"')
        or not body.replace("\n", "").isprintable()
    )
    if not body:
        return '""""""'  # black writes an empty docstring this way
    if unsafe:
        literal = py_string(body)
        if literal[-2] == literal[0]:  # content ends with an escaped quote: black adds a space
            literal = f"{literal[:-1]} {literal[-1]}"
        return literal
    first, *rest = body.split("\n")
    if not rest:
        return f'"""{first}"""'
    common = min((len(line) - len(line.lstrip(" ")) for line in rest if line.strip()), default=0)
    pad = " " * indent
    lines = [
        first.strip(),
        *((pad + line[common:].rstrip()) if line.strip() else "" for line in rest),
    ]
    return '"""' + "\n".join(lines) + "\n" + pad + '"""'
