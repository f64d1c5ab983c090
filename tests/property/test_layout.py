"""Generated modules are in black's layout as rendered, so most skip black entirely.

The claim behind format.in_black_layout: whatever toolgen's templates emit, black leaves
it unchanged. Checked against black itself, on the layout helper and on whole packages.
"""

from __future__ import annotations

import ast
import keyword
import sys
import textwrap
from pathlib import Path

import black
from hypothesis import given, settings
from hypothesis import strategies as st

from tests.support.generation import REPO
from toolgen.config import BuildOptions
from toolgen.format import in_black_layout, mode
from toolgen.literals import py_string
from toolgen.pipeline import build
from toolgen.render.code import Call, Display, Node, flat, statement
from toolgen.render.layout import bracketed

sys.path.insert(0, str(REPO / "benchmarks"))
import synthetic  # noqa: E402

MODE = mode()
words = st.text(st.sampled_from("abcdefghij _'\"\\é⺀"), max_size=60)  # ⺀ is two columns wide


@settings(max_examples=300, deadline=None)
@given(
    name=st.from_regex(r"[a-z][a-z_]{0,70}", fullmatch=True).filter(
        lambda n: not keyword.iskeyword(n)
    ),
    values=st.lists(words, max_size=6),
    indent=st.sampled_from([0, 4]),
    literal=st.booleans(),
)
def test_bracketed_is_what_black_writes(
    name: str, values: list[str], indent: int, literal: bool
) -> None:
    items = (
        [py_string(v) for v in values]
        if literal
        else [f"k{i}={py_string(v)}" for i, v in enumerate(values)]
    )
    head = f"{name} = " if literal else f"{name}: int = Field"
    code = bracketed(head, items, indent, "[]" if literal else "()", literal=literal) + "\n"
    source = f"class A:\n{code}" if indent else code
    if in_black_layout(source):  # otherwise the format step hands it to black: no claim
        assert black.format_str(source, mode=MODE) == source


def test_every_generated_file_is_black_stable(tmp_path: Path) -> None:
    """Synthetic tools with every construct the templates render, and the hard cases."""
    synthetic.write_specs(tmp_path / "specs", 60)
    result = build(tmp_path / "specs", BuildOptions(package="synth"))
    assert result.ok
    rendered = [
        p for p, text in result.files.items() if p.endswith(".py") and "/_runtime/" not in p
    ]
    skipped = [p for p in rendered if in_black_layout(result.files[p])]
    assert skipped == rendered  # the point: no rendered module needs a black pass
    for path, text in result.files.items():
        if path.endswith(".py"):
            assert black.format_str(text, mode=MODE) == text, path


def test_golden_outputs_are_black_stable() -> None:
    for path in (REPO / "tests" / "golden" / "cases").glob("*/expected/**/*.py"):
        text = path.read_text("utf-8")
        assert black.format_str(text, mode=MODE) == text, path


@settings(max_examples=200, deadline=None)
@given(
    name=st.sampled_from(["DESCRIPTION", "X"]),
    text=st.text(st.sampled_from("ab '\"é"), min_size=80, max_size=110),
    indent=st.sampled_from([0, 4]),
)
def test_a_long_assigned_string_is_claimed_stable_only_when_black_leaves_it(
    name: str, text: str, indent: int
) -> None:
    """black wraps `NAME = "..."` in parentheses when that makes the string fit."""
    line = " " * indent + f"{name} = {py_string(text)}\n"
    source = f"class A:\n{line}" if indent else line
    assert in_black_layout(source) == (black.format_str(source, mode=MODE) == source)


@settings(max_examples=200, deadline=None)
@given(
    text=st.text(st.sampled_from("ab '\"#é⺀"), min_size=90, max_size=120),
    indent=st.sampled_from([0, 4]),
    prefix=st.sampled_from(["f", "", "r"]),
)
def test_long_comments_and_prefixed_strings_are_claimed_stable_only_when_black_leaves_them(
    text: str, indent: int, prefix: str
) -> None:
    pad = "    "  # inside a call's brackets; `indent` puts the call in a function
    for line in (
        f"{pad}# {text.rstrip()}",
        f"{pad}{prefix}{py_string(text)},",
        f"{pad}x={prefix}{py_string(text)},",
    ):
        call = f"g(\n{line}\n)"
        source = f"def f():\n{textwrap.indent(call, '    ')}\n" if indent else f"{call}\n"
        if in_black_layout(source):
            assert black.format_str(source, mode=MODE) == source


def _trees() -> st.SearchStrategy[Node]:
    leaves = st.one_of(words.map(py_string), st.sampled_from(["x", "st.none()", "True", "12345"]))
    return st.recursive(
        leaves,
        lambda inner: st.one_of(
            st.builds(
                lambda f, a, k: Call(f, tuple(a), tuple((f"k{i}", v) for i, v in enumerate(k))),
                st.sampled_from(["f", "_s.objects", "st.one_of"]),
                st.lists(inner, max_size=3),
                st.lists(inner, max_size=3),
            ),
            st.builds(lambda items: Display("[]", tuple(items)), st.lists(inner, max_size=4)),
            st.builds(lambda items: Display("()", tuple(items)), st.lists(inner, max_size=3)),
            st.builds(
                lambda kv: Display("{}", tuple((py_string(k), v) for k, v in kv)),
                st.lists(st.tuples(words, inner), max_size=3),
            ),
        ),
        max_leaves=12,
    )


@settings(max_examples=300, deadline=None)
@given(tree=_trees(), indent=st.sampled_from([0, 4]))
def test_laid_out_expressions_are_black_stable_and_mean_the_same(tree: Node, indent: int) -> None:
    code = statement(tree, indent, "return ")
    source = (
        f"def f():\n{code}\n"
        if indent
        else f"def f():\n    pass\n\n\n{code.replace('return ', 'x = ', 1)}\n"
    )
    assert ast.dump(ast.parse(flat(tree))) == ast.dump(
        ast.parse(code.strip().removeprefix("return "))
    )
    if in_black_layout(source):
        assert black.format_str(source, mode=MODE) == source
