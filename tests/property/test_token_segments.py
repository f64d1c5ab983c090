"""The token estimate (`providers/tokens.py`) splits each distinct segment of a text once, cut
before a `"` that follows a letter or a digit. It gives the same number as the pre-tokenizer
run over the whole text: for compact JSON of arbitrary values and for arbitrary text rich in
what the pieces turn on (quotes after letters, digits, capitals, underscores, spaces,
escapes, other scripts)."""

from __future__ import annotations

import itertools
import re

from hypothesis import given, settings
from hypothesis import strategies as st

from toolgen.providers import tokens


def _whole(text: str) -> int:
    """The estimate as one pass of the pre-tokenizer over the text, no segments."""
    return round(sum(map(tokens._cost, tokens._PIECE.findall(text))))


def _pieces(text: str) -> list[str]:
    """The pieces of the text's segments, one after another."""
    return [p for s in tokens._SEGMENT.findall(text) for p in tokens._PIECE.findall(s)]


# What the pieces turn on (quotes after letters, digits, capitals, underscores, spaces,
# escapes, other scripts), as fragments drawn side by side, and any character now and then.
FRAGMENTS = [
    *'""aZ_9 \n\r\t/\\:,{].-é漢Ⅻ½A',
    *["ab", "HTTPs", "1234"],
]
TEXT = st.lists(
    st.one_of(st.sampled_from(FRAGMENTS), st.characters()), min_size=8, max_size=40
).map("".join)
WORDS = st.sampled_from(["type", "Get", "HTTP", "x_y", "a1", "", "é", '"q"', "2024", "ABCdef"])
STRINGS = st.one_of(TEXT, st.lists(WORDS, max_size=5).map(" ".join))
JSON = st.recursive(
    st.one_of(st.none(), st.booleans(), st.integers(), st.floats(allow_nan=False), STRINGS),
    lambda children: st.one_of(
        st.lists(children, max_size=4), st.dictionaries(STRINGS, children, max_size=4)
    ),
    max_leaves=12,
)


# The patterns as written before their quantifiers were made possessive (for speed only).
BACKTRACKING_PIECE = re.compile(
    r"(?:[^\w\r\n]|_)?(?:[A-Z]*[^\W\d_A-Z]+|[A-Z]+)|\d{1,3}| ?(?:[^\w\s]|_)+[\r\n/]*|\s+"
)
BACKTRACKING_SEGMENT = re.compile(r'"?[^"]*(?:(?<=[\W_])"[^"]*)*')


@settings(max_examples=300)
@given(st.one_of(TEXT, JSON.map(tokens.compact)))
def test_the_possessive_patterns_find_what_backtracking_ones_do(text: str) -> None:
    assert tokens._PIECE.findall(text) == BACKTRACKING_PIECE.findall(text)
    assert tokens._SEGMENT.findall(text) == BACKTRACKING_SEGMENT.findall(text)


def test_the_possessive_patterns_on_every_three_fragments() -> None:
    for text in map("".join, itertools.product(FRAGMENTS, repeat=3)):
        assert tokens._PIECE.findall(text) == BACKTRACKING_PIECE.findall(text), text
        assert tokens._SEGMENT.findall(text) == BACKTRACKING_SEGMENT.findall(text), text


@settings(max_examples=100)
@given(JSON)
def test_segmented_estimate_of_compact_json_is_the_whole_one(value: object) -> None:
    text = tokens.compact(value)
    assert tokens.estimate(text) == _whole(text)


@settings(max_examples=300)
@given(TEXT)
def test_the_pieces_of_the_segments_are_those_of_the_text(text: str) -> None:
    assert _pieces(text) == tokens._PIECE.findall(text)
    assert tokens.estimate(text) == _whole(text)


def test_every_three_fragments_side_by_side() -> None:
    for text in map("".join, itertools.product(FRAGMENTS, repeat=3)):
        assert _pieces(text) == tokens._PIECE.findall(text), text


def test_the_segments_are_the_text() -> None:
    text = '{"a":"Get the HTTP_2 status.","b":["x","Y"],"c":"é"}'
    segments = [s for s in tokens._SEGMENT.findall(text) if s]
    assert "".join(segments) == text
    assert segments == [
        '{"a',
        '":"Get the HTTP_2 status.","b',
        '":["x',
        '","Y',
        '"],"c',
        '":"é',
        '"}',
    ]
