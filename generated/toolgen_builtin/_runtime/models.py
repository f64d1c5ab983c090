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
from typing import Any

from pydantic import BaseModel, ConfigDict

from .secrets import repr_args

__all__ = ["ArgumentsModel", "InjectedModel", "ResultModel"]


class ArgumentsModel(BaseModel):
    """Arguments as a model sends them: exactly the declared keys, by wire name, strictly typed.

    Python names are for Python code: an open object's `from_` is an undeclared key, not
    the field `from`.
    """

    model_config = ConfigDict(
        extra="forbid",
        strict=True,
        validate_by_name=False,
        validate_by_alias=True,
        serialize_by_alias=True,
    )

    def __repr_args__(self) -> Iterator[tuple[str | None, Any]]:
        return repr_args(self)


class ResultModel(BaseModel):
    """A tool's result: tolerant of keys the spec does not declare, built by wire or Python name."""

    model_config = ConfigDict(
        extra="ignore", validate_by_name=True, validate_by_alias=True, serialize_by_alias=True
    )


class InjectedModel(BaseModel):
    """Values the host injects: exactly the declared keys, by wire name (the host's own values)."""

    model_config = ConfigDict(
        extra="forbid", validate_by_name=False, validate_by_alias=True, serialize_by_alias=True
    )

    def __repr_args__(self) -> Iterator[tuple[str | None, Any]]:
        return repr_args(self, hide_all=True)
