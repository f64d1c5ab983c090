"""Stage 5: the files a build writes are in black's layout (black pinned, in process).

The renderer emits black's layout itself (render/layout.py, render/code.py,
literals.py, the templates), and the copied runtime is kept in it. What remains
here is one rule (docs/decisions/0007-one-formatting-strategy.md): a Python file whose
every line fits in the line length, or is a long line black cannot shorten (a lone
string, a one-line docstring), is written as rendered; any other file (a very long
annotation, a name longer than a line) is formatted by black, in this process. The tests
hold the rule to black: every generated file must be unchanged by black.

With a template override every rendered Python file goes through black: its layout is
the override author's. The runtime's verbatim copies never do (their sources are kept
black-formatted, and a copy must stay byte-identical). black is imported only when a
file needs it.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

from toolgen.constants import LINE_LENGTH, RUNTIME_MARKER
from toolgen.render.layout import width

if TYPE_CHECKING:
    from black.mode import Mode

# A long line black leaves as it is: one string, maybe prefixed (maybe after `key=` or a
# dict display's `"key": `, maybe with a trailing comma), a one-line docstring, or a
# comment on a line of its own. After `NAME = `, a string is left as it is only when it
# would not fit in parentheses on a line of its own.
_STRING = r"""(?:[rRbBuUfF]{0,2}(?:"(?:[^"\\]|\\.)*"|'(?:[^'\\]|\\.)*'))"""
_LONG_BUT_STABLE = re.compile(
    rf"""\s*(?:[A-Za-z_]\w*=|{_STRING}: )?{_STRING},?|\s*\"\"\".*\"\"\"|\s*# .*\S"""
)
_ASSIGNED_STRING = re.compile(rf"""(\s*)[A-Za-z_]\w* = ({_STRING})""")
TRIPLE = '"""'
_VERBATIM = f"# {RUNTIME_MARKER}\n"


def in_black_layout(source: str) -> bool:
    """True when a module rendered in black's layout needs no black pass: no line is too
    long, except lines black leaves long."""
    lines = source.split("\n")
    if source.isascii():
        long = [line for line in lines if len(line) > LINE_LENGTH]
        # Nothing is too long; or (most modules) the few long lines, a description in a
        # string of its own, are each one black leaves long, inside a docstring or not.
        if not long or all(map(_stays_long, long)):
            return True
    return _scanned(lines)


def _scanned(lines: list[str]) -> bool:
    """`in_black_layout` line by line: a line inside a docstring may be long."""
    in_docstring = False
    for line in lines:
        stripped = line.strip()
        if in_docstring:
            in_docstring = stripped != TRIPLE  # lines inside a docstring are left as they are
            continue
        if stripped.startswith(TRIPLE) and not (len(stripped) > 3 and stripped.endswith(TRIPLE)):
            in_docstring = True
            continue
        if width(line) > LINE_LENGTH and not _stays_long(line):
            return False
    return True


def _stays_long(line: str) -> bool:
    assigned = _ASSIGNED_STRING.fullmatch(line)
    if assigned is not None:  # black wraps the string in parentheses when that makes it fit
        return len(assigned.group(1)) + 4 + width(assigned.group(2)) > LINE_LENGTH
    return _LONG_BUT_STABLE.fullmatch(line) is not None


def mode() -> Mode:
    from black.mode import Mode, TargetVersion

    return Mode(target_versions={TargetVersion.PY311}, line_length=LINE_LENGTH)


def format_python(source: str) -> str:
    """`source` as black writes it."""
    import black

    formatted: str = black.format_str(source, mode=mode())
    return formatted


def _needs_black(path: str, text: str, overridden: bool) -> bool:
    if not path.endswith(".py") or text.startswith(_VERBATIM):
        return False
    return overridden or not in_black_layout(text)


def format_files(files: dict[str, str], *, overridden: bool = False) -> dict[str, str]:
    """The files as written: Python files outside black's layout (every rendered one, when
    templates are `overridden`) formatted by black, the rest as they are."""
    return {
        path: format_python(text) if _needs_black(path, text, overridden) else text
        for path, text in files.items()
    }
