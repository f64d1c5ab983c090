"""The keywords of one schema node compared, previous against current, without descending:
types, `enum`/`const`, numeric bounds, `multipleOf`, counts, and the keywords whose presence
alone is compared. `NodeComparison` holds the changes found; breaking/compare.py's walker
builds on it for the structure (properties, items, combinators, references)."""

from __future__ import annotations

import json
from collections.abc import Mapping
from fractions import Fraction
from typing import Any

from toolgen.breaking.changes import (
    CONSTRAINT,
    ENUM_ADDED,
    ENUM_REMOVED,
    MISSING,
    NARROWER,
    NULL_ADDED,
    NULL_REMOVED,
    OTHER,
    TYPE_ADDED,
    TYPE_REMOVED,
    WIDER,
    Change,
    Node,
    canonical,
)
from toolgen.breaking.side import Place
from toolgen.runtime.types import is_json_type, json_type

NUMBER_BOUNDS = (("minimum", "exclusiveMinimum", True), ("maximum", "exclusiveMaximum", False))
COUNTS = {
    "string": (("minLength", "maxLength"),),
    "array": (("minItems", "maxItems"),),
    "object": (("minProperties", "maxProperties"),),
}
PRESENCE = {"string": ("pattern", "format"), "number": ("multipleOf",), "array": ("uniqueItems",)}
# Keywords whose change toolgen cannot order: absent -> present narrows, present -> absent widens.
OTHER_KEYWORDS = (
    "not",
    "if",
    "then",
    "else",
    "contains",
    "minContains",
    "maxContains",
    "dependentRequired",
    "dependentSchemas",
    "propertyNames",
    "patternProperties",
    "unevaluatedProperties",
    "unevaluatedItems",
    "additionalItems",
    "$ref",
)


def types_of(schema: Mapping[str, Any]) -> frozenset[str] | None:
    """The JSON types a schema's `type` (else its `enum`/`const` values) allows; None: any."""
    declared = schema.get("type")
    if isinstance(declared, str):
        return frozenset((declared,))
    if isinstance(declared, list):
        return frozenset(t for t in declared if isinstance(t, str))
    values = enum_values(schema)
    return frozenset(json_type(v) for v in values) if values is not None else None


def enum_values(schema: Mapping[str, Any]) -> list[Any] | None:
    if "const" in schema:
        return [schema["const"]]
    values = schema.get("enum")
    return list(values) if isinstance(values, list) else None


def _covered(kind: str, types: frozenset[str]) -> bool:
    return kind in types or (kind == "integer" and "number" in types)


def applies(kind: str, types: frozenset[str] | None) -> bool:
    if types is None:
        return True
    return bool(types & {"number", "integer"}) if kind == "number" else kind in types


class NodeComparison:
    """The changes found so far, and the comparison of one node's own keywords."""

    def __init__(self) -> None:
        self.changes: list[Change] = []

    def emit(
        self, kind: str, path: tuple[str, ...], before: Place, after: Place, **details: Any
    ) -> None:
        self.changes.append(Change(kind, path, before, after, **details))

    # -- following references --------------------------------------------------------------

    def types(
        self,
        b: Node,
        a: Node,
        path: tuple[str, ...],
        tb: frozenset[str] | None,
        ta: frozenset[str] | None,
    ) -> None:
        if tb == ta:
            return
        where = (path, b.at("type").place, a.at("type").place)
        old, new = sorted(tb) if tb is not None else None, sorted(ta) if ta is not None else None
        if ta is None:
            self.emit(TYPE_ADDED, *where, old=old, new=None)
            return
        if tb is None:
            self.emit(TYPE_REMOVED, *where, old=None, new=new)
            return
        removed = {t for t in tb if not _covered(t, ta)}
        added = {t for t in ta if not _covered(t, tb)}
        if "null" in removed:
            self.emit(NULL_REMOVED, *where, old=old, new=new)
        if removed - {"null"}:
            self.emit(
                TYPE_REMOVED,
                *where,
                old=old,
                new=new,
                keyword=", ".join(sorted(removed - {"null"})),
            )
        if "null" in added:
            self.emit(NULL_ADDED, *where, old=old, new=new)
        if added - {"null"}:
            self.emit(
                TYPE_ADDED, *where, old=old, new=new, keyword=", ".join(sorted(added - {"null"}))
            )

    def enums(self, b: Node, a: Node, path: tuple[str, ...]) -> None:
        eb, ea = enum_values(b.value), enum_values(a.value)
        if eb is None and ea is None:
            return
        keyword_b = "const" if "const" in b.value else "enum"
        keyword_a = "const" if "const" in a.value else "enum"
        where = (path, b.at(keyword_b).place, a.at(keyword_a).place)
        extensible = b.value.get("x-extensible-enum") is True
        if eb is None:
            self.emit(ENUM_REMOVED, *where, old=None, new=ea, keyword=keyword_a)
            return
        if ea is None:
            self.emit(
                ENUM_ADDED, *where, old=eb, new=None, keyword=keyword_b, extensible=extensible
            )
            return
        before, after = {canonical(v) for v in eb}, {canonical(v) for v in ea}
        removed = [v for v in eb if canonical(v) not in after]
        added = [v for v in ea if canonical(v) not in before]
        if removed:
            self.emit(ENUM_REMOVED, *where, old=removed, new=ea, keyword=keyword_a)
        if added:
            self.emit(
                ENUM_ADDED, *where, old=eb, new=added, keyword=keyword_a, extensible=extensible
            )

    # -- constraints --------------------------------------------------------------------------

    def constraint(
        self, b: Node, a: Node, path: tuple[str, ...], effect: str, keyword: str, old: Any, new: Any
    ) -> None:
        """A constraint's change; `old` and `new` as written (None: absent), shown as text."""
        self.emit(
            CONSTRAINT,
            path,
            b.at(keyword).place,
            a.at(keyword).place,
            effect=effect,
            keyword=keyword,
            old=shown(keyword, old),
            new=shown(keyword, new),
        )

    def constraints(self, b: Node, a: Node, path: tuple[str, ...], kind: str) -> None:
        bv, av = b.value, a.value
        if kind == "number":
            for inclusive, exclusive, lower in NUMBER_BOUNDS:
                self.bound(b, a, path, inclusive, exclusive, lower)
            self.multiple(b, a, path)
        for low, high in COUNTS.get(kind, ()):
            for keyword, floor in ((low, True), (high, False)):
                old, new = _count(bv.get(keyword)), _count(av.get(keyword))
                if old == new:
                    continue
                if old is None or new is None:
                    tighter = new is not None
                else:
                    tighter = new > old if floor else new < old
                self.constraint(b, a, path, NARROWER if tighter else WIDER, keyword, old, new)
        for keyword in PRESENCE.get(kind, ()):
            if keyword != "multipleOf":
                self.presence(
                    b, a, path, keyword, canonical if keyword != "uniqueItems" else _truthy
                )

    def presence(self, b: Node, a: Node, path: tuple[str, ...], keyword: str, key: Any) -> None:
        old, new = b.value.get(keyword, MISSING), a.value.get(keyword, MISSING)
        if keyword == "uniqueItems":
            old, new = (True if old is True else MISSING), (True if new is True else MISSING)
        if (
            old is MISSING
            and new is MISSING
            or old is not MISSING
            and new is not MISSING
            and key(old) == key(new)
        ):
            return
        effect = NARROWER if old is MISSING else WIDER if new is MISSING else OTHER
        self.constraint(
            b,
            a,
            path,
            effect,
            keyword,
            None if old is MISSING else old,
            None if new is MISSING else new,
        )

    def bound(
        self, b: Node, a: Node, path: tuple[str, ...], inclusive: str, exclusive: str, lower: bool
    ) -> None:
        old, new = (
            _bound(b.value, inclusive, exclusive, lower),
            _bound(a.value, inclusive, exclusive, lower),
        )
        if old[:2] == new[:2]:
            return
        if old[0] is None or new[0] is None:
            tighter = new[0] is not None
        else:
            rank_old = (old[0], old[1]) if lower else (-old[0], old[1])
            rank_new = (new[0], new[1]) if lower else (-new[0], new[1])
            tighter = rank_new > rank_old
        keyword_b = old[2] or inclusive
        keyword_a = new[2] or keyword_b
        self.emit(
            CONSTRAINT,
            path,
            b.at(keyword_b).place,
            a.at(keyword_a).place,
            effect=NARROWER if tighter else WIDER,
            keyword=keyword_a,
            old=shown(keyword_b, old[0]),
            new=shown(keyword_a, new[0]),
        )

    def multiple(self, b: Node, a: Node, path: tuple[str, ...]) -> None:
        old, new = b.value.get("multipleOf"), a.value.get("multipleOf")
        if not _number(old):
            old = None
        if not _number(new):
            new = None
        if old == new:
            return
        if old is None or new is None:
            effect = NARROWER if old is None else WIDER
        else:
            ratio = Fraction(str(old)) / Fraction(str(new))
            effect = (
                WIDER
                if ratio.denominator == 1
                else NARROWER
                if (1 / ratio).denominator == 1
                else OTHER
            )
        self.constraint(b, a, path, effect, "multipleOf", old, new)

    # -- structure -------------------------------------------------------------------------------


def shown(keyword: str, value: Any) -> str:
    """A constraint as a message shows it: "`maxLength` 50", "no `pattern`"."""
    if value is None or value is MISSING:
        return f"no `{keyword}`"
    text = json.dumps(value, ensure_ascii=False)
    return f"`{keyword}` {text if len(text) <= 60 else text[:57] + '...'}"


def _truthy(value: Any) -> bool:
    return value is True


def _number(value: Any) -> bool:
    return is_json_type(value, "number")


def _count(value: Any) -> int | None:
    return value if isinstance(value, int) and not isinstance(value, bool) else None


def _bound(
    schema: Mapping[str, Any], inclusive: str, exclusive: str, lower: bool
) -> tuple[float | None, bool, str]:
    """The tighter of a schema's inclusive and exclusive bound: (value, exclusive, keyword)."""
    found: list[tuple[float, bool, str]] = []
    if _number(schema.get(inclusive)):
        found.append((schema[inclusive], False, inclusive))
    if _number(schema.get(exclusive)):
        found.append((schema[exclusive], True, exclusive))
    if not found:
        return (None, False, "")
    return (
        max(found, key=lambda f: (f[0], f[1]))
        if lower
        else min(found, key=lambda f: (f[0], not f[1]))
    )
