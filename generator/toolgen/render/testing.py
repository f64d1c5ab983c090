"""The generated `testing` subpackage: each tool's hypothesis strategies and contract.

The strategies are compiled from the tool's schemas here, at generation time
(render/strategies.py); the templates only place them.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import jinja2

from toolgen.ir import ToolIR
from toolgen.render.code import Call, Node, call, literal, statement, tuple_of
from toolgen.render.compiled import compiled


@dataclass(frozen=True)
class Function:
    """A module-level function of a testing module: `def name() -> ...: return body`."""

    name: str
    body: str  # the `return ...` statement, laid out, indented 4


@dataclass(frozen=True)
class TestingModule:
    arguments: str  # the body of arguments_json(): a `return` statement
    result: str  # the body of result_json()
    definitions: tuple[Function, ...]  # one cached function per referenced $defs entry
    parameters: str  # `PARAMETERS: ... = {...}`
    returns: str
    examples: str


def _with_overrides(node: Node) -> Node:
    """Pass `overrides` to the top-level object strategy (inside a filter, if there is one)."""
    if isinstance(node, Call) and node.function == "_s.objects":
        return Call(node.function, node.arguments, (*node.keywords, ("overrides", "overrides")))
    if isinstance(node, Call) and node.function == "_s.satisfying":
        inner, *rest = node.arguments
        if isinstance(inner, Call) and inner.function == "_s.objects":
            return Call(node.function, (_with_overrides(inner), *rest), node.keywords)
    return call("_s.overridden", node, "overrides")


def _returning(node: Node) -> str:
    return statement(node, 4, "return ")


def testing_module(tool: ToolIR) -> TestingModule:
    arguments = compiled(tool.parameters, "parameters")
    arguments_node = _with_overrides(arguments.node)
    result = compiled(tool.returns, "returns") if tool.returns is not None else None
    result_node = result.node if result is not None else "_s.json_values()"
    functions = [
        Function(name, _returning(body))
        for name, body in (*arguments.definitions, *(result.definitions if result else ()))
    ]
    examples: list[Any] = list(tool.examples)
    return TestingModule(
        arguments=_returning(arguments_node),
        result=_returning(result_node),
        definitions=tuple(functions),
        parameters=statement(literal(tool.parameters), 0, "PARAMETERS: dict[str, Any] = "),
        returns=statement(literal(tool.returns), 0, "RETURNS: Any = "),
        examples=statement(tuple_of(examples), 0, "EXAMPLES: tuple[dict[str, Any], ...] = "),
    )


def render_testing(tool: ToolIR, env: jinja2.Environment) -> str:
    return env.get_template("testing_tool.py.jinja").render(tool=tool, module=testing_module(tool))
