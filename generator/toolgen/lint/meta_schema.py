"""json-schema, unknown-type, parameters-not-object: every schema in a spec is valid Draft 2020-12."""

from __future__ import annotations

from collections.abc import Iterator
from functools import cache

import jsonschema

from ..diagnostics import Diagnostic
from ..load import child_pointer
from ..refs import schema_roots
from ..runtime.suggest import nearest
from . import Context

ID = "json-schema"
SUMMARY = "Schemas are valid JSON Schema (Draft 2020-12); parameters is an object schema."

JSON_TYPES = ("string", "number", "integer", "boolean", "object", "array", "null")
# Type names other languages use, and what JSON Schema calls them.
TYPE_ALIASES = {
    "dict": "object", "map": "object", "hashmap": "object", "str": "string", "text": "string",
    "char": "string", "float": "number", "double": "number", "decimal": "number", "int": "integer",
    "long": "integer", "bool": "boolean", "list": "array", "tuple": "array", "arraylist": "array",
    "none": "null", "nil": "null",
}


@cache
def _meta() -> jsonschema.protocols.Validator:
    return jsonschema.Draft202012Validator(jsonschema.Draft202012Validator.META_SCHEMA)


def check(context: Context) -> Iterator[Diagnostic]:
    for tool in context.tools:
        doc = tool.doc
        for pointer, schema in schema_roots(tool.source):
            for error in _meta().iter_errors(schema):
                here = pointer
                for part in error.absolute_path:
                    here = child_pointer(here, part)
                if here.endswith("/type") or "/type/" in here:
                    value = error.instance if isinstance(error.instance, str) else None
                    if value is not None:
                        guess = TYPE_ALIASES.get(value.lower()) or nearest(value, JSON_TYPES)
                        hint = f"did you mean {guess!r}?" if guess else f"use one of: {', '.join(JSON_TYPES)}"
                        yield doc.diagnostic(here, "unknown-type", f"unknown type {value!r}", hint=hint)
                        continue
                yield doc.diagnostic(here, ID, f"invalid schema: {error.message}")
        params = tool.data.get("parameters")
        if isinstance(params, dict) and params.get("type", "object") != "object":
            yield doc.diagnostic(tool.source.at("/parameters/type"), "parameters-not-object",
                                 "parameters must be an object schema (`type: object`)",
                                 hint="wrap the value in an object property")
