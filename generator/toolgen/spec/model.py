"""The spec format as typed values: ToolSpec and its parts, parsed once from a valid tool entry.

The envelope check (check/envelope.py, against spec/schema.json) runs first; `parse` is
only ever given an entry that passed it, so it reads keys without guessing and applies
the format's defaults here, once (`stability: stable`, no flags, no errors, ...).
Schemas (`parameters`, `returns`, `injected`) stay JSON: they are checked and bundled
by the rules that know JSON Schema, and the check context carries the bundled copies.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

MISSING: Any = object()  # an example without `result` (a JSON null result is a value)
ANNOTATION_ORDER = ("read_only", "destructive", "idempotent", "open_world")
# `task` (MCP's taskSupport): the values the format allows (spec/schema.json's enum), each
# with what it means for a call, as a reader of the catalog is told.
TASK_SUPPORT: dict[str, str] = {
    "forbidden": "never: answered at once",
    "optional": "either way",
    "required": "only as a task (a long call)",
}


class SpecModelError(ValueError):
    """A tool entry that does not have the shape the spec format promises (an envelope bug)."""


@dataclass(frozen=True)
class Annotations:
    """MCP behaviour hints; None where the spec does not say."""

    read_only: bool | None = None
    destructive: bool | None = None
    idempotent: bool | None = None
    open_world: bool | None = None

    def declared(self) -> tuple[tuple[str, bool], ...]:
        """The hints the spec gives, in the format's order: (("read_only", True), ...)."""
        return tuple(
            (key, value) for key in ANNOTATION_ORDER if (value := getattr(self, key)) is not None
        )


@dataclass(frozen=True)
class ErrorKind:
    kind: str
    description: str
    retryable: bool = False


@dataclass(frozen=True)
class Retry:
    """`retry`: calls in all after retryable failures, and the waits between them."""

    attempts: int = 1
    backoff_s: float = 0.0
    max_backoff_s: float | None = None


@dataclass(frozen=True)
class RateLimit:
    """`rate_limit`: at most `calls` calls in any `per_s` seconds; past it, wait or fail."""

    calls: int
    per_s: float
    wait: bool = False


@dataclass(frozen=True)
class Cache:
    """`cache`: a successful result kept `ttl_s` seconds, at most `max_entries` of them."""

    ttl_s: float
    max_entries: int = 1024


@dataclass(frozen=True)
class Guards:
    """`guards`: the names of the host's input guards and output guards, in order."""

    input: tuple[str, ...] = ()
    output: tuple[str, ...] = ()


@dataclass(frozen=True)
class Deprecation:
    """`deprecated` (and `sunset`): why the tool is deprecated, what to use instead, its last day."""

    reason: str
    replacement: str | None = None
    sunset: str | None = None  # YYYY-MM-DD


@dataclass(frozen=True)
class Example:
    arguments: dict[str, Any]
    result: Any = MISSING
    description: str | None = None
    error: str | None = None
    written: Mapping[str, Any] | None = None  # the entry as the spec wrote it (key order kept)

    @property
    def has_result(self) -> bool:
        return self.result is not MISSING

    def as_json(self) -> dict[str, Any]:
        if self.written is not None:
            return dict(self.written)
        out: dict[str, Any] = {}
        if self.description is not None:
            out["description"] = self.description
        out["arguments"] = self.arguments
        if self.has_result:
            out["result"] = self.result
        if self.error is not None:
            out["error"] = self.error
        return out


@dataclass(frozen=True)
class ToolSpec:
    """One tool of spec format v1, defaults applied."""

    name: str
    description: str = ""  # absent and empty read the same (the description rule reports both)
    title: str | None = None
    parameters: Any = None  # JSON Schema as written (an object, or a boolean); None: no arguments
    returns: Any = None  # JSON Schema as written (an object or a boolean); None: not declared
    has_returns: bool = False
    category: str | None = None
    namespace: str | None = None  # `namespace`, else the category (where tools are searched)
    defer: bool = False  # `defer`: found through tool search, not shown up front
    task: str | None = None  # `task`: a key of TASK_SUPPORT (MCP's taskSupport)
    kind: str | None = None  # code | utility | return | system
    stability: str = "stable"  # stable | experimental | deprecated (implied by `deprecated`)
    deprecation: Deprecation | None = None  # `deprecated` and `sunset`
    version: str | None = None
    timeout_s: float | None = None
    retry: Retry = Retry()
    rate_limit: RateLimit | None = None
    cache: Cache | None = None
    approval_expires_s: float | None = None  # `approval: {expires_s}`: its records' lifetime
    guards: Guards = Guards()  # `guards`: the host's guards by name, before and after the run
    scopes: tuple[str, ...] = ()  # `auth: {scopes}`: what a caller's token must hold (unique)
    flags: tuple[str, ...] = ()  # as declared (unique)
    content: tuple[str, ...] = ()  # kinds of content blocks the tool may return (unique)
    annotations: Annotations = Annotations()
    injected: tuple[str, ...] = ()  # names of the host-supplied values, as declared
    errors: tuple[ErrorKind, ...] = ()  # as declared
    examples: tuple[Example, ...] = ()

    @classmethod
    def parse(cls, entry: Mapping[str, Any]) -> ToolSpec:
        """A tool entry the envelope accepted -> ToolSpec. Raises SpecModelError on anything else."""
        return _parse(entry)


def _get(
    entry: Mapping[str, Any], key: str, kind: type | tuple[type, ...], default: Any = None
) -> Any:
    if key not in entry:
        return default
    value = entry[key]
    if not isinstance(value, kind) or isinstance(value, bool) and bool not in _types(kind):
        raise SpecModelError(f"{key!r} is {type(value).__name__}, not what the spec format allows")
    return value


def _types(kind: type | tuple[type, ...]) -> tuple[type, ...]:
    return kind if isinstance(kind, tuple) else (kind,)


def _retry(declared: Mapping[str, Any]) -> Retry:
    if not declared:
        return Retry()
    attempts = _get(declared, "attempts", int, 1)
    backoff = _get(declared, "backoff_s", (int, float), 0.0)
    most = _get(declared, "max_backoff_s", (int, float))
    return Retry(attempts, float(backoff), float(most) if most is not None else None)


def _rate_limit(declared: Mapping[str, Any] | None) -> RateLimit | None:
    if declared is None:
        return None
    per = _get(declared, "per_s", (int, float))
    return RateLimit(
        _get(declared, "calls", int), float(per), declared.get("when_exceeded") == "wait"
    )


def _cache(declared: Mapping[str, Any] | None) -> Cache | None:
    if declared is None:
        return None
    return Cache(
        float(_get(declared, "ttl_s", (int, float))), _get(declared, "max_entries", int, 1024)
    )


def _expires(declared: Mapping[str, Any] | None) -> float | None:
    expires = None if declared is None else _get(declared, "expires_s", (int, float))
    return float(expires) if expires is not None else None


def _guards(declared: Mapping[str, Any]) -> Guards:
    return Guards(
        tuple(_get(declared, "input", list, [])), tuple(_get(declared, "output", list, []))
    )


def _deprecation(entry: Mapping[str, Any]) -> Deprecation | None:
    declared = _get(entry, "deprecated", dict)
    if declared is None:
        return None  # a `sunset` alone is an error (check/rules/deprecation.py), read as nothing
    return Deprecation(
        _get(declared, "reason", str),
        _get(declared, "replacement", str),
        _get(entry, "sunset", str),
    )


def _parse(entry: Mapping[str, Any]) -> ToolSpec:
    hints = _get(entry, "annotations", dict, {})
    errors = _get(entry, "errors", dict, {})
    timeout = _get(entry, "timeout_s", (int, float))
    deprecation = _deprecation(entry)
    return ToolSpec(
        name=_get(entry, "name", str),
        description=_get(entry, "description", str, ""),
        title=_get(entry, "title", str),
        parameters=entry.get("parameters"),
        returns=entry.get("returns"),
        has_returns="returns" in entry,
        category=_get(entry, "category", str),
        namespace=_get(entry, "namespace", str, _get(entry, "category", str)),
        defer=_get(entry, "defer", bool, False),
        task=_get(entry, "task", str),
        kind=_get(entry, "kind", str),
        # `deprecated` implies the stability; declaring another one beside it is an error (the rule).
        stability="deprecated"
        if deprecation is not None
        else _get(entry, "stability", str, "stable"),
        deprecation=deprecation,
        version=_get(entry, "version", str),
        timeout_s=float(timeout) if timeout is not None else None,
        retry=_retry(_get(entry, "retry", dict, {})),
        rate_limit=_rate_limit(_get(entry, "rate_limit", dict)),
        cache=_cache(_get(entry, "cache", dict)),
        approval_expires_s=_expires(_get(entry, "approval", dict)),
        guards=_guards(_get(entry, "guards", dict, {})),
        scopes=tuple(_get(_get(entry, "auth", dict, {}), "scopes", list, [])),
        flags=tuple(_get(entry, "flags", list, [])),
        content=tuple(_get(entry, "content", list, [])),
        annotations=Annotations(**{k: _get(hints, k, bool) for k in ANNOTATION_ORDER}),
        injected=tuple(_get(entry, "injected", dict, {})),
        errors=tuple(
            ErrorKind(kind, _get(spec, "description", str), _get(spec, "retryable", bool, False))
            for kind, spec in errors.items()
        ),
        examples=tuple(_example(e) for e in _get(entry, "examples", list, [])),
    )


def _example(entry: Any) -> Example:
    if not isinstance(entry, dict):
        raise SpecModelError("an example is not a mapping")
    return Example(
        arguments=_get(entry, "arguments", dict),
        result=entry.get("result", MISSING),
        description=_get(entry, "description", str),
        error=_get(entry, "error", str),
        written=entry,
    )
