"""A Markdown table generated from code, kept between two marker lines of a document.

The lint rule table (check/catalogue.py) and the breaking rule table (breaking/rules.py) are
written so; their tests compare the document with what the code says now.
"""

from __future__ import annotations

import sys
from collections.abc import Callable
from pathlib import Path


def cell(text: str) -> str:
    """Text as one cell of a Markdown table."""
    return text.replace("|", "\\|")


def with_table(document: str, begin: str, end: str, table: str) -> str:
    """`document` with the text between the `begin` and `end` lines replaced by `table`."""
    head, found_begin, rest = document.partition(begin)
    _, found_end, tail = rest.partition(end)
    if not found_begin or not found_end:
        raise ValueError(f"the document has no {begin!r} ... {end!r} markers")
    return f"{head}{begin}\n{table}{end}{tail}"


def main(argv: list[str], begin: str, end: str, table: Callable[[], str]) -> int:
    """`[--write DOC]`: print the table, or rewrite it in DOC."""
    if argv[:1] == ["--write"] and len(argv) == 2:
        path = Path(argv[1])
        path.write_text(with_table(path.read_text("utf-8"), begin, end, table()), "utf-8")
        return 0
    sys.stdout.write(table())
    return 0
