"""One foreign tool definition -> one spec-format-v1 tool, plus a note per change.

`normalize_tool` takes a record in any of the shapes the corpus and the providers use
(`parameters` for BFCL, Seal-Tools, tau-bench and OpenAI; `inputSchema`, `outputSchema`,
`annotations`, `title` for MCP; `input_schema` for Anthropic; `response` for BFCL and
Seal-Tools results; `errors` from Python docstrings) and returns a tool dict in spec key
order. It never refuses what it can repair, and raises `UnsupportedSchema` (with a pointer
and a reason) for the rest.
Names are made valid here; unique within one import in names.py.
"""

from __future__ import annotations

import hashlib
import re
from typing import Any

from toolgen.importers.common import UnsupportedSchema, show
from toolgen.importers.schema import normalize_schema

__all__ = ["UnsupportedSchema", "normalize_schema", "normalize_tool"]

PARAMETER_KEYS = ("parameters", "inputSchema", "input_schema", "parametersJsonSchema")
RETURN_KEYS = ("returns", "outputSchema", "output_schema", "responseJsonSchema", "response")
HINTS = {
    "readOnlyHint": "read_only",
    "destructiveHint": "destructive",
    "idempotentHint": "idempotent",
    "openWorldHint": "open_world",
}
# Provenance the corpus adds to each record: not part of the tool, dropped without a note.
CORPUS_KEYS = frozenset(
    """source category source_file source_commit bfcl_unused_dataset first_entry_id all_categories occurrences
    server server_project server_url openai_wrapper extra""".split()
)
EXAMPLE_KEYS = ("description", "arguments", "result", "error")
NAME = re.compile(r"^[A-Za-z0-9_][A-Za-z0-9_.-]{0,127}$")
ERROR_KIND = re.compile(r"^[a-z][a-z0-9_]*$")
MAX_NAME = 128


def normalize_tool(record: dict[str, Any]) -> tuple[dict[str, Any], list[str]]:
    """A spec-format-v1 tool for one definition, and one note per change (pointers into the tool)."""
    if not isinstance(record, dict):
        raise UnsupportedSchema("/", f"a tool definition must be an object, not {show(record)}")
    notes: list[str] = []
    tool: dict[str, Any] = {"name": tool_name(record.get("name"), notes)}
    annotations, annotation_title = _annotations(record.get("annotations"), notes)
    title = record.get("title")
    if title is not None and not isinstance(title, str):
        notes.append(f"/title: removed {show(title)} (not a string)")
        title = None
    title = title or annotation_title
    if title:
        tool["title"] = title
    tool["description"] = _description(record.get("description"), title, tool["name"], notes)

    params_key = next((k for k in PARAMETER_KEYS if k in record), None)
    if params_key is not None and record[params_key] is not None:
        tool["parameters"] = _parameters(record[params_key], notes)
    returns_key = next((k for k in RETURN_KEYS if k in record and record[k] is not None), None)
    if returns_key is not None:
        returns, more = normalize_schema(record[returns_key], "/returns")
        tool["returns"] = returns
        notes += more
    if annotations:
        tool["annotations"] = annotations
    if record.get("errors") is not None:
        errors = _errors(record["errors"], notes)
        if errors:
            tool["errors"] = errors
    if record.get("examples") is not None:
        examples = _examples(record["examples"], tool.get("parameters"), notes)
        if examples:
            tool["examples"] = examples

    used = {
        "name",
        "title",
        "description",
        "annotations",
        "errors",
        "examples",
        params_key,
        returns_key,
    }
    for key in record:
        if key in used or key in CORPUS_KEYS or record[key] is None:
            continue
        if key in PARAMETER_KEYS + RETURN_KEYS:
            kept = params_key if key in PARAMETER_KEYS else returns_key
            notes.append(f"/{key}: dropped {show(record[key], 60)}: {kept!r} is the schema taken")
        else:
            notes.append(
                f"/{key}: dropped {show(record[key], 60)} (spec format v1 has no place for {key!r})"
            )
    return tool, notes


def tool_name(name: Any, notes: list[str]) -> str:
    """A name the spec format accepts: `^[A-Za-z0-9_][A-Za-z0-9_.-]{0,127}$`."""
    if not isinstance(name, str) or not name.strip():
        raise UnsupportedSchema("/name", f"a tool needs a name, not {show(name)}")
    if NAME.match(name):
        return name
    safe = re.sub(r"[^A-Za-z0-9_.-]+", "_", name.strip())
    if not re.match(r"[A-Za-z0-9_]", safe):
        safe = "_" + safe
    if len(safe) > MAX_NAME or not re.search(r"[A-Za-z0-9]", safe):
        digest = hashlib.sha256(name.encode("utf-8", "surrogatepass")).hexdigest()[:8]
        safe = f"{safe[: MAX_NAME - 9].rstrip('_') or 'tool'}_{digest}"
    notes.append(
        f"/name: {show(name)} has characters a spec name cannot have; renamed to {show(safe)}"
    )
    return safe


def _description(text: Any, title: str | None, name: str, notes: list[str]) -> str:
    if isinstance(text, str) and text.strip():
        return text
    source = f"the title {show(title)}" if title else "the tool name"
    written = title if title else _humanize(name)
    notes.append(
        f"/description: was {'missing' if text is None else show(text)}; written from {source} "
        f"as {show(written)}: replace it with what the tool does and when to use it"
    )
    return written


def _humanize(name: str) -> str:
    """`get_file-info` -> `Get file info.`; `searchRepos` -> `Search repos.`"""
    words = re.sub(r"([a-z0-9])([A-Z])", r"\1 \2", name)
    words = re.sub(r"[\W_]+", " ", words).strip().lower() or name
    return words[:1].upper() + words[1:] + "."


def _parameters(schema: Any, notes: list[str]) -> Any:
    if schema is True or schema == {}:
        notes.append(
            f"/parameters: the empty schema {show(schema)} written as an object without properties"
        )
        return {"type": "object", "properties": {}}
    params, more = normalize_schema(schema, "/parameters")
    notes += more
    if not isinstance(params, dict):
        raise UnsupportedSchema(
            "/parameters", f"parameters must be an object schema, not {show(params)}"
        )
    if "type" not in params and not any(k in params for k in ("anyOf", "oneOf", "allOf", "$ref")):
        params = {"type": "object", **params}
        notes.append("/parameters/type: added `type: object` (providers require it at the root)")
    if params.get("type") != "object" and "type" in params:
        raise UnsupportedSchema(
            "/parameters/type",
            f"parameters must be an object schema, not type {show(params['type'])}",
            "wrap the value in an object: type: object, properties: {value: ...}",
        )
    return params


def _examples(value: Any, parameters: Any, notes: list[str]) -> list[dict[str, Any]]:
    """Example arguments (Anthropic `input_examples`) as spec examples; ones the parameters refuse are left out."""
    import jsonschema

    from toolgen.lower import EMPTY_PARAMETERS
    from toolgen.schema.closing import closed

    if not isinstance(value, list):
        notes.append(f"/examples: dropped {show(value, 60)} (not a list)")
        return []
    validator = jsonschema.Draft202012Validator(
        closed(parameters if parameters is not None else EMPTY_PARAMETERS)
    )
    kept: list[dict[str, Any]] = []
    for i, example in enumerate(value):
        arguments = (
            example.get("arguments")
            if isinstance(example, dict) and "arguments" in example
            else example
        )
        error = jsonschema.exceptions.best_match(validator.iter_errors(arguments))
        if error is None and isinstance(arguments, dict):
            kept.append(
                {k: v for k, v in example.items() if k in EXAMPLE_KEYS}
                if example is not arguments
                else {"arguments": arguments}
            )
        else:
            reason = error.message if error is not None else "not an object"
            notes.append(
                f"/examples/{i}: dropped {show(example, 60)}: the parameters refuse it ({reason})"
            )
    return kept


def _errors(value: Any, notes: list[str]) -> dict[str, Any]:
    """Declared error kinds (the Python reader's `Raises:`), kept where they have the spec's shape."""
    if not isinstance(value, dict):
        notes.append(f"/errors: dropped {show(value, 60)} (not a map of error kinds)")
        return {}
    kept: dict[str, Any] = {}
    for kind, error in value.items():
        if (
            isinstance(kind, str)
            and ERROR_KIND.match(kind)
            and isinstance(error, dict)
            and isinstance(error.get("description"), str)
            and error["description"].strip()
            and set(error) <= {"description", "retryable"}
            and isinstance(error.get("retryable", False), bool)
        ):
            kept[kind] = error
        else:
            notes.append(
                f"/errors/{kind}: dropped {show(error, 60)} (an error kind is a snake_case name "
                "with a description and an optional boolean `retryable`)"
            )
    return kept


def _annotations(value: Any, notes: list[str]) -> tuple[dict[str, bool], str | None]:
    """MCP hints -> spec `annotations`; an annotation `title` becomes the tool's title."""
    if value is None:
        return {}, None
    if not isinstance(value, dict):
        notes.append(f"/annotations: dropped {show(value)} (not an object)")
        return {}, None
    out: dict[str, bool] = {}
    title = None
    for key, flag in value.items():
        if key in HINTS and isinstance(flag, bool):
            out[HINTS[key]] = flag
        elif key == "title" and isinstance(flag, str) and flag:
            title = flag
            notes.append(
                f"/annotations/title: {show(flag)} kept as the tool's title (used when `title` is absent)"
            )
        elif flag is not None:
            notes.append(
                f"/annotations/{key}: dropped {show(flag)} (not an MCP hint with a boolean value)"
            )
    return out, title
