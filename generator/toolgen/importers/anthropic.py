"""Anthropic Messages `tools[]`: `{name, description, input_schema, input_examples?, strict?}`.

Accepted containers: a list of tools, or a request body with `tools`. `input_examples`
become spec `examples` (each checked against the parameters: one that does not match is
left out, with a note). Anthropic's server tools (`web_search_...`, `bash_...`) have no
schema to import and are refused.
"""

from __future__ import annotations

from typing import Any

from toolgen.importers.common import UnsupportedSchema, show

DROPPED = {
    "strict": "strict mode is chosen at export time (`toolgen export --strict`)",
    "cache_control": "a request option, not part of the tool",
    "defer_loading": "a request option, not part of the tool",
    "allowed_callers": "a request option, not part of the tool",
    "eager_input_streaming": "a request option, not part of the tool",
}


def unwrap(item: Any) -> list[Any]:
    if isinstance(item, dict) and "name" not in item and isinstance(item.get("tools"), list):
        return list(item["tools"])
    return [item]


def record(item: Any) -> tuple[dict[str, Any], list[str]]:
    if not isinstance(item, dict):
        raise UnsupportedSchema("/", f"an Anthropic tool must be an object, not {show(item)}")
    kind = item.get("type", "custom")
    if kind != "custom":
        raise UnsupportedSchema(
            "/type",
            f"{show(kind)} is an Anthropic server tool, defined by Anthropic",
            "only custom tools (with an input_schema) can be imported",
        )
    if "input_schema" not in item:
        raise UnsupportedSchema("/input_schema", "an Anthropic tool needs an input_schema")
    notes: list[str] = []
    out: dict[str, Any] = {}
    for key, value in item.items():
        if key == "type":
            continue
        if key in DROPPED:
            if value not in (None, False):
                notes.append(f"/{key}: dropped {show(value)}: {DROPPED[key]}")
        elif key == "input_examples":
            out["examples"] = value
        else:
            out[key] = value
    return out, notes
