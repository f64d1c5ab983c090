# Part of toolgen's runtime, copied verbatim into generated packages (edit toolgen, not a copy).
"""What a generated Arguments model expects at a path, read from its Python annotations.

Only the failure path uses this (error translation, declared coercion): the models'
annotations are the JSON Schema, lowered once by the generator, so nothing else is shipped.
"""

from __future__ import annotations

import types
import typing
from typing import Any, Literal, Union

from pydantic import BaseModel

from ..errors import quote
from ..secrets import holds_secret
from ..types import SECRET, Coerce, OneOf

_UNION_TYPES = (Union, types.UnionType)


class Node:
    """One position of a model: its type with `Annotated` and `| None` stripped, and the markers met."""

    __slots__ = ("kind", "base", "args", "metadata", "nullable")

    def __init__(self, annotation: Any, metadata: tuple[Any, ...] = ()) -> None:
        nullable = False
        while True:
            # A class (str, int, a model) has no origin: skip typing's slower look-up.
            origin = None if isinstance(annotation, type) else typing.get_origin(annotation)
            if origin is typing.Annotated:
                metadata = (*metadata, *annotation.__metadata__)
                annotation = annotation.__origin__
            elif origin in _UNION_TYPES:
                members = [m for m in typing.get_args(annotation) if m is not type(None)]
                nullable = nullable or len(members) < len(typing.get_args(annotation))
                if len(members) != 1:
                    break
                annotation = members[0]
            else:
                break
        self.base = annotation
        self.metadata = metadata
        self.nullable = nullable
        self.args: tuple[Any, ...] = typing.get_args(annotation)
        self.kind = _kind(annotation, origin, metadata)

    # --- markers -------------------------------------------------------------------

    @property
    def secret(self) -> bool:
        return any(m is SECRET for m in self.metadata)

    @property
    def hides(self) -> bool:
        """Its value may show a secret: marked here, or holding a secret position below."""
        return holds_secret(self.base, self.metadata)

    @property
    def coercions(self) -> frozenset[str]:
        for marker in reversed(self.metadata):  # the innermost declaration wins
            if isinstance(marker, Coerce):
                return marker.kinds
        return frozenset()

    # --- structure -------------------------------------------------------------------

    @property
    def members(self) -> list[Node]:
        """A union's alternatives, in pydantic's order (None apart)."""
        if self.kind != "union":
            return [self]
        return [Node(m) for m in self.args if m is not type(None)]

    @property
    def values(self) -> tuple[Any, ...]:
        """An enum's or const's allowed values."""
        for marker in self.metadata:
            if isinstance(marker, OneOf):
                return marker.values
        return self.args if self.kind == "enum" else ()

    @property
    def model(self) -> type[BaseModel] | None:
        return self.base if self.kind == "object" else None

    def keys(self) -> list[str]:
        """The keys an object declares, as a model sends them."""
        model = self.model
        return [] if model is None else list(fields(model))

    def required(self) -> list[str]:
        model = self.model
        return [] if model is None else [k for k, f in fields(model).items() if f.is_required()]

    def child(self, part: str | int) -> Node | None:
        """The position one step down (a key of an object or map, an index of an array)."""
        if self.kind == "object" and isinstance(part, str):
            model = self.base
            info = model.model_fields.get(part)
            if info is None or info.validation_alias not in (None, part):  # the wire name differs
                info = fields(model).get(part)
            if info is not None:
                return Node(info.annotation, tuple(info.metadata))
            extra = extra_values(model)
            return Node(extra) if extra is not None else None
        if self.kind == "array" and isinstance(part, int):
            return Node(self.args[0] if self.args else Any)
        if self.kind == "map" and isinstance(part, str):
            return Node(self.args[1] if len(self.args) == 2 else Any)
        if self.kind == "any":
            return Node(Any)
        return None

    def describe(self) -> str:
        """What this position expects, in words a model reads."""
        if self.kind == "union":
            return " or ".join(dict.fromkeys(m.describe() for m in self.members))
        if self.kind == "enum":
            values = self.values
            if len(values) == 1:
                return _json(values[0])
            shown = ", ".join(_json(v) for v in values[:12]) + (", …" if len(values) > 12 else "")
            return f"one of {shown}"
        return _WORDS.get(self.kind, "a valid value")


_WORDS = {
    "string": "a string",
    "integer": "an integer",
    "number": "a number",
    "boolean": "true or false",
    "null": "null",
    "array": "an array",
    "map": "an object",
    "object": "an object",
    "any": "any value",
}


_SCALARS: dict[Any, str] = {
    str: "string",
    int: "integer",
    float: "number",
    bool: "boolean",
    type(None): "null",
    list: "array",
    dict: "map",
    Any: "any",
}


def _kind(annotation: Any, origin: Any, metadata: tuple[Any, ...]) -> str:
    if origin is Literal or any(isinstance(m, OneOf) for m in metadata):
        return "enum"
    if origin is None:
        kind = _SCALARS.get(annotation)
        if kind is not None:
            return kind
        return (
            "object"
            if isinstance(annotation, type) and issubclass(annotation, BaseModel)
            else "any"
        )
    if origin in _UNION_TYPES:
        return "union"
    return {list: "array", dict: "map"}.get(origin, "any")


def fields(model: type[BaseModel]) -> dict[str, Any]:
    """A model's fields by the key a model sends (the alias where there is one)."""
    return {
        info.validation_alias if isinstance(info.validation_alias, str) else name: info
        for name, info in model.model_fields.items()
    }


def extra_values(model: type[BaseModel]) -> Any:
    """The type of undeclared keys' values in an open object, or None in a closed one."""
    if model.model_config.get("extra") != "allow":
        return None
    try:
        hints = typing.get_type_hints(model, include_extras=True)
    except Exception:  # noqa: BLE001 - an unresolvable hint: values are taken as they come
        return Any
    annotation = hints.get("__pydantic_extra__")
    if typing.get_origin(annotation) is dict and len(typing.get_args(annotation)) == 2:
        return typing.get_args(annotation)[1]
    return Any


def _json(value: Any) -> str:
    return quote(value) if isinstance(value, str) else _dump(value)


def _dump(value: Any) -> str:
    import json

    try:
        return json.dumps(value, ensure_ascii=False)[:60]
    except (TypeError, ValueError):
        return repr(value)[:60]
