# Part of toolgen's runtime, copied verbatim into generated packages (edit toolgen, not a copy).
"""Repairs tried only after strict validation failed, each one reported to the host.

- `null` for an optional key that has a default, or `""` for an optional object or array: the
  key is taken as absent (models in strict mode send null for "not given", some send "" for
  an object they do not have). Always on.
- The coercions a spec declared with `x-coerce` (off unless declared): `numbers` ("42" -> 42),
  `booleans` ("true" -> true), `json` (a string holding an object or array -> the value).
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from typing import Any

from ..errors import preview
from .shape import Node, fields
from .translate import TYPE_ERRORS, Hit, Location, format_path

DROP: Any = object()  # the repair removes the key
_NUMBER = re.compile(r"\s*-?(0|[1-9][0-9]{0,300})(\.[0-9]{1,300})?([eE][+-]?[0-9]{1,4})?\s*")


@dataclass(frozen=True)
class Coercion:
    """One repair made to a call's arguments: where, which kind, and the value before and after."""

    path: str
    kind: str  # "null", "empty", "numbers", "booleans" or "json"
    before: str | None  # a preview; None under a secret
    after: str | None
    location: tuple[str | int, ...] = ()

    def to_dict(self) -> dict[str, Any]:
        return {
            "path": self.path,
            "location": list(self.location),
            "kind": self.kind,
            "before": self.before,
            "after": self.after,
        }


def plan(root: Node, hits: list[Hit]) -> list[tuple[Location, Any, Coercion]]:
    """The repairs that would fix some of these errors: (location, new value or DROP, report)."""
    out: list[tuple[Location, Any, Coercion]] = []
    seen: set[Location] = set()
    for hit in hits:
        kind = hit.error["type"]
        if (
            hit.key is not None
            or (kind not in TYPE_ERRORS and kind != "union")
            or hit.location in seen
        ):
            continue
        raw = hit.error.get("input")
        if raw is None or (
            raw == "" and all(m.kind in ("object", "map", "array") for m in hit.node.members)
        ):
            fix = _null(root, hit.location, "null" if raw is None else "empty")
        else:
            fix = _declared(hit.node, raw)
        if fix is None:
            continue
        how, value = fix
        seen.add(hit.location)
        before = None if hit.secret else preview(raw)
        after = None if hit.secret or value is DROP else preview(value)
        out.append(
            (
                hit.location,
                value,
                Coercion(format_path(hit.location), how, before, after, hit.location),
            )
        )
    return out


def apply(data: Any, repairs: list[tuple[Location, Any, Coercion]]) -> Any:
    """`data` with the repairs made, copying only the containers on their paths."""
    for location, value, _ in repairs:
        data = _replace(data, location, value)
    return data


def _replace(data: Any, location: Location, value: Any) -> Any:
    if not location:
        return value
    head, rest = location[0], location[1:]
    if isinstance(data, dict) and head in data:
        copy = dict(data)
        if not rest and value is DROP:
            del copy[head]
        else:
            copy[head] = _replace(data[head], rest, value)
        return copy
    if isinstance(data, list) and isinstance(head, int) and 0 <= head < len(data):
        items = list(data)
        items[head] = _replace(data[head], rest, value)
        return items
    return data


def _null(root: Node, location: Location, kind: str) -> tuple[str, Any] | None:
    """null (or "" for an object or array) where an optional key was expected: drop the key."""
    if not location or not isinstance(location[-1], str):
        return None
    parent = _at(root, location[:-1])
    if parent is None or parent.model is None:
        return None
    info = fields(parent.model).get(location[-1])
    return (kind, DROP) if info is not None and not info.is_required() else None


def _at(root: Node, location: Location) -> Node | None:
    node: Node | None = root
    for part in location:
        if node is None:
            return None
        if node.kind == "union":  # the first member that has this key or index
            node = next((c for m in node.members if (c := m.child(part)) is not None), None)
        else:
            node = node.child(part)
    return node


def _declared(node: Node, raw: Any) -> tuple[str, Any] | None:
    if not isinstance(raw, str) or len(raw) > 100_000:
        return None
    for member in node.members:
        allowed = member.coercions or node.coercions
        if not allowed:
            continue
        if "numbers" in allowed and member.kind in ("integer", "number") and _NUMBER.fullmatch(raw):
            number = json.loads(raw)
            if member.kind == "number":
                return "numbers", number
            if isinstance(number, int) or number.is_integer():
                return "numbers", int(number)
        if (
            "booleans" in allowed
            and member.kind == "boolean"
            and raw.strip().lower() in ("true", "false")
        ):
            return "booleans", raw.strip().lower() == "true"
        if "json" in allowed and member.kind in ("object", "map", "array"):
            try:
                parsed = json.loads(raw)
            except ValueError:
                continue
            if isinstance(parsed, list if member.kind == "array" else dict):
                return "json", parsed
    return None
