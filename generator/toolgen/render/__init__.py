"""Render the IR to an in-memory file map {relative path: text}. Pure: no file system writes.

Templates come from the `templates/` folder shipped with toolgen; a user may override
any one of them by name with a folder of their own (render/environment.py). Each tool's
module is render/tool.py's (its classes render/models.py's), its testing module
render/testing.py's; the runtime and the test support are copied as they are
(render/verbatim.py); this module puts the package together.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any

from toolgen.constants import HEADER
from toolgen.ir import PackageIR
from toolgen.providers import TARGETS, Export, Exports, export, export_all
from toolgen.render.code import with_header
from toolgen.render.environment import environment
from toolgen.render.jsontext import index_text, json_text
from toolgen.render.models import (
    _configuration,
    base_configuration,
    field_declaration,
    model_base,
    model_config,
)
from toolgen.render.tool import render_tool
from toolgen.render.verbatim import digest, runtime_files, support_files, verbatim_files
from toolgen.runtime import facade, kinds
from toolgen.runtime_testing import surface

if TYPE_CHECKING:
    from toolgen.config import BuildOptions

__all__ = [
    "_configuration",
    "base_configuration",
    "definitions_document",
    "digest",
    "environment",
    "field_declaration",
    "model_base",
    "model_config",
    "render_package",
    "render_tool",
    "tool_files",
]


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
    # Imported here: a large build makes these files in a child (parallel.py), and the
    # runtime's search index and the strategies bring pydantic's model building with them.
    from toolgen.render import search_index
    from toolgen.render.testing import render_testing

    env = environment(str(options.templates) if options.templates else None)
    root = package.name
    files = {
        f"{root}/client.py": with_header(
            env.get_template("client.py.jinja").render(package=package)
        )
    }
    module, testing = env.get_template("tool.py.jinja"), env.get_template("testing_tool.py.jinja")
    for tool in package.tools:
        files[f"{root}/tools/{tool.module}.py"] = render_tool(tool, module)
        files[f"{root}/testing/tools/{tool.module}.py"] = with_header(render_testing(tool, testing))
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
        "pyproject.toml": with_header(
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
        f"{root}/__init__.py": with_header(
            env.get_template("package_init.py.jinja").render(
                package=package,
                providers=providers,
                version=options.version,
                runtime_sha256=digest(runtime_files()),
                names=facade.PACKAGE_ALL,
                functions=facade.FUNCTIONS,
            )
        ),
        f"{root}/__main__.py": with_header(
            env.get_template("package_main.py.jinja").render(package=package)
        ),
        f"{root}/server.py": with_header(
            env.get_template("server.py.jinja").render(package=package)
        ),
        f"{root}/_index.py": with_header(
            env.get_template("index.py.jinja").render(
                modules={t.name: t.module for t in package.tools},
                provider_names={
                    t.provider_name: t.name for t in package.tools if t.provider_name != t.name
                },
            )
        ),
        f"{root}/tools/__init__.py": with_header('"""One module per tool."""\n'),
        f"{root}/testing/__init__.py": with_header(
            env.get_template("testing_init.py.jinja").render(
                package=package,
                support_sha256=digest(support_files()),
                names=surface.TESTING_ALL,
                contract_names=surface.CONTRACT_NAMES,
                functions=surface.FUNCTIONS,
            )
        ),
        f"{root}/testing/tools/__init__.py": with_header(
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
