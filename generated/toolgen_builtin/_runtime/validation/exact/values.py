# Part of toolgen's runtime, copied verbatim into generated packages (edit toolgen, not a copy).
"""The exact checker's assertions on one value: type, enum, const, numbers, strings, formats,
counts, required keys, unique items and dependent keys."""

from __future__ import annotations

from collections.abc import Callable
from fractions import Fraction
from typing import Any

from ...errors import listing, quote
from ..suggest import nearest
from .formats import FORMATS
from .node import (
    Compiling,
    Ctx,
    Keyword,
    Location,
    Unsupported,
    canon,
    got,
    is_integer,
    kind,
    number,
    plural,
    shown,
    types_words,
    values_words,
)

_TYPES = {"string", "integer", "number", "boolean", "null", "array", "object"}


def _type(names: list[str]) -> Keyword:
    allowed = frozenset(names)
    integer = "integer" in allowed and "number" not in allowed
    words = types_words(names)

    def ok(value: Any) -> bool:
        k = kind(value)
        return k in allowed or (integer and k == "number" and is_integer(value))

    def explain(value: Any, location: Location, ctx: Ctx, secret: bool) -> None:
        message = f"expected {words}, got {got(value, secret)}"
        ctx.add(location, "type", message, shown(value, secret), words)

    return Keyword("type", None, ok, explain)


def _enum(values: list[Any], code: str) -> Keyword:
    keys = frozenset(canon(v) for v in values)
    words = values_words(values)
    strings = [v for v in values if isinstance(v, str)]

    def ok(value: Any) -> bool:
        try:
            return canon(value) in keys
        except TypeError:
            return False

    def explain(value: Any, location: Location, ctx: Ctx, secret: bool) -> None:
        guess = nearest(value, strings) if isinstance(value, str) and not secret else None
        hint = f"did you mean {quote(guess)}?" if guess is not None else None
        message = f"expected {words}, got {got(value, secret)}"
        ctx.add(location, code, message, shown(value, secret), words, hint)

    return Keyword(code, None, ok, explain)


def _fraction(value: Any) -> Fraction:
    # A float as its shortest decimal text: the number the JSON text wrote (0.0075, not 2^-n sums).
    return Fraction(value) if isinstance(value, int) else Fraction(repr(value))


def is_multiple(value: Any, step: Any) -> bool:
    """Whether the number `value` is a whole multiple of `step` (> 0), read as the decimal
    numbers their JSON texts write: exact, where float division is not."""
    if isinstance(value, int) and isinstance(step, int):
        return value % step == 0
    try:
        return (_fraction(value) / _fraction(step)).denominator == 1
    except (ValueError, OverflowError):  # inf or nan: never a JSON number
        return False


def multiple_test(step: Any) -> Callable[[Any], bool]:
    """`is_multiple(value, step)` for one `step` (> 0), compiled once: when `step` is a decimal
    m * 10**-k (0.01, 5, 2.5), a number's shortest decimal text is scaled to an integer and
    tested against m, with no fraction built; other numbers take is_multiple. A float that
    the decimal of k places nearest to it reads as is that decimal (the only one with k
    places that does, below `plain`; its shortest text has no more places), so the text is
    not written out (about 0.1 µs, where `repr` and its digits cost 0.5-1 µs)."""
    text = repr(step)
    if isinstance(step, bool) or not isinstance(step, (int, float)) or "e" in text or "n" in text:
        return lambda value: is_multiple(value, step)
    whole, _, fraction = text.partition(".")
    fraction = fraction.rstrip("0")
    k = len(fraction)
    m, scale = int(whole + fraction), int(10**k)
    # Below this, two decimals with k places are more than a float's spacing apart: at most
    # one of them reads as a given float.
    plain = 2.0**52 / scale

    def test(value: Any) -> bool:
        if type(value) is int:
            return bool(value * scale % m == 0)
        if type(value) is float and -plain < value < plain:
            near = round(value * scale)
            if near / scale == value:  # (int / int rounds correctly) its text: near * 10**-k
                return bool(near % m == 0)
        shown = repr(value)
        if type(value) is not float or "e" in shown or "n" in shown:
            return is_multiple(value, step)
        left, _, right = shown.partition(".")
        right = right.rstrip("0")
        # A digit past 10**-k (the shortest text has no trailing zeros): no multiple of m * 10**-k.
        return len(right) <= k and int(left + right.ljust(k, "0")) % m == 0

    return test


def _bound(name: str, limit: Any) -> Keyword:
    if kind(limit) != "number":
        raise Unsupported(f"{name} must be a number")
    words = {
        "minimum": "at least",
        "maximum": "at most",
        "exclusiveMinimum": "more than",
        "exclusiveMaximum": "less than",
        "multipleOf": "a multiple of",
    }[name]
    expected = f"{words} {number(limit)}"
    if name == "minimum":
        ok = lambda value: value >= limit  # noqa: E731
    elif name == "maximum":
        ok = lambda value: value <= limit  # noqa: E731
    elif name == "exclusiveMinimum":
        ok = lambda value: value > limit  # noqa: E731
    elif name == "exclusiveMaximum":
        ok = lambda value: value < limit  # noqa: E731
    else:
        if limit <= 0:
            raise Unsupported("multipleOf must be more than 0")
        ok = multiple_test(limit)

    def explain(value: Any, location: Location, ctx: Ctx, secret: bool) -> None:
        message = f"expected {expected}, got {got(value, secret)}"
        ctx.add(location, "range", message, shown(value, secret), expected)

    return Keyword(name, "number", ok, explain)


def _count(name: str, limit: Any) -> Keyword:
    if not is_integer(limit) or limit < 0:
        raise Unsupported(f"{name} must be a non-negative integer")
    applies, code, word = {
        "minLength": ("string", "length", "character"),
        "maxLength": ("string", "length", "character"),
        "minItems": ("array", "items", "item"),
        "maxItems": ("array", "items", "item"),
        "minProperties": ("object", "properties", "key"),
        "maxProperties": ("object", "properties", "key"),
    }[name]
    least = name.startswith("min")
    expected = f"{'at least' if least else 'at most'} {plural(int(limit), word)}"
    if least:
        ok = lambda value: len(value) >= limit  # noqa: E731
    else:
        ok = lambda value: len(value) <= limit  # noqa: E731

    def explain(value: Any, location: Location, ctx: Ctx, secret: bool) -> None:
        ctx.add(location, code, f"expected {expected}, got {len(value)}", None, expected)

    return Keyword(name, applies, ok, explain)


def _pattern(c: Compiling, text: Any, pointer: str) -> Keyword:
    search = c.pattern(text, pointer + "/pattern").search
    expected = str(text)

    def explain(value: Any, location: Location, ctx: Ctx, secret: bool) -> None:
        message = f"expected a string matching the pattern {expected}, got {got(value, secret)}"
        ctx.add(location, "pattern", message, shown(value, secret), expected)

    return Keyword("pattern", "string", lambda value: search(value) is not None, explain)


def _format(name: str) -> Keyword:
    check = FORMATS[name]
    expected = f"a string in the {name} format"

    def explain(value: Any, location: Location, ctx: Ctx, secret: bool) -> None:
        message = f"expected {expected}, got {got(value, secret)}"
        ctx.add(location, "format", message, shown(value, secret), expected)

    return Keyword("format", "string", check, explain)


def _required(names: list[str]) -> Keyword:
    def ok(value: Any) -> bool:
        return all(n in value for n in names)

    def explain(value: Any, location: Location, ctx: Ctx, secret: bool) -> None:
        missing = [n for n in names if n not in value]
        word = "key" if len(missing) == 1 else "keys"
        shown_keys = listing(missing, 50)
        ctx.add(location, "missing", f"missing required {word} {shown_keys}", None, shown_keys)

    return Keyword("required", "object", ok, explain)


def _dependent_required(table: dict[str, list[str]]) -> Keyword:
    pairs = [(key, names) for key, names in table.items() if names]

    def ok(value: Any) -> bool:
        return all(n in value for key, names in pairs if key in value for n in names)

    def explain(value: Any, location: Location, ctx: Ctx, secret: bool) -> None:
        for key, names in pairs:
            missing = [n for n in names if n not in value] if key in value else []
            if missing:
                verb = "is" if len(missing) == 1 else "are"
                message = f"{listing(missing)} {verb} required when {quote(key)} is present"
                ctx.add(location, "dependency", message, None, listing(missing))

    return Keyword("dependentRequired", "object", ok, explain)


def _unique() -> Keyword:
    def ok(value: Any) -> bool:
        try:
            return len({canon(item) for item in value}) == len(value)
        except TypeError:
            return False

    def explain(value: Any, location: Location, ctx: Ctx, secret: bool) -> None:
        seen: dict[Any, int] = {}
        for index, item in enumerate(value):
            key = canon(item)
            if key in seen:
                message = f"items {seen[key]} and {index} are equal, but items must be unique"
                ctx.add(location, "unique", message, None, "unique items", f"remove item {index}")
                return
            seen[key] = index

    return Keyword("uniqueItems", "array", ok, explain)


def build_values(c: Compiling, schema: dict[str, Any], pointer: str, base: str) -> list[Keyword]:
    """The assertions of one schema object, `type` first (its failure hides the others)."""
    out: list[Keyword] = []
    if "type" in schema:
        names = schema["type"] if isinstance(schema["type"], list) else [schema["type"]]
        if not names or any(n not in _TYPES for n in names):
            raise Unsupported(f"type {schema['type']!r} is not a JSON type, at #{pointer}")
        out.append(_type(names))
    if "const" in schema:
        out.append(_enum([schema["const"]], "const"))
    if isinstance(schema.get("enum"), list):
        out.append(_enum(schema["enum"], "const" if len(schema["enum"]) == 1 else "enum"))
    for name in ("minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum", "multipleOf"):
        if name in schema:
            out.append(_bound(name, schema[name]))
    for name in ("minLength", "maxLength", "minItems", "maxItems", "minProperties"):
        if name in schema:
            out.append(_count(name, schema[name]))
    if "maxProperties" in schema:
        out.append(_count("maxProperties", schema["maxProperties"]))
    if "pattern" in schema:
        out.append(_pattern(c, schema["pattern"], pointer))
    if c.formats and schema.get("format") in FORMATS:
        out.append(_format(schema["format"]))
    if isinstance(schema.get("required"), list) and schema["required"]:
        out.append(_required(list(dict.fromkeys(schema["required"]))))
    if isinstance(schema.get("dependentRequired"), dict):
        out.append(_dependent_required(schema["dependentRequired"]))
    if schema.get("uniqueItems") is True:
        out.append(_unique())
    return out
