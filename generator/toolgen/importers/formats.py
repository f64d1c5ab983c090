"""The `format`s a Python type implies, made checkable: a `pattern` beside each.

pydantic writes `format: date` for a `datetime.date`, `date-time`, `time` and `uuid` for
the others, but a generated package treats `format` as an annotation (JSON Schema 2020-12's
default), so `"tomorrow"` would pass the boundary and fail only inside the function. Each
such string schema of the parameters also gets the `pattern` of the text pydantic parses
for that type, so the boundary refuses anything else with a structured `pattern` issue.
The patterns are plain ECMA-262 (no lookaround, no flags), exact under every engine.
"""

from __future__ import annotations

from typing import Any

from toolgen.importers.pytypes import DATA, MAPS

_DATE = r"[0-9]{4}-(0[1-9]|1[0-2])-(0[1-9]|[12][0-9]|3[01])"
_TIME = r"([01][0-9]|2[0-3]):[0-5][0-9](:[0-5][0-9](\.[0-9]{1,6})?)?([Zz]|[+-]([01][0-9]|2[0-3]):[0-5][0-9])?"
_HEX = "[0-9a-fA-F]"

PATTERNS: dict[str, str] = {
    "date": f"^{_DATE}$",
    "date-time": f"^{_DATE}[Tt ]{_TIME}$",
    "time": f"^{_TIME}$",
    "uuid": f"^{_HEX}{{8}}-{_HEX}{{4}}-{_HEX}{{4}}-{_HEX}{{4}}-{_HEX}{{12}}$",
}


def checked_formats(schema: Any) -> Any:
    """`schema` with a `pattern` after each string's `format` of PATTERNS (one it has is kept)."""
    if isinstance(schema, list):
        return [checked_formats(item) for item in schema]
    if not isinstance(schema, dict):
        return schema
    out: dict[str, Any] = {}
    for key, value in schema.items():
        if key in DATA:
            out[key] = value
        elif key in MAPS and isinstance(value, dict):
            out[key] = {name: checked_formats(sub) for name, sub in value.items()}
        else:
            out[key] = checked_formats(value)
        if key == "format" and value in PATTERNS and "pattern" not in schema:
            out["pattern"] = PATTERNS[value]
    return out
