"""Generated modules are in black's layout as rendered, so most skip black entirely.

The claim behind format.in_black_layout: whatever toolgen's templates emit, black leaves
it unchanged. Checked against black itself, on the layout helper and on whole packages.
"""

from __future__ import annotations

import keyword
import sys
from pathlib import Path

import black
from hypothesis import given, settings
from hypothesis import strategies as st

from conftest import REPO
from toolgen.format import MODE, in_black_layout
from toolgen.pipeline import build
from toolgen.render.layout import bracketed
from toolgen.render.literals import py_string

sys.path.insert(0, str(REPO / "benchmarks"))
import synthetic  # noqa: E402

words = st.text(st.sampled_from("abcdefghij _'\"\\é⺀"), max_size=60)  # ⺀ is two columns wide


@settings(max_examples=300, deadline=None)
@given(
    name=st.from_regex(r"[a-z][a-z_]{0,70}", fullmatch=True).filter(lambda n: not keyword.iskeyword(n)),
    values=st.lists(words, max_size=6),
    indent=st.sampled_from([0, 4]),
    literal=st.booleans(),
)
def test_bracketed_is_what_black_writes(name: str, values: list[str], indent: int, literal: bool) -> None:
    items = [py_string(v) for v in values] if literal else [f"k{i}={py_string(v)}" for i, v in enumerate(values)]
    head = f"{name} = " if literal else f"{name}: int = Field"
    code = bracketed(head, items, indent, "[]" if literal else "()", literal=literal) + "\n"
    source = f"class A:\n{code}" if indent else code
    if in_black_layout(source):  # otherwise the format step hands it to black: no claim
        assert black.format_str(source, mode=MODE) == source


def test_every_generated_file_is_black_stable(tmp_path: Path) -> None:
    """Synthetic tools with every construct the templates render, and the hard cases."""
    synthetic.write_specs(tmp_path / "specs", 60)
    result = build(tmp_path / "specs", "synth")
    assert result.ok
    skipped = [p for p, text in result.files.items() if p.endswith(".py") and in_black_layout(text)]
    assert len(skipped) > 40  # the point: most modules need no black pass
    for path, text in result.files.items():
        if path.endswith(".py"):
            assert black.format_str(text, mode=MODE) == text, path


def test_golden_outputs_are_black_stable() -> None:
    for path in (REPO / "tests" / "cases").glob("*/expected/**/*.py"):
        text = path.read_text("utf-8")
        assert black.format_str(text, mode=MODE) == text, path
