"""Defaults and examples that their own schema refuses: coerced when the coercion is exact, else removed.

`"false"` -> false, `"0"` -> 0, `"1.2"` -> 1.2, 5 -> "5", `"[1]"` -> [1], a single value -> a
one-element list for an array; `"None"`/`"null"` only ever become null. A `default: null` that
the type refuses is removed: toolgen already reads an absent optional argument as None and
accepts null for it, while widening the type would change what every provider is told.
"""

from __future__ import annotations

import json
import math
from typing import Any

import jsonschema

from toolgen.importers.common import show
from toolgen.runtime.types import is_json_type

SAMPLES = ("default", "example", "examples")
_MISSING = object()


def _has_ref(node: Any) -> bool:
    if isinstance(node, dict):
        return "$ref" in node or any(_has_ref(v) for k, v in node.items() if k not in SAMPLES)
    if isinstance(node, list):
        return any(_has_ref(v) for v in node)
    return False


def fix_samples(out: dict[str, Any], ptr: str, notes: list[str]) -> None:
    """Check `default`, `example` and each of `examples` of one schema node against the node."""
    if not any(k in out for k in SAMPLES) or _has_ref(out):
        return
    subject = {k: v for k, v in out.items() if k not in SAMPLES}
    try:
        validator = jsonschema.Draft202012Validator(subject)
        validator.is_valid(None)
    except Exception:  # a broken schema (a bad pattern, say): lint reports it, with its location
        return
    for key in ("default", "example"):
        if key in out and not validator.is_valid(out[key]):
            _fix_sample(out, key, validator, f"{ptr}/{key}", notes)
    if isinstance(out.get("examples"), list):
        kept = []
        for i, value in enumerate(out["examples"]):
            if validator.is_valid(value):
                kept.append(value)
                continue
            fixed = next((c for c in _coercions(value) if validator.is_valid(c)), _MISSING)
            if fixed is _MISSING:
                notes.append(f"{ptr}/examples/{i}: removed {show(value)}, which the schema refuses")
            else:
                kept.append(fixed)
                notes.append(
                    f"{ptr}/examples/{i}: {show(value)} changed to {show(fixed)} to match the schema"
                )
        out["examples"] = kept
        if not kept:
            del out["examples"]


def _fix_sample(
    out: dict[str, Any], key: str, validator: Any, where: str, notes: list[str]
) -> None:
    value = out[key]
    fixed = next((c for c in _coercions(value) if validator.is_valid(c)), _MISSING)
    if fixed is not _MISSING:
        out[key] = fixed
        notes.append(f"{where}: {show(value)} does not match the schema; changed to {show(fixed)}")
        return
    del out[key]
    if value is None:
        notes.append(
            f"{where}: removed `{key}: null` on a type that is not nullable "
            "(an absent optional argument is already None)"
        )
    else:
        notes.append(f"{where}: removed {key} {show(value)}, which the schema refuses")


def _coercions(value: Any) -> list[Any]:
    """Exact reinterpretations of a value, most likely first (no rounding, no guessing)."""
    out: list[Any] = []
    if isinstance(value, str):
        text = value.strip()
        truth = text.lower()
        if truth in ("true", "false"):
            out.append(truth == "true")
        if truth in ("null", "none", "nil"):
            return [None]  # "None" means no value: never a one-element list
        try:
            number = json.loads(text)
        except ValueError:
            number = None
        if is_json_type(number, "number") and math.isfinite(number):
            out.append(number)
        if text[:1] in "[{":
            try:
                out.append(json.loads(text))
            except ValueError:
                pass
    elif isinstance(value, bool):
        out.append("true" if value else "false")
    elif isinstance(value, (int, float)):
        out.append(json.dumps(value))
        if isinstance(value, float) and value.is_integer():
            out.append(int(value))
    if value is not None and not isinstance(value, list):
        out.append([value])
    return out
