"""An object's members compared, previous against current: properties matched by name, by
rename (`x-renamed-from`) or, in parameters, as a swap of the same shape; `required`,
deprecations, defaults and dropped aliases; `additionalProperties` (closed or opened).
`ObjectComparison` descends into each member through the walker's `walk`
(breaking/compare.py)."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import replace
from typing import Any

from toolgen.breaking.changes import (
    ALIAS_REMOVED,
    CLOSED,
    DEFAULT,
    DEPRECATED,
    MISSING,
    OPENED,
    PROPERTY_ADDED,
    PROPERTY_REMOVED,
    PROPERTY_RENAMED,
    PROPERTY_SWAPPED,
    REQUIRED_ADDED,
    REQUIRED_REMOVED,
    Node,
    canonical,
    deref,
    has_ref,
)
from toolgen.breaking.constraints import NodeComparison


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


class ObjectComparison(NodeComparison):
    """The members of two object schemas compared; `walk` (the walker's) descends into each."""

    parameters: bool

    def walk(self, b: Node, a: Node, path: tuple[str, ...], close: bool) -> None:
        raise NotImplementedError

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
        moved: list[tuple[str, str, str, dict[str, Any]]] = [
            (PROPERTY_RENAMED, old, new, {"sunset": sunset})
            for old, (new, sunset) in renames.items()
        ]
        moved += [
            (PROPERTY_SWAPPED, old, new, {"required": old in breq}) for old, new in swaps.items()
        ]
        for kind, old, new, details in moved:
            before, after = b.at("properties", old).place, a.at("properties", new).place
            self.emit(kind, (*path, new), before, after, name=old, **details)
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
        value = deref(node).value
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
