"""One tool's module (`tools/<module>.py`): the names it imports, its exact-check schemas,
its deprecations, the template around them; and the tool's method of the generated client."""

from __future__ import annotations

from typing import Any

import jinja2

from toolgen.ir import ToolIR
from toolgen.literals import py_docstring, py_literal
from toolgen.render import annotation
from toolgen.render.code import Display, call, lines, literal, statement, tuple_of, with_header
from toolgen.render.models import model_base, model_config


def client_method(tool: ToolIR, asynchronous: bool) -> str:
    """One tool's method of the generated client (`client.py`), in black's layout: arguments
    positional-only, so that any name a tool's parameters have can be a keyword."""
    arguments, result = tool.classes.arguments, tool.classes.result
    # Named as the tool's module, but for the names the client holds itself (module names
    # never end in "_" but for keywords, so `remote_` and `start_` are no other tool's).
    name = f"{tool.module}_" if tool.module in ("remote", "start") else tool.module
    head = f"{'async ' if asynchronous else ''}def {name}"
    optional = f"arguments: {arguments} | None = None"
    parameters = ("self", optional, "/", "**fields: Any")
    sent = call("self.remote.value", literal(tool.name), result, "arguments", "**fields")
    signature = lines(call(head, *parameters), 4, suffix=f" -> {result}:")
    if len(signature) > 1:  # one parameter a line: `arguments` split as black splits it
        at = signature.index(f"{' ' * 8}{optional},")
        signature[at : at + 1] = annotation.parameter("arguments", f"{arguments} | None", "None", 8)
    return "\n".join(
        [
            *signature,
            " " * 8 + py_docstring(tool.description, indent=8),
            *lines(sent, 8, prefix="return await " if asynchronous else "return "),
        ]
    )


def run_returns(tool: ToolIR) -> str:
    """The last line(s) of an interface's `run` signature: `) -> ...:`."""
    result = tool.result_class
    output = annotation.Bracketed("Output", "[", (result,))
    operands: list[annotation.Expr] = [
        result,
        output,
        annotation.Bracketed("Awaitable", "[", (annotation.Union((result, output)),)),
    ]
    if "streaming" in tool.flags:
        operands += ["Iterator[Any]", "AsyncIterator[Any]"]
    return annotation.returns(annotation.Union(tuple(operands)), 4)


def _imports(tool: ToolIR) -> dict[str, Any]:
    """Exactly the names a tool module uses: its annotations' (collected by lower/typemap.py),
    and what the template and field declarations add around them."""
    used = set(tool.annotation_names)
    # field_declaration writes `= Field(...)` unless a field has at most a default; the template
    # declares `__pydantic_extra__ = Field(init=False)` for models with typed extra keys.
    models = tool.models
    if any(
        f.aliased
        or f.constraints
        or f.description is not None
        or isinstance(f.default, (dict, list))
        for m in models
        for f in m.fields
    ) or any(m.extra_values for m in models):
        used.add("Field")
    pydantic_names = {"Field"} & used
    pydantic_names |= {"ConfigDict"} if any(model_config(m) for m in models) else set()
    pydantic_names |= {"RootModel"} if any(m.root is not None for m in models) else set()
    return {
        "typing": sorted({"ClassVar", *(used & {"Annotated", "Any", "Literal"})}),
        "pydantic": sorted(pydantic_names),
        "models": sorted({model_base(m) for m in models if m.root is None}),  # the runtime's bases
        "types": "_types" in used,  # the runtime's JSON Schema types (typemap.TYPES)
        "fields": "_fields" in used,  # the exact check compiled into fields (typemap.FIELDS)
    }


def _exact_schemas(tool: ToolIR) -> tuple[dict[str, str], dict[str, str]]:
    """{class: `NAME: ... = {schema}`} and {class: NAME} for the classes that need the exact check."""
    checked: list[tuple[str, str, str, Any]] = []
    if not tool.exact_parameters:
        checked.append((tool.arguments_class, "PARAMETERS", "dict[str, Any]", tool.parameters))
    if not tool.exact_returns:
        checked.append((tool.result_class, "RETURNS", "Any", tool.returns))
    statements = {
        cls: statement(literal(schema), 0, f"{name}: {kind} = ")
        for cls, name, kind, schema in checked
    }
    return statements, {cls: name for cls, name, _, _ in checked}


def _deprecations(tool: ToolIR) -> dict[str, str]:
    """{constant: its statement} for what the tool's module declares of deprecations:
    DEPRECATION (the tool's), RENAMES (`x-renamed-from`), DEPRECATED_PARAMETERS."""
    out: dict[str, str] = {}
    found = tool.deprecation
    if found is not None:
        more = {
            k: py_literal(v)
            for k, v in (("replacement", found.replacement), ("sunset", found.sunset))
            if v
        }
        out["DEPRECATION"] = statement(
            call("Deprecation", py_literal(found.reason), **more), 0, "DEPRECATION = "
        )
    for name, kind, rows in (
        ("RENAMES", "Rename", tool.renames),
        ("DEPRECATED_PARAMETERS", "DeprecatedParameter", tool.deprecated_parameters),
    ):
        if rows:
            items = tuple(
                call(kind, *(py_literal(v) for v in row if v is not None)) for row in rows
            )
            out[name] = statement(Display("()", items), 0, f"{name} = ")
    return out


def render_tool(tool: ToolIR, template: jinja2.Template) -> str:
    """`template`: tool.py.jinja, looked up once for all the tools (a lookup checks the file)."""
    statements, names = _exact_schemas(tool)
    imports = _imports(tool)
    if statements or "streaming" in tool.flags:  # a stream's items are typed Any
        imports["typing"] = sorted({*imports["typing"], "Any"})
    deprecations = _deprecations(tool)
    kinds = {
        "DEPRECATION": "Deprecation",
        "RENAMES": "Rename",
        "DEPRECATED_PARAMETERS": "DeprecatedParameter",
    }
    imports["deprecation"] = sorted(kinds[name] for name in deprecations)
    examples = ""
    if tool.call_examples:
        imports["typing"] = sorted({*imports["typing"], "Any"})
        examples = statement(
            tuple_of(list(tool.call_examples)), 0, "EXAMPLES: tuple[dict[str, Any], ...] = "
        )
    return with_header(
        template.render(
            tool=tool,
            imports=imports,
            exact_schemas=statements,
            exact_names=names,
            deprecations=deprecations,
            examples=examples,
        )
    )
