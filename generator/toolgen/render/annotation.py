"""Type annotations, and the lines that hold them, laid out as black lays them out.

A line holding an annotation is written flat when it fits. When it does not, black wraps
the annotation in parentheses (a return annotation, a parameter's, a class field's) and
splits what is inside: at its `|` operators, one operand a line (`| ` before each after
the first), then each operand still too long at its own brackets, its items on one line
when they fit, else one a line with a trailing comma. How a line splits depends on the
names in it (a tool's class names, a spec's enum values), so it is computed here rather
than written into a template; so are the other lines a long name can make too long (a
class statement, an assignment, an import). A shape this module does not lay out stays
one line, and the format step hands its file to black (decision 0007).
"""

from __future__ import annotations

import ast
from collections.abc import Sequence
from dataclasses import dataclass

from toolgen.constants import LINE_LENGTH
from toolgen.render.layout import bracketed, width


@dataclass(frozen=True)
class Union:
    """`a | b | ...`."""

    operands: tuple[Expr, ...]


@dataclass(frozen=True)
class Bracketed:
    """A subscript `head[items]` or a call `head(items)`."""

    head: str
    opening: str  # "[" or "("
    items: tuple[Expr, ...]


Expr = str | Union | Bracketed  # a str is a part black never splits (a name, a literal)


class _Unsupported(Exception):
    """A shape whose layout this module does not know: the line stays flat."""


def parse(text: str) -> Expr:
    """The tree of an annotation (or any expression of names, subscripts and calls)."""
    try:
        tree = _tree(ast.parse(text, mode="eval").body, text)
    except (SyntaxError, _Unsupported):
        return text
    return tree if flat(tree) == text else text  # spelled as typemap spells it, or left whole


def _tree(node: ast.expr, text: str) -> Expr:
    if isinstance(node, ast.BinOp) and isinstance(node.op, ast.BitOr):
        left = _tree(node.left, text)
        operands = left.operands if isinstance(left, Union) else (left,)
        return Union((*operands, _tree(node.right, text)))
    if isinstance(node, ast.Subscript):
        inner = node.slice
        items = inner.elts if isinstance(inner, ast.Tuple) else [inner]
        return Bracketed(_source(node.value, text), "[", tuple(_tree(i, text) for i in items))
    if isinstance(node, ast.Call):
        arguments = [_tree(a, text) for a in node.args]
        for keyword in node.keywords:
            if keyword.arg is None:
                raise _Unsupported
            value = _tree(keyword.value, text)
            if not isinstance(value, str):
                raise _Unsupported
            arguments.append(f"{keyword.arg}={value}")
        return Bracketed(_source(node.func, text), "(", tuple(arguments))
    if isinstance(node, (ast.Name, ast.Attribute, ast.Constant)) or (
        isinstance(node, ast.UnaryOp) and isinstance(node.operand, ast.Constant)
    ):
        return _source(node, text)
    raise _Unsupported


def _source(node: ast.expr, text: str) -> str:
    """The text of `node` (one line: offsets count UTF-8 bytes; ast.get_source_segment
    splits the whole text into lines on every call)."""
    if node.end_col_offset is None or node.lineno != 1 or node.end_lineno != 1:
        raise _Unsupported
    if text.isascii():
        return text[node.col_offset : node.end_col_offset]
    return text.encode()[node.col_offset : node.end_col_offset].decode()


def flat(expr: Expr) -> str:
    if isinstance(expr, str):
        return expr
    if isinstance(expr, Union):
        return " | ".join(flat(o) for o in expr.operands)
    closing = "]" if expr.opening == "[" else ")"
    return expr.head + expr.opening + ", ".join(flat(i) for i in expr.items) + closing


def _fits(line: str) -> bool:
    return width(line) <= LINE_LENGTH


def body(expr: Expr, indent: int, prefix: str = "", suffix: str = "") -> list[str]:
    """`prefix` + `expr` + `suffix` as a line inside brackets, split as black splits it."""
    pad = " " * indent
    one = f"{pad}{prefix}{flat(expr)}{suffix}"
    if _fits(one) or isinstance(expr, str):
        return [one]
    if isinstance(expr, Union):
        if suffix:  # black splits `a | b,` at its last bracket, not at `|`
            raise _Unsupported
        last = len(expr.operands) - 1
        out: list[str] = []
        for k, operand in enumerate(expr.operands):
            out += body(operand, indent, prefix if k == 0 else "| ", "" if k < last else suffix)
        return out
    closing = "]" if expr.opening == "[" else ")"
    inner = " " * (indent + 4)
    items = ", ".join(flat(i) for i in expr.items)
    if _fits(inner + items):
        middle = [inner + items]
    elif len(expr.items) == 1:
        middle = body(expr.items[0], indent + 4)
    else:
        middle = [line for item in expr.items for line in body(item, indent + 4, suffix=",")]
    return [f"{pad}{prefix}{expr.head}{expr.opening}", *middle, f"{pad}{closing}{suffix}"]


def _parenthesized(expr: Expr) -> bool:
    """Whether black keeps the parentheses it puts around `expr`: a union of three or more
    operands, or of two whose last is not a call (black splits at that call's brackets)."""
    if not isinstance(expr, Union):
        return False
    last = expr.operands[-1]
    return len(expr.operands) > 2 or not (isinstance(last, Bracketed) and last.opening == "(")


def _wrapped(
    expr: Expr, indent: int, head: str, tail: str, flat_line: str
) -> list[str]:  # `head (` + expr split inside + `) tail`, or the flat line
    if not _parenthesized(expr):
        return [flat_line]
    pad = " " * indent
    try:
        inside = body(expr, indent + 4)
    except _Unsupported:
        return [flat_line]
    return [f"{pad}{head}(", *inside, f"{pad}){tail}"]


def returns(annotation: str | Expr, indent: int = 4) -> str:
    """The closing line of an exploded signature: `) -> annotation:` (text, or a tree)."""
    one = f"{' ' * indent}) -> {flat(annotation)}:"
    if _fits(one):
        return one
    tree = parse(annotation) if isinstance(annotation, str) else annotation
    return "\n".join(_wrapped(tree, indent, ") -> ", ":", one))


def parameter(name: str, annotation: str, default: str, indent: int) -> list[str]:
    """`name: annotation = default,`: one parameter of an exploded signature."""
    one = f"{' ' * indent}{name}: {annotation} = {default},"
    if _fits(one):
        return [one]
    return _wrapped(parse(annotation), indent, f"{name}: ", f" = {default},", one)


def field(name: str, annotation: str, value: str | None, arguments: Sequence[str] = ()) -> str:
    """A class field at 4 spaces: `name: annotation`, `... = value`, or `... = Field(arguments)`
    when `value` is None and there are `arguments`."""
    declaration = f"    {name}: {annotation}"
    called = value is None and bool(arguments)
    rhs = f"Field({', '.join(arguments)})" if called else value
    one = declaration if rhs is None else f"{declaration} = {rhs}"
    if _fits(one):
        return one
    if rhs is not None and _fits(f"{declaration} = ("):
        # what is left of `=` is short: black splits the value, at Field's brackets when
        # that head fits, else in parentheses of its own
        if called and _fits(f"{declaration} = Field("):
            return bracketed(f"{name}: {annotation} = Field", arguments, 4)
        if not called or _fits(f"        {rhs}"):
            return f"{declaration} = (\n        {rhs}\n    )"
        return one
    expr = parse(annotation)  # else the annotation splits: at its brackets, or in parentheses
    tail = "" if rhs is None else f" = {rhs}"
    if isinstance(expr, Bracketed) and expr.opening == "[":
        try:
            lines = body(expr, 4, f"{name}: ", tail)
        except _Unsupported:
            return one
        return "\n".join(lines) if _fits(lines[0]) and _fits(lines[-1]) else one
    if not (_parenthesized(expr) or (isinstance(expr, str) and _fits(f"        {expr}"))):
        return one
    try:
        inside = body(expr, 8)
    except _Unsupported:
        return one
    closing = ["    )" if rhs is None else f"    ) = {rhs}"]
    if not _fits(closing[0]):
        if not called:
            return one
        closing = [bracketed(") = Field", arguments, 4)]
    return "\n".join([f"    {name}: (", *inside, *closing])


def class_line(name: str, base: str) -> str:
    """`class name(base):`, split at its brackets when it does not fit."""
    one = f"class {name}({base}):"
    if _fits(one) or not _fits(f"class {name}(") or not _fits(f"    {base}"):
        return one
    return f"class {name}(\n    {base}\n):"


def assignment(target: str, value: str) -> str:
    """`target = value` at module level; black wraps a value that does not fit in parentheses."""
    one = f"{target} = {value}"
    if _fits(one) or not _fits(f"    {value}"):
        return one
    return f"{target} = (\n    {value}\n)"


def import_from(module: str, names: Sequence[str]) -> str:
    """`from module import names`: one line, or black's parenthesized list, one name a line."""
    one = f"from {module} import {', '.join(names)}"
    if _fits(one):
        return one
    return f"from {module} import (\n" + "".join(f"    {n},\n" for n in names) + ")"
