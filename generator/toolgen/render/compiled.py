"""A tool's strategies, compiled once per build (render/strategies.py).

Lint's `unsatisfiable` rule (render/satisfiable.py) asks the compiler whether any value is
valid, on the schemas the testing modules are then rendered from (render/testing.py): the
same `parameters` and `returns` (in a build, the very objects: lower's view is what the IR
holds; else equal in content). Both read this one compilation, under the names the testing
module gives it.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Any

from toolgen.memo import Bounded
from toolgen.render.code import Node
from toolgen.render.strategies import StrategyCompiler

# role -> (the module constant holding the schema, the prefix of its definitions' functions,
# whether a merged allOf is closed: arguments are one closed class in the generated model)
ROLES = {
    "parameters": ("PARAMETERS", "_arguments_", True),
    "returns": ("RETURNS", "_result_", False),
}
LIMIT = 20_000  # compilations kept; the memo is cleared whole when full


@dataclass(frozen=True)
class Compiled:
    node: Node  # the root's strategy
    definitions: tuple[tuple[str, Node], ...]  # (function, body) of each `$defs` entry referenced
    impossible: tuple[tuple[str, str], ...]  # (pointer, why no value is valid there), deepest first
    # role -> what the testing module writes of this compilation, laid out once per content
    # (render/testing.py; a schema, such as a shared `returns`, is often many tools'): the
    # root function's body, (function, body) of each definition, the schema's constant.
    laid_out: dict[str, tuple[str, tuple[tuple[str, str], ...], str]] = field(
        default_factory=dict, compare=False, repr=False
    )


_memo: Bounded[tuple[str, str], Compiled] = Bounded(LIMIT)


# id(schema) -> (schema, its `content`): the rule and the testing module ask about the same
# objects in a build, whose JSON text is then written once (about 0.02 s for 1,000 tools).
# The schema is kept beside its text, so that its id names no other object while the entry
# lives; a lowered schema is never changed in place.
_TEXTS: Bounded[int, tuple[Any, str | None]] = Bounded(LIMIT)


def content(schema: Any) -> str | None:
    """The key of `schema`'s content: its JSON text, or None when it is not JSON."""
    found = _TEXTS.get(id(schema))
    if found is not None and found[0] is schema:
        return found[1]
    try:
        text: str | None = json.dumps(schema)
    except (TypeError, ValueError):
        text = None
    _TEXTS.keep(id(schema), (schema, text))
    return text


def compiled(schema: Any, role: str, text: str | None = None) -> Compiled:
    """The strategies of a tool's `parameters` or `returns` (`role`), compiled once per content.
    `text`: `content(schema)`, when the caller has it."""
    text = content(schema) if text is None else text
    if text is None:  # not JSON: compiled every time
        return _compile(schema, role)
    key = (role, text)
    found = _memo.get(key)
    return _memo.keep(key, _compile(schema, role)) if found is None else found


def _compile(schema: Any, role: str) -> Compiled:
    name, prefix, close_merged = ROLES[role]
    compiler = StrategyCompiler(schema, name, prefix, close_merged=close_merged)
    node = compiler.compile(schema)
    return Compiled(node, tuple(compiler.definitions.values()), tuple(compiler.impossible.items()))
