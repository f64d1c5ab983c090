"""Lowering rules every model-facing target shares (docs/providers.md, "What each target gets").

`portable` rewrites a bundled parameters schema into the form the targets have in common:
a flat object at the root (providers/root.py), boolean subschemas as objects, `oneOf` as
`anyOf`, `allOf` merged, `const` as a one-value `enum`, tuples as `items`, and no `$ref`
with siblings. `restrict` keeps the keywords a target takes and moves the rest
into the description, where a model still reads them and the runtime still enforces them.
`inline_refs` removes `$ref` for targets without references.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from toolgen.providers.base import Inexpressible
from toolgen.providers.describe import describe
from toolgen.providers.memo import memoised_by_identity
from toolgen.providers.merge import merge
from toolgen.providers.patterns import readable_public
from toolgen.providers.root import flatten, needs_flattening
from toolgen.providers.schema import (
    accepts_null,
    defs_free,
    prune_defs,
    recursive,
    references,
    rewrites_booleans,
    types_of,
    without_booleans,
)
from toolgen.runtime.types import json_equal, json_type
from toolgen.schema.keywords import ANNOTATIONS, BY_TYPE
from toolgen.schema.pointer import ref_name
from toolgen.schema.walk import Node, nodes, rebuild

MERGE_ROUNDS = 8

# -- the portable form ----------------------------------------------------------------------------


@memoised_by_identity
def portable(parameters: Node) -> Node:
    """Every lowering model-facing targets share; the result still has `$defs`/`$ref` (without siblings)."""
    return _portable(parameters)


def _portable(parameters: Node) -> Node:
    shown = readable_public(parameters)
    if not needs_flattening(shown) and not shown.get("$defs") and _settled(shown):
        # Most schemas: every step below would copy every node as it is.
        return prune_defs(object_root({k: v for k, v in shown.items() if k != "$defs"}))
    merges: list[Node] = []  # the nodes with an `allOf`, as `_local` meets them

    def local(node: Node) -> Node:
        if "allOf" in node:
            merges.append(node)
        return _local(node)

    schema = rebuild(flatten(without_booleans(shown)), local)
    if not schema.get("$defs") and not merges:
        # Nothing to merge nor inline (most schemas): `_resolve` would leave every node as it is.
        return prune_defs(object_root({k: v for k, v in schema.items() if k != "$defs"}))
    defs = dict(schema.get("$defs") or {})
    # A definition is never inlined into one it is part of a cycle with: each round would
    # nest it one level deeper into itself (a `$ref` with siblings to its own definition).
    cycle = _cycles(defs)
    for _ in range(MERGE_ROUNDS):  # definitions that merge other definitions settle in a few rounds
        merged = {
            name: _resolve_node(body, {k: v for k, v in defs.items() if k not in cycle[name]})
            for name, body in defs.items()
        }
        if merged == defs:
            break
        defs = merged
    body = _resolve_node({k: v for k, v in schema.items() if k != "$defs"}, defs)
    if defs:
        body["$defs"] = defs
    return prune_defs(object_root(body))


# What `_local` rewrites, and what the merges of `_resolve` act on.
_UNSETTLED = frozenset({"oneOf", "const", "prefixItems", "allOf"})


def _settled(schema: Node) -> bool:
    """Whether `without_booleans`, `_local` and the merges would leave every node of `schema`
    as it is: no boolean subschema to rewrite, no `oneOf`, `const`, tuple or `allOf`."""
    return not any(
        not _UNSETTLED.isdisjoint(node) or node.get("items") is False or rewrites_booleans(node)
        for node in nodes(schema)
    )


def _cycles(defs: Node) -> dict[str, set[str]]:
    """For each definition, the definitions it reaches that reach it back (itself included when recursive)."""
    edges = {name: references(body) for name, body in defs.items()}
    reach: dict[str, set[str]] = {}
    for start in edges:
        seen: set[str] = set()
        stack = list(edges[start])
        while stack:
            name = stack.pop()
            if name not in seen and name in edges:
                seen.add(name)
                stack.extend(edges[name])
        reach[start] = seen
    return {name: {other for other in reach[name] if name in reach[other]} for name in edges}


ROOT_COMBINATORS = (
    "anyOf",
    "oneOf",
    "allOf",
    "not",
    "if",
    "then",
    "else",
    "dependentSchemas",
    "dependentRequired",
)


def object_root(schema: Node) -> Node:
    """Rule 2: a plain object at the root (`type`, `properties`), no combinators there."""
    moved = {k: schema[k] for k in ROOT_COMBINATORS if k in schema}
    out = {"type": "object", **{k: v for k, v in schema.items() if k not in moved and k != "type"}}
    out.setdefault("properties", {})
    return describe(out, moved)


def _local(node: Node) -> Node:
    """Rewrites that need no reference: oneOf, const, prefixItems."""
    moved: dict[str, Any] = {}
    out = dict(node)
    if isinstance(out.get("oneOf"), list):
        if "anyOf" in out:
            moved["oneOf"] = out.pop("oneOf")
        else:
            out = _replace_key(out, "oneOf", "anyOf", out["oneOf"])
    if "const" in out:
        const = out.pop("const")
        if isinstance(out.get("enum"), list):
            out["enum"] = [v for v in out["enum"] if json_equal(v, const)]
        else:
            out["enum"] = [const]
    if out.get("items") is False and not isinstance(out.get("prefixItems"), list):
        del out["items"]  # no items at all: an empty array
        out["maxItems"] = 0
    if isinstance(out.get("prefixItems"), list):
        prefix = out.pop("prefixItems")
        rest = out.get("items")
        branches = [*prefix, *([rest] if isinstance(rest, dict) else [])]
        unique = [
            b for i, b in enumerate(branches) if not any(json_equal(b, c) for c in branches[:i])
        ]
        out["items"] = unique[0] if len(unique) == 1 else {"anyOf": unique}
        if rest is False:
            out["maxItems"] = min(len(prefix), out.get("maxItems", len(prefix)))
        moved["prefixItems"] = prefix
    return describe(out, moved)


def _replace_key(node: Node, old: str, new: str, value: Any) -> Node:
    """`node` with `old` renamed to `new` in place (key order kept: output stays readable)."""
    return {(new if k == old else k): (value if k == old else v) for k, v in node.items()}


def _resolve_node(schema: Any, defs: Node) -> Any:
    """Merge `allOf` and inline `$ref`s that carry siblings, everywhere below `schema`."""
    return rebuild(schema, lambda node: _resolve(node, defs))


def _resolve(node: Node, defs: Node) -> Node:
    for _ in range(MERGE_ROUNDS):
        ref = node.get("$ref")
        if isinstance(ref, str) and len(node) > 1 and isinstance(defs.get(ref_name(ref)), dict):
            siblings = {k: v for k, v in node.items() if k != "$ref"}
            merged = merge(siblings, defs[ref_name(ref)])
            if merged is None:
                return (
                    node  # contradicting siblings: left for the targets that take them (MCP-like)
                )
            node = merged
        elif isinstance(node.get("allOf"), list):
            parent = {k: v for k, v in node.items() if k != "allOf"}
            out: Node | None = parent
            for branch in node["allOf"]:
                if (
                    isinstance(branch, dict)
                    and isinstance(branch.get("$ref"), str)
                    and ref_name(branch["$ref"]) in defs
                ):
                    siblings = {k: v for k, v in branch.items() if k != "$ref"}
                    branch = merge(siblings, defs[ref_name(branch["$ref"])])
                out = merge(out, branch) if out is not None and isinstance(branch, dict) else None
            if out is None:
                return node
            if "properties" in out and "additionalProperties" not in out:
                out["additionalProperties"] = (
                    False  # the generated model of a merged allOf is closed
                )
            node = out
        else:
            return node
    return node


# -- per-target keyword sets ----------------------------------------------------------------------


def restrict(
    schema: Node,
    allowed: frozenset[str],
    formats: frozenset[str] | None = None,
    moved_first: Callable[[Node], dict[str, Any]] | None = None,
) -> Node:
    """Keep the `allowed` keywords; move the other constraints into the description; drop annotations.

    `formats` limits `format` values (None: any). `moved_first`, when given, picks further
    keywords of a node to move (say, `minItems` above 1) before the allow-list applies.
    """

    def one(node: Node, root: bool = False) -> Node:
        if (
            moved_first is None
            and allowed.issuperset(node)
            and (formats is None or "format" not in node or node["format"] in formats)
        ):
            return node  # nothing to move (most nodes); `rebuild` hands each node over as a copy
        moved = dict(moved_first(node)) if moved_first else {}
        out: Node = {}
        for key, value in node.items():
            if key in moved:
                continue
            if key == "$defs" and root:
                out[key] = value
            elif key == "format" and formats is not None and value not in formats:
                moved[key] = value
            elif key in allowed:
                out[key] = value
            elif key not in ANNOTATIONS and not key.startswith("$comment"):
                moved[key] = value
        return describe(out, moved)

    out: Node = rebuild(schema, one, root=lambda node: one(node, root=True))
    return out


def inline_refs(schema: Node, keep_recursive: bool) -> Node:
    """Every `$ref` replaced by its definition; recursive ones kept (or refused) as the target allows.
    A schema with no `$defs` anywhere is returned as it is (there is nothing to replace)."""
    if defs_free(schema):
        return schema
    defs = schema.get("$defs") or {}
    cycles = recursive(schema)
    if cycles and not keep_recursive:
        name = sorted(cycles)[0]
        raise Inexpressible(f"/$defs/{name}", f"a recursive definition ({name!r})")

    def expand(node: Any, stack: tuple[str, ...]) -> Any:
        if isinstance(node, list):
            return [expand(item, stack) for item in node]
        if not isinstance(node, dict):
            return node
        ref = node.get("$ref")
        if isinstance(ref, str) and ref_name(ref) in defs and ref_name(ref) not in cycles:
            name = ref_name(ref)
            body = expand(defs[name], (*stack, name))
            siblings = {k: expand(v, stack) for k, v in node.items() if k != "$ref"}
            if isinstance(body, bool):  # `true` adds nothing to its siblings; `false` takes nothing
                return (siblings or True) if body else False
            return {**body, **siblings} if siblings else body
        return {
            k: (v if k in ("const", "enum", "default", "examples", "example") else expand(v, stack))
            for k, v in node.items()
            if k != "$defs"
        }

    body = expand(schema, ())
    if cycles:
        body["$defs"] = {name: expand(defs[name], (name,)) for name in defs if name in cycles}
    return prune_defs(body)


@memoised_by_identity
def type_arrays_to_any_of(schema: Node) -> Node:
    """`type: [string, null]` as `anyOf` (for targets that take one type per schema). Once per
    schema object: Anthropic strict and Gemini `parameters` rewrite the same portable form.
    A schema without a type array is returned as it is (then `typed_enums`' memo is shared)."""
    if not _shape(schema)[0]:
        return schema

    def one(node: Node) -> Node:
        kinds = node.get("type")
        if not isinstance(kinds, list):
            return node
        if len(kinds) == 1:
            return {**node, "type": kinds[0]}
        if isinstance(
            node.get("enum"), list
        ):  # the values say which types: the enum alone is enough
            return {k: v for k, v in node.items() if k != "type"}
        rest = {
            k: v for k, v in node.items() if k not in ("type", "description", "title", "default")
        }
        keep = {k: v for k, v in node.items() if k in ("description", "title", "default")}
        branches = []
        for kind in kinds:
            branch: Node = {"type": kind}
            for key, value in rest.items():
                if _applies(key, kind):
                    branch[key] = value
            if "enum" in branch:
                branch["enum"] = [v for v in branch["enum"] if _matches(v, kind)]
                if not branch["enum"]:
                    continue
            branches.append(branch)
        return {"anyOf": branches, **keep}

    out: Node = rebuild(schema, one)
    return out


def _applies(keyword: str, kind: str) -> bool:
    """Whether a branch of type `kind` keeps `keyword`: unless the keyword is another type's."""
    owners = [t for t, keys in BY_TYPE.items() if keyword in keys]
    return not owners or kind in owners


def _matches(value: Any, kind: str) -> bool:
    actual = json_type(value)
    return actual == kind or kind == "number" and actual == "integer"


@memoised_by_identity
def typed_enums(schema: Node) -> Node:
    """An `enum` without `type` gets one; an enum of several JSON types becomes an `anyOf` of typed enums.

    Once per schema object (OpenAI strict and Gemini `parameters` both ask, of the same portable
    form where it has no type array); a schema with no such enum is returned as it is."""
    if not _shape(schema)[1]:
        return schema

    def one(node: Node) -> Node:
        if not _untyped_enum(node):
            return node
        values = node["enum"]
        kinds = list(dict.fromkeys(json_type(v) for v in values))
        if len(kinds) == 1:
            return {"type": kinds[0], **node}
        rest = {k: v for k, v in node.items() if k != "enum"}
        branches = []
        for kind in kinds:
            members = [v for v in values if json_type(v) == kind]
            branches.append({"type": "null"} if kind == "null" else {"type": kind, "enum": members})
        return {"anyOf": branches, **rest}

    out: Node = rebuild(schema, one)
    return out


@memoised_by_identity
def _shape(schema: Node) -> tuple[bool, bool]:
    """Whether some subschema has a type array, and whether one has an enum without a type:
    one look for both rewrites (the second asks of what the first returned as it was)."""
    arrays = untyped = False
    for node in nodes(schema):
        arrays = arrays or isinstance(node.get("type"), list)
        untyped = untyped or _untyped_enum(node)
    return arrays, untyped


def _untyped_enum(node: Node) -> bool:
    values = node.get("enum")
    return isinstance(values, list) and bool(values) and not types_of(node) and "anyOf" not in node


def nullable(schema: Node, defs: Node) -> Node:
    """`schema` that also accepts null (how OpenAI strict says "optional")."""
    if isinstance(schema, bool):  # `true` takes null already; `false` becomes "null only"
        return schema or {"type": "null"}
    if accepts_null(schema, defs):
        return schema
    kinds = schema.get("type")
    plain = not ({"$ref", "anyOf", "allOf", "oneOf", "not"} & set(schema))
    if plain and isinstance(kinds, str):
        out = {**schema, "type": [kinds, "null"]}
        if isinstance(out.get("enum"), list):
            out["enum"] = [*out["enum"], None]
        return out
    if plain and isinstance(kinds, list):
        return {**schema, "type": [*kinds, "null"]}
    if isinstance(schema.get("anyOf"), list) and "$ref" not in schema:
        return {**schema, "anyOf": [*schema["anyOf"], {"type": "null"}]}
    outer = {k: v for k, v in schema.items() if k in ("description", "title")}
    inner = {k: v for k, v in schema.items() if k not in ("description", "title")}
    return {"anyOf": [inner, {"type": "null"}], **outer}
