"""A schema's content key, remembered per object, is the JSON text written afresh."""

from __future__ import annotations

import json
from typing import Any

from toolgen.render import compiled


def test_the_key_of_an_object_asked_again_is_its_json_text() -> None:
    schema: dict[str, Any] = {"type": "object", "properties": {"q": {"type": "string"}}}
    first = compiled.content(schema)
    assert first == json.dumps(schema)
    assert compiled.content(schema) is first  # remembered, not written again
    twin = json.loads(first)
    assert compiled.content(twin) == first  # another object of the same content: the same key


def test_a_value_that_is_not_json_has_no_key_however_often_asked() -> None:
    schema = {"default": {1, 2}}
    assert compiled.content(schema) is None
    assert compiled.content(schema) is None


def test_an_entry_names_only_its_own_object() -> None:
    schema = {"type": "string"}
    compiled._TEXTS.keep(id(schema), ({"type": "integer"}, '{"type": "integer"}'))
    assert compiled.content(schema) == json.dumps(schema)  # the id's entry is another object's
