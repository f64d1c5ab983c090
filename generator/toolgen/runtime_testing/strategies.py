# Part of toolgen's runtime, copied verbatim into generated packages (edit toolgen, not a copy).
"""Hypothesis building blocks for the strategies toolgen generates from JSON Schema.

The generated `testing/<tool>.py` modules call these with what the schema says (bounds,
patterns, formats, which keys are required, what an array must contain); anything a schema
says that they cannot build directly is enforced by `satisfying`, a filter with jsonschema
as the judge (`json_schema_validator`: JSON Schema's reading of `pattern` and `multipleOf`,
as the package's own check has it). Values are JSON values: dicts, lists, str, int, float,
bool, None.

Needs hypothesis (and jsonschema for `satisfying`): the package's `testing` extra.
Part of the test support: nothing in the runtime imports this module.
"""

from __future__ import annotations

import datetime
import functools
import json
import math
from collections.abc import Callable, Iterable, Mapping
from decimal import Decimal
from typing import Any, TypeVar

from hypothesis import strategies as st
from hypothesis.provisional import domains, urls
from pydantic import BaseModel

from ._link import ecma_pattern, is_multiple, nearest, tokens
from .judge import json_schema_validator

# Unbounded integers stay exact in every JSON parser (JavaScript's doubles).
JSON_SAFE_INTEGER = 2**53 - 1
Strategy = st.SearchStrategy[Any]
M = TypeVar("M", bound=BaseModel)

_FORMATS: dict[str, Callable[[], Strategy]] = {
    "date-time": lambda: st.datetimes(timezones=st.just(datetime.UTC)).map(
        lambda d: d.isoformat().replace("+00:00", "Z")
    ),
    "date": lambda: st.dates().map(datetime.date.isoformat),
    "time": lambda: st.times().map(lambda t: t.isoformat() + "Z"),
    "email": lambda: st.emails(),
    "idn-email": lambda: st.emails(),
    "uri": lambda: urls(),
    "url": lambda: urls(),
    "iri": lambda: urls(),
    "uri-reference": lambda: urls(),
    "uuid": lambda: st.uuids().map(str),
    "ipv4": lambda: st.ip_addresses(v=4).map(str),
    "ipv6": lambda: st.ip_addresses(v=6).map(str),
    "hostname": lambda: domains(),
    "idn-hostname": lambda: domains(),
}


@functools.cache  # one strategy object: hypothesis caches what it learns about it
def json_values(max_leaves: int = 8) -> Strategy:
    """Any JSON value (what `{}` or `true` allows)."""
    scalars = st.none() | st.booleans() | integers() | numbers() | st.text(max_size=20)
    return st.recursive(
        scalars,
        lambda inner: (
            st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=10), inner, max_size=4)
        ),
        max_leaves=max_leaves,
    )


def integers(
    minimum: int | None = None, maximum: int | None = None, multiple_of: int | None = None
) -> Strategy:
    low = -JSON_SAFE_INTEGER if minimum is None else minimum
    high = JSON_SAFE_INTEGER if maximum is None else maximum
    if maximum is None and minimum is not None and minimum > high:
        high = minimum + JSON_SAFE_INTEGER
    if minimum is None and maximum is not None and maximum < low:
        low = maximum - JSON_SAFE_INTEGER
    if not multiple_of:
        return st.integers(low, high)
    step = abs(multiple_of)
    return st.integers(-(-low // step), high // step).map(lambda k: k * step)


def multiples(step: float, minimum: int | None = None, maximum: int | None = None) -> Strategy:
    """k * step for whole k in minimum..maximum, computed in decimal (k * 0.0001 is 0.0107, not
    0.010700000000000001); the few products a float cannot hold exactly are dropped."""
    exact = Decimal(repr(step))
    products = integers(minimum, maximum).map(lambda k: float(k * exact))
    return products.filter(lambda value: is_multiple(value, step))


def numbers(
    minimum: float | None = None,
    maximum: float | None = None,
    exclude_min: bool = False,
    exclude_max: bool = False,
) -> Strategy:
    """JSON numbers: floats and integers (both are `number`), finite, within the bounds."""
    low, high = _float_bound(minimum, 1), _float_bound(maximum, -1)
    floats: Strategy = st.nothing()
    if low != math.inf and high != -math.inf:
        floats = st.floats(
            None if low == -math.inf else low,
            None if high == math.inf else high,
            exclude_min=exclude_min and low == minimum,
            exclude_max=exclude_max and high == maximum,
            allow_nan=False,
            allow_infinity=False,
        )
    least = (
        None
        if minimum is None
        else (math.floor(minimum) + 1 if exclude_min or minimum % 1 else int(minimum))
    )
    most = (
        None
        if maximum is None
        else (math.ceil(maximum) - 1 if exclude_max or maximum % 1 else int(maximum))
    )
    if least is not None and most is not None and least > most:
        return floats
    return floats | integers(least, most)


def _float_bound(bound: float | None, inward: int) -> float:
    """The float nearest `bound` on the inside (`inward` 1 for a minimum, -1 for a maximum):
    hypothesis takes only bounds a float holds exactly. ±inf where none does."""
    if bound is None:
        return -inward * math.inf
    try:
        near = float(bound)
    except OverflowError:
        return inward * math.inf if (bound > 0) == (inward > 0) else -inward * math.inf
    if math.isinf(near):
        return near
    if (near < bound) if inward > 0 else (near > bound):
        near = math.nextafter(near, inward * math.inf)
    return near


def strings(
    min_size: int = 0,
    max_size: int | None = None,
    pattern: str | None = None,
    format: str | None = None,
) -> Strategy:
    """Strings of `min_size`..`max_size` code points, matching `pattern` (anywhere, as JSON
    Schema reads it) and shaped like `format` when it is one hypothesis knows."""
    if pattern is not None:
        # ECMA-262's meaning (ASCII `\d`, `$` the very end), as the package's exact check reads it.
        compiled = ecma_pattern(pattern)
        if compiled is None:
            return st.nothing()  # lint refuses such a pattern: nothing to draw
        base: Strategy = st.from_regex(compiled).filter(lambda s: compiled.search(s) is not None)
    elif format in _FORMATS:
        base = _FORMATS[format]()
    else:
        return st.text(min_size=min_size, max_size=max_size)
    if min_size or max_size is not None:
        base = base.filter(
            lambda s: min_size <= len(s) and (max_size is None or len(s) <= max_size)
        )
    return base


def arrays(
    items: Strategy | None = None,
    min_size: int = 0,
    max_size: int | None = None,
    unique: bool = False,
    prefix: Iterable[Strategy] = (),
    contains: Strategy | None = None,
    min_contains: int = 1,
    max_contains: int | None = None,
) -> Strategy:
    """Lists: `prefix` strategies for the first positions (prefixItems: any leading part of
    them, as long as the sizes allow), then `items`; with `contains`, `min_contains` to
    `max_contains` values of it placed among them (a generated filter judges the count)."""
    head = list(prefix)
    rest = json_values() if items is None else items
    if not head:
        built = st.lists(
            rest, min_size=min_size, max_size=max_size, unique_by=json_key if unique else None
        )
    else:
        longest = len(head) if max_size is None else min(len(head), max_size)

        def sized(n: int) -> Strategy:
            if n < len(head):
                return st.tuples(*head[:n]).map(list)
            tail_max = None if max_size is None else max_size - n
            tail = st.lists(rest, min_size=max(0, min_size - n), max_size=tail_max)
            return st.tuples(st.tuples(*head), tail).map(lambda parts: [*parts[0], *parts[1]])

        built = st.integers(min(min_size, longest), longest).flatmap(sized)
    if contains is not None and (min_contains > 0 or max_contains is None):
        most = max(min_contains, 1) + 2 if max_contains is None else max_contains
        placed = st.lists(
            st.tuples(st.integers(0, 2**16), contains), min_size=min_contains, max_size=most
        )
        built = st.tuples(built, placed).map(_placed)
    if unique:
        built = built.filter(lambda v: len({json_key(x) for x in v}) == len(v))
    return built


def _placed(parts: tuple[list[Any], list[tuple[int, Any]]]) -> list[Any]:
    values, inserts = list(parts[0]), parts[1]
    for where, value in inserts:
        values.insert(where % (len(values) + 1), value)
    return values


def other_than(*kinds: str) -> Strategy:
    """JSON values of every type but `kinds` (a schema without `type` accepts them all)."""
    options: dict[str, Strategy] = {
        "null": st.none(),
        "boolean": st.booleans(),
        "number": numbers(),
        "string": st.text(max_size=20),
        "array": st.lists(json_values(4), max_size=3),
        "object": st.dictionaries(st.text(max_size=10), json_values(4), max_size=3),
    }
    skip = set(kinds) | ({"number"} if "integer" in kinds else set())
    left = [strategy for name, strategy in options.items() if name not in skip]
    return st.one_of(*left) if left else st.nothing()


def objects(
    required: Mapping[str, Strategy] | None = None,
    optional: Mapping[str, Strategy] | None = None,
    extra: Strategy | None = None,
    extra_keys: Strategy | None = None,
    overrides: Mapping[str, Strategy] | None = None,
) -> Strategy:
    """Dicts with every `required` key, any subset of the `optional` ones, and (when the
    schema allows other keys) a few more with `extra` values. `overrides` replaces the
    strategy of a declared key, by its wire name."""
    required = dict(required or {})
    optional = dict(optional or {})
    for key, strategy in (overrides or {}).items():
        if key in required:
            required[key] = strategy
        elif key in optional:
            optional[key] = strategy
        else:
            known = [*required, *optional]
            hint = nearest(key, known)
            raise KeyError(
                f"no property {key!r} to override"
                + (f"; did you mean {hint!r}?" if hint else "")
                + f" (properties: {', '.join(known) or 'none'})"
            )
    declared = st.fixed_dictionaries(required, optional=optional)
    if extra is None:
        return declared
    names = set(required) | set(optional)
    keys = (st.text(max_size=10) if extra_keys is None else extra_keys).filter(
        lambda k: k not in names
    )
    more = st.dictionaries(keys, extra, max_size=3)
    return st.tuples(more, declared).map(lambda parts: {**parts[0], **parts[1]})


def overridden(strategy: Strategy, overrides: Mapping[str, Strategy] | None) -> Strategy:
    """Objects from `strategy` with the keys of `overrides` drawn from those strategies
    (for arguments whose top level is not a plain object: a union, an allOf, ...)."""
    if not overrides:
        return strategy
    return st.tuples(strategy, st.fixed_dictionaries(dict(overrides))).map(
        lambda parts: {**parts[0], **parts[1]}
    )


def satisfying(
    strategy: Strategy, root: Mapping[str, Any], pointer: str = "", schema: Any = None
) -> Strategy:
    """Values of `strategy` that the subschema of `root` at `pointer` (or `schema`, a part
    the generator put together, with `root`'s `$defs`) accepts: for what a generated strategy
    cannot build directly (`not`, `if`/`then`, `oneOf`'s "exactly one", dependencies, ...)."""
    if schema is None:
        schema = root
        for key in tokens(pointer):
            schema = schema[int(key)] if isinstance(schema, list) else schema[key]
    if isinstance(schema, dict) and "$defs" in root:
        schema = {**schema, "$defs": root["$defs"]}  # every bundled $ref is #/$defs/...
    return strategy.filter(json_schema_validator(schema).is_valid)


def json_key(value: Any) -> Any:
    """A hashable key equal for values JSON Schema calls equal (1 and 1.0; not 1 and true)."""
    if isinstance(value, bool):
        return ("bool", value)
    if isinstance(value, (int, float)):
        return ("number", value)
    if isinstance(value, list):
        return ("array", tuple(json_key(v) for v in value))
    if isinstance(value, dict):
        return ("object", frozenset((k, json_key(v)) for k, v in value.items()))
    return (type(value).__name__, value)


def model_of(model: type[M]) -> Callable[[Any], M]:
    """JSON value -> `model`, read as JSON text is (how a model's arguments arrive)."""

    def build(value: Any) -> M:
        return model.model_validate_json(json.dumps(value))

    return build
