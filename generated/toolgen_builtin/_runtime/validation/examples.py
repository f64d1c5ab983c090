# Part of toolgen's runtime, copied verbatim into generated packages (edit toolgen, not a copy).
"""The spec's example of a valid call closest to what a refused call sent, for its message."""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import Any

from pydantic import BaseModel
from pydantic_core import from_json

from ..secrets import _extra_values, holds_secret, holds_secret_field

__all__ = ["MAX_EXAMPLE_CHARS", "closest_example"]

MAX_EXAMPLE_CHARS = 500  # an example longer than this as one line of JSON is not quoted
# The argument keys of each class met whose values may hold an x-secret, computed once.
_SECRET_KEYS: dict[type[BaseModel], frozenset[str] | None] = {}
_MAX_READ = 100_000  # sent text longer than this is not read to choose an example
_ONE_LINE = json.JSONEncoder(ensure_ascii=False)  # made once: json.dumps makes one per call


def closest_example(
    model: type[BaseModel],
    examples: Sequence[dict[str, Any]],
    sent: Any,
    secrets: frozenset[str] = frozenset(),
) -> str | None:
    """The spec's example of a valid call closest to what was sent (`sent`: the arguments as
    a dict or JSON text, valid or not), as one line of JSON; None when no example may be
    quoted. Closest: the most keys sent with a value of the same JSON type, then the most keys
    sent, then the first in the spec's order. An example holding a value where an `x-secret`
    may be (any key whose schema holds one, any key of `secrets`, the injected names the host
    holds secret) is never quoted, nor one longer than MAX_EXAMPLE_CHARS. Cheap: a refused call
    only, a few examples, what was sent read at most once."""
    if model in _SECRET_KEYS:
        keys = _SECRET_KEYS[model]
    else:
        keys = _SECRET_KEYS[model] = _secret_keys(model)
    if keys is None:
        return None
    hidden = keys | secrets if secrets else keys
    data = _sent(sent)
    kinds = {key: _KINDS.get(type(value)) for key, value in data.items()}
    scored = []
    for i, example in enumerate(examples):
        if type(example) is dict and hidden.isdisjoint(example):
            shared = [key for key in example if key in kinds]
            same = sum(_KINDS.get(type(example[key])) == kinds[key] for key in shared)
            scored.append((-same, -len(shared), i))
    for *_, i in sorted(scored):
        line = _ONE_LINE.encode(examples[i])  # JSON escapes line breaks inside strings
        if len(line) <= MAX_EXAMPLE_CHARS:
            return line
    return None


def _secret_keys(model: type[BaseModel]) -> frozenset[str] | None:
    """The keys of the arguments whose value holds an `x-secret` position (at any depth), by
    the name a call sends; None when an undeclared key may hold one (any example may)."""
    keys = set()
    for name, field in model.model_fields.items():
        if holds_secret_field(field.annotation, field.metadata, set()):
            alias = field.validation_alias
            keys.add(alias if isinstance(alias, str) else field.alias or name)
    if model.model_config.get("extra") == "allow" and holds_secret(_extra_values(model)):
        return None
    return frozenset(keys)


def _sent(sent: Any) -> dict[str, Any]:
    """What was sent as a dict, when it was one (or JSON text of one, not too long to read)."""
    if isinstance(sent, (str, bytes, bytearray)) and len(sent) <= _MAX_READ:
        try:
            sent = from_json(sent)
        except ValueError:
            return {}
    return sent if isinstance(sent, dict) else {}


# A value's JSON type, by its Python type as JSON is read (an integer and a float are numbers).
_KINDS = {
    type(None): "null",
    bool: "boolean",
    int: "number",
    float: "number",
    str: "string",
    list: "array",
    dict: "object",
}
