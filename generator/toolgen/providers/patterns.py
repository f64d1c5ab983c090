"""Patterns Python's `re` cannot read (`\\p{L}`, `\\cC`): valid ECMA-262, refused by jsonschema.

A spec's `pattern` is ECMA-262, and the generated models enforce it as written. But the
Python tools that check a definition's schema read patterns with `re`: jsonschema's
`check_schema` (the MCP SDK's client runs it on every `outputSchema` and then refuses to
call the tool) fails on one it cannot compile. Every target therefore gets such a
pattern written into the description (a model still reads it, the runtime still
enforces it), with a lint note naming the provider.
"""

from __future__ import annotations

from typing import Any

from toolgen.providers.base import LOSSY, Note, ToolLike
from toolgen.providers.describe import describe
from toolgen.providers.memo import memoised_by_identity
from toolgen.providers.schema import public
from toolgen.schema.patterns import python_compiles
from toolgen.schema.walk import Node, nodes, rebuild, walk


def _unreadable(node: Node) -> dict[str, Any]:
    """The keywords of one node that carry a pattern `re` cannot compile."""
    moved: dict[str, Any] = {}
    if isinstance(node.get("pattern"), str) and not python_compiles(node["pattern"]):
        moved["pattern"] = node["pattern"]
    patterns = node.get("patternProperties")
    if isinstance(patterns, dict) and any(not python_compiles(p) for p in patterns):
        moved["patternProperties"] = patterns
    return moved


def readable(schema: Any) -> Any:
    """`schema` with every pattern `re` cannot compile moved into its node's description."""
    if not any(_unreadable(node) for node in nodes(schema)):
        return schema

    def one(node: Node) -> Node:
        moved = _unreadable(node)
        if not moved:
            return node
        out = {k: v for k, v in node.items() if k not in moved}
        if "patternProperties" in moved and out.get("additionalProperties") is False:
            # the keys the patterns admitted stay admitted: their values as any of the patterns' schemas
            values = list(moved["patternProperties"].values())
            out["additionalProperties"] = values[0] if len(values) == 1 else {"anyOf": values}
        return describe(out, moved)

    return rebuild(schema, one)


def _found(schema: Any) -> tuple[tuple[str, str, str], ...]:
    """(path, keyword, the first pattern `re` cannot read) of each node that has one."""
    if not any(_unreadable(node) for node in nodes(schema)):  # most schemas: no pointer built
        return ()
    return tuple(
        (
            path,
            key,
            value if key == "pattern" else next(p for p in value if not python_compiles(p)),
        )
        for path, node in walk(schema)
        for key, value in _unreadable(node).items()
    )


# Every variant of every target asks about the same `parameters` objects: walked once each.
_found_in = memoised_by_identity(_found)


@memoised_by_identity
def readable_public(schema: Any) -> Any:
    """`readable(public(schema))`, what every target starts from: once per schema object (the
    spec's keywords for lint, the portable lowering and MCP's schemas each asked for it).
    `public` only takes keys away: where `schema` has no unreadable pattern (`_found_in`, which
    the notes ask for anyway), neither has its public form."""
    shown = public(schema)
    return readable(shown) if _found_in(schema) else shown


def notes(tool: ToolLike, target: str, found: list[Note], returns: bool = False) -> None:
    """A note for each pattern of the tool's parameters (and, for MCP, its result) moved so."""
    schemas = [("", tool.parameters)] + ([("returns", tool.returns)] if returns else [])
    for where, schema in schemas:
        for path, key, shown in _found_in(schema) if isinstance(schema, dict) else _found(schema):
            what = f"the {key} {shown!r} uses syntax Python's `re` does not read"
            if where:
                found.append(
                    Note(
                        tool.name,
                        target,
                        LOSSY,
                        f"{what} (in the result's schema, at {path or '/'}); "
                        "it is written into the outputSchema's description",
                    )
                )
            else:
                found.append(
                    Note(
                        tool.name,
                        target,
                        LOSSY,
                        f"{what}; it is written into the description",
                        path,
                    )
                )
