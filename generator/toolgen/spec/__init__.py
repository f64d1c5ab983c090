"""The spec format v1: its JSON Schema, shipped with toolgen (`toolgen schema` prints it)."""

from __future__ import annotations

import json
from functools import cache
from importlib import resources
from typing import Any

SPEC_SCHEMA_ID = "https://toolgen.dev/schemas/spec-v1.json"
JSON_SCHEMA_DIALECT = "https://json-schema.org/draft/2020-12/schema"


def spec_schema_text() -> str:
    return resources.files(__package__).joinpath("schema.json").read_text(encoding="utf-8")


@cache
def spec_schema() -> dict[str, Any]:
    return json.loads(spec_schema_text())  # type: ignore[no-any-return]
