"""The Jinja environment the templates render in: toolgen's `templates/` folder, or a user's
folder that overrides any template by name, and the filters the templates call."""

from __future__ import annotations

import json
from functools import cache

import jinja2

from toolgen.constants import templates_dir
from toolgen.literals import py_docstring, py_literal
from toolgen.render import annotation
from toolgen.render.layout import bracketed
from toolgen.render.models import field_declaration, model_base, model_config, model_docstring
from toolgen.render.tool import client_method, run_returns


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


def warm(override: str | None = None) -> None:
    """Compile every template of toolgen's ahead of its first use (about 40 ms), where a build
    has a core to spare; a template that does not compile is left to raise where it is used."""
    env = environment(override)
    for name in sorted(p.name for p in templates_dir().glob("*.jinja")):
        try:
            env.get_template(name)
        except jinja2.TemplateError:
            continue
