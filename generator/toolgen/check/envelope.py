"""spec-format, unknown-key: a file is one tool or a `tools:` list, with the keys of format v1."""

from __future__ import annotations

from functools import cache
from typing import Any

import jsonschema
import referencing
import referencing.jsonschema

from toolgen.check.context import Rule, suggestion
from toolgen.diagnostics import Diagnostic, Severity
from toolgen.load.document import Document
from toolgen.runtime.validation.suggest import nearest
from toolgen.schema.pointer import child
from toolgen.spec import JSON_SCHEMA_DIALECT, spec_schema

ID = "spec-format"
SUMMARY = (
    "A spec file is one tool or a `tools:` list, its keys with the types and values of format v1 "
    "(`kind: utlity` -> did you mean 'utility'?)."
)
SEVERITY = Severity.ERROR
UNKNOWN_KEY = Rule(
    "unknown-key",
    Severity.ERROR,
    "Every key is one of the spec format's (`desciption` -> did you mean 'description'?).",
)
NAME_INVALID = Rule(
    "name-invalid",
    Severity.ERROR,
    "A tool name has 1 to 128 letters, digits, `_`, `-` and `.`, and starts with no `-` or `.`.",
)
MORE = (UNKNOWN_KEY, NAME_INVALID)


def _root(definition: str) -> dict[str, Any]:
    """The spec format's schema for one file shape (`tool` or `toolList`)."""
    root = {**spec_schema(), "$ref": f"#/$defs/{definition}"}
    del root["oneOf"]
    return root


@cache
def _validator(definition: str) -> jsonschema.protocols.Validator:
    # Schemas inside a spec are checked by the meta-schema rule, with better locations.
    registry: referencing.Registry[Any] = referencing.Registry().with_resource(
        JSON_SCHEMA_DIALECT, referencing.jsonschema.DRAFT202012.create_resource(True)
    )
    return jsonschema.Draft202012Validator(_root(definition), registry=registry)


def _offline(uri: str) -> Any:
    """The one URI the spec format refers to, as the always-true schema; nothing is fetched."""
    if uri == JSON_SCHEMA_DIALECT:
        return True
    raise ValueError(f"toolgen never fetches {uri}")


@cache
def _fast(definition: str) -> Any:
    """jsonschema-rs on the same schema: clears a valid file in microseconds (jsonschema, in
    pure Python, cost about 0.3 ms a tool); jsonschema explains an invalid one."""
    try:
        import jsonschema_rs
    except ImportError:  # pragma: no cover - a platform without its wheel
        return None
    return jsonschema_rs.Draft202012Validator(
        _without_dialect(_root(definition)), retriever=_offline
    )


def _without_dialect(node: Any) -> Any:
    """References to the dialect's meta-schema made `true`, as the registry of `_validator` does:
    jsonschema-rs knows the meta-schema itself and would check the schemas inside a spec."""
    if isinstance(node, dict):
        if node.get("$ref") == JSON_SCHEMA_DIALECT:
            return {k: _without_dialect(v) for k, v in node.items() if k != "$ref"} or True
        return {k: _without_dialect(v) for k, v in node.items()}
    if isinstance(node, list):
        return [_without_dialect(v) for v in node]
    return node


def _cleared(fast: Any, data: Any) -> bool:
    """True when the fast validator finds `data` valid; what it cannot read (lone surrogates
    in a string) is left to jsonschema."""
    if fast is None:
        return False
    try:
        return bool(fast.is_valid(data))
    except (ValueError, UnicodeError):
        return False


def check_document(doc: Document) -> list[Diagnostic]:
    data = doc.data
    if not isinstance(data, dict):
        hint = (
            "put the list under a `tools:` key" if isinstance(data, list) else "start with `name:`"
        )
        return [
            doc.diagnostic(
                "",
                ID,
                "a spec file must be a mapping (one tool) or hold a `tools:` list",
                hint=hint,
            )
        ]
    if "name" not in data and "tools" not in data and "parameters" not in data:
        stray = [key for key in data if key not in ("$defs", "$schema")]
        if not stray:
            return []  # a file of shared $defs only (or empty)
        # A misspelt `name:` or `tools:` must not make the file pass for one of shared $defs.
        definition = "toolList" if any(nearest(key, ["tools"]) for key in stray) else "tool"
    else:
        definition = "toolList" if "tools" in data else "tool"
    if _cleared(_fast(definition), data):
        return []
    out: list[Diagnostic] = []
    for error in _validator(definition).iter_errors(data):
        out.extend(_diagnose(doc, error))
    return out


def _pointer(path: Any) -> str:
    pointer = ""
    for part in path:
        pointer = child(pointer, part)
    return pointer


def _diagnose(doc: Document, error: jsonschema.ValidationError) -> list[Diagnostic]:
    pointer = _pointer(error.absolute_path)
    where = pointer.rsplit("/", 1)[-1] or "the file"
    path = list(error.absolute_path)
    if path and isinstance(path[-1], int):  # an item of a list: name the list, not the index
        named = [part for part in path if isinstance(part, str)]
        where = f"value in {named[-1]}" if named else "value"
    if error.validator == "additionalProperties" and isinstance(error.instance, dict):
        allowed = list(error.schema.get("properties", {}))
        return [
            doc.diagnostic(
                child(pointer, key),
                UNKNOWN_KEY.id,
                f"unknown key {key!r}",
                hint=suggestion(key, allowed) or f"allowed keys: {', '.join(allowed)}",
                key=True,
            )
            for key in error.instance
            if key not in allowed
        ]
    if error.validator == "required":
        return [
            doc.diagnostic(
                pointer, ID, error.message.replace("is a required property", "is required")
            )
        ]
    if error.validator == "enum":
        allowed = [str(v) for v in error.validator_value]
        hint = suggestion(str(error.instance), allowed) or f"one of: {', '.join(allowed)}"
        return [
            doc.diagnostic(pointer, ID, f"{error.instance!r} is not a valid {where}", hint=hint)
        ]
    if error.validator == "pattern" and where == "name":
        return [
            doc.diagnostic(
                pointer,
                NAME_INVALID.id,
                f"tool name {error.instance!r} has characters a tool name cannot have",
                hint="use letters, digits, '_', '-' and '.', starting with a letter, digit or '_'",
            )
        ]
    if error.validator == "pattern" and error.schema.get("format") == "date":
        return [
            doc.diagnostic(
                pointer,
                ID,
                f"{where} {error.instance!r} is not a date (YYYY-MM-DD)",
                hint="write the day as YYYY-MM-DD, e.g. 2026-06-30",
            )
        ]
    if error.validator == "type":
        return [doc.diagnostic(pointer, ID, f"{where} must be of type {error.validator_value}")]
    if error.validator in _BOUNDS:
        return [
            doc.diagnostic(
                pointer,
                ID,
                f"{where} must be {_BOUNDS[error.validator]} {error.validator_value}, "
                f"not {error.instance!r}",
            )
        ]
    return [doc.diagnostic(pointer, ID, f"{where}: {error.message}")]


_BOUNDS = {
    "minimum": "at least",
    "maximum": "at most",
    "exclusiveMinimum": "more than",
    "exclusiveMaximum": "less than",
}
