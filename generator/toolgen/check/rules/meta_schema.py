"""json-schema, unknown-type, parameters-not-object: every schema in a spec is valid Draft 2020-12."""

from __future__ import annotations

import re
from collections.abc import Iterator
from functools import cache
from types import ModuleType
from typing import Any

import jsonschema

from toolgen.check.context import Context, Rule, describe, show
from toolgen.diagnostics import Diagnostic, Severity
from toolgen.load.refs import schema_roots
from toolgen.runtime.validation.suggest import nearest
from toolgen.schema.keywords import JSON_TYPES, TYPE_ALIASES
from toolgen.schema.pointer import child, ref_name

_rs: ModuleType | None
try:  # 250x faster, and agrees with jsonschema on all 8,406 corpus schemas (docs/performance.md)
    import jsonschema_rs as _rs
except ImportError:  # pragma: no cover - a platform without its wheel
    _rs = None

ID = "json-schema"
SUMMARY = "Every schema in a spec is valid JSON Schema, Draft 2020-12."
SEVERITY = Severity.ERROR
UNKNOWN_TYPE = Rule(
    "unknown-type",
    Severity.ERROR,
    "`type` names JSON Schema types (`dict` -> did you mean 'object'?, `float` -> 'number').",
)
NOT_OBJECT = Rule("parameters-not-object", Severity.ERROR, "`parameters` is an object schema.")
MORE = (UNKNOWN_TYPE, NOT_OBJECT)


@cache
def _meta() -> jsonschema.protocols.Validator:
    return jsonschema.Draft202012Validator(jsonschema.Draft202012Validator.META_SCHEMA)


def is_valid_schema(schema: object) -> bool:
    return next(meta_errors(schema), None) is None


def meta_errors(schema: object) -> Iterator[jsonschema.ValidationError]:
    """Meta-schema violations, located. The fast check clears valid schemas; jsonschema
    explains the invalid ones."""
    if (
        _rs is not None
        and isinstance(schema, (dict, bool))
        and _rs.meta.is_valid(_without_dialect(schema))
    ):
        return iter(())
    errors: Iterator[Any] = _meta().iter_errors(schema)
    return errors


DIALECT = "https://json-schema.org/draft/2020-12/schema"


def _without_dialect(schema: object) -> object:
    """The schema as the 2020-12 meta-schema reads it: jsonschema_rs picks a meta-schema by
    `$schema`, and would fetch one it does not know over the network (nothing is fetched:
    another dialect is reported by `check`)."""
    if isinstance(schema, dict) and "$schema" in schema:
        return {key: value for key, value in schema.items() if key != "$schema"}
    return schema


def check(context: Context) -> Iterator[Diagnostic]:
    for tool in context.tools:
        doc = tool.doc
        for pointer, schema in schema_roots(tool.source):
            dialect = schema.get("$schema", DIALECT) if isinstance(schema, dict) else DIALECT
            if dialect not in (DIALECT, DIALECT + "#"):
                yield doc.diagnostic(
                    child(pointer, "$schema"),
                    ID,
                    f"$schema {show(dialect)} is not JSON Schema 2020-12",
                    hint=f"toolgen reads 2020-12 only (nothing is fetched): remove it, or write {DIALECT}",
                )
            for error in meta_errors(schema):
                here = pointer
                for part in error.absolute_path:
                    here = child(here, part)
                if here.endswith("/type") or "/type/" in here:
                    value = error.instance if isinstance(error.instance, str) else None
                    if value is not None:
                        guess = TYPE_ALIASES.get(value.lower()) or nearest(value, JSON_TYPES)
                        hint = (
                            f"did you mean {guess!r}?"
                            if guess
                            else f"use one of: {', '.join(JSON_TYPES)}"
                        )
                        yield doc.diagnostic(
                            here, UNKNOWN_TYPE.id, f"unknown type {value!r}", hint=hint
                        )
                        continue
                yield doc.diagnostic(
                    here, ID, f"invalid schema: {describe(error)}", hint=_hint(error)
                )
        if tool.schema("returns") is True:  # the lowering takes `{}` for "any value", not `true`
            yield doc.diagnostic(
                tool.at("/returns"),
                ID,
                "returns must be a schema object, not `true`",
                hint="for any value write `returns: {}`",
            )
        params = _root(tool.schema("parameters"))
        if isinstance(
            params, bool
        ):  # valid JSON Schema, but no object schema: `true` takes any value
            yield doc.diagnostic(
                tool.at("/parameters"),
                NOT_OBJECT.id,
                f"parameters must be an object schema, not `{str(params).lower()}`",
                hint="write `type: object` with its properties (none: `properties: {}`)",
            )
        elif isinstance(params, dict) and params.get("type", "object") != "object":
            kind = params["type"] if isinstance(params["type"], str) else show(params["type"])
            yield doc.diagnostic(
                tool.at("/parameters/type"),
                NOT_OBJECT.id,
                "parameters must be an object schema (`type: object`)",
                hint=f"make the value a property: type: object, properties: {{value: {{type: {kind}}}}}",
            )


def _root(schema: Any) -> Any:
    """What a bundled schema's root is once its root `$ref`s are followed."""
    for _ in range(8):
        target = schema.get("$ref") if isinstance(schema, dict) else None
        if not isinstance(target, str) or not target.startswith("#/$defs/"):
            break
        defs = schema.get("$defs") or {}
        body = defs.get(ref_name(target))
        schema = {**body, "$defs": defs} if isinstance(body, dict) else body
    return schema


def _hint(error: jsonschema.ValidationError) -> str:
    """The fix for the common slips: a quoted number, a single name where a list belongs."""
    if error.validator != "type" or not isinstance(error.instance, str):
        return ""
    if error.validator_value in ("integer", "number") and re.fullmatch(
        r"-?[0-9]+(\.[0-9]+)?", error.instance
    ):
        return f"write {error.instance} without quotes"
    if error.validator_value == "array":
        return f"write a list: [{error.instance}]"
    return ""
