"""OpenAI function tools: Chat Completions (`{"type": "function", "function": {...}}`), the
Responses API's flat shape (`{"type": "function", "name": ..., "parameters": ..., "strict": ...}`),
and the legacy `functions` entries (`{name, description, parameters}`).

Accepted containers: a list of tools, or a request body with `tools` (or `functions`).
`strict` has no place in a spec: `toolgen export --strict` decides it per target.
"""

from __future__ import annotations

from typing import Any

from toolgen.importers.common import UnsupportedSchema, show

DROPPED = {
    "strict": "strict mode is chosen at export time (`toolgen export --strict`)",
    "defer_loading": "a request option, not part of the tool",
    "allowed_callers": "a request option, not part of the tool",
    "async": "a request option, not part of the tool",
}


def unwrap(item: Any) -> list[Any]:
    if isinstance(item, dict) and "name" not in item and "function" not in item:
        for key in ("tools", "functions"):
            if isinstance(item.get(key), list):
                return list(item[key])
    return [item]


def record(item: Any) -> tuple[dict[str, Any], list[str]]:
    if not isinstance(item, dict):
        raise UnsupportedSchema("/", f"an OpenAI tool must be an object, not {show(item)}")
    kind = item.get("type", "function")
    if kind != "function":
        raise UnsupportedSchema(
            "/type",
            f"OpenAI {show(kind)} tools have no parameter schema",
            "only function tools can be imported",
        )
    notes: list[str] = []
    body = item
    if isinstance(item.get("function"), dict):  # Chat Completions
        body = item["function"]
        extra = [k for k in item if k not in ("type", "function")]
        notes += [
            f"/{k}: dropped {show(item[k], 60)} (beside `function`, not part of it)" for k in extra
        ]
    out: dict[str, Any] = {}
    for key, value in body.items():
        if key == "type":
            continue
        if key in DROPPED:
            if value not in (None, False):
                notes.append(f"/{key}: dropped {show(value)}: {DROPPED[key]}")
        elif key == "output_schema":
            out["returns"] = value
        else:
            out[key] = value
    return out, notes
