"""Walk and rebuild schemas along the keyword table, with the pointer of every subschema."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import Any

from toolgen.schema.keywords import SCHEMA_LISTS, SCHEMA_MAPS, SCHEMA_VALUES
from toolgen.schema.pointer import escape

Node = dict[str, Any]
SUBSCHEMA_KEYWORDS = SCHEMA_MAPS | SCHEMA_LISTS | SCHEMA_VALUES


def walk(schema: Any, path: str = "") -> Iterator[tuple[str, Node]]:
    """Every subschema that is an object, with its JSON pointer, parents first, in document order."""
    if not isinstance(schema, dict):
        return
    yield path, schema
    if SUBSCHEMA_KEYWORDS.isdisjoint(schema):  # a leaf: most nodes of a schema
        return
    for key, value in schema.items():
        if key in SCHEMA_MAPS and isinstance(value, dict):
            for name, sub in value.items():
                yield from walk(sub, f"{path}/{key}/{escape(name)}")
        elif key in SCHEMA_LISTS and isinstance(value, list):
            for i, sub in enumerate(value):
                yield from walk(sub, f"{path}/{key}/{i}")
        elif key in SCHEMA_VALUES:
            yield from walk(value, f"{path}/{key}")


def located(schema: Any, path: str = "") -> list[tuple[str, Node]]:
    """`walk`'s pairs as a list, made without a generator per level (cheaper where every one
    is read: a generator's pair passes up through each level above it)."""
    found: list[tuple[str, Node]] = []
    _locate(schema, path, found)
    return found


def _locate(schema: Any, path: str, found: list[tuple[str, Node]]) -> None:
    if not isinstance(schema, dict):
        return
    found.append((path, schema))
    if SUBSCHEMA_KEYWORDS.isdisjoint(schema):
        return
    for key, value in schema.items():
        if key in SCHEMA_MAPS and isinstance(value, dict):
            for name, sub in value.items():
                _locate(sub, f"{path}/{key}/{escape(name)}", found)
        elif key in SCHEMA_LISTS and isinstance(value, list):
            for i, sub in enumerate(value):
                _locate(sub, f"{path}/{key}/{i}", found)
        elif key in SCHEMA_VALUES:
            _locate(value, f"{path}/{key}", found)


# Where a keyword's subschemas are: in a map (0), a list (1), or the value itself (2).
_PLACES = {
    **dict.fromkeys(SCHEMA_MAPS, 0),
    **dict.fromkeys(SCHEMA_LISTS, 1),
    **dict.fromkeys(SCHEMA_VALUES, 2),
}


def transform(schema: Any, fn: Callable[[Node, str], Any], path: str = "") -> Any:
    """Rebuild a schema bottom-up: children first, then `fn(node, path)` on each subschema."""
    if not isinstance(schema, dict):
        return schema
    if SUBSCHEMA_KEYWORDS.isdisjoint(schema):  # a leaf: most nodes of a schema
        return fn(dict(schema), path)
    out: Node = {}
    for key, value in schema.items():
        place = _PLACES.get(key)
        if place == 0 and isinstance(value, dict):
            out[key] = {
                name: transform(sub, fn, f"{path}/{key}/{escape(name)}")
                for name, sub in value.items()
            }
        elif place == 1 and isinstance(value, list):
            out[key] = [transform(sub, fn, f"{path}/{key}/{i}") for i, sub in enumerate(value)]
        elif place == 2 and isinstance(value, dict):
            out[key] = transform(value, fn, f"{path}/{key}")
        else:
            out[key] = value
    return fn(out, path)


def rebuild(
    schema: Any, fn: Callable[[Node], Any], root: Callable[[Node], Any] | None = None
) -> Any:
    """`transform` for a rewrite that needs no pointer: `fn(node)` on each subschema, bottom-up
    (`root`, when given, instead of `fn` on the root). No pointer string is built."""
    if not isinstance(schema, dict):
        return schema
    return (root or fn)(_rebuilt(schema, fn))


def _rebuilt(schema: Node, fn: Callable[[Node], Any]) -> Node:
    """A copy of `schema` whose subschemas have been rewritten by `fn` (not `schema` itself)."""
    if SUBSCHEMA_KEYWORDS.isdisjoint(schema):
        return dict(schema)
    out: Node = {}
    for key, value in schema.items():
        place = _PLACES.get(key)
        if place == 0 and isinstance(value, dict):
            out[key] = {
                name: fn(_rebuilt(sub, fn)) if isinstance(sub, dict) else sub
                for name, sub in value.items()
            }
        elif place == 1 and isinstance(value, list):
            out[key] = [fn(_rebuilt(sub, fn)) if isinstance(sub, dict) else sub for sub in value]
        elif place == 2 and isinstance(value, dict):
            out[key] = fn(_rebuilt(value, fn))
        else:
            out[key] = value
    return out


def nodes(schema: Any) -> list[Node]:
    """The subschemas of `walk`, in its order, without their pointers (cheaper: no strings)."""
    found: list[Node] = []
    _collect(schema, found)
    return found


def _collect(schema: Any, found: list[Node]) -> None:
    if not isinstance(schema, dict):
        return
    found.append(schema)
    if SUBSCHEMA_KEYWORDS.isdisjoint(schema):
        return
    for key, value in schema.items():
        if key in SCHEMA_MAPS and isinstance(value, dict):
            for sub in value.values():
                _collect(sub, found)
        elif key in SCHEMA_LISTS and isinstance(value, list):
            for sub in value:
                _collect(sub, found)
        elif key in SCHEMA_VALUES:
            _collect(value, found)
