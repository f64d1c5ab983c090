"""The pattern beside each `format` a Python type implies: it takes what pydantic parses as
that type, refuses what it does not, and is placed without touching values or a pattern
already there."""

from __future__ import annotations

import datetime
import re
import uuid
from typing import Any

import pytest
from pydantic import TypeAdapter, ValidationError

from toolgen.importers.formats import PATTERNS, checked_formats

SAMPLES: dict[str, tuple[Any, list[str]]] = {
    "date": (
        datetime.date,
        [
            "2026-05-01",
            "2024-02-29",
            "tomorrow",
            "2026-5-1",
            "2026-13-01",
            "01/05/2026",
            "2026-05-01T00:00",
        ],
    ),
    "date-time": (
        datetime.datetime,
        [
            "2026-05-01T10:30",
            "2026-05-01T10:30:00Z",
            "2026-05-01 10:30:00.123456+02:00",
            "2026-05-01t10:30z",
            "now",
            "2026-05-01",
            "10:30",
            "2026-05-01T25:00",
        ],
    ),
    "time": (
        datetime.time,
        ["10:30", "10:30:15", "10:30:15.5Z", "23:59:59-05:00", "noon", "24:00", "10", "10:30 pm"],
    ),
    "uuid": (
        uuid.UUID,
        [
            "12345678-1234-5678-1234-567812345678",
            "ABCDEF12-1234-5678-1234-567812345678",
            "B-1",
            "12345678123456781234567812345678",
        ],
    ),
}


def parses(kind: Any, text: str) -> bool:
    try:
        TypeAdapter(kind).validate_python(text)
    except ValidationError:
        return False
    return True


@pytest.mark.parametrize("fmt", sorted(SAMPLES))
def test_the_pattern_takes_only_what_pydantic_parses_as_the_type(fmt: str) -> None:
    kind, texts = SAMPLES[fmt]
    matched = [text for text in texts if re.search(PATTERNS[fmt], text)]
    assert matched and len(matched) < len(texts)  # the samples hold both kinds
    assert all(parses(kind, text) for text in matched), matched


def test_a_pattern_is_added_after_each_format_at_any_depth() -> None:
    schema = {
        "type": "object",
        "properties": {
            "day": {"type": "string", "format": "date", "default": "2026-01-01"},
            "at": {"anyOf": [{"type": "string", "format": "time"}, {"type": "null"}]},
            "coded": {"type": "string", "format": "date", "pattern": "^2026-"},
            "mail": {"type": "string", "format": "email"},
        },
        "$defs": {"Leg": {"type": "object", "properties": {"id": {"format": "uuid"}}}},
    }
    out = checked_formats(schema)
    day = out["properties"]["day"]
    assert list(day) == ["type", "format", "pattern", "default"]
    assert day["pattern"] == PATTERNS["date"]
    assert out["properties"]["at"]["anyOf"][0]["pattern"] == PATTERNS["time"]
    assert out["properties"]["coded"]["pattern"] == "^2026-"  # the author's is kept
    assert "pattern" not in out["properties"]["mail"]  # no type implies it
    assert out["$defs"]["Leg"]["properties"]["id"]["pattern"] == PATTERNS["uuid"]
    assert "pattern" not in schema["properties"]["day"]  # the input is left as it was


def test_values_are_not_schemas() -> None:
    schema = {"enum": [{"format": "date"}], "default": {"format": "date"}}
    assert checked_formats(schema) == schema
