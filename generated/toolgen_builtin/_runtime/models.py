# Part of toolgen's runtime, copied verbatim into generated packages (edit toolgen, not a copy).
"""The base classes of every generated model, carrying the pydantic configuration they share.

A generated class subclasses one of these and states only what differs (pydantic merges
a subclass's `model_config` into its base's): an open object's `extra="allow"`, the
`python-re` regex engine for a pattern the default engine cannot compile, or
`protected_namespaces=()` for a field named `model_...`.
"""

from __future__ import annotations

from pydantic import BaseModel, ConfigDict

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
