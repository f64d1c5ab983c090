"""Lay out bracketed code the way black does, so generated modules are black-stable as rendered.

black splits a line that is too long at its last opening bracket: the head, then the
contents on one line (when they fit, and only for a call's arguments), then the closing
bracket; otherwise one item per line with a trailing comma (a literal list, dict or
tuple always gets one item per line once it is split). This module does the same for the
calls and literals the templates emit. What it cannot lay out safely (a head that is
itself too long) stays one long line, and the format step hands that file to black.
"""

from __future__ import annotations

from collections.abc import Sequence

from toolgen.constants import LINE_LENGTH


def width(line: str) -> int:
    """Columns as black counts them: East Asian wide characters take two."""
    if line.isascii():
        return len(line)
    from black.strings import str_width  # black's own table; only non-ASCII lines need it

    return int(str_width(line))


def bracketed(
    head: str, items: Sequence[str], indent: int = 0, brackets: str = "()", literal: bool = False
) -> str:
    """`head` + brackets around `items` (already rendered expressions), at `indent` spaces.

    `literal` marks a list, dict or tuple display rather than a call's arguments."""
    pad = " " * indent
    opening, closing = brackets[0], brackets[1]
    flat = f"{pad}{head}{opening}{', '.join(items)}{closing}"
    if width(flat) <= LINE_LENGTH or not items or width(f"{pad}{head}{opening}") > LINE_LENGTH:
        return flat  # fits; or black splits the head itself, and the format step lets it
    inner = " " * (indent + 4)
    body = f"{inner}{', '.join(items)}"
    if width(body) <= LINE_LENGTH and not literal:
        return f"{pad}{head}{opening}\n{body}\n{pad}{closing}"
    return (
        f"{pad}{head}{opening}\n"
        + "".join(f"{inner}{item},\n" for item in items)
        + f"{pad}{closing}"
    )
