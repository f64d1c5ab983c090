"""The pydantic classes of a tool module: each one's base, configuration, docstring and
field declarations, laid out as black would."""

from __future__ import annotations

from functools import cache
from typing import Any

from toolgen.ir import MISSING, FieldIR, ModelIR, ToolIR
from toolgen.literals import py_docstring, py_literal
from toolgen.render import annotation, runtime_source
from toolgen.render.jsontext import SURROGATE
from toolgen.render.layout import bracketed


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


@cache
def base_configuration() -> dict[str, dict[str, Any]]:
    """What each base already configures (pydantic merges a subclass's model_config into
    it), read from the runtime's source (runtime_source.py: importing it would build its
    pydantic models, which no build needs)."""
    return {
        name: runtime_source.model_config("models.py", name)
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
    (everything, for a RootModel); "" when nothing does. The same for every model alike in
    what `_configuration` and `model_base` read, so made once per kind (a build has a few)."""
    kind = (
        model.root is None,
        model.extra,
        model.role,
        any(f.python_name.startswith("model_") for f in model.fields),
    )
    found = _CONFIG_LINES.get(kind)
    if found is None:
        found = _CONFIG_LINES[kind] = _config_line(model)
    return found


_CONFIG_LINES: dict[tuple[bool, str, str, bool], str] = {}  # `model_config` by kind


def _config_line(model: ModelIR) -> str:
    config = _configuration(model)
    base = base_configuration().get(model_base(model), {})
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
