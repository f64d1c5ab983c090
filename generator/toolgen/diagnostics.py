"""Diagnostics are data: every check returns them, one printer shows them."""

from __future__ import annotations

import collections
import json
import operator
import posixpath
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, fields
from enum import Enum
from typing import Any


class Severity(str, Enum):  # noqa: UP042 - str() and format() of the members stay as they are
    ERROR = "error"
    WARNING = "warning"
    # What the generated package does differently for one provider while the runtime still
    # enforces the whole spec (a keyword written into a description, strict mode left off):
    # counted in the summary, listed only on request (`toolgen lint --notes`).
    NOTE = "note"


@dataclass(frozen=True, order=True)
class Diagnostic:
    """One finding about a spec, located in its source file.

    Ordering (file, line, col, rule, ...) makes printed output deterministic.
    """

    file: str
    line: int
    col: int
    rule: str
    severity: Severity
    message: str
    pointer: str = ""
    hint: str = ""

    @property
    def is_error(self) -> bool:
        return self.severity is Severity.ERROR

    @property
    def is_note(self) -> bool:
        return self.severity is Severity.NOTE

    def text(self) -> str:
        out = f"{self.file}:{self.line}:{self.col}: {_SEVERITY[self.severity]}[{self.rule}]: {self.message}"
        if self.hint:
            out += f"\n  hint: {self.hint}"
        return out


FIELDS = tuple(f.name for f in fields(Diagnostic))
# A diagnostic's fields in order: its place in the order, as the dataclass's own comparisons take them.
_ORDER = operator.attrgetter(*FIELDS)
_SEVERITY = {severity: severity.value for severity in Severity}  # the enum's `.value` is slow


def row(diagnostic: Diagnostic) -> dict[str, Any]:
    """A diagnostic as JSON reads it (`dataclasses.asdict`, the severity as its text), built
    directly: asdict copied each field deeply, most of storing a large build's cache entry."""
    out = dict(zip(FIELDS, _ORDER(diagnostic), strict=True))
    out["severity"] = _SEVERITY[diagnostic.severity]
    return out


_BY_TEXT = {text: severity for severity, text in _SEVERITY.items()}


def from_row(data: dict[str, Any]) -> Diagnostic:
    """`row`'s diagnostic again (an unknown severity: ValueError, as `Severity(text)` raises)."""
    text = data["severity"]
    severity = _BY_TEXT.get(text) if isinstance(text, str) else None
    return Diagnostic(**{**data, "severity": severity or Severity(text)})


def packed(diagnostic: Diagnostic) -> list[Any]:
    """`row`'s values without its keys, in the fields' order: how the build cache keeps
    diagnostics (a large build's thousands of rows are written and read about twice as fast)."""
    out = list(_ORDER(diagnostic))
    out[4] = _SEVERITY[diagnostic.severity]  # (FIELDS: file, line, col, rule, severity, ...)
    return out


def unpacked(data: list[Any]) -> Diagnostic:
    """`packed`'s diagnostic again; ValueError for an unknown severity (as `Severity(text)`)
    or a row of another length."""
    file, line, col, rule, text, message, pointer, hint = data
    severity = _BY_TEXT.get(text) if isinstance(text, str) else None
    return Diagnostic(file, line, col, rule, severity or Severity(text), message, pointer, hint)


def ordered(diagnostics: Iterable[Diagnostic]) -> list[Diagnostic]:
    """`sorted(set(diagnostics))`, each one's key built once rather than twice a comparison
    (a build sorts thousands of warnings, several times)."""
    return sorted(set(diagnostics), key=_ORDER)


def has_errors(diagnostics: Iterable[Diagnostic]) -> bool:
    return any(d.is_error for d in diagnostics)


def render(
    diagnostics: Sequence[Diagnostic],
    fmt: str = "text",
    base: str = "",
    notes: bool = False,
    warnings: bool = True,
) -> str:
    """Render diagnostics as `text`, `json` or `github` (Actions workflow commands).

    `base`: the folder the diagnostics' files are relative to, as a path from the repository
    root; GitHub attaches an annotation to the file at `base/file` (used by `github` only).
    Notes are listed only with `notes`, warnings only with `warnings` (errors always); the
    text summary counts what was left out and says which command lists it."""
    found = sorted(diagnostics, key=_ORDER)
    if fmt == "json":  # read by programs, which filter as they need
        rows = [row(d) for d in found]
        return json.dumps(rows, indent=2, ensure_ascii=False)
    shown = [d for d in found if d.is_error or (notes if d.is_note else warnings)]
    if fmt == "github":
        return "\n".join(_github_line(d, base) for d in shown)
    return "\n".join([d.text() for d in shown] + ([summary(found, shown)] if found else []))


def summary(diagnostics: Sequence[Diagnostic], shown: Sequence[Diagnostic]) -> str:
    """`1 error(s), 2 warning(s), 79 note(s)`, and what was not listed and which command lists it."""
    counts = collections.Counter(d.severity for d in diagnostics)
    left = counts - collections.Counter(d.severity for d in shown)
    line = f"{counts[Severity.ERROR]} error(s), {counts[Severity.WARNING]} warning(s)"
    if counts[Severity.NOTE]:
        line += f", {counts[Severity.NOTE]} note(s)"
    if left:
        what = " and ".join(f"the {s.value}s" for s in (Severity.WARNING, Severity.NOTE) if left[s])
        flag = " --notes" if left[Severity.NOTE] else ""
        line += f"; `toolgen lint{flag}` lists {what}"
    return line


def terminal(text: str) -> str:
    """`text` safe to print as one line: every character that is not printable (CR, LF, ESC
    and the other controls, format characters such as bidi overrides, line separators) is
    shown as its Python escape. What a command echoes from its input (a server's words, a
    command-line argument) goes through it, so it can neither forge a line nor send the
    terminal an escape sequence."""
    if text.isprintable():
        return text
    return "".join(c if c.isprintable() else repr(c)[1:-1] for c in text)


def escape_data(text: str) -> str:
    """A workflow command's message: `%`, CR and LF escaped (`%` first)."""
    return text.replace("%", "%25").replace("\r", "%0D").replace("\n", "%0A")


def escape_property(text: str) -> str:
    """A workflow command's property value: the message's escapes plus `:` and `,`."""
    return escape_data(text).replace(":", "%3A").replace(",", "%2C")


def _github_line(d: Diagnostic, base: str) -> str:
    # Everything printed is escaped: a file name is input too (a newline in it must not start a command).
    message = escape_data(f"[{d.rule}] {d.message}" + (f" (hint: {d.hint})" if d.hint else ""))
    level = "error" if d.is_error else "notice" if d.is_note else "warning"
    file = posixpath.normpath(posixpath.join(base, d.file)) if base else d.file
    return f"::{level} file={escape_property(file)},line={d.line},col={d.col}::{message}"
