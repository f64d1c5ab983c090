# Part of toolgen's runtime, copied verbatim into generated packages (edit toolgen, not a copy).
"""The exact check compiled into a generated class's fields, for the keywords pydantic-core
cannot check natively: annotation markers (`Annotated[str, _fields.Pattern("^\\\\d+$")]`)
whose core schema is the field's own, followed by one Python check.

So a class whose schema needs no other exact keyword enforces it alone: a valid call is one
pydantic-core pass, and the interpreted walk (checker.py) is left to the schemas nothing here
compiles. Each check raises the pydantic error type the failure path translates with the
exact check's words (translate.py), so a model reads the same message either way:

- `Pattern(ecma)`: an ECMA-262 `pattern` whose reading in Rust's engine differs (`\\d`, `\\w`,
  `.`, `\\p{..}`, ...), searched with its exact Python translation (ecma.py), compiled once;
- `Unique()`: `uniqueItems` on an array of JSON values (never of generated classes): Python's
  `set` first (distinct there is distinct in JSON), JSON equality only when it finds a pair;
- `MultipleOf(step)`: `multipleOf` on a number, read as the decimals the texts write (exact,
  where pydantic-core's float test has a tolerance).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from pydantic import GetCoreSchemaHandler
from pydantic_core import PydanticCustomError, core_schema

from .ecma import ecma_pattern
from .node import canon
from .values import multiple_test

__all__ = ["MultipleOf", "Pattern", "Unique"]


def _after(
    test: Callable[[Any], Any],
    kind: str,
    message: str,
    context: dict[str, Any],
    schema: core_schema.CoreSchema,
) -> core_schema.CoreSchema:
    """`schema`, then `test` on the value it gives (falsy: the error `kind`)."""

    def check(value: Any) -> Any:
        if not test(value):
            raise PydanticCustomError(kind, message, context)
        return value

    return core_schema.no_info_after_validator_function(check, schema)


class Pattern:
    """`Annotated[str, Pattern(ecma)]`: the value must hold a match of the ECMA-262 pattern."""

    __slots__ = ("pattern", "search")

    def __init__(self, pattern: str) -> None:
        compiled = ecma_pattern(pattern)
        if compiled is None:  # the generator compiles only patterns with an exact reading
            raise ValueError(f"the pattern {pattern!r} has no exact reading")
        self.pattern, self.search = pattern, compiled.search

    def __get_pydantic_core_schema__(
        self, source: Any, handler: GetCoreSchemaHandler
    ) -> core_schema.CoreSchema:
        message = "String should match pattern '{pattern}'"
        context = {"pattern": self.pattern}
        return _after(self.search, "string_pattern_mismatch", message, context, handler(source))

    def __repr__(self) -> str:
        return f"Pattern({self.pattern!r})"


def _duplicate(value: list[Any]) -> tuple[int, int] | None:
    """The first pair of JSON-equal items (by the later one's index), or None."""
    seen: dict[Any, int] = {}
    for index, item in enumerate(value):
        key = canon(item)
        if key in seen:
            return seen[key], index
        seen[key] = index
    return None


def _unique(value: list[Any]) -> list[Any]:
    try:
        if len(set(value)) == len(value):
            return value  # Python's equality is JSON's, or coarser (True == 1): none equal
    except TypeError:  # arrays or objects among the items
        pass
    pair = _duplicate(value)
    if pair is None:
        return value
    raise PydanticCustomError(
        "unique_items",
        "items {first} and {second} are equal, but items must be unique",
        {"first": pair[0], "second": pair[1]},
    )


class Unique:
    """`Annotated[list[T], Unique()]`: no two items JSON-equal (T: JSON values, not classes)."""

    __slots__ = ()

    def __get_pydantic_core_schema__(
        self, source: Any, handler: GetCoreSchemaHandler
    ) -> core_schema.CoreSchema:
        return core_schema.no_info_after_validator_function(_unique, handler(source))

    def __repr__(self) -> str:
        return "Unique()"


class MultipleOf:
    """`Annotated[float, MultipleOf(0.01)]`: a whole multiple of `step`, read as decimals."""

    __slots__ = ("step",)

    def __init__(self, step: int | float) -> None:
        if not step > 0:
            raise ValueError("multipleOf must be more than 0")
        self.step = step

    def __get_pydantic_core_schema__(
        self, source: Any, handler: GetCoreSchemaHandler
    ) -> core_schema.CoreSchema:
        message, context = "Input should be a multiple of {multiple_of}", {"multiple_of": self.step}
        return _after(multiple_test(self.step), "multiple_of", message, context, handler(source))

    def __repr__(self) -> str:
        return f"MultipleOf({self.step!r})"
