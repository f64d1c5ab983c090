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
from toolgen.render.compiled import ROLES, Compiled, compiled


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


_ANNOTATIONS = {"parameters": "dict[str, Any]", "returns": "Any"}  # of the schema's constant


def _returning(node: Node) -> str:
    return statement(node, 4, "return ")


def _laid_out(
    found: Compiled, schema: Any, role: str
) -> tuple[str, tuple[tuple[str, str], ...], str]:
    """The body of the root's function, the definitions' functions and the schema's constant
    of a compilation (`schema` is its content), made once per compilation."""
    cached = found.laid_out.get(role)
    if cached is None:
        root = _with_overrides(found.node) if role == "parameters" else found.node
        constant = f"{ROLES[role][0]}: {_ANNOTATIONS[role]} = "
        cached = found.laid_out[role] = (
            _returning(root),
            tuple((function, _returning(body)) for function, body in found.definitions),
            statement(literal(schema), 0, constant),
        )
    return cached


def testing_module(tool: ToolIR) -> TestingModule:
    arguments, functions, parameters = _laid_out(
        compiled(tool.parameters, "parameters"), tool.parameters, "parameters"
    )
    if tool.returns is not None:
        result, more, returns = _laid_out(
            compiled(tool.returns, "returns"), tool.returns, "returns"
        )
        functions += more
    else:
        result = _returning("_s.json_values()")
        returns = statement(literal(None), 0, "RETURNS: Any = ")
    examples: list[Any] = list(tool.examples)
    return TestingModule(
        arguments=arguments,
        result=result,
        definitions=tuple(Function(name, body) for name, body in functions),
        parameters=parameters,
        returns=returns,
        examples=statement(tuple_of(examples), 0, "EXAMPLES: tuple[dict[str, Any], ...] = "),
    )


def render_testing(tool: ToolIR, template: jinja2.Template) -> str:
    """`template`: testing_tool.py.jinja, looked up once for all the tools."""
    return template.render(tool=tool, module=testing_module(tool))
