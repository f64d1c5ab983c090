# Part of toolgen's runtime, copied verbatim into generated packages (edit toolgen, not a copy).
"""JSON text as pydantic-core reads it, and what to say about text that is not JSON: where it
broke and the likely fix (a code fence, comments, Python's literals, single quotes), NaN and
Infinity (which pydantic-core reads and JSON has not), valid JSON that is not an object.
"""

from __future__ import annotations

import re
from typing import Any

from pydantic_core import from_json

from ..errors import ArgumentIssue

_POSITION = re.compile(r" at line (\d+) column (\d+)$")


def not_json_numbers(text: str | bytes | bytearray) -> ArgumentIssue | None:
    """A `json` issue for `NaN` or `Infinity` read as a number (pydantic-core reads them, JSON
    has no such numbers; a string holding the words is fine), else None."""
    if isinstance(text, str):
        if "NaN" not in text and "Infinity" not in text:
            return None
    elif b"NaN" not in text and b"Infinity" not in text:
        return None
    try:
        from_json(text, allow_inf_nan=False)
    except ValueError:
        try:
            from_json(text)
        except ValueError:
            return None  # broken otherwise too: the usual reading explains it
        else:
            return ArgumentIssue(
                "",
                "json",
                "NaN and Infinity are not JSON numbers",
                suggestion="send a finite number, or null",
            )
    return None


UNREADABLE = object()  # what `read` gives for text pydantic-core cannot read as JSON


def read(text: str | bytes | bytearray) -> Any:
    """The JSON value of the text, as pydantic-core reads it, or UNREADABLE."""
    try:
        return from_json(text, cache_strings=False)  # (faster on large text, alike on small)
    except (ValueError, TypeError):
        return UNREADABLE


def blank(text: str | bytes | bytearray) -> bool:
    """No arguments at all, as some models send them: "", whitespace, or null."""
    stripped = text.strip()
    return not stripped or stripped in ("null", b"null")


def json_issue(message: str, text: str | bytes | bytearray) -> ArgumentIssue:
    """An issue for invalid JSON, from pydantic-core's message (`... at line 1 column 9`)."""
    message = message.removeprefix("Invalid JSON: ")
    found = _POSITION.search(message)
    line, column = (int(found.group(1)), int(found.group(2))) if found else (0, 0)
    what = _POSITION.sub("", message)
    if what.startswith("recursion limit exceeded"):
        return ArgumentIssue("", "limit", "nested too deeply", suggestion="flatten the structure")
    source = text if isinstance(text, str) else bytes(text).decode("utf-8", "replace")
    where = f" at line {line}, column {column}" if found else ""
    return ArgumentIssue(
        "",
        "json",
        f"invalid JSON{where}: {_plain(what)}",
        suggestion=_hint(what, source, line, column),
    )


# The parser's words for what went wrong, as a model reads them.
_PLAIN = (
    ("expected ident", "unexpected word"),
    ("expected value", "expected a value"),
    ("EOF while parsing a", "the text ends inside a"),  # "a value", "an object"
    ("trailing characters", "more text after the JSON value"),
    ("expected `,` or `}`", "expected , or }"),
    ("expected `,` or `]`", "expected , or ]"),
    ("expected `:`", "expected :"),
)


def _plain(what: str) -> str:
    for parser, plain in _PLAIN:
        if what.startswith(parser):
            return plain + what[len(parser) :]
    return what


def _hint(what: str, text: str, line: int, column: int) -> str | None:
    lines = text.splitlines() or [""]
    row = lines[line - 1] if 0 < line <= len(lines) else ""
    near = row[max(0, column - 1) : column + 10]
    around = row[max(0, column - 6) : column + 6]  # the parser may stop inside a word
    start = text.lstrip()[:3]
    if start == "```":
        return "send only the JSON object, without a Markdown code fence"
    if start[:2] in ("//", "/*"):
        return "JSON has no comments; remove them"
    if what.startswith("trailing comma"):
        return "remove the comma before the closing bracket"
    if what.startswith("key must be a string"):
        return (
            "use double quotes, not single quotes"
            if near.startswith("'")
            else "put every key in double quotes"
        )
    if what.startswith(("expected value", "expected ident")):
        for python, json_word in (("None", "null"), ("True", "true"), ("False", "false")):
            if python in around:
                return f"write {json_word}, not {python}"
        if near.startswith("'"):
            return "use double quotes, not single quotes"
        if near.startswith(("NaN", "Infinity", "undefined")):
            return "JSON has no NaN, Infinity or undefined; send a number or null"
        return None
    if what.startswith("EOF while parsing"):
        return "the JSON is cut off: close every string, array and object"
    if what.startswith("trailing characters"):
        return "send exactly one JSON object and nothing after it"
    if what.startswith("expected `,`"):
        return "separate members with a comma"
    if what.startswith("control character"):
        return "escape line breaks and tabs inside strings as \\n and \\t"
    if what.startswith("invalid escape"):
        return "escape a backslash as \\\\"
    if what.startswith("invalid number"):
        return "write numbers without leading zeros, quotes or a trailing dot"
    return None


def not_an_object(value: Any) -> ArgumentIssue:
    """Valid JSON that is not an object: an array, a number, or an object's JSON inside a string."""
    from ..errors import preview

    if isinstance(value, str) and value.strip().startswith("{"):
        return ArgumentIssue(
            "",
            "type",
            "expected an object, got a string holding its JSON",
            preview(value),
            "an object",
            "send the object itself, not a string of JSON",
        )
    kind = {
        list: "an array",
        str: "a string",
        bool: "true or false",
        int: "a number",
        float: "a number",
    }.get(type(value), "another value")
    return ArgumentIssue(
        "",
        "type",
        f"expected an object, got {kind}",
        preview(value),
        "an object",
        'send the arguments as one object: {"key": value, ...}',
    )
