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

from dataclasses import replace
from typing import Any

from toolgen.breaking.changes import (
    BRANCH_ADDED,
    BRANCH_REMOVED,
    CONSTRAINT,
    DESCRIBED,
    MAX_DEPTH,
    MISSING,
    NARROWER,
    OTHER,
    TYPE_ADDED,
    TYPE_REMOVED,
    WIDER,
    Change,
    Node,
    Schema,
    canonical,
    deref,
    has_ref,
)
from toolgen.breaking.constraints import OTHER_KEYWORDS, applies, types_of
from toolgen.breaking.members import ObjectComparison


class Walker(ObjectComparison):
    """One comparison of two schema roots; `changes` holds what it found, in walk order."""

    def __init__(self, before: Schema, after: Schema, parameters: bool) -> None:
        super().__init__()
        self.before, self.after, self.parameters = before, after, parameters
        self._seen: set[tuple[tuple[str, ...], tuple[str, ...], bool]] = set()

    def run(self) -> list[Change]:
        self.walk(
            Node(self.before.value, self.before.root, self.before),
            Node(self.after.value, self.after.root, self.after),
            (),
            self.parameters,
        )
        return self.changes

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
            other = deref(node.at(key, 1 - nulls[0])).value
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
        b, a = deref(b), deref(a)
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
            if applies(kind, tb) and applies(kind, ta):
                self.constraints(b, a, path, kind)
        if applies("array", tb) and applies("array", ta):
            self.items(b, a, path, close)
        if applies("object", tb) and applies("object", ta):
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


def _is_null(branch: Any) -> bool:
    return (
        isinstance(branch, dict)
        and branch.get("type") == "null"
        and set(branch) <= {"type", "description", "title"}
    )


def walk_schemas(before: Schema, after: Schema, parameters: bool) -> list[Change]:
    """Every change from `before` to `after` (parameters: closed objects, renames, defaults)."""
    return Walker(before, after, parameters).run()
