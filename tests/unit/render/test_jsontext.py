"""The definitions files as text: one definition a line, lone surrogates as escapes."""

from __future__ import annotations

import json

import pytest

from toolgen.render.jsontext import index_text, json_text


def _document(description: str) -> dict[str, object]:
    definition = {"name": "t", "description": description}
    return {"provider": "p", "variants": [{"options": {}, "definitions": [definition]}]}


@pytest.mark.parametrize(
    ("description", "written"),
    [
        ("plain", '"plain"'),
        ("café ⺀", '"café ⺀"'),  # non-ASCII is kept as it is
        ("a\ud800b", '"a\\ud800b"'),  # a lone surrogate, which UTF-8 cannot carry, is escaped
        ("é\udfff", '"é\\udfff"'),
    ],
)
def test_text_is_utf8_and_reads_back(description: str, written: str) -> None:
    text = json_text(_document(description))
    assert f'"description": {written}' in text
    text.encode("utf-8")  # raises if a surrogate were left raw
    assert json.loads(text)["variants"][0]["definitions"][0]["description"] == description


def test_index_escapes_surrogates_too() -> None:
    text = index_text({"format": 1, "tools": [{"name": "x\ud83d", "fields": ["é"]}]})
    assert '"x\\ud83d"' in text and '"é"' in text
    assert json.loads(text)["tools"][0]["name"] == "x\ud83d"
