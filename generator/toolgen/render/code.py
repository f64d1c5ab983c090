"""Python expressions as small trees, laid out the way black leaves them.

An expression that fits on its line is written flat. One that does not is split at its
own brackets, one item per line with a trailing comma, and its items are laid out the
same way in turn: black keeps such a split as it is (the "magic trailing comma"), so
the output is black-stable without running black.

Laying out costs about the size of the text written: a node is written flat as it is
measured (`_fit`), and the measuring stops once the line is full. A JSON value (`literal`)
is laid out from the value itself (`_json_lines`): no display is built per list or dict.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from toolgen.constants import HEADER, LINE_LENGTH
from toolgen.literals import py_literal, py_string
from toolgen.memo import Bounded
from toolgen.render.layout import width


@dataclass(frozen=True)
class Call:
    function: str
    arguments: tuple[Node, ...] = ()
    keywords: tuple[tuple[str, Node], ...] = ()


@dataclass(frozen=True)
class Display:
    """A list or dict display; dict items are (rendered key, value)."""

    brackets: str  # "[]", "{}" or "()" (a tuple)
    items: tuple[Node | tuple[str, Node], ...]


@dataclass(frozen=True)
class Value:
    """A non-empty JSON list or dict (`literal`): laid out as a display of its items."""

    value: list[Any] | dict[Any, Any]


# A str is an expression already rendered (a name, a literal)
Node = str | Call | Display | Value


def call(function: str, *arguments: Node, **keywords: Node) -> Call:
    return Call(function, arguments, tuple(keywords.items()))


def tuple_of(values: list[Any]) -> Node:
    return Display("()", tuple(literal(v) for v in values))


def literal(value: Any) -> Node:
    """A JSON value as a node, so a large one splits across lines."""
    if type(value) is str:  # most leaves, and every key: the same few names again and again
        return _string(value)
    if isinstance(value, (list, dict)) and value:
        return Value(value)
    return py_literal(value)


# A text -> its literal (`py_string`), for `literal` and the layout below.
_STRINGS: Bounded[str, str] = Bounded(50_000, py_string)
_string = _STRINGS.__getitem__


def _parts(node: Call | Display) -> tuple[str, str, list[tuple[str, Node]]]:
    """Opening text, closing bracket, and each item as (prefix, value)."""
    if isinstance(node, Call):
        items: list[tuple[str, Node]] = [("", a) for a in node.arguments]
        items += [(f"{k}=", v) for k, v in node.keywords]
        return node.function + "(", ")", items
    pairs = [(f"{i[0]}: ", i[1]) if isinstance(i, tuple) else ("", i) for i in node.items]
    return node.brackets[0], node.brackets[1], pairs


def flat(node: Node) -> str:
    """The one-line text of `node`."""
    text = _fit(node, _UNBOUNDED)
    assert text is not None  # everything fits in no limit
    return text


_UNBOUNDED = 1 << 62


def _columns(text: str) -> int:
    return len(text) if text.isascii() else width(text)


def _fit(node: Node, room: int) -> str | None:
    """The one-line text of `node` when it is at most `room` columns wide, else None: the
    measuring stops at the first item that does not fit (of a large value, within a line)."""
    if isinstance(node, str):  # `_columns`, inline: the most frequent call of a layout
        return node if (len(node) if node.isascii() else width(node)) <= room else None
    if isinstance(node, Value):
        return _json_fit(node.value, room)
    inner: list[str] = []
    if isinstance(node, Call):  # `f(`, `)`, and a `, ` between items: two columns an item
        known = _CALLS.get(id(node))
        if known is not None and known[0] is node:
            return known[1] if _columns(known[1]) <= room else None
        room -= _columns(node.function) + 2 * max(len(node.arguments) + len(node.keywords), 1)
        for argument in node.arguments:
            room = _fit_item("", argument, room, inner)
            if room < 0:
                return None
        for keyword, value in node.keywords:
            room = _fit_item(f"{keyword}=", value, room, inner)
            if room < 0:
                return None
        text = node.function + "(" + ", ".join(inner) + ")"
        _CALLS.keep(id(node), (node, text))
        return text if room >= 0 else None  # below zero only for an empty call too long
    items, brackets = node.items, node.brackets  # as a call's; a one-item tuple has a comma
    one_tuple = "," if brackets == "()" and len(items) == 1 else ""
    room -= 2 * max(len(items), 1) + len(one_tuple)
    for item in items:
        if isinstance(item, tuple):  # a dict item: (rendered key, value)
            room = _fit_item(f"{item[0]}: ", item[1], room, inner)
        else:
            room = _fit_item("", item, room, inner)
        if room < 0:
            return None
    return brackets[0] + ", ".join(inner) + one_tuple + brackets[1] if room >= 0 else None


# id(call) -> (call, its flat text): a node is laid out again wherever it recurs (the
# strategy compiler shares the nodes of the scalar schemas written alike, thousands of
# times in a spec set). The node is kept beside its text, so that its id names no other
# while the entry lives; nodes are never changed.
_CALLS: Bounded[int, tuple[Call, str]] = Bounded(50_000)


def _fit_item(prefix: str, value: Node, room: int, inner: list[str]) -> int:
    """Append `prefix` and the flat text of `value` to `inner` when they fit in `room`; the
    room left after them, or -1 when they do not fit."""
    if prefix:
        room -= len(prefix) if prefix.isascii() else width(prefix)
    text = _fit(value, room)
    if text is None:
        return -1
    inner.append(prefix + text)
    return room - (len(text) if text.isascii() else width(text))


def _json_fit(value: Any, room: int) -> str | None:
    """`_fit` of a JSON value: `py_literal(value)`, each string's literal made once per text."""
    out: list[str] = []
    return "".join(out) if _json_write(value, room, out) >= 0 else None


def _json_write(value: Any, room: int, out: list[str]) -> int:
    """Append the literal of `value` to `out`; return the room left after it, below zero when
    it does not fit (`out` is then dropped: the writing stops there)."""
    if type(value) is str:  # most leaves
        text = _STRINGS[value]
    elif isinstance(value, list) and value:
        room -= 2 * len(value)  # the brackets, and a `, ` between items
        out.append("[")
        for i, item in enumerate(value):
            if i:
                out.append(", ")
            room = _json_write(item, room, out)
            if room < 0:
                return room
        out.append("]")
        return room
    elif isinstance(value, dict) and value:
        room -= 4 * len(value)  # the braces, a `: ` after each key, a `, ` between items
        out.append("{")
        for i, (key, item) in enumerate(value.items()):
            written = _STRINGS[key if type(key) is str else str(key)]
            room -= len(written) if written.isascii() else width(written)
            out.append(f", {written}: " if i else f"{written}: ")
            room = _json_write(item, room, out)
            if room < 0:
                return room
        out.append("}")
        return room
    else:
        text = py_literal(value)
    out.append(text)
    return room - (len(text) if text.isascii() else width(text))


def lines(node: Node, indent: int = 0, prefix: str = "", suffix: str = "") -> list[str]:
    """`prefix` + the expression + `suffix`, at `indent` spaces, as black would leave it."""
    head = " " * indent + prefix
    if isinstance(node, str):
        return [head + node + suffix]
    if isinstance(node, Value):
        out: list[str] = []
        _json_lines(node.value, indent, prefix, suffix, out)
        return out
    text = _fit(node, LINE_LENGTH - _columns(head) - _columns(suffix))
    if text is not None:
        return [head + text + suffix]
    opening, closing, items = _parts(node)
    if not items:
        return [head + flat(node) + suffix]
    out = [head + opening]
    for item_prefix, value in items:
        out += lines(value, indent + 4, item_prefix, ",")
    out.append(" " * indent + closing + suffix)
    return out


def _json_lines(value: Any, indent: int, prefix: str, suffix: str, out: list[str]) -> None:
    """`lines` of a JSON value, appended to `out`: a list or dict that does not fit is split,
    one item a line, as a display is. A leaf is one line whether it fits or not: the items
    of a split value that are leaves (most lines) are written in place."""
    head = " " * indent + prefix
    if not isinstance(value, (list, dict)) or not value:  # a leaf, or an empty display
        out.append(head + (_STRINGS[value] if type(value) is str else py_literal(value)) + suffix)
        return
    written = [head]
    room = LINE_LENGTH - (len(head) if head.isascii() else width(head)) - _columns(suffix)
    if _json_write(value, room, written) >= 0:
        written.append(suffix)
        out.append("".join(written))
        return
    pad = " " * (indent + 4)
    if isinstance(value, list):
        out.append(head + "[")
        for item in value:
            if type(item) is str:
                out.append(f"{pad}{_STRINGS[item]},")
            elif not item or not isinstance(item, (list, dict)):  # another leaf
                out.append(f"{pad}{py_literal(item)},")
            else:
                _json_lines(item, indent + 4, "", ",", out)
        out.append(" " * indent + "]" + suffix)
    else:
        out.append(head + "{")
        for key, item in value.items():
            written_key = _STRINGS[key if type(key) is str else str(key)]
            if type(item) is str:
                out.append(f"{pad}{written_key}: {_STRINGS[item]},")
            elif not item or not isinstance(item, (list, dict)):  # another leaf
                out.append(f"{pad}{written_key}: {py_literal(item)},")
            else:
                _json_lines(item, indent + 4, f"{written_key}: ", ",", out)
        out.append(" " * indent + "}" + suffix)


def statement(node: Node, indent: int = 0, prefix: str = "") -> str:
    return "\n".join(lines(node, indent, prefix))


def with_header(text: str) -> str:
    """A generated file's text: the line that marks it generated, then `text`."""
    return f"# {HEADER}\n{text}"
