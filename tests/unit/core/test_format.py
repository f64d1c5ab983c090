"""Whether a rendered module needs black: the shortcut over its long lines answers as the
line-by-line scan does."""

from __future__ import annotations

from pathlib import Path

import pytest

from toolgen import format as formatting

LONG = "x" * 100
SOURCES = [
    "x = 1\n",  # nothing long
    f'DESCRIPTION = "{LONG}"\n',  # a long string black leaves long
    f"x = call(y)  # {LONG}\nz = f({', '.join(['a'] * 40)})\n",  # a long call: black splits it
    f'def f():\n    """{LONG}\n    {LONG} more\n    """\n',  # long lines inside a docstring
    f'def f():\n    """Short.\n\n    {LONG} words\n    """\n    return g({LONG})\n',  # after one
    f'X = "{LONG}"\nY = {LONG}({LONG})\n',  # one long line stays, another does not
    f"    key={'x' * 30!r},\n" * 3,
]
REPO = Path(__file__).resolve().parents[3]


@pytest.mark.parametrize("source", SOURCES)
def test_the_shortcut_answers_as_the_scan(source: str) -> None:
    assert formatting.in_black_layout(source) == formatting._scanned(source.split("\n"))


def test_every_case_is_read_both_ways() -> None:  # the cases above are not all alike
    answers = {formatting.in_black_layout(s) for s in SOURCES}
    assert answers == {True, False}


def test_the_generated_modules_are_answered_as_the_scan_answers() -> None:
    modules = sorted((REPO / "generated" / "toolgen_builtin" / "tools").glob("*.py"))
    assert modules
    for module in modules:
        source = module.read_text("utf-8")
        assert formatting.in_black_layout(source) == formatting._scanned(source.split("\n"))
