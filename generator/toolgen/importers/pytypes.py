"""Python type hints -> JSON Schema 2020-12, by pydantic's `TypeAdapter` (the library made for it).

Every parameter's type is tried alone first, so a type pydantic cannot express is refused
with pydantic's reason and the parameter's pointer; then all of them are generated together,
so the models they share are one `$defs` entry each, referenced as `#/$defs/Name` from the
root of `parameters` (the spec format resolves a `#/` reference against that root). The
titles pydantic makes up from names (`Qty` for `qty`, `Item` for class `Item`) are left out:
they repeat the name. `Optional[int]` is written `type: [integer, "null"]`, and every schema's
keys in reading order (what it is, its parts, its default, its definitions), not pydantic's
alphabetical one.
"""

from __future__ import annotations

import inspect
import re
import warnings
from dataclasses import dataclass
from typing import Any

from pydantic import TypeAdapter
from pydantic.json_schema import (
    GenerateJsonSchema,
    JsonSchemaMode,
    JsonSchemaValue,
    PydanticJsonSchemaWarning,
)

from toolgen.importers.common import UnsupportedSchema

REF_TEMPLATE = "#/$defs/{model}"
HINT = "use JSON types, models, TypedDicts, dataclasses or enums"
FIRST = ("$ref", "type", "title", "description")
LAST = ("default", "examples", "$defs")
DATA = ("default", "examples", "enum", "const")  # values, not schemas: kept as they are
MAPS = ("properties", "patternProperties", "dependentSchemas", "$defs")  # name -> schema


@dataclass
class Parameter:
    name: str
    annotation: (
        Any  # the type hint, Annotated with a pydantic FieldInfo that carries the default, if any
    )
    required: bool


class _Generator(GenerateJsonSchema):
    """pydantic's generator without field titles, unions of plain types as a `type` list, keys unsorted."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.union_format = "primitive_type_array"  # a pydantic without it writes anyOf: as valid

    def field_title_should_be_set(self, schema: Any) -> bool:
        return False

    def sort(self, value: JsonSchemaValue, parent_key: str | None = None) -> JsonSchemaValue:
        return value  # readable() orders the keys


def readable(schema: Any) -> Any:
    """Keys in reading order, recursively; a definition's title that repeats its name left out."""
    if isinstance(schema, list):
        return [readable(item) for item in schema]
    if not isinstance(schema, dict):
        return schema
    keys = [k for k in FIRST if k in schema] + [k for k in schema if k not in FIRST + LAST]
    out: dict[str, Any] = {}
    for key in keys + [k for k in LAST if k in schema]:
        value = schema[key]
        if key in MAPS and isinstance(value, dict):
            value = {name: readable(sub) for name, sub in value.items()}
            if key == "$defs":
                value = {name: _untitled(sub, name) for name, sub in value.items()}
        elif key not in DATA:
            value = readable(value)
        out[key] = value
    return out


def _untitled(schema: Any, name: str | None) -> Any:
    """A schema without the title pydantic gave it from its class's name."""
    if isinstance(schema, dict) and name is not None and schema.get("title") == name:
        return {k: v for k, v in schema.items() if k != "title"}
    return schema


def parameters_schema(parameters: list[Parameter]) -> tuple[dict[str, Any], list[str]]:
    """The object schema of a function's parameters, and a note for each default left out."""
    notes: list[str] = []
    adapters = [
        (p.name, _adapter(p.annotation, f"/parameters/properties/{p.name}", notes))
        for p in parameters
    ]
    with warnings.catch_warnings():  # each was reported by _adapter
        warnings.simplefilter("ignore", PydanticJsonSchemaWarning)
        schemas, definitions = TypeAdapter.json_schemas(
            [(name, "validation", adapter) for name, adapter in adapters],
            ref_template=REF_TEMPLATE,
            schema_generator=_Generator,
        )
    out: dict[str, Any] = {
        "type": "object",
        "properties": {name: schemas[(name, "validation")] for name, _ in adapters},
    }
    required = [p.name for p in parameters if p.required]
    if required:
        out["required"] = required
    if definitions.get("$defs"):
        out["$defs"] = definitions["$defs"]
    return readable(out), notes


def result_schema(annotation: Any) -> tuple[dict[str, Any], list[str]]:
    """The schema of what a function returns, as pydantic serialises it."""
    notes: list[str] = []
    adapter = _adapter(annotation, "/returns", notes, "serialization")
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", PydanticJsonSchemaWarning)
        schema = adapter.json_schema(
            ref_template=REF_TEMPLATE, schema_generator=_Generator, mode="serialization"
        )
    return _untitled(readable(schema), getattr(annotation, "__name__", None)), notes


def _adapter(
    annotation: Any, pointer: str, notes: list[str], mode: JsonSchemaMode = "validation"
) -> TypeAdapter[Any]:
    """A TypeAdapter whose JSON Schema pydantic can write; refused with pydantic's reason otherwise."""
    try:
        adapter: TypeAdapter[Any] = TypeAdapter(annotation)
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always", PydanticJsonSchemaWarning)
            adapter.json_schema(ref_template=REF_TEMPLATE, schema_generator=_Generator, mode=mode)
    except Exception as exc:  # noqa: BLE001 - pydantic's errors, and whatever a strange annotation raises in it
        reason = (str(exc).strip().splitlines() or [type(exc).__name__])[0]
        raise UnsupportedSchema(
            pointer,
            f"pydantic cannot express the type {type_name(annotation)} in JSON Schema: {reason}",
            HINT,
        ) from None
    for warning in caught:
        text = str(warning.message)
        if "non-serializable-default" in text:
            notes.append(
                f"{pointer}/default: left out: the default has no JSON form (the function keeps it)"
            )
        else:
            notes.append(f"{pointer}: {text}")
    return adapter


def type_name(annotation: Any) -> str:
    """A type as its hint is written: `list[int]`, `Callable[[int], int]`, `Annotated[...]` stripped."""
    text = inspect.formatannotation(
        getattr(annotation, "__origin__", annotation)
        if getattr(annotation, "__metadata__", None)
        else annotation
    )
    return re.sub(r"\b(?:typing|collections\.abc)\.", "", text)
