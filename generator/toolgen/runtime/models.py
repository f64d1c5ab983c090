# Part of toolgen's runtime, copied verbatim into generated packages (edit toolgen, not a copy).
"""The base classes of every generated model, carrying the pydantic configuration they share.

A generated class subclasses one of these and states only what differs (pydantic merges
a subclass's `model_config` into its base's): an open object's `extra="allow"`, the
`python-re` regex engine for a pattern the default engine cannot compile, or
`protected_namespaces=()` for a field named `model_...`.

`repr()` (and `str()`, which tracebacks, logs and test reports print) never shows a secret:
an Arguments model hides the values of its `x-secret` positions (secrets.py), an Injected
model hides every value (the host's own, often credentials).
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any, ClassVar, Protocol

from pydantic import BaseModel, ConfigDict

from .errors import ArgumentIssue
from .secrets import repr_args

__all__ = ["ArgumentsModel", "Exact", "InjectedModel", "ResultModel"]


class Exact(Protocol):
    """The exact check of a schema (exact.Checker): what a generated class cannot express."""

    def is_valid(self, instance: Any) -> bool: ...

    def issues(self, instance: Any, limit: int = 20) -> list[ArgumentIssue]: ...


class ArgumentsModel(BaseModel):
    """Arguments as a model sends them: exactly the declared keys, by wire name, strictly typed.

    Python names are for Python code: an open object's `from_` is an undeclared key, not
    the field `from`.
    """

    model_config = ConfigDict(
        extra="forbid",
        strict=True,
        allow_inf_nan=False,
        validate_by_name=False,
        validate_by_alias=True,
        serialize_by_alias=True,
    )
    # Set by a generated class whose schema it cannot enforce alone: run on the arguments
    # (as sent, once repaired) after the class accepted them. None: the class is exact.
    __exact__: ClassVar[Exact | None] = None
    # Set by a generated class with renamed parameters (`x-renamed-from`): the old names a
    # call may still send (deprecation.Rename), read only once strict validation failed.
    # Typed without naming the class: shape.py resolves these annotations at run time.
    __renames__: ClassVar[tuple[Any, ...]] = ()

    def __repr_args__(self) -> Iterator[tuple[str | None, Any]]:
        return repr_args(self)


class ResultModel(BaseModel):
    """A tool's result, as strict as arguments (JSON's types), built by wire or Python name.

    Keys the spec does not declare are kept where `returns` leaves the object open, refused
    where it closes it (a generated class says `extra="forbid"`)."""

    model_config = ConfigDict(
        extra="allow",
        strict=True,
        allow_inf_nan=False,
        validate_assignment=True,  # a result changed after it was built is checked again
        validate_by_name=True,
        validate_by_alias=True,
        serialize_by_alias=True,
    )
    # As for arguments: run on the result's JSON after the class accepted it.
    __exact__: ClassVar[Exact | None] = None


class InjectedModel(BaseModel):
    """Values the host injects: exactly the declared keys, by wire name (the host's own values)."""

    model_config = ConfigDict(
        extra="forbid", validate_by_name=False, validate_by_alias=True, serialize_by_alias=True
    )

    def __repr_args__(self) -> Iterator[tuple[str | None, Any]]:
        return repr_args(self, hide_all=True)
