"""Walk two schemas side by side, previous and current, and name what each difference does
to the values they accept.

The walk is direction-free: a change says that the current schema accepts fewer values
(NARROWER), more (WIDER) or others (OTHER) at a place, with where each side wrote it;
breaking/direction.py decides what that breaks in parameters (callers) and in results
(consumers). `$ref`s are followed into the bundled schema's `$defs` (every definition
keeps its source place), recursion is walked once, a nullable `anyOf: [X, {type: null}]`
reads as X with `null` added to its type, and `integer` counts as part of `number`.
For parameters the walk closes objects as toolgen does (`properties` declared, no
`additionalProperties`: undeclared keys refused), and reads renames (`x-renamed-from`),
deprecations (`deprecated: true`, `x-sunset`) and defaults.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from fractions import Fraction
from typing import Any

from toolgen.breaking.sources import Place
from toolgen.runtime.types import is_json_type, json_type
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


def _applies(kind: str, types: frozenset[str] | None) -> bool:
    if types is None:
        return True
    return bool(types & {"number", "integer"}) if kind == "number" else kind in types


def renamed_from(schema: Any) -> tuple[str, str | None] | None:
    """`x-renamed-from` of a property: (old name, sunset or None)."""
    declared = schema.get("x-renamed-from") if isinstance(schema, dict) else None
    if isinstance(declared, str):
        return declared, None
    if isinstance(declared, dict) and isinstance(declared.get("name"), str):
        sunset = declared.get("sunset")
        return declared["name"], sunset if isinstance(sunset, str) else None
    return None


def deprecated(schema: Any) -> bool:
    return isinstance(schema, dict) and schema.get("deprecated") is True


def sunset_of(schema: Any) -> str | None:
    value = schema.get("x-sunset") if isinstance(schema, dict) else None
    return value if isinstance(value, str) else None


class Walker:
    """One comparison of two schema roots; `changes` holds what it found, in walk order."""

    def __init__(self, before: Schema, after: Schema, parameters: bool) -> None:
        self.before, self.after, self.parameters = before, after, parameters
        self.changes: list[Change] = []
        self._seen: set[tuple[tuple[str, ...], tuple[str, ...], bool]] = set()

    def run(self) -> list[Change]:
        self.walk(
            Node(self.before.value, self.before.root, self.before),
            Node(self.after.value, self.after.root, self.after),
            (),
            self.parameters,
        )
        return self.changes

    def emit(
        self, kind: str, path: tuple[str, ...], before: Place, after: Place, **details: Any
    ) -> None:
        self.changes.append(Change(kind, path, before, after, **details))

    # -- following references --------------------------------------------------------------

    def deref(self, node: Node) -> Node:
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

    def nullable(self, node: Node) -> Node:
        """`anyOf`/`oneOf: [X, {type: null}]` as X with `null` in its type."""
        value = node.value
        if "type" in value:
            return node
        for key in ("anyOf", "oneOf"):
            branches = value.get(key)
            if not (isinstance(branches, list) and len(branches) == 2):
                continue
            nulls = [i for i, branch in enumerate(branches) if _is_null(branch)]
            if len(nulls) != 1:
                continue
            other = self.deref(node.at(key, 1 - nulls[0])).value
            if not (
                isinstance(other, dict) and "type" in other and not {"anyOf", "oneOf"} & set(other)
            ):
                continue
            declared = other["type"]
            types = [declared] if isinstance(declared, str) else list(declared)
            outer = {k: v for k, v in value.items() if k != key}
            return Node(
                {**other, **outer, "type": types + ["null"] * ("null" not in types)},
                node.place,
                node.schema,
            )
        return node

    # -- the walk ----------------------------------------------------------------------------

    def walk(self, b: Node, a: Node, path: tuple[str, ...], close: bool) -> None:
        b, a = self.deref(b), self.deref(a)
        seen = (_where(b), _where(a), close)
        if seen in self._seen or len(path) > MAX_DEPTH:
            return
        self._seen.add(seen)
        bv, av = b.value, a.value
        if bv == av and not has_ref(bv):
            return
        bv = {} if bv is True or bv is MISSING else bv
        av = {} if av is True or av is MISSING else av
        if bv is False or av is False:
            if bv is not av:
                kind = TYPE_ADDED if bv is False else TYPE_REMOVED
                self.emit(
                    kind,
                    path,
                    b.place,
                    a.place,
                    old="nothing" if bv is False else None,
                    new="nothing" if av is False else None,
                )
            return
        if not (isinstance(bv, dict) and isinstance(av, dict)):
            return
        b, a = self.nullable(replace(b, value=bv)), self.nullable(replace(a, value=av))
        bv, av = b.value, a.value
        tb, ta = types_of(bv), types_of(av)
        self.types(b, a, path, tb, ta)
        self.enums(b, a, path)
        for kind in ("number", "string", "array", "object"):
            if _applies(kind, tb) and _applies(kind, ta):
                self.constraints(b, a, path, kind)
        if _applies("array", tb) and _applies("array", ta):
            self.items(b, a, path, close)
        if _applies("object", tb) and _applies("object", ta):
            self.properties(b, a, path, close)
            self.additional(b, a, path, close)
        self.combinators(b, a, path, close)
        for keyword in OTHER_KEYWORDS:
            self.presence(b, a, path, keyword, canonical)
        for keyword in ("description", "title"):
            if bv.get(keyword) != av.get(keyword):
                self.emit(
                    DESCRIBED, path, b.at(keyword).place, a.at(keyword).place, keyword=keyword
                )

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

    def items(self, b: Node, a: Node, path: tuple[str, ...], close: bool) -> None:
        if "items" in b.value or "items" in a.value:
            self.walk(b.at("items"), a.at("items"), (*path, "[]"), close)
        pb, pa = b.value.get("prefixItems"), a.value.get("prefixItems")
        if isinstance(pb, list) and isinstance(pa, list):
            for i in range(min(len(pb), len(pa))):
                self.walk(b.at("prefixItems", i), a.at("prefixItems", i), (*path, f"[{i}]"), close)
            if len(pb) != len(pa):
                self.constraint(b, a, path, OTHER, "prefixItems", len(pb), len(pa))
        elif pb is not None or pa is not None:
            self.presence(b, a, path, "prefixItems", canonical)

    def properties(self, b: Node, a: Node, path: tuple[str, ...], close: bool) -> None:
        bp, ap = _map(b.value.get("properties")), _map(a.value.get("properties"))
        if not bp and not ap:
            return
        breq, areq = _strings(b.value.get("required")), _strings(a.value.get("required"))
        closed_before, closed_after = _closed(b.value, close), _closed(a.value, close)
        renames: dict[str, tuple[str, str | None]] = {}
        if self.parameters:
            for name, sub in ap.items():
                found = renamed_from(sub)
                if found and found[0] in bp and found[0] not in ap and name not in bp:
                    renames[found[0]] = (name, found[1])
        renamed = {new for new, _ in renames.values()}
        removed = [n for n in bp if n not in ap and n not in renames]
        added = [n for n in ap if n not in bp and n not in renamed]
        swaps: dict[str, str] = {}
        if self.parameters:
            for old in removed:
                match = next(
                    (n for n in added if n not in swaps.values() and _same_shape(bp[old], ap[n])),
                    None,
                )
                if match is not None:
                    swaps[old] = match
        for name in ap:
            if name in bp:
                self.property(b, a, path, name, name, breq, areq, close)
        for old, (new, sunset) in renames.items():
            self.emit(
                PROPERTY_RENAMED,
                (*path, new),
                b.at("properties", old).place,
                a.at("properties", new).place,
                name=old,
                sunset=sunset,
            )
            self.property(b, a, path, old, new, breq, areq, close)
        for old, new in swaps.items():
            self.emit(
                PROPERTY_SWAPPED,
                (*path, new),
                b.at("properties", old).place,
                a.at("properties", new).place,
                name=old,
                required=old in breq,
            )
            self.property(b, a, path, old, new, breq, areq, close)
        for name in removed:
            if name not in swaps:
                self.emit(
                    PROPERTY_REMOVED,
                    (*path, name),
                    b.at("properties", name).place,
                    a.at("properties").place,
                    required=name in breq,
                    closed=closed_after,
                    deprecated=deprecated(bp[name]),
                    sunset=sunset_of(bp[name]),
                )
        for name in added:
            if name not in swaps.values():
                sub = ap[name]
                self.emit(
                    PROPERTY_ADDED,
                    (*path, name),
                    b.at("properties").place,
                    a.at("properties", name).place,
                    required=name in areq,
                    closed=closed_before,
                    has_default=isinstance(sub, dict) and "default" in sub,
                )
        if self.parameters:
            for name in ap:
                old_alias, new_alias = renamed_from(bp.get(name)), renamed_from(ap[name])
                dropped = old_alias is not None and (
                    new_alias is None or new_alias[0] != old_alias[0]
                )
                if name in bp and old_alias and dropped and old_alias[0] not in ap:
                    self.emit(
                        ALIAS_REMOVED,
                        (*path, name),
                        b.at("properties", name, "x-renamed-from").place,
                        a.at("properties", name).place,
                        name=old_alias[0],
                        sunset=old_alias[1],
                    )

    def property(
        self,
        b: Node,
        a: Node,
        path: tuple[str, ...],
        old: str,
        new: str,
        breq: list[str],
        areq: list[str],
        close: bool,
    ) -> None:
        before, after = b.at("properties", old), a.at("properties", new)
        here = (*path, new)
        required_before, required_after = old in breq, new in areq
        if required_after and not required_before:
            self.emit(REQUIRED_ADDED, here, before.place, a.at("required", areq.index(new)).place)
        elif required_before and not required_after:
            self.emit(REQUIRED_REMOVED, here, b.at("required", breq.index(old)).place, after.place)
        if self.parameters:
            if deprecated(after.value) and not deprecated(before.value):
                self.emit(
                    DEPRECATED,
                    here,
                    before.place,
                    after.at("deprecated").place,
                    sunset=sunset_of(after.value),
                )
            if not required_before and not required_after:
                old_default, new_default = self.default(before), self.default(after)
                if old_default is not MISSING and (
                    new_default is MISSING or canonical(old_default) != canonical(new_default)
                ):
                    self.emit(
                        DEFAULT,
                        here,
                        before.at("default").place,
                        after.at("default").place,
                        old=old_default,
                        new=new_default,
                    )
        self.walk(before, after, here, close)

    def default(self, node: Node) -> Any:
        if isinstance(node.value, dict) and "default" in node.value:
            return node.value["default"]
        value = self.deref(node).value
        return value.get("default", MISSING) if isinstance(value, dict) else MISSING

    def additional(self, b: Node, a: Node, path: tuple[str, ...], close: bool) -> None:
        old, new = _additional(b.value, close), _additional(a.value, close)
        if old == new and not (isinstance(old, dict) and has_ref(old)):
            return
        before, after = b.at("additionalProperties"), a.at("additionalProperties")
        if new is False:
            self.emit(
                CLOSED,
                path,
                b.place,
                after.place if after.value is not MISSING else a.at("properties").place,
            )
        elif old is False:
            self.emit(
                OPENED,
                path,
                before.place if before.value is not MISSING else b.at("properties").place,
                after.place,
            )
        else:
            self.walk(replace(before, value=old), replace(after, value=new), (*path, "*"), close)

    def combinators(self, b: Node, a: Node, path: tuple[str, ...], close: bool) -> None:
        for keyword in ("anyOf", "oneOf", "allOf"):
            lb, la = b.value.get(keyword), a.value.get(keyword)
            if not isinstance(lb, list) or not isinstance(la, list):
                if lb is not None or la is not None:
                    self.presence(b, a, path, keyword, canonical)
                continue
            inner = close and keyword != "allOf"
            left = list(range(len(lb)))
            unmatched = []
            for j, branch in enumerate(la):
                same = next(
                    (
                        i
                        for i in left
                        if canonical(lb[i]) == canonical(branch) and not has_ref(branch)
                    ),
                    None,
                )
                if same is None:
                    unmatched.append(j)
                else:
                    left.remove(same)
            for i, j in zip(left, unmatched, strict=False):
                self.walk(b.at(keyword, i), a.at(keyword, j), path, inner)
            extra_before, extra_after = left[len(unmatched) :], unmatched[len(left) :]
            grows = (
                keyword != "allOf"
            )  # another anyOf branch accepts more; another allOf branch less
            for i in extra_before:
                self.emit(
                    BRANCH_REMOVED if grows else CONSTRAINT,
                    path,
                    b.at(keyword, i).place,
                    a.at(keyword).place,
                    keyword=keyword,
                    effect=WIDER,
                    old=f"{len(lb)} `{keyword}` branches",
                    new=f"{len(la)}",
                )
            for j in extra_after:
                self.emit(
                    BRANCH_ADDED if grows else CONSTRAINT,
                    path,
                    b.at(keyword).place,
                    a.at(keyword, j).place,
                    keyword=keyword,
                    effect=NARROWER,
                    old=f"{len(lb)} `{keyword}` branches",
                    new=f"{len(la)}",
                )


def _where(node: Node) -> tuple[str, ...]:
    """A node's identity in the walk: its place, and its siblings' when it has them."""
    here = (node.place.doc.display, node.place.pointer)
    if node.siblings is None:
        return here
    return (*here, node.siblings[0].doc.display, node.siblings[0].pointer)


def shown(keyword: str, value: Any) -> str:
    """A constraint as a message shows it: "`maxLength` 50", "no `pattern`"."""
    if value is None or value is MISSING:
        return f"no `{keyword}`"
    text = json.dumps(value, ensure_ascii=False)
    return f"`{keyword}` {text if len(text) <= 60 else text[:57] + '...'}"


def _is_null(branch: Any) -> bool:
    return (
        isinstance(branch, dict)
        and branch.get("type") == "null"
        and set(branch) <= {"type", "description", "title"}
    )


def _map(value: Any) -> dict[str, Any]:
    return value if isinstance(value, dict) else {}


def _strings(value: Any) -> list[str]:
    return [v for v in value if isinstance(v, str)] if isinstance(value, list) else []


def _closed(schema: Mapping[str, Any], close: bool) -> bool:
    return _additional(schema, close) is False


def _additional(schema: Mapping[str, Any], close: bool) -> Any:
    """`additionalProperties` as toolgen reads it: closed where properties are declared (parameters)."""
    declared = schema.get("additionalProperties", MISSING)
    if declared is MISSING:
        return not (close and isinstance(schema.get("properties"), dict))
    return True if declared == {} else declared


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


_SHAPE_IGNORED = frozenset(
    {"description", "title", "examples", "x-renamed-from", "deprecated", "x-sunset"}
)


def _same_shape(old: Any, new: Any) -> bool:
    """Two property schemas that accept the same values (annotations aside)."""

    def shape(schema: Any) -> Any:
        return (
            {k: v for k, v in schema.items() if k not in _SHAPE_IGNORED}
            if isinstance(schema, dict)
            else schema
        )

    return canonical(shape(old)) == canonical(shape(new))


def walk_schemas(before: Schema, after: Schema, parameters: bool) -> list[Change]:
    """Every change from `before` to `after` (parameters: closed objects, renames, defaults)."""
    return Walker(before, after, parameters).run()
