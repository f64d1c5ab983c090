"""literals.py is the only way spec text reaches Python source: property tests against ast."""

from __future__ import annotations

import ast
import inspect
import math

import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st

from toolgen.literals import py_docstring, py_literal

# Every code point, lone surrogates and control characters included.
any_text = st.text(st.characters(codec=None, categories=None))
# Fragments that break naive quoting or templating, mixed with arbitrary characters.
FRAGMENTS = [
    *"'\"\\{}%#\n\r\t\x00\x0b\x0c\x1b\x7f\x85\u2028\u2029\ufeff\ud800\udfff",
    '"""',
    "'''",
    "*/",
    "{{",
    "{%",
    "```",
]
tricky_text = st.lists(
    st.one_of(st.sampled_from(FRAGMENTS), st.characters(codec=None)), max_size=30
).map("".join)
texts = st.one_of(any_text, tricky_text)
json_scalars = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(),
    st.floats(allow_nan=False, allow_infinity=False),
    texts,
)
json_values = st.recursive(
    json_scalars,
    lambda children: st.one_of(
        st.lists(children, max_size=4), st.dictionaries(texts, children, max_size=4)
    ),
    max_leaves=12,
)


def same(a: object, b: object) -> bool:
    """Equal as JSON values, types included (True is not 1, 1.0 is a float, -0.0 keeps its sign)."""
    if type(a) is not type(b):
        return False
    if isinstance(a, float):
        return math.copysign(1, a) == math.copysign(1, b) and a == b  # type: ignore[arg-type]
    if isinstance(a, list):
        return len(a) == len(b) and all(same(x, y) for x, y in zip(a, b, strict=False))  # type: ignore[arg-type]
    if isinstance(a, dict):
        return list(a) == list(b) and all(same(a[k], b[k]) for k in a)  # type: ignore[index]
    return a == b


@settings(max_examples=500, deadline=None)
@given(json_values)
@example("\ud800")
@example('"""\\')
@example("\\")
@example(-0.0)
@example(10**40)
@example({"a": [1, 2.5, None, True]})
def test_py_literal_round_trips(value: object) -> None:
    source = py_literal(value)
    tree = ast.parse(source, mode="eval")  # a single expression, nothing else
    assert isinstance(tree.body, (ast.Constant, ast.List, ast.Dict, ast.UnaryOp))
    assert same(ast.literal_eval(source), value)
    # Inert wherever an expression may stand, also after a statement on the same logical line.
    ast.parse(f"x = {source}\ny = [{source}]\n")


@settings(max_examples=500, deadline=None)
@given(texts)
@example("")
@example("   ")
@example('ends with a quote"')
@example('""""')
@example("ends with a backslash\\")
@example("line one\nline two")
@example("tab\tand return\r")
@example("\u2028separator")
@example("{{ jinja }} {% tag %}")
@example("\ud800 lone surrogate")
def test_py_docstring_is_one_inert_statement(text: str) -> None:
    for indent in (0, 4):  # at module level and in a class body
        source = py_docstring(text, indent)
        wrapped = f"class C:\n    {source}\n    x = 1\n" if indent else f"{source}\nx = 1\n"
        tree = ast.parse(wrapped)
        body = tree.body[0].body if indent else tree.body  # type: ignore[attr-defined]
        assert len(body) == 2, "the docstring must be exactly one statement"
        assert isinstance(body[0], ast.Expr) and isinstance(body[0].value, ast.Constant)
        # Laid out as black lays docstrings out: the same lines, re-indented, right-stripped.
        assert _lines(inspect.cleandoc(body[0].value.value)) == _lines(
            inspect.cleandoc(text.strip())
        )


def _lines(text: str) -> list[str]:
    return [line.rstrip() for line in text.splitlines()]


@pytest.mark.parametrize("value", [math.nan, math.inf, -math.inf])
def test_py_literal_refuses_what_json_cannot_carry(value: float) -> None:
    with pytest.raises(ValueError):
        py_literal(value)


def test_py_literal_refuses_non_json() -> None:
    with pytest.raises(TypeError):
        py_literal({1, 2})


@settings(max_examples=300, deadline=None)
@given(texts)
@example("Summary.\n\n  - indented item\n  - another")
@example('starts with a quote: "x" and ends with text')
@example("ends with two spaces  \nnext")
def test_py_docstring_survives_black(text: str) -> None:
    """The pipeline formats every module with black: docstrings stay one statement, black-stable, same text."""
    import black

    from toolgen.format import mode

    source = f"{py_docstring(text)}\n\n\nclass C:\n    {py_docstring(text, 4)}\n\n    x = 1\n"
    formatted = black.format_str(source, mode=mode())
    assert formatted == source  # already black's layout: the format step may skip black
    tree = ast.parse(formatted)
    expected = inspect.cleandoc(text.strip())
    for node in (tree, tree.body[-1]):
        value = ast.get_docstring(node)  # type: ignore[arg-type]
        assert value is not None
        # black re-indents docstring lines and strips trailing spaces; the words never change.
        assert [line.rstrip() for line in value.splitlines()] == [
            line.rstrip() for line in expected.splitlines()
        ]


@settings(max_examples=300, deadline=None)
@given(st.floats(allow_nan=False, allow_infinity=False))
@example(1e16)
@example(-1.5e-07)
@example(1e300)
def test_a_number_is_written_as_black_writes_it(value: float) -> None:
    """A schema's number reaches a module in black's form (`1e16`, not repr's `1e+16`), so the
    module is black-stable without black."""
    import black

    from toolgen.format import mode

    source = f"X = {py_literal(value)}\n"
    assert black.format_str(source, mode=mode()) == source
    assert ast.literal_eval(py_literal(value)) == value
