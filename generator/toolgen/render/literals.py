"""The one way spec text reaches Python source: as inert literals.

Property-tested against `ast.parse` and `ast.literal_eval` with arbitrary text.
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
        return repr(value)
    if isinstance(value, str):
        # repr escapes quotes, backslashes, control characters, lone surrogates and
        # non-printable code points; what remains is printable text.
        return repr(value)
    if isinstance(value, list):
        return "[" + ", ".join(py_literal(v) for v in value) + "]"
    if isinstance(value, dict):
        return "{" + ", ".join(f"{py_literal(str(k))}: {py_literal(v)}" for k, v in value.items()) + "}"
    raise TypeError(f"not a JSON value: {type(value).__name__}")


def py_docstring(text: str) -> str:
    """A docstring statement for `text`: triple-quoted when that is safe, else a plain literal."""
    body = text.strip()
    unsafe = (
        not body
        or "\\" in body
        or '"""' in body
        or body.endswith('"')
        or any(not (ch.isprintable() or ch == "\n") for ch in body)
    )
    if unsafe:
        return py_literal(body)
    # No newline before the closing quotes: the value is exactly the stripped text.
    return f'"""{body}"""'
