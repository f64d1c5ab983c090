"""Python expressions as small trees, laid out the way black leaves them.

An expression that fits on its line is written flat. One that does not is split at its
own brackets, one item per line with a trailing comma, and its items are laid out the
same way in turn: black keeps such a split as it is (the "magic trailing comma"), so
the output is black-stable without running black.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from toolgen.constants import HEADER, LINE_LENGTH
from toolgen.literals import py_literal, py_string
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


Node = str | Call | Display  # a str is an expression already rendered (a name, a literal)


def call(function: str, *arguments: Node, **keywords: Node) -> Call:
    return Call(function, arguments, tuple(keywords.items()))


def tuple_of(values: list[Any]) -> Node:
    return Display("()", tuple(literal(v) for v in values))


def literal(value: Any) -> Node:
    """A JSON value as a display tree, so a large one splits across lines."""
    if type(value) is str:  # most leaves, and every key: the same few names again and again
        return _string(value)
    if isinstance(value, list) and value:
        return Display("[]", tuple(literal(v) for v in value))
    if isinstance(value, dict) and value:
        return Display("{}", tuple((_string(str(k)), literal(v)) for k, v in value.items()))
    return py_literal(value)


_STRINGS: dict[str, str] = {}  # text -> its literal (`py_string`), for `literal`
_STRINGS_LIMIT = 50_000


def _string(text: str) -> str:
    found = _STRINGS.get(text)
    if found is None:
        if len(_STRINGS) >= _STRINGS_LIMIT:
            _STRINGS.clear()
        found = _STRINGS[text] = py_string(text)
    return found


def _parts(node: Call | Display) -> tuple[str, str, list[tuple[str, Node]]]:
    """Opening text, closing bracket, and each item as (prefix, value)."""
    if isinstance(node, Call):
        items: list[tuple[str, Node]] = [("", a) for a in node.arguments]
        items += [(f"{k}=", v) for k, v in node.keywords]
        return node.function + "(", ")", items
    pairs = [(f"{i[0]}: ", i[1]) if isinstance(i, tuple) else ("", i) for i in node.items]
    return node.brackets[0], node.brackets[1], pairs


def flat(node: Node) -> str:
    return _flat(node, {})


def _flat(node: Node, memo: dict[int, str]) -> str:
    """The one-line text of `node`; `memo` (by node identity, for one statement) makes
    laying out a deep tree linear: each level asks for its children's text again. Items
    already text (most leaves) are joined without a call; the layout is `_parts`'s."""
    if isinstance(node, str):
        return node
    text = memo.get(id(node))
    if text is None:
        if isinstance(node, Call):
            inner = [a if isinstance(a, str) else _flat(a, memo) for a in node.arguments]
            inner += [
                f"{k}={v if isinstance(v, str) else _flat(v, memo)}" for k, v in node.keywords
            ]
            text = node.function + "(" + ", ".join(inner) + ")"
        else:
            inner = []
            for item in node.items:
                if isinstance(item, tuple):  # a dict item: (rendered key, value)
                    key, value = item
                    inner.append(
                        f"{key}: {value if isinstance(value, str) else _flat(value, memo)}"
                    )
                else:
                    inner.append(item if isinstance(item, str) else _flat(item, memo))
            brackets = node.brackets
            one_tuple = "," if brackets == "()" and len(inner) == 1 else ""
            text = brackets[0] + ", ".join(inner) + one_tuple + brackets[1]
        memo[id(node)] = text
    return text


def lines(node: Node, indent: int = 0, prefix: str = "", suffix: str = "") -> list[str]:
    """`prefix` + the expression + `suffix`, at `indent` spaces, as black would leave it."""
    return _lines(node, indent, prefix, suffix, {})


def _lines(node: Node, indent: int, prefix: str, suffix: str, memo: dict[int, str]) -> list[str]:
    pad = " " * indent
    one = f"{pad}{prefix}{_flat(node, memo)}{suffix}"
    if isinstance(node, str) or width(one) <= LINE_LENGTH:
        return [one]
    opening, closing, items = _parts(node)
    if not items:
        return [one]
    out = [f"{pad}{prefix}{opening}"]
    for item_prefix, value in items:
        out += _lines(value, indent + 4, item_prefix, ",", memo)
    out.append(f"{pad}{closing}{suffix}")
    return out


def statement(node: Node, indent: int = 0, prefix: str = "") -> str:
    return "\n".join(lines(node, indent, prefix))


def with_header(text: str) -> str:
    """A generated file's text: the line that marks it generated, then `text`."""
    return f"# {HEADER}\n{text}"
