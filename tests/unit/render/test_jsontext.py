"""The definitions files as text (render/jsontext.py): whatever a definition holds (numbers of
any size and form, non-finite numbers, any text, lone surrogates included), the file reads
back as the document it was written from, one definition a line, and the runtime finds each
variant alone by the line that starts it."""

from __future__ import annotations

import json
import math
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from toolgen.render.jsontext import index_text, json_text
from toolgen.runtime.facade import located

SCALARS = (
    st.none()
    | st.booleans()
    | st.integers(min_value=-(10**40), max_value=10**40)
    | st.floats(allow_nan=False)  # (NaN is never equal to itself: below)
    | st.text(st.characters(codec=None, exclude_categories=()), max_size=12)
)
VALUES = st.recursive(
    SCALARS,
    lambda inner: (
        st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=6), inner, max_size=4)
    ),
    max_leaves=12,
)
DEFINITION = st.dictionaries(st.text(max_size=6), VALUES, min_size=1, max_size=4)


def _same(a: Any, b: Any) -> bool:
    """Equal as JSON values, and of the same types (1 is not 1.0; -0.0 is not 0.0)."""
    if isinstance(a, float) and isinstance(b, float):
        return a == b and math.copysign(1, a) == math.copysign(1, b)
    if type(a) is not type(b):
        return False
    if isinstance(a, dict):
        return list(a) == list(b) and all(_same(a[k], b[k]) for k in a)
    if isinstance(a, list):
        return len(a) == len(b) and all(_same(x, y) for x, y in zip(a, b, strict=True))
    return bool(a == b)


@settings(max_examples=200, derandomize=True)
@given(st.lists(st.lists(DEFINITION, max_size=3), min_size=1, max_size=3), st.booleans())
def test_a_definitions_file_reads_back_as_its_document(
    variants: list[list[dict[str, Any]]], strict: bool
) -> None:
    document = {
        "format": 1,
        "options": {"strict": [strict, not strict]},
        "variants": [
            {"options": {"strict": i % 2 == 0}, "definitions": definitions}
            for i, definitions in enumerate(variants)
        ],
    }
    text = json_text(document)
    text.encode("utf-8")  # (a lone surrogate is an escape: the file is UTF-8)
    assert _same(json.loads(text), document)
    lines = text.split("\n")  # (a line break is `\n` alone: the runtime looks for it)
    assert lines.pop() == ""
    assert len(lines) == 2 + sum(2 + len(v) for v in variants)  # one definition a line
    found = located(text, {"strict": True})
    assert found is not None and _same(found, variants[0])


def test_non_finite_numbers_and_lone_surrogates_are_written_as_json_writes_them() -> None:
    tools = [{"a": math.inf, "b": -math.inf, "c": math.nan}, {"d": "x\ud800y"}, {"e": 1e-07}]
    text = index_text({"format": 1, "tools": tools})
    lines = text.split("\n")
    assert lines[1] == '{"a":Infinity,"b":-Infinity,"c":NaN},'
    assert lines[2] == '{"d": "x\\ud800y"},'  # (written by json, the surrogate escaped)
    assert lines[3] == '{"e":1e-7}'
    back = json.loads(text)["tools"]
    assert back[0]["a"] == math.inf and math.isnan(back[0]["c"]) and back[1]["d"] == "x\ud800y"


def _document(description: str) -> dict[str, object]:
    definition = {"name": "t", "description": description}
    return {"provider": "p", "variants": [{"options": {}, "definitions": [definition]}]}


@pytest.mark.parametrize(
    ("description", "written"),
    [
        ("plain", '"description":"plain"'),
        ("café ⺀", '"description":"café ⺀"'),  # non-ASCII is kept as it is
        ("a\ud800b", '"description": "a\\ud800b"'),  # a lone surrogate, which UTF-8 cannot
        ("é\udfff", '"description": "é\\udfff"'),  # carry, is escaped (the line by json)
    ],
)
def test_text_is_utf8_and_reads_back(description: str, written: str) -> None:
    text = json_text(_document(description))
    assert written in text
    text.encode("utf-8")  # raises if a surrogate were left raw
    assert json.loads(text)["variants"][0]["definitions"][0]["description"] == description


def test_index_escapes_surrogates_too() -> None:
    text = index_text({"format": 1, "tools": [{"name": "x\ud83d", "fields": ["é"]}]})
    assert '"x\\ud83d"' in text and '"é"' in text
    assert json.loads(text)["tools"][0]["name"] == "x\ud83d"
