# Part of toolgen's runtime, copied verbatim into generated packages (edit toolgen, not a copy).
"""Markers that make generated models follow JSON Schema where pydantic's rules differ.

Generated tool modules use them in annotations (docs/decisions/0003). Each builds a
pydantic-core schema, so the valid path stays in Rust:

- `Integer(ge=..)`: an integer as JSON Schema counts them: 2 and 2.0 (Gemini sends every
  number as a float), never "2" or true.
- `OneOf(*values)`: enum/const membership with JSON equality (1 == 1.0, true != 1).
- `SECRET`: a value never shown in error text.
- `Coerce(kinds)`: where the spec declared coercions (`x-coerce`); applied only after strict
  validation failed, and reported (see coerce.py).
"""

from __future__ import annotations

from typing import Any

from pydantic import GetCoreSchemaHandler
from pydantic_core import PydanticCustomError, core_schema

COERCIONS = ("numbers", "booleans", "json")


def json_equal(a: Any, b: Any) -> bool:
    """Equality as JSON Schema defines it: 1 == 1.0, but true != 1."""
    if isinstance(a, bool) or isinstance(b, bool):
        return a is b
    if isinstance(a, (int, float)) and isinstance(b, (int, float)):
        return a == b
    if isinstance(a, list) and isinstance(b, list):
        return len(a) == len(b) and all(json_equal(x, y) for x, y in zip(a, b, strict=False))
    if isinstance(a, dict) and isinstance(b, dict):
        return a.keys() == b.keys() and all(json_equal(a[k], b[k]) for k in a)
    return type(a) is type(b) and bool(a == b)


def json_type(value: Any) -> str:
    """The JSON Schema type of a JSON value (integers before numbers: 2.0 is an integer)."""
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "boolean"
    if isinstance(value, int) or isinstance(value, float) and value.is_integer():
        return "integer"
    if isinstance(value, float):
        return "number"
    if isinstance(value, str):
        return "string"
    return "array" if isinstance(value, list) else "object"


def is_json_type(value: Any, name: str) -> bool:
    """Whether a JSON value is of the JSON Schema type `name`: true and false are no integers or
    numbers (though Python's bool is an int), 2.0 is an integer, and every integer a number."""
    if name == "null":
        return value is None
    if name == "boolean":
        return isinstance(value, bool)
    if isinstance(value, bool):
        return False
    if name == "integer":
        return isinstance(value, int) or isinstance(value, float) and value.is_integer()
    if name == "number":
        return isinstance(value, (int, float))
    if name == "string":
        return isinstance(value, str)
    if name == "array":
        return isinstance(value, list)
    return name == "object" and isinstance(value, dict)


def _whole(value: float) -> int:
    """A float beyond 64 bits with no fraction (pydantic-core's lax int stops at 2**63)."""
    if value.is_integer():
        return int(value)
    raise PydanticCustomError("int_type", "Input should be a valid integer")


# int first: the valid path for an int is one strict check.
_WHOLE = core_schema.union_schema(
    [
        core_schema.int_schema(strict=True),
        core_schema.chain_schema(
            [core_schema.float_schema(strict=True), core_schema.int_schema(strict=False)]
        ),
        core_schema.chain_schema(
            [
                core_schema.float_schema(strict=True),
                core_schema.no_info_plain_validator_function(_whole),
            ]
        ),
    ],
    mode="left_to_right",
    custom_error_type="int_type",
)


class Integer:
    """`Annotated[int, Integer(ge=1)]`: constraints ride inside (pydantic would run them in Python)."""

    __slots__ = ("ge", "le", "multiple_of")

    def __init__(
        self, *, ge: int | None = None, le: int | None = None, multiple_of: int | None = None
    ) -> None:
        self.ge, self.le, self.multiple_of = ge, le, multiple_of

    def __get_pydantic_core_schema__(
        self, source: Any, handler: GetCoreSchemaHandler
    ) -> core_schema.CoreSchema:
        if self.ge is None and self.le is None and self.multiple_of is None:
            return _WHOLE
        bounds = core_schema.int_schema(
            strict=True, ge=self.ge, le=self.le, multiple_of=self.multiple_of
        )
        return core_schema.chain_schema([_WHOLE, bounds])

    def __repr__(self) -> str:
        given = {"ge": self.ge, "le": self.le, "multiple_of": self.multiple_of}
        return f"Integer({', '.join(f'{k}={v!r}' for k, v in given.items() if v is not None)})"


def _surrogate_free(text: str) -> bool:
    return not any("\ud800" <= c <= "\udfff" for c in text)


class OneOf:
    """`Annotated[Literal[1, 2], OneOf(1, 2)]`: the allowed values, compared as JSON compares them."""

    __slots__ = ("values",)

    def __init__(self, *values: Any) -> None:
        self.values = values

    def __get_pydantic_core_schema__(
        self, source: Any, handler: GetCoreSchemaHandler
    ) -> core_schema.CoreSchema:
        strings: list[Any] = []
        numbers: list[Any] = []
        booleans: list[Any] = []
        others: list[Any] = []
        for value in self.values:
            kind = type(value)
            if kind is str and _surrogate_free(value):
                strings.append(value)
            elif kind is int or kind is float:
                numbers.append(value)
            elif kind is bool:
                booleans.append(value)
            elif value is not None:
                others.append(value)
        # One branch per JSON type: pydantic's literal alone takes true for 1 and 1 for true.
        choices: list[core_schema.CoreSchema | tuple[core_schema.CoreSchema, str]] = []
        if strings:
            choices.append(
                core_schema.chain_schema(
                    [core_schema.str_schema(strict=True), core_schema.literal_schema(strings)]
                )
            )
        if numbers:
            number = core_schema.union_schema(
                [core_schema.int_schema(strict=True), core_schema.float_schema(strict=True)]
            )
            choices.append(core_schema.chain_schema([number, core_schema.literal_schema(numbers)]))
        if booleans:
            choices.append(
                core_schema.chain_schema(
                    [core_schema.bool_schema(strict=True), core_schema.literal_schema(booleans)]
                )
            )
        if any(v is None for v in self.values):
            choices.append(core_schema.none_schema())
        if (
            others or not choices
        ):  # arrays, objects, strings pydantic-core cannot hold; or nothing at all
            choices.append(core_schema.no_info_plain_validator_function(self._check(others)))
        expected = " or ".join(_show(v) for v in self.values) or "nothing"
        return core_schema.union_schema(
            choices,
            mode="left_to_right",
            custom_error_type="literal_error",
            custom_error_context={"expected": expected},
        )

    @staticmethod
    def _check(allowed: list[Any]) -> Any:
        def check(value: Any) -> Any:
            for candidate in allowed:
                if json_equal(value, candidate):
                    return value
            raise PydanticCustomError("literal_error", "Input is not allowed")

        return check

    def __repr__(self) -> str:
        return f"OneOf({', '.join(repr(v) for v in self.values)})"


def _show(value: Any) -> str:
    import json

    try:
        text = json.dumps(value, ensure_ascii=False)[:40]
    except ValueError:
        text = repr(value)[:40]
    # pydantic-core takes UTF-8 only.
    return "".join("\ufffd" if "\ud800" <= c <= "\udfff" else c for c in text)


class _Secret:
    """Marks a value that error text, suggestions and coercion reports never show."""

    __slots__ = ()

    def __repr__(self) -> str:
        return "SECRET"


SECRET = _Secret()


class Coerce:
    """Coercions the spec declared for this position (`x-coerce`), e.g. `Coerce("numbers")`."""

    __slots__ = ("kinds",)

    def __init__(self, *kinds: str) -> None:
        self.kinds = frozenset(kinds)

    def __repr__(self) -> str:
        return f"Coerce({', '.join(repr(k) for k in sorted(self.kinds))})"
