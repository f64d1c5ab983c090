"""What the schema walk (breaking/compare.py) reports, and the values it walks.

The effects a change has on the values accepted (NARROWER, WIDER, OTHER), the kinds of
change, `Change` itself, one side's schema root (`Schema`) and a place in it (`Node`), and
JSON equality as the walk compares values (`canonical`). breaking/direction.py reads these
to judge what a change breaks.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from toolgen.breaking.side import Place
from toolgen.schema.pointer import child, unescape

NARROWER, WIDER, OTHER = "narrower", "wider", "other"
# kinds of change
PROPERTY_REMOVED, PROPERTY_ADDED = "property-removed", "property-added"
PROPERTY_RENAMED, PROPERTY_SWAPPED, ALIAS_REMOVED = (
    "property-renamed",
    "property-swapped",
    "alias-removed",
)
REQUIRED_ADDED, REQUIRED_REMOVED = "required-added", "required-removed"
TYPE_REMOVED, TYPE_ADDED, NULL_REMOVED, NULL_ADDED = (
    "type-removed",
    "type-added",
    "null-removed",
    "null-added",
)
BRANCH_REMOVED, BRANCH_ADDED = "branch-removed", "branch-added"
ENUM_REMOVED, ENUM_ADDED = "enum-removed", "enum-added"
CONSTRAINT = "constraint"  # with an effect: NARROWER, WIDER or OTHER
CLOSED, OPENED = "closed", "opened"
DEFAULT, DEPRECATED, DESCRIBED = "default", "deprecated", "described"

MISSING: Any = object()
MAX_DEPTH = 64


@dataclass(frozen=True)
class Schema:
    """One side's schema root: its value, where it is written, and its `$defs` with their places."""

    value: Any
    root: Place
    defs: Mapping[str, tuple[Any, Place]] = field(default_factory=dict)


@dataclass(frozen=True)
class Node:
    value: Any
    place: Place
    schema: Schema
    # A `$ref` with siblings reads as the definition with the siblings over it: the siblings'
    # keys are written at the reference (this place), the others in the definition (`place`).
    siblings: tuple[Place, frozenset[str]] | None = None

    def at(self, *keys: str | int) -> Node:
        """The subschema at `keys` below this one (MISSING where it is absent)."""
        value, pointer = self.value, self.place.pointer
        if keys and self.siblings is not None and keys[0] in self.siblings[1]:
            pointer = self.siblings[0].pointer
        for key in keys:
            value = (
                value.get(key, MISSING)
                if isinstance(value, dict)
                else (
                    value[key]
                    if isinstance(value, list) and isinstance(key, int) and key < len(value)
                    else MISSING
                )
            )
            pointer = child(pointer, key)
        return Node(value, Place(self.place.doc, pointer), self.schema)


@dataclass(frozen=True)
class Change:
    kind: str
    path: tuple[
        str, ...
    ]  # property names; "[]" for items, "*" for additional properties, "[i]" for prefixItems
    before: Place
    after: Place
    effect: str = OTHER
    keyword: str = ""
    old: Any = None  # what the previous side said (a bound, types, values, a default)
    new: Any = None
    name: str = ""  # the other name, for renames
    required: bool = False  # a property added or removed: required on the side that has it
    closed: bool = (
        False  # a property removed: the current object is closed; added: the previous one was
    )
    deprecated: bool = False  # a property removed: it was deprecated
    sunset: str | None = None  # its sunset (`x-sunset`, or the rename's)
    has_default: bool = False
    extensible: bool = False  # the previous enum said `x-extensible-enum: true`


def canonical(value: Any) -> str:
    """JSON equality as JSON Schema has it: 1 and 1.0 are the same value, true and 1 are not."""

    def normal(v: Any) -> Any:
        if isinstance(v, float) and v.is_integer():
            return int(v)
        if isinstance(v, dict):
            return {k: normal(x) for k, x in v.items()}
        if isinstance(v, list):
            return [normal(x) for x in v]
        return v

    return json.dumps(normal(value), sort_keys=True, ensure_ascii=False)


def has_ref(value: Any) -> bool:
    stack = [value]
    while stack:
        item = stack.pop()
        if isinstance(item, dict):
            if "$ref" in item:
                return True
            stack.extend(item.values())
        elif isinstance(item, list):
            stack.extend(item)
    return False


def deref(node: Node) -> Node:
    """A `$ref` into `$defs` followed to its definition, siblings over it, to a fixed depth."""
    for _ in range(MAX_DEPTH):
        value = node.value
        if not isinstance(value, dict) or not isinstance(value.get("$ref"), str):
            return node
        ref = value["$ref"]
        target = node.schema.defs.get(unescape(ref[8:])) if ref.startswith("#/$defs/") else None
        if target is None:
            return node
        body, place = target
        rest = {k: v for k, v in value.items() if k != "$ref"}
        if not rest:
            node = Node(body, place, node.schema)
        elif isinstance(body, bool):
            node = Node(rest if body else False, node.place, node.schema)
        else:
            node = Node({**body, **rest}, place, node.schema, (node.place, frozenset(rest)))
    return node
