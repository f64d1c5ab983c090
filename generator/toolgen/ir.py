"""The intermediate representation: everything the renderer and exporters need, resolved once.

Frozen dataclasses; Python names are final here. Schemas are kept as bundled JSON
(self-contained, every `$ref` local) for exporters and the runtime.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from toolgen.naming import ToolClasses
from toolgen.spec.model import Deprecation

MISSING: Any = object()  # no default


@dataclass(frozen=True)
class FieldIR:
    wire_name: str
    python_name: str
    annotation: str  # a Python type expression
    required: bool
    nullable: bool
    default: Any = MISSING  # a JSON value, or MISSING
    description: str | None = None
    secret: bool = False
    constraints: tuple[
        str, ...
    ] = ()  # Field(...) arguments on the field's own type, e.g. `max_length=3`

    @property
    def aliased(self) -> bool:
        return self.wire_name != self.python_name


@dataclass(frozen=True)
class ModelIR:
    """One pydantic class. `root` set means a RootModel over that annotation."""

    class_name: str
    description: str | None
    fields: tuple[FieldIR, ...]
    extra: str  # "forbid" | "allow"
    role: str  # "arguments" | "result" | "injected": the runtime base class it subclasses
    root: str | None = None
    extra_values: str | None = (
        None  # the type of undeclared keys' values (additionalProperties schema)
    )


@dataclass(frozen=True)
class ErrorKindIR:
    kind: str
    description: str
    retryable: bool


@dataclass(frozen=True)
class ToolIR:
    name: str  # canonical, as in the spec
    module: str  # Python module under tools/
    classes: ToolClasses  # the names of its classes (naming.tool_classes: the one rule)
    description: str
    title: str | None
    category: str | None
    namespace: str | None  # spec `namespace`, else the category
    defer: bool  # spec `defer`: found through tool search, not shown up front
    kind: str | None
    stability: str
    version: str | None
    timeout_s: float | None
    retry: tuple[
        int, float, float | None
    ]  # attempts, first backoff, longest backoff (spec `retry`)
    rate_limit: tuple[int, float, bool] | None  # calls, per seconds, wait (else fail)
    cache: tuple[float, int] | None  # ttl seconds, most entries
    approval_expires_s: float | None  # how long its approval records may be resumed
    scopes: tuple[str, ...]  # spec `auth: {scopes}`: what a caller's token must hold, sorted
    flags: tuple[str, ...]
    content: tuple[str, ...]  # kinds of content blocks it may return (spec `content`), sorted
    annotations: tuple[tuple[str, bool], ...]
    errors: tuple[ErrorKindIR, ...]
    examples: tuple[dict[str, Any], ...]
    parameters: dict[str, Any]  # bundled JSON Schema of the model-visible arguments
    returns: dict[str, Any] | None
    # Whether the models enforce `parameters` and `returns` exactly (schema/exactness.py); where
    # not, the module carries the schema for the runtime's exact check.
    exact_parameters: bool
    exact_returns: bool
    injected: tuple[FieldIR, ...]
    models: tuple[ModelIR, ...]  # dependency order: a class comes after the classes it uses
    recursive: tuple[str, ...]  # classes that need model_rebuild()
    annotation_names: frozenset[
        str
    ]  # what its annotations import: typing names, `Field`, `_types` (typemap)
    provider_name: str
    source: str  # spec file, relative to the specs root
    deprecation: Deprecation | None = (
        None  # spec `deprecated` and `sunset` (stability is then "deprecated")
    )
    # `x-renamed-from` on properties of the root of `parameters`: (old name, new wire name, sunset).
    renames: tuple[tuple[str, str, str | None], ...] = ()
    # Properties of the root of `parameters` marked `deprecated: true`: (wire name, Python name, x-sunset).
    deprecated_parameters: tuple[tuple[str, str, str | None], ...] = ()
    repair: tuple[
        str, ...
    ] = ()  # `x-repair` on the root of `parameters`: the repairs allowed, sorted
    # The arguments of the examples of a call that succeeds (no `error`), in order: Anthropic's
    # `input_examples`, and what a refused call is shown (lower.view).
    call_examples: tuple[dict[str, Any], ...] = ()
    task: str | None = None  # spec `task`: forbidden | optional | required (MCP's taskSupport)
    # Spec `guards`: the names of the host's input guards and output guards, in order.
    guards: tuple[tuple[str, ...], tuple[str, ...]] = ((), ())

    @property
    def arguments_class(self) -> str:
        return self.classes.arguments

    @property
    def result_class(self) -> str:
        return self.classes.result

    @property
    def injected_class(self) -> str:
        return self.classes.injected

    @property
    def interface_class(self) -> str:
        return self.classes.interface

    @property
    def secret_paths(self) -> tuple[str, ...]:
        return tuple(f.wire_name for f in self.injected if f.secret)


@dataclass(frozen=True)
class PackageIR:
    name: str  # the import name of the generated package
    toolgen_version: str
    tools: tuple[ToolIR, ...]  # sorted by canonical name
    spec_sha256: str = (
        ""  # of the spec set the package was generated from (load.specs.SpecSet.sha256)
    )
