# Part of toolgen's runtime, copied verbatim into generated packages (edit toolgen, not a copy).
"""How much work pydantic-core's pass over a dict can do, known without walking the dict where
the class bounds it; and the first errors of a large failure, read at a bounded cost.

`visits(model)` compiles, once per class, a function giving an upper bound on the values
pydantic-core visits in a dict for that class (so on the errors its failing pass can keep):
a constant where the schema bounds it (properties, arrays with `maxItems`: pydantic-core stops
at the first item past it), and the lengths of the dict's own arrays and maps where it does not
(only those are looked at: a few lookups, not a walk). Keys a closed object does not declare
are not counted: each is a key the dict already holds, and costs about as much as its error.
A class whose values are untyped, open or recursive gets None: its dicts are walked
(payload.measure). A class whose only unbounded values are its own arrays (`own_arrays`)
reads dicts through a copy of its validator with those arrays capped (capped.py): nothing is
looked at on its valid path.

`first_errors` reads at most `Limits.max_errors` of a failure's errors: past that many, from
a copy of the value cut to its first members (`pruned`) validated again, never from the whole
error list turned into Python dicts (about 1.7 µs and 600 bytes each).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from pydantic import BaseModel, ValidationError

from .nesting import SCALARS, WRAPPERS, shallow
from .payload import Limits

Visits = Callable[[Any], int]
Bound = int | Visits  # a constant, or a function of the value
# Of each class met, computed once: nesting.shallow (the nesting it bounds, or None), and
# the bound of the values pydantic-core visits in a dict for it (or None).
_SHALLOW: dict[type[BaseModel], int | None] = {}
_BOUNDS: dict[type[BaseModel], Bound | None] = {}


def shallow_within(model: type[BaseModel], limits: Limits) -> bool:
    """Whether the class bounds what it accepts (nesting.shallow) within `limits.max_depth`."""
    depth = _SHALLOW.get(model, -1)
    if depth == -1:
        depth = _SHALLOW[model] = shallow(model)
    return depth is not None and depth <= limits.max_depth


def bounded(model: type[BaseModel], arguments: dict[Any, Any], limits: Limits) -> bool:
    """Whether pydantic-core's pass over this dict is bounded without a walk: the class bounds
    its nesting, and the values it visits are within `budget`."""
    found = at_once(model, limits)
    if found is None or len(arguments) > budget(limits):  # its own keys: each unknown one an error
        return False
    return (found(arguments) if callable(found) else found) <= budget(limits)


def first(exc: ValidationError, limits: Limits) -> list[Any]:
    """pydantic's errors, cut to the first `limits.max_errors` before any of them is translated."""
    errors = exc.errors(include_url=False)
    if len(errors) > limits.max_errors:
        del errors[limits.max_errors :]
    return errors


def first_errors(
    model: type[BaseModel], exc: ValidationError, data: Any, limits: Limits
) -> tuple[list[Any], int]:
    """The first `limits.max_errors` of pydantic's errors and how many there are, without
    turning every error of a large failure into Python dicts: past `max_errors` errors, or
    for a failure a fail-fast pass found (few errors, for a large value), they are read from
    the first `max_errors` values of `data` validated again (a key reported missing, or an
    array too short, where the copy was cut is left out), so the work is bounded by the
    limit; the count is then the errors of those first values."""
    copy, cut = pruned(data, limits.max_errors)
    try:
        model.__pydantic_validator__.validate_python(copy)
    except ValidationError as again:
        read = first(again.with_traceback(None), limits)
        errors = [
            e
            for e in read
            if not (
                (e["type"] == "missing" and tuple(e["loc"][:-1]) in cut)
                or (e["type"] == "too_short" and tuple(e["loc"]) in cut)
            )
        ]
        if errors:
            return errors, again.error_count() - (len(read) - len(errors))
    # The first values were valid: the errors are further on.
    return first(exc, limits), exc.error_count()


_SEQUENCES = frozenset({"list", "set", "frozenset"})


class _Open(Exception):
    """A schema whose values this module cannot bound (untyped, open, recursive, unknown)."""


def budget(limits: Limits) -> int:
    """The values a dict read at once may make pydantic-core visit: at most `max_errors`, and
    half `max_bytes` (a value is two characters of JSON text at least, so such a dict may be
    over `max_bytes` only by the length of its strings, which pydantic-core only references,
    as in a flat dict)."""
    return min(limits.max_errors, limits.max_bytes // 2)


def at_once(model: type[BaseModel], limits: Limits) -> Bound | None:
    """How to tell whether a dict for the class is read at once: None when never (untyped,
    open or recursive values, nesting deeper than the limits), else the bound of the values
    pydantic-core visits (a constant, or a function of the dict) to compare with `budget`."""
    found = _bound(model)
    return found if found is not None and shallow_within(model, limits) else None


def _bound(model: type[BaseModel]) -> Bound | None:
    if model in _BOUNDS:
        return _BOUNDS[model]
    schema: Any = model.__pydantic_core_schema__
    try:
        found: Bound | None = _Compiler().node(schema, {})
    except (_Open, AttributeError, KeyError, TypeError, RecursionError):
        found = None
    _BOUNDS[model] = found
    return found


def own_arrays(model: type[BaseModel]) -> tuple[int, list[tuple[str, int]]] | None:
    """When what the class leaves unbounded is only arrays of its own (of bounded items): the
    bound of the rest, and those arrays (key, the bound of each item). Else None."""
    if _bound(model) is None:
        return None
    compiler = _Compiler()
    schema: Any = model.__pydantic_core_schema__
    if schema["type"] == "definitions":  # (classes used twice: read through their definition)
        compiler.definitions = {d["ref"]: d for d in schema["definitions"]}
        schema = schema["schema"]
    if schema["type"] != "model" or schema["schema"]["type"] != "model-fields":
        return None
    fixed, arrays, looked = compiler.parts(schema["schema"], schema.get("config") or {})
    return None if looked else (fixed, arrays)


def visits(model: type[BaseModel]) -> Visits | None:
    """The values pydantic-core's pass over a dict for `model` visits at most, as a function
    of the dict (cheap), or None when the class does not bound them."""
    found = _bound(model)
    if found is None:
        return None
    if callable(found):
        return found
    fixed: int = found

    def constant(value: Any) -> int:
        return fixed

    return constant


class _Compiler:
    def __init__(self) -> None:
        self.definitions: dict[str, Any] = {}
        self.entered: set[str] = set()

    def node(self, schema: dict[str, Any], config: dict[str, Any]) -> Bound:
        kind = schema["type"]
        if kind in SCALARS:
            return 1
        if kind in WRAPPERS:
            return self.node(schema["schema"], config)
        if kind == "model":
            return self.node(schema["schema"], schema.get("config") or {})
        if kind == "definitions":
            for definition in schema["definitions"]:
                self.definitions[definition["ref"]] = definition
            return self.node(schema["schema"], config)
        if kind == "definition-ref":
            ref = schema["schema_ref"]
            if ref in self.entered:
                raise _Open  # recursion
            self.entered.add(ref)
            try:
                return self.node(self.definitions[ref], config)
            finally:
                self.entered.discard(ref)
        if kind in ("union", "tagged-union", "lax-or-strict", "chain"):
            return _most(self._choices(kind, schema), config, self, add=False)
        if kind in ("model-fields", "typed-dict"):
            return self.fields(schema, config)
        if kind in _SEQUENCES:
            return _sequence(self.node(schema["items_schema"], config), schema.get("max_length"))
        if kind == "tuple" and "variadic_item_index" not in schema:
            return _most(list(schema.get("items_schema") or []), config, self, add=True, one=1)
        if kind == "dict":
            keys = self.node(schema["keys_schema"], config)
            values = self.node(schema["values_schema"], config)
            if callable(keys) or callable(values):
                raise _Open
            return _mapping(keys + values)
        raise _Open  # any, tuples of any length, and what this module does not know

    def parts(
        self, schema: dict[str, Any], config: dict[str, Any]
    ) -> tuple[int, list[tuple[str, int]], list[tuple[str, Visits]]]:
        """An object's bound, in three parts: the constant (itself and the values of fixed
        size), its unbounded arrays of bounded items (key, the bound of each item), and its
        other values that depend on the dict (key, their function)."""
        extra = schema.get("extra_behavior") or config.get("extra_fields_behavior")
        if extra == "allow":
            raise _Open  # keys taken as they come: walked
        fixed = 1
        looked: list[tuple[str, Visits]] = []
        arrays: list[tuple[str, int]] = []  # unbounded arrays of bounded items: counted inline
        for name, field in schema["fields"].items():
            alias = field.get("validation_alias", name)
            if not isinstance(alias, str):
                raise _Open
            found = self.node(field["schema"], config)
            if isinstance(found, _Array):
                arrays.append((alias, found.per))
            elif callable(found):
                looked.append((alias, found))
            else:
                fixed += found
        return fixed, arrays, looked

    @staticmethod
    def _choices(kind: str, schema: dict[str, Any]) -> list[Any]:
        if kind == "union":
            return [c[0] if isinstance(c, tuple) else c for c in schema["choices"]]
        if kind == "tagged-union":
            return list(schema["choices"].values())
        if kind == "chain":
            return list(schema["steps"])
        return [schema["lax_schema"], schema["strict_schema"]]

    def fields(self, schema: dict[str, Any], config: dict[str, Any]) -> Bound:
        fixed, arrays, looked = self.parts(schema, config)
        if not looked and not arrays:
            return fixed

        def count(value: Any) -> int:
            if type(value) is not dict:
                return 1
            total = fixed
            for key, per in arrays:
                item = value.get(key)
                if item is not None:
                    total += 1 + len(item) * per if type(item) is list else 1
            for key, f in looked:
                item = value.get(key)
                if item is not None:
                    total += f(item)
            return total

        return count


def _most(parts: list[Any], config: dict[str, Any], c: _Compiler, add: bool, one: int = 0) -> Bound:
    """The bound of a value checked against several schemas: the largest (a union's branches
    take turns, a chain stops at its first failing step), or the sum (`add`: a tuple's
    positions, plus `one`)."""
    bounds = [c.node(part, config) for part in parts]
    constants = [b for b in bounds if not callable(b)]
    functions = [b for b in bounds if callable(b)]
    if add:
        fixed = one + sum(constants)
        if not functions:
            return fixed
        return lambda value: fixed + sum(f(value) for f in functions)
    fixed = max(constants, default=0)
    if not functions:
        return fixed
    return lambda value: max(fixed, *(f(value) for f in functions))


def _sequence(items: Bound, most: Any) -> Bound:
    """An array: one item past `maxItems` at most (pydantic-core stops there), else its length."""
    if isinstance(most, int) and not callable(items):
        return 1 + (most + 1) * items
    if callable(items):
        limit = most + 1 if isinstance(most, int) else None

        def each(value: Any) -> int:
            if not isinstance(value, (list, tuple)):
                return 1
            return 1 + sum(map(items, value[:limit]))

        return each
    return _Array(items)


class _Array:
    """The bound of an array without `maxItems` whose items are bounded by `per` each."""

    __slots__ = ("per",)

    def __init__(self, per: int) -> None:
        self.per = per

    def __call__(self, value: Any) -> int:
        return 1 + len(value) * self.per if isinstance(value, (list, tuple)) else 1


def _mapping(per: int) -> Visits:
    return lambda value: 1 + len(value) * per if isinstance(value, dict) else 1


def pruned(value: Any, budget: int) -> tuple[Any, set[tuple[Any, ...]]]:
    """A copy of a JSON value keeping its first `budget` members (in the order sent, depth
    first), and the locations of the arrays and objects that lost some: validating the copy
    reports the first errors of the value at a cost bounded by `budget`, whatever its size."""
    cut: set[tuple[Any, ...]] = set()
    left = budget

    def copy(node: Any, where: tuple[Any, ...]) -> Any:
        nonlocal left
        if isinstance(node, dict):
            members: Any = node.items()
            out: Any = {}
        elif isinstance(node, (list, tuple)):
            members, out = enumerate(node), []
        else:
            return node
        for key, item in members:
            if left <= 0:
                cut.add(where)
                break
            left -= 1
            item = copy(item, (*where, key))
            if isinstance(out, dict):
                out[key] = item
            else:
                out.append(item)
        return out

    return copy(value, ()), cut
