"""Validate a model's arguments; on failure, translate pydantic's errors into ArgumentIssues.

The valid path is one pydantic call. Everything else (paths, suggestions, messages)
runs only when validation has already failed.
"""

from __future__ import annotations

import json
import types
import typing
from collections.abc import Iterator
from typing import Any, Union

from pydantic import BaseModel, ValidationError

from .errors import ArgumentIssue, ToolArgumentsError, truncate
from .suggest import nearest

MAX_PAYLOAD_BYTES = 1_000_000

_EXPECTED = {
    "int_type": "an integer", "int_parsing": "an integer", "int_from_float": "an integer",
    "float_type": "a number", "float_parsing": "a number", "bool_type": "true or false",
    "bool_parsing": "true or false", "string_type": "a string", "list_type": "an array",
    "dict_type": "an object", "model_type": "an object", "model_attributes_type": "an object",
    "none_required": "null",
}


def validate(model: type[BaseModel], tool: str, arguments: Any, secrets: frozenset[str] = frozenset()) -> BaseModel:
    """The validated Arguments model, or ToolArgumentsError. Never raises anything else."""
    try:
        if isinstance(arguments, (str, bytes, bytearray)):
            if len(arguments) > MAX_PAYLOAD_BYTES:
                raise ToolArgumentsError(tool, [ArgumentIssue("", "limit", f"arguments are larger than {MAX_PAYLOAD_BYTES} bytes")])
            if not arguments.strip():
                arguments = b"{}"  # an absent object, as some models send it
            return model.model_validate_json(arguments)
        return model.model_validate(arguments)
    except ValidationError as exc:
        raise ToolArgumentsError(tool, list(_issues(model, exc, arguments, secrets))) from None
    except ToolArgumentsError:
        raise
    except Exception as exc:  # noqa: BLE001 - nothing a model sends may crash the host
        raise ToolArgumentsError(tool, [ArgumentIssue("", "invalid", f"arguments could not be read: {type(exc).__name__}")]) from None


def format_path(loc: tuple[int | str, ...]) -> str:
    out = ""
    for part in loc:
        out += f"[{part}]" if isinstance(part, int) else (f".{part}" if out else str(part))
    return out


def _issues(model: type[BaseModel], exc: ValidationError, raw: Any, secrets: frozenset[str]) -> Iterator[ArgumentIssue]:
    errors = exc.errors(include_url=False)
    if errors and errors[0]["type"] == "json_invalid":
        yield _json_issue(raw)
        return
    missing: dict[tuple[int | str, ...], list[str]] = {}
    for error in errors:
        loc = tuple(error["loc"])
        kind = error["type"]
        if kind == "missing":
            missing.setdefault(loc[:-1], []).append(str(loc[-1]))
            continue
        if kind == "union_tag_invalid" or loc and isinstance(loc[-1], str) and "[" in loc[-1]:
            loc = tuple(p for p in loc if not (isinstance(p, str) and ("[" in p or p.startswith("function-"))))
        path = format_path(loc)
        secret = bool(loc) and str(loc[0]) in secrets
        value = None if secret else truncate(error.get("input"))
        if kind == "extra_forbidden":
            allowed = _allowed_keys(model, loc[:-1])
            guess = nearest(str(loc[-1]), allowed)
            yield ArgumentIssue(path, "unknown_key", f"unknown parameter '{loc[-1]}'", None,
                                ", ".join(allowed) if allowed else None,
                                f"did you mean '{guess}'?" if guess else None)
        elif kind == "literal_error":
            expected = str(error.get("ctx", {}).get("expected", ""))
            options = [o.strip().strip("'") for o in expected.replace(" or ", ", ").split(", ") if o.strip()]
            guess = nearest(str(error.get("input")), options) if isinstance(error.get("input"), str) else None
            yield ArgumentIssue(path, "enum", f"{value} is not one of {expected}", value, expected,
                                f"did you mean '{guess}'?" if guess else None)
        elif kind in _EXPECTED:
            expected = _EXPECTED[kind]
            yield ArgumentIssue(path, "type", f"expected {expected}, got {value}", value, expected,
                                _coercion_hint(error.get("input"), expected) if not secret else None)
        elif kind in ("string_too_short", "string_too_long", "too_short", "too_long"):
            yield ArgumentIssue(path, "length", error["msg"].lower(), value)
        elif kind in ("greater_than", "greater_than_equal", "less_than", "less_than_equal", "multiple_of"):
            yield ArgumentIssue(path, "range", error["msg"].lower(), value)
        elif kind == "string_pattern_mismatch":
            pattern = error.get("ctx", {}).get("pattern")
            yield ArgumentIssue(path, "pattern", f"does not match the pattern {pattern}", value, str(pattern))
        else:
            yield ArgumentIssue(path, kind, error["msg"], value)
    for parent, names in missing.items():
        listed = ", ".join(f"'{n}'" for n in sorted(names))
        yield ArgumentIssue(format_path(parent), "missing", f"missing required parameter{'s' if len(names) > 1 else ''} {listed}",
                            expected=", ".join(sorted(names)))


def _coercion_hint(value: Any, expected: str) -> str | None:
    if isinstance(value, str):
        try:
            parsed = json.loads(value)
        except ValueError:
            return None
        if (expected == "an integer" and type(parsed) is int) or (expected == "a number" and type(parsed) in (int, float)) \
                or (expected == "true or false" and isinstance(parsed, bool)):
            return f"send {json.dumps(parsed)} without quotes"
    return None


def _json_issue(raw: Any) -> ArgumentIssue:
    text = raw.decode("utf-8", "replace") if isinstance(raw, (bytes, bytearray)) else str(raw)
    try:
        json.loads(text)
        message, hint = "arguments are not a JSON object", None
    except json.JSONDecodeError as exc:
        message = f"invalid JSON at line {exc.lineno}, column {exc.colno}: {exc.msg}"
        before = text[: exc.pos].rstrip()
        if before.endswith(","):
            hint = "remove the trailing comma"
        elif "'" in text and '"' not in text:
            hint = "use double quotes for strings and keys"
        elif exc.msg.startswith("Expecting property name"):
            hint = "put keys in double quotes"
        else:
            hint = None
    return ArgumentIssue("", "json", message, suggestion=hint)


def _allowed_keys(model: type[BaseModel], loc: tuple[int | str, ...]) -> list[str]:
    current: Any = model
    for part in loc:
        current = _step(current, part)
        if current is None:
            return []
    for member in _members(current):
        if isinstance(member, type) and issubclass(member, BaseModel):
            return [str(f.validation_alias or name) for name, f in member.model_fields.items()]
    return []


def _step(annotation: Any, part: int | str) -> Any:
    for candidate in _members(annotation):
        if isinstance(part, str) and isinstance(candidate, type) and issubclass(candidate, BaseModel):
            for name, info in candidate.model_fields.items():
                if (info.validation_alias or name) == part:
                    return info.annotation
        if isinstance(part, int) and typing.get_origin(candidate) is list:
            return typing.get_args(candidate)[0]
    return None


def _members(annotation: Any) -> list[Any]:
    origin = typing.get_origin(annotation)
    if origin is typing.Annotated:
        return _members(typing.get_args(annotation)[0])
    if origin in (Union, types.UnionType):
        return [m for arg in typing.get_args(annotation) for m in _members(arg)]
    return [annotation]
