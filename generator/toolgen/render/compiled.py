"""A tool's strategies, compiled once per build (render/strategies.py).

Lint's `unsatisfiable` rule (render/satisfiable.py) asks the compiler whether any value is
valid, on the schemas the testing modules are then rendered from (render/testing.py): the
same `parameters` and `returns`, equal in content though not the same objects. Both read
this one compilation, under the names the testing module gives it.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any

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


_memo: dict[tuple[str, str], Compiled] = {}


def compiled(schema: Any, role: str) -> Compiled:
    """The strategies of a tool's `parameters` or `returns` (`role`), compiled once per content."""
    try:
        key = (role, json.dumps(schema))
    except (TypeError, ValueError):  # not JSON: compiled every time
        return _compile(schema, role)
    found = _memo.get(key)
    if found is None:
        if len(_memo) >= LIMIT:
            _memo.clear()
        found = _memo[key] = _compile(schema, role)
    return found


def _compile(schema: Any, role: str) -> Compiled:
    name, prefix, close_merged = ROLES[role]
    compiler = StrategyCompiler(schema, name, prefix, close_merged=close_merged)
    node = compiler.compile(schema)
    return Compiled(node, tuple(compiler.definitions.values()), tuple(compiler.impossible.items()))
