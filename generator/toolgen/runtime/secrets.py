# Part of toolgen's runtime, copied verbatim into generated packages (edit toolgen, not a copy).
"""Where secrets are (`x-secret`, at any depth), and keeping their values out of text.

A value is secret when its position carries the `SECRET` marker (types.py), which the
generator puts on every schema marked `x-secret: true`: a property, an array's `items`,
`additionalProperties` or `patternProperties` values, a branch of `anyOf`/`oneOf`, a
`$defs` entry. What is shown for a position *holding* a secret anywhere below (an array of
secrets, a union with a secret branch, an object with a secret key) never carries a value
either: error text, `repr()` of the generated models, contract-test output, and the arguments
and prompt of a suspended call's record (`hide_values`; control.py seals the real ones).
"""

from __future__ import annotations

import json
import types
import typing
from collections.abc import Iterable, Iterator
from typing import Any, Union

from pydantic import BaseModel

from .types import SECRET

_UNION_TYPES = (Union, types.UnionType)
_MODELS: dict[type[BaseModel], bool] = {}  # model -> holds a secret (filled on first use)
_FIELDS: dict[type[BaseModel], tuple[frozenset[str], bool]] = {}
MIN_REDACTED = 4  # free text: secret values this long or longer are replaced


class _Hidden:
    """What `repr()` shows instead of a secret or injected value."""

    __slots__ = ()

    def __repr__(self) -> str:
        return "<hidden>"


HIDDEN = _Hidden()
REDACTED = "<secret>"


def holds_secret(annotation: Any, metadata: Iterable[Any] = ()) -> bool:
    """The position has the SECRET marker, or holds a position that has it (at any depth)."""
    if any(m is SECRET for m in metadata):
        return True
    return _holds(annotation, set())


def _holds(annotation: Any, seen: set[int]) -> bool:
    if isinstance(annotation, type):
        if issubclass(annotation, BaseModel):
            return _model_holds(annotation, seen)
        return False
    if isinstance(annotation, (str, typing.ForwardRef)):  # unresolved: cannot tell, so yes
        return True
    origin = typing.get_origin(annotation)
    if origin is typing.Annotated:
        if any(m is SECRET for m in annotation.__metadata__):
            return True
        return _holds(annotation.__origin__, seen)
    if origin is typing.Literal:
        return False
    return any(_holds(arg, seen) for arg in typing.get_args(annotation))


def _model_holds(model: type[BaseModel], seen: set[int]) -> bool:
    known = _MODELS.get(model)
    if known is not None:
        return known
    if id(model) in seen:  # a recursive model: decided where the recursion started
        return False
    seen.add(id(model))
    found = any(
        holds_secret_field(info.annotation, info.metadata, seen)
        for info in model.model_fields.values()
    ) or _holds(_extra_values(model), seen)
    _MODELS[model] = found
    return found


def holds_secret_field(annotation: Any, metadata: Iterable[Any], seen: set[int]) -> bool:
    return any(m is SECRET for m in metadata) or _holds(annotation, seen)


def _extra_values(model: type[BaseModel]) -> Any:
    """The annotation of an open model's undeclared keys' values (None when closed)."""
    if model.model_config.get("extra") != "allow":
        return None
    try:
        hints = typing.get_type_hints(model, include_extras=True)
    except Exception:  # noqa: BLE001 - an unresolvable hint: treated as holding a secret
        return "?"
    return hints.get("__pydantic_extra__")


def repr_hidden(model: type[BaseModel]) -> tuple[frozenset[str], bool]:
    """The fields whose value `repr()` hides (the secret ones, nested models apart: they hide
    their own), and whether undeclared keys' values are hidden."""
    known = _FIELDS.get(model)
    if known is not None:
        return known
    hidden = frozenset(
        name
        for name, info in model.model_fields.items()
        if any(m is SECRET for m in info.metadata) or _shallow(info.annotation)
    )
    found = (hidden, _shallow(_extra_values(model)))
    _FIELDS[model] = found
    return found


def _shallow(annotation: Any) -> bool:
    """A secret not behind a model class (a model class hides its own secrets in its repr)."""
    if annotation is None:
        return False
    if isinstance(annotation, type):
        return False
    if isinstance(annotation, (str, typing.ForwardRef)):
        return True
    origin = typing.get_origin(annotation)
    if origin is typing.Annotated:
        return any(m is SECRET for m in annotation.__metadata__) or _shallow(annotation.__origin__)
    if origin is typing.Literal:
        return False
    return any(_shallow(arg) for arg in typing.get_args(annotation))


def repr_args(model: BaseModel, hide_all: bool = False) -> Iterator[tuple[str | None, Any]]:
    """pydantic's `__repr_args__`, with secret (or, for injected values, all) values hidden."""
    hidden, hide_extra = (frozenset(), True) if hide_all else repr_hidden(type(model))
    fields = type(model).model_fields
    for name, value in model.__dict__.items():
        info = fields.get(name)
        if info is not None and info.repr:
            yield name, HIDDEN if hide_all or name in hidden else value
    try:
        extra = object.__getattribute__(model, "__pydantic_extra__")
    except AttributeError:
        extra = None
    if extra:
        for key, value in extra.items():
            yield key, HIDDEN if hide_extra else value


def secret_values(model: Any, everything: bool = False) -> set[str]:
    """The values at secret positions of a validated model (all of them when `everything`),
    as text might show them: strings, and numbers written as JSON writes them."""
    found: set[str] = set()
    if isinstance(model, BaseModel):
        _collect_model(model, everything, found, 0)
    return found


def _collect_model(model: BaseModel, everything: bool, out: set[str], depth: int) -> None:
    if depth > 100:
        return
    for name, info in type(model).model_fields.items():
        value = model.__dict__.get(name)
        secret = everything or any(m is SECRET for m in info.metadata)
        _collect(value, info.annotation, secret, out, depth + 1)
    try:
        extra = object.__getattribute__(model, "__pydantic_extra__")
    except AttributeError:
        extra = None
    if extra:
        values = _extra_values(type(model))
        for value in extra.values():
            _collect(value, values, everything, out, depth + 1)


def _collect(value: Any, annotation: Any, secret: bool, out: set[str], depth: int) -> None:
    """Leaves under a secret position go to `out`; elsewhere, follow the annotation down."""
    if depth > 100:
        return
    if isinstance(value, BaseModel):
        _collect_model(value, secret, out, depth + 1)
        return
    args: tuple[Any, ...] = ()
    if not secret:
        if not _holds(annotation, set()):
            return  # nothing secret below
        bare, marked = _strip(annotation)
        args = typing.get_args(bare)
        # The marker here, or a union (or an unknown type) holding a secret: all of it is secret.
        secret = marked or typing.get_origin(bare) not in (list, dict) or not args
    if isinstance(value, dict):
        for item in value.values():
            _collect(item, None if secret else args[-1], secret, out, depth + 1)
    elif isinstance(value, (list, tuple)):
        for item in value:
            _collect(item, None if secret else args[0], secret, out, depth + 1)
    elif secret and value is not None and not isinstance(value, bool):
        out.add(value if isinstance(value, str) else str(value))


def _strip(annotation: Any) -> tuple[Any, bool]:
    """The annotation without `Annotated` layers and `| None`, and whether SECRET was met."""
    marked = False
    while True:
        origin = typing.get_origin(annotation)
        if origin is typing.Annotated:
            marked = marked or any(m is SECRET for m in annotation.__metadata__)
            annotation = annotation.__origin__
        elif origin in _UNION_TYPES:
            members = [m for m in typing.get_args(annotation) if m is not type(None)]
            if len(members) != 1:
                return annotation, marked
            annotation = members[0]
        else:
            return annotation, marked


def redact(text: str, values: Iterable[str]) -> str:
    """`text` with every secret value of at least MIN_REDACTED characters replaced."""
    for value in sorted(values, key=len, reverse=True):  # longest first: no partial leftovers
        if len(value) >= MIN_REDACTED and value in text:
            text = text.replace(value, REDACTED)
    return text


def hide_values(value: Any, values: set[str]) -> Any:
    """JSON `value` as shown to a person or a model: a leaf equal to a secret value (of any
    length) is REDACTED, text holding one (of MIN_REDACTED characters or more) is redacted."""
    if isinstance(value, dict):
        return {k: hide_values(v, values) for k, v in value.items()}
    if isinstance(value, list):
        return [hide_values(v, values) for v in value]
    if value is None or isinstance(value, bool):
        return value
    text = value if isinstance(value, str) else json.dumps(value)
    if text in values:
        return REDACTED
    return redact(value, values) if isinstance(value, str) else value
