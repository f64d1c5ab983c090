"""Render the IR to an in-memory file map {relative path: text}. Pure: no file system writes.

Templates come from the `templates/` folder shipped with toolgen; a user may override
any one of them by name with a folder of their own.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Mapping, Sequence
from functools import cache
from importlib import resources
from typing import TYPE_CHECKING, Any

import jinja2

from toolgen.constants import HEADER, templates_dir
from toolgen.ir import MISSING, FieldIR, ModelIR, PackageIR, ToolIR
from toolgen.literals import py_docstring, py_literal
from toolgen.providers import TARGETS, Export, Exports, export, export_all
from toolgen.render import annotation, search_index
from toolgen.render.code import Display, call, lines, literal, statement, tuple_of
from toolgen.render.jsontext import SURROGATE, index_text, json_text
from toolgen.render.layout import bracketed
from toolgen.render.testing import render_testing
from toolgen.runtime import facade, kinds
from toolgen.runtime import models as runtime_models
from toolgen.runtime_testing import surface

if TYPE_CHECKING:
    from importlib.resources.abc import Traversable

    from toolgen.config import BuildOptions


@cache
def environment(override: str | None = None) -> jinja2.Environment:
    loaders: list[jinja2.BaseLoader] = [jinja2.FileSystemLoader(str(templates_dir()))]
    if override:
        loaders.insert(0, jinja2.FileSystemLoader(override))
    env = jinja2.Environment(
        loader=jinja2.ChoiceLoader(loaders),
        undefined=jinja2.StrictUndefined,
        trim_blocks=True,
        lstrip_blocks=True,
        keep_trailing_newline=True,
        autoescape=False,  # we emit Python and TOML; spec text goes through py_literal
    )
    env.filters.update(
        py=py_literal,
        py_frozenset=lambda values: (
            "frozenset({" + ", ".join(py_literal(v) for v in values) + "})"
            if values
            else "frozenset()"
        ),
        py_tuple=lambda values: (
            "(" + ", ".join(py_literal(v) for v in values) + ("," if len(values) == 1 else "") + ")"
        ),
        py_dict=lambda mapping, head: bracketed(
            head,
            [f"{py_literal(k)}: {py_literal(v)}" for k, v in mapping.items()],
            0,
            "{}",
            literal=True,
        ),
        docstring=py_docstring,
        toml=lambda value: json.dumps(
            value, ensure_ascii=False
        ),  # a JSON string is a TOML basic string
        field_decl=field_declaration,
        model_config=model_config,
        model_base=model_base,
        model_doc=model_docstring,
        client_method=client_method,
        run_returns=run_returns,
        import_from=annotation.import_from,
        class_line=annotation.class_line,
        assignment=annotation.assignment,
    )
    return env


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


def model_docstring(model: ModelIR, tool: ToolIR) -> str:
    if model.description:
        # pydantic encodes class docstrings as UTF-8, which lone surrogates break (the field
        # descriptions and DESCRIPTION keep the exact text).
        return py_docstring(SURROGATE.sub("\ufffd", model.description), indent=4)
    role = {
        tool.arguments_class: f"Arguments of {tool.name}, as a model sends them.",
        tool.result_class: f"The result of {tool.name}.",
        tool.injected_class: f"Values the host injects into {tool.name}; never shown to a model.",
    }.get(model.class_name, f"Part of the {tool.name} tool's schema.")
    return py_docstring(role, indent=4)


def _configuration(model: ModelIR) -> dict[str, Any]:
    """The whole pydantic configuration a model needs."""
    config: dict[str, Any] = {}
    if model.root is None:
        config["extra"] = model.extra
    if model.role != "injected":
        config["strict"] = True  # JSON's types: "1" is not an integer, nor true
        config["allow_inf_nan"] = False  # NaN and Infinity are not JSON
    if model.role == "result":
        config["validate_assignment"] = True
    # Only wire names are accepted from a model (open objects too: there `from_` is an
    # undeclared key, not the field `from`); Python names are for Python code (results).
    config["validate_by_name"] = model.role == "result" and model.root is None
    config["validate_by_alias"] = True
    config["serialize_by_alias"] = True
    if any(f.python_name.startswith("model_") for f in model.fields):
        # `model_x_` shadows nothing (naming.py adds the `_`), but pydantic warns on import.
        config["protected_namespaces"] = ()
    return config


def model_base(model: ModelIR) -> str:
    """The class a generated model subclasses: a RootModel, or a base of the runtime's `models`."""
    if model.root is not None:
        return f"RootModel[{model.root}]"
    return {"arguments": "ArgumentsModel", "result": "ResultModel", "injected": "InjectedModel"}[
        model.role
    ]


# What each base already configures (pydantic merges a subclass's model_config into it).
BASE_CONFIGURATION: dict[str, dict[str, Any]] = {
    name: dict(getattr(runtime_models, name).model_config)
    for name in ("ArgumentsModel", "InjectedModel", "ResultModel")
}
_DEFAULTS: dict[str, Any] = {
    "strict": False,
    "validate_by_name": False,
    "validate_by_alias": True,
    "allow_inf_nan": True,
    "validate_assignment": False,
}


def model_config(model: ModelIR) -> str:
    """The `model_config = ConfigDict(...)` line(s) of a class body: what differs from its base
    (everything, for a RootModel); "" when nothing does."""
    config = _configuration(model)
    base = BASE_CONFIGURATION.get(model_base(model), {})
    differs = {
        key: value for key, value in config.items() if base.get(key, _DEFAULTS.get(key)) != value
    }
    differs.update({key: _DEFAULTS[key] for key in base if key not in config})
    if not differs:
        return ""
    parts = [
        f"{key}={'()' if value == () else py_literal(value)}" for key, value in differs.items()
    ]
    return bracketed("model_config = ConfigDict", parts, indent=4)


def field_declaration(field: FieldIR) -> str:
    """A field of a class body, indented, laid out as black would."""
    arguments: list[str] = []
    if field.default is not MISSING:
        arguments.append(f"default={py_literal(field.default)}")
        if isinstance(field.default, (dict, list)):
            # Validated, so an object default becomes its class's instance (pydantic copies it).
            arguments.append("validate_default=True")
    elif not field.required:
        arguments.append("default=None")
    if field.aliased:
        arguments.append(f"validation_alias={py_literal(field.wire_name)}")
        arguments.append(f"serialization_alias={py_literal(field.wire_name)}")
    arguments.extend(field.constraints)
    if field.description is not None:
        arguments.append(f"description={py_literal(field.description)}")
    if len(arguments) == 1 and arguments[0].startswith("default="):
        value = arguments[0].removeprefix("default=")
        return annotation.field(field.python_name, field.annotation, value)
    return annotation.field(field.python_name, field.annotation, None, arguments)


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


def _with_header(text: str) -> str:
    return f"# {HEADER}\n{text}"


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


def render_tool(tool: ToolIR, env: jinja2.Environment) -> str:
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
    return _with_header(
        env.get_template("tool.py.jinja").render(
            tool=tool,
            imports=imports,
            exact_schemas=statements,
            exact_names=names,
            deprecations=deprecations,
            examples=examples,
        )
    )


# The runtime's source folders and where a generated package holds their copies.
RUNTIME = "toolgen.runtime"  # -> <package>/_runtime/
SUPPORT = "toolgen.runtime_testing"  # -> <package>/testing/_support/ (needs the `testing` extra)
# The one line that differs in a copy: the test support's link to the runtime (see its docstring).
SUPPORT_LINK = ("_link.py", "from ..runtime", "from ..._runtime")


@cache
def _sources(package: str) -> tuple[tuple[str, str], ...]:
    """Every `.py` file of the package and its subpackages, by relative path ("/"), sorted."""
    found: list[tuple[str, str]] = []

    def walk(folder: Traversable, prefix: str) -> None:
        for entry in folder.iterdir():
            if entry.is_dir() and entry.name != "__pycache__":
                walk(entry, f"{prefix}{entry.name}/")
            elif entry.name.endswith(".py"):
                found.append((f"{prefix}{entry.name}", entry.read_text("utf-8")))

    walk(resources.files(package), "")
    return tuple(sorted(found))


def digest(sources: dict[str, str]) -> str:
    """sha256 over the copied sources, names included: what a stamp says a folder holds."""
    hasher = hashlib.sha256()
    for name, text in sorted(sources.items()):
        hasher.update(f"{name}\0{text}\0".encode())
    return hasher.hexdigest()


def stamp(version: str, sources: dict[str, str]) -> str:
    """`_stamp.py`: which toolgen copied the folder's sources, and their digest."""
    return _with_header(
        '"""Which sources this folder holds: the package checks them when it is imported."""\n\n'
        f"RUNTIME_VERSION = {py_literal(version)}\n"
        f"RUNTIME_SHA256 = {py_literal(digest(sources))}\n"
    )


def runtime_files() -> dict[str, str]:
    """`_runtime/`: every module of toolgen's runtime, byte for byte (no header: line numbers in
    tracebacks are the source's; the first line of each marks it as toolgen's)."""
    return dict(_sources(RUNTIME))


def support_files() -> dict[str, str]:
    """`testing/_support/`: the test support, byte for byte but for its link to the runtime."""
    files = dict(_sources(SUPPORT))
    name, here, there = SUPPORT_LINK
    files[name] = files[name].replace(here, there)
    return files


def verbatim_files(package: str, version: str) -> dict[str, str]:
    """The runtime and the test support as a generated package holds them, with their stamps."""
    out: dict[str, str] = {}
    for folder, files in (
        (f"{package}/_runtime", runtime_files()),
        (f"{package}/testing/_support", support_files()),
    ):
        out.update({f"{folder}/{name}": text for name, text in files.items()})
        out[f"{folder}/_stamp.py"] = stamp(version, files)
    return out


def definitions_document(
    provider: str, exports: list[tuple[dict[str, Any], Export]]
) -> dict[str, Any]:
    """definitions/<provider>.json: every variant of the provider's options, precomputed."""
    return {
        "_comment": HEADER,
        "provider": provider,
        "options": {name: list(values) for name, values in TARGETS[provider].options},
        "variants": [
            {"options": option, "definitions": export.definitions} for option, export in exports
        ],
    }


def tool_files(
    package: PackageIR, options: BuildOptions, mcp: Sequence[Mapping[str, Any]] | None = None
) -> dict[str, str]:
    """Each tool's module and testing module, the client and the search index: the files made
    per tool, of nothing the other providers' exports say. `mcp`: the MCP definitions, when
    the caller has them (else the search index exports what it needs itself, the same)."""
    env = environment(str(options.templates) if options.templates else None)
    root = package.name
    files = {
        f"{root}/client.py": _with_header(
            env.get_template("client.py.jinja").render(package=package)
        )
    }
    for tool in package.tools:
        files[f"{root}/tools/{tool.module}.py"] = render_tool(tool, env)
        files[f"{root}/testing/tools/{tool.module}.py"] = _with_header(render_testing(tool, env))
    if mcp is None:
        mcp = (
            export(kinds.MCP, package.tools, examples_budget=options.examples_budget).definitions
            if kinds.MCP in options.providers
            else ()
        )
    files[f"{root}/definitions/search.json"] = index_text(
        search_index.index_document(package.tools, mcp, options.examples_budget)
    )
    return files


def render_package(
    package: PackageIR,
    options: BuildOptions,
    *,
    exports: Exports | None = None,
    tools: dict[str, str] | None = None,
) -> dict[str, str]:
    """Every file of the generated distribution, relative to the output directory.
    `exports`: the tools' exports for `options.providers`, when the caller has them already;
    `tools`: their `tool_files`, likewise."""
    env = environment(str(options.templates) if options.templates else None)
    providers = options.providers
    if exports is None:
        exports = {
            p: e
            for p, e in export_all(package.tools, options.examples_budget).items()
            if p in providers
        }
    root = package.name
    files: dict[str, str] = {
        "pyproject.toml": _with_header(
            env.get_template("pyproject.toml.jinja").render(
                package=package,
                distribution=options.distribution,
                version=options.version,
                ships=options.ships,
                extras=options.extras,
                registry=options.registry,
            )
        ),
        f"{root}/py.typed": f"# {HEADER}\n",
        f"{root}/__init__.py": _with_header(
            env.get_template("package_init.py.jinja").render(
                package=package,
                providers=providers,
                version=options.version,
                runtime_sha256=digest(runtime_files()),
                names=facade.PACKAGE_ALL,
                functions=facade.FUNCTIONS,
            )
        ),
        f"{root}/__main__.py": _with_header(
            env.get_template("package_main.py.jinja").render(package=package)
        ),
        f"{root}/server.py": _with_header(
            env.get_template("server.py.jinja").render(package=package)
        ),
        f"{root}/_index.py": _with_header(
            env.get_template("index.py.jinja").render(
                modules={t.name: t.module for t in package.tools},
                provider_names={
                    t.provider_name: t.name for t in package.tools if t.provider_name != t.name
                },
            )
        ),
        f"{root}/tools/__init__.py": _with_header('"""One module per tool."""\n'),
        f"{root}/testing/__init__.py": _with_header(
            env.get_template("testing_init.py.jinja").render(
                package=package,
                support_sha256=digest(support_files()),
                names=surface.TESTING_ALL,
                contract_names=surface.CONTRACT_NAMES,
                functions=surface.FUNCTIONS,
            )
        ),
        f"{root}/testing/tools/__init__.py": _with_header(
            '"""Strategies and the contract of each tool."""\n'
        ),
    }
    files.update(verbatim_files(root, package.toolgen_version))
    for provider in providers:
        files[f"{root}/definitions/{provider}.json"] = json_text(
            definitions_document(provider, exports[provider])
        )
    mcp = exports[kinds.MCP][0][1].definitions if kinds.MCP in exports else ()
    files.update(tool_files(package, options, mcp) if tools is None else tools)
    return dict(sorted(files.items()))
