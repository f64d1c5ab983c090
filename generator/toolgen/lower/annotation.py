"""A Python type expression under construction, and the names it needs imported."""

from __future__ import annotations

from dataclasses import dataclass

ANY = "Any"
# The runtime's JSON Schema types (runtime/types.py), imported by tool modules as `_types`:
# an underscore name, so no field or class can shadow it.
TYPES = "_types"
# The exact check compiled into fields (runtime/validation/exact/fields.py), imported as `_fields`.
FIELDS = "_fields"
ANNOTATED, LITERAL, FIELD = "Annotated", "Literal", "Field"


@dataclass(frozen=True)
class Annotation:
    """A type expression as the members of a union (most often one)."""

    parts: tuple[str, ...]
    forward: bool = False  # mentions a class defined later (recursion): quote the whole annotation
    accepts_null: bool = False  # a Literal or enum that lists null
    # When one part is `Annotated[bare, Field(constraints)]`, a field may write `bare` and move
    # the constraints into its own Field(...): the same validation, a short annotation.
    bare: str | None = None
    constraints: tuple[str, ...] = ()
    uses: tuple[frozenset[str], ...] = ()  # per part: the names it needs imported
    bare_uses: frozenset[str] = frozenset()

    @classmethod
    def of(cls, text: str, forward: bool = False, uses: frozenset[str] = frozenset()) -> Annotation:
        return cls((text,), forward, uses=(uses,))

    @property
    def text(self) -> str:
        return " | ".join(self.parts)

    @property
    def names(self) -> frozenset[str]:
        return frozenset().union(*self.uses)

    def lifted(self) -> tuple[str, frozenset[str]]:
        """The text with the constrained part written bare (its constraints go to the field's Field)."""
        assert self.bare is not None
        constrained = next(i for i, p in enumerate(self.parts) if p != "None")
        parts = [self.bare if i == constrained else p for i, p in enumerate(self.parts)]
        uses = [self.bare_uses if i == constrained else u for i, u in enumerate(self.uses)]
        return " | ".join(parts), frozenset().union(*uses)

    @property
    def nullable(self) -> bool:
        return "None" in self.parts or self.accepts_null


ANY_TYPE = Annotation.of(ANY, uses=frozenset({ANY}))
