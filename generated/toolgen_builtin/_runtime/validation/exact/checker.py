# Part of toolgen's runtime, copied verbatim into generated packages (edit toolgen, not a copy).
"""An exact JSON Schema 2020-12 checker, for what a pydantic model cannot express.

`Checker(schema)` compiles every keyword into closures once; `is_valid` runs them and stops at
the first failure; `issues` (only after a failure) explains it in `ArgumentIssue`s. References
are local JSON pointers (`#`, `#/$defs/Name`, resolved within the nearest `$id`); `$dynamicRef`,
`$dynamicAnchor`, `$recursiveRef`, anchors (`#name`) and every other URI are refused with
`Unsupported`, as toolgen's bundler leaves none. Formats are annotations unless `formats=True`.
"""

from __future__ import annotations

from typing import Any
from urllib.parse import unquote

from ...errors import ArgumentIssue
from ...pointer import escape, tokens, unescape
from .apply import build_applicators
from .ecma import ecma_pattern
from .node import Ctx, Location, Node, Unsupported, false_keyword, types_words, values_words
from .values import build_values

__all__ = ["Checker", "Unsupported", "ecma_pattern"]
_DIALECTS = (
    "https://json-schema.org/draft/2020-12/schema",
    "https://json-schema.org/draft/2020-12/schema#",
)
_REFUSED = ("$dynamicRef", "$dynamicAnchor", "$recursiveRef", "$recursiveAnchor")


class Checker:
    """A compiled JSON Schema 2020-12 schema: `is_valid` is exact, `issues` explains a failure."""

    def __init__(self, schema: Any, *, formats: bool = False) -> None:
        self._compiler = _Compiler(schema, formats)
        self._root = self._compiler.node(schema, "", "")
        self._compiler.finish()

    def is_valid(self, instance: Any) -> bool:
        return self._root.valid(instance)

    def issues(self, instance: Any, limit: int = 20) -> list[ArgumentIssue]:
        """Issues for an invalid instance (at most `limit`, at least one); [] when it is valid."""
        if self._root.valid(instance):
            return []
        out = self.explain(instance, limit)
        return out or [ArgumentIssue("", "invalid", "is not valid", location=())]

    def explain(self, instance: Any, limit: int = 20) -> list[ArgumentIssue]:
        """The issues the keywords report for an instance known to be invalid."""
        ctx = Ctx(max(1, limit))
        self._root.explain(instance, (), ctx, False)
        return ctx.out


class _Compiler:
    """Schemas -> Nodes, one per JSON pointer (so recursion through `$ref` closes a loop)."""

    def __init__(self, root: Any, formats: bool) -> None:
        self.root, self.formats = root, formats
        self.memo: dict[str, Node] = {}
        self.pending: list[tuple[Node, Any, str]] = []

    def node(self, schema: Any, pointer: str, base: str) -> Node:
        found = self.memo.get(pointer)
        if found is not None:
            return found
        if isinstance(schema, bool):
            node = Node(pointer, [] if schema else [false_keyword()], False)
            self.memo[pointer] = node
            return node
        if not isinstance(schema, dict):
            raise Unsupported(f"a schema must be an object or a boolean, at {_shown(pointer)}")
        for word in _REFUSED:
            if word in schema:
                raise Unsupported(f"{word} is not supported, at {_shown(pointer)}")
        if "$schema" in schema and schema["$schema"] not in _DIALECTS:
            raise Unsupported(f"$schema {schema['$schema']!r} is not 2020-12, at {_shown(pointer)}")
        if isinstance(schema.get("$id"), str) and pointer:
            base = pointer  # an embedded resource: "#..." inside it is relative to it
        node = Node(pointer, [], schema.get("x-secret") is True)
        self.memo[pointer] = node
        self.pending.append((node, schema, base))
        return node

    def finish(self) -> None:
        while self.pending:
            node, schema, base = self.pending.pop()
            values = build_values(self, schema, node.pointer, base)
            node.set_keywords(values + build_applicators(self, schema, node.pointer, base, values))
            node.words = _words(schema)

    def sub(self, schema: Any, pointer: str, base: str, *parts: str | int) -> Node:
        for part in parts:
            schema = schema[part]
            pointer += "/" + escape(part)
        return self.node(schema, pointer, base)

    def pattern(self, text: Any, pointer: str) -> Any:
        compiled = ecma_pattern(text) if isinstance(text, str) else None
        if compiled is None:
            raise Unsupported(
                f"the pattern {text!r} cannot be checked exactly, at {_shown(pointer)}"
            )
        return compiled

    def ref(self, ref: Any, pointer: str, base: str) -> Node:
        if not isinstance(ref, str) or not ref.startswith("#"):
            raise Unsupported(f"$ref {ref!r} is not a local JSON pointer, at {_shown(pointer)}")
        fragment = unquote(ref[1:])
        if fragment and not fragment.startswith("/"):
            raise Unsupported(f"$ref {ref!r} names an anchor, at {_shown(pointer)}")
        schema, target = self.root, ""
        for part in base.split("/")[1:] + fragment.split("/")[1:]:
            token = unescape(part)
            if isinstance(schema, dict) and token in schema:
                schema = schema[token]
            elif isinstance(schema, list) and token.isdigit() and int(token) < len(schema):
                schema = schema[int(token)]
            else:
                raise Unsupported(f"$ref {ref!r} points at nothing, at {_shown(pointer)}")
            target += "/" + escape(token)
            if isinstance(schema, dict) and isinstance(schema.get("$id"), str):
                base = target
        return self.node(schema, target, base)


def _words(schema: dict[str, Any]) -> str | None:
    """What a schema asks for, when one keyword says it all: `an integer`, `"a"`, `one of 1, 2`."""
    meaningful = set(schema) - {"title", "description", "$comment", "examples", "default"}
    if meaningful == {"type"}:
        names = schema["type"]
        return types_words(names if isinstance(names, list) else [names])
    if meaningful == {"const"}:
        return values_words([schema["const"]])
    if meaningful == {"enum"} and isinstance(schema["enum"], list) and schema["enum"]:
        return values_words(schema["enum"])
    return None


def _shown(pointer: str) -> str:
    return "#" + pointer


def location_of(pointer: str) -> Location:
    """A JSON pointer's parts (for tests and the generator's messages)."""
    return tuple(tokens(pointer))
