"""Hypothesis strategy code for the scalar JSON types (render/strategies.py compiles the rest):
`null`, `boolean`, `string` (lengths, an ECMA pattern, a format), `integer` (bounds, a
multiple), `number` (bounds, exclusive ones, a multiple). Each returns the strategy and
whether it is exact (every value it draws is valid); NOTHING when no value can be."""

from __future__ import annotations

import math
from collections.abc import Callable
from fractions import Fraction
from typing import Any, TypeGuard

from toolgen.literals import py_literal
from toolgen.memo import Bounded
from toolgen.render.code import Node, call, literal
from toolgen.runtime.types import is_json_type
from toolgen.schema.patterns import ecma

NOTHING = "st.nothing()"


def null(schema: dict[str, Any]) -> tuple[Node, bool]:
    return "st.none()", True


def boolean(schema: dict[str, Any]) -> tuple[Node, bool]:
    return "st.booleans()", True


def string(schema: dict[str, Any]) -> tuple[Node, bool]:
    keywords: dict[str, Node] = {}
    exact = True
    if count(schema.get("minLength")) is not None:
        keywords["min_size"] = repr(count(schema["minLength"]))
    if count(schema.get("maxLength")) is not None:
        keywords["max_size"] = repr(count(schema["maxLength"]))
    pattern = schema.get("pattern")
    if isinstance(pattern, str):
        if ecma(pattern) is not None:
            keywords["pattern"] = literal(pattern)
        else:  # no exact reading: lint refuses it; generate, then filter
            exact = False
    if isinstance(schema.get("format"), str):
        keywords["format"] = literal(schema["format"])
    return call("_s.strings", **keywords), exact


def integer(schema: dict[str, Any]) -> tuple[Node, bool]:
    keywords: dict[str, Node] = dict(integer_bounds(schema))
    step = schema.get("multipleOf")
    if finite_number(step) and step > 0:
        # The integer multiples of p/q (in lowest terms) are the multiples of p.
        whole = Fraction(step) if isinstance(step, int) else Fraction(repr(step))
        if whole.numerator != 1:
            keywords["multiple_of"] = repr(whole.numerator)
        return call("_s.integers", **keywords), True
    return call("_s.integers", **keywords), "multipleOf" not in schema


def number(schema: dict[str, Any]) -> tuple[Node, bool]:
    step = schema.get("multipleOf")
    if "multipleOf" in schema:
        if finite_number(step) and float(step).is_integer() and step > 0:
            return integer(schema)  # multiples of an integer are integers
        if (
            finite_number(step) and step > 0
        ):  # k * step is not always a multiple in floating point: filtered
            return call("_s.multiples", py_literal(step), **integer_bounds(schema, step)), False
        return NOTHING, True
    keywords: dict[str, Node] = {}
    for key, name, flag in (
        ("minimum", "minimum", None),
        ("maximum", "maximum", None),
        ("exclusiveMinimum", "minimum", "exclude_min"),
        ("exclusiveMaximum", "maximum", "exclude_max"),
    ):
        value = schema.get(key)
        if finite_number(value):
            keywords[name] = py_literal(value)
            if flag:
                keywords[flag] = "True"
    if (
        "minimum" in schema
        and "exclusiveMinimum" in schema
        or "maximum" in schema
        and "exclusiveMaximum" in schema
    ):
        return call(
            "_s.numbers", **keywords
        ), False  # both bounds on one side: filter picks the tighter
    return call("_s.numbers", **keywords), True


# The builder of each scalar type, by its JSON Schema name.
SCALARS: dict[str, Callable[[dict[str, Any]], tuple[Node, bool]]] = {
    "null": null,
    "boolean": boolean,
    "string": string,
    "integer": integer,
    "number": number,
}


# (type, repr of the schema) -> its strategy: a spec set's scalar schemas are a few shapes
# again and again (78 distinct of 7,256 in 1,000 synthetic tools). Keyed on repr, not on
# equality: 1, 1.0 and True are equal but are written differently.
_MADE: Bounded[tuple[str, str], tuple[Node, bool]] = Bounded(20_000)


def scalar(kind: str, schema: dict[str, Any]) -> tuple[Node, bool]:
    """`SCALARS[kind](schema)`, made once per schema written alike (nodes are immutable)."""
    key = (kind, repr(schema))
    found = _MADE.get(key)
    return _MADE.keep(key, SCALARS[kind](schema)) if found is None else found


def finite_number(value: Any) -> TypeGuard[int | float]:
    """A JSON number that is finite (a bound or a step the strategies can use)."""
    return is_json_type(value, "number") and math.isfinite(value)


def count(value: Any) -> int | None:
    """A count keyword's value (`maxItems: 2.0` is 2), or None when it is not a count."""
    if finite_number(value) and float(value).is_integer() and value >= 0:
        return int(value)
    return None


def integer_bounds(schema: dict[str, Any], unit: float = 1) -> dict[str, str]:
    """The tightest bounds on k, for values k * unit, that the four bound keywords allow."""
    lows, highs = [], []
    if finite_number(schema.get("minimum")):
        lows.append(math.ceil(schema["minimum"] / unit))
    if finite_number(schema.get("exclusiveMinimum")):
        lows.append(math.floor(schema["exclusiveMinimum"] / unit) + 1)
    if finite_number(schema.get("maximum")):
        highs.append(math.floor(schema["maximum"] / unit))
    if finite_number(schema.get("exclusiveMaximum")):
        highs.append(math.ceil(schema["exclusiveMaximum"] / unit) - 1)
    out = {}
    if lows:
        out["minimum"] = repr(max(lows))
    if highs:
        out["maximum"] = repr(min(highs))
    return out
