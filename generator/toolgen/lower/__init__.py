"""Lower checked tools to the IR: names resolved, models derived, schemas bundled.

Reads the typed spec (spec/model.py) and the bundled schemas of each CheckedTool.
`view` is the part of a tool the provider exporters read; lint exports that view
before lowering (providers/diagnostics.py) and `lower_tool` builds the IR from the
same function, so the two cannot disagree.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from toolgen import __version__
from toolgen.check.context import CheckedTool
from toolgen.ir import ErrorKindIR, FieldIR, ModelIR, PackageIR, ToolIR
from toolgen.lower.results import Results, result_models
from toolgen.lower.typemap import Fields, Leaves, TypeMapper
from toolgen.lower.typeparts import merged
from toolgen.naming import module_name, provider_name, tool_classes
from toolgen.schema.closing import (
    closed as closed,
)  # re-exported: importers and tests take it from here
from toolgen.schema.exactness import exact
from toolgen.spec.model import Deprecation, ToolSpec

EMPTY_PARAMETERS: dict[str, Any] = {
    "type": "object",
    "properties": {},
    "additionalProperties": False,
}


@dataclass(frozen=True)
class ToolView:
    """A tool as the provider exporters see it (providers.base.ToolLike); ToolIR has the same fields."""

    name: str
    provider_name: str
    description: str
    title: str | None
    parameters: dict[str, Any]  # bundled, objects closed
    returns: dict[str, Any] | None  # bundled
    annotations: tuple[tuple[str, bool], ...]
    stability: str = (
        "stable"  # "deprecated": every provider's description says so (providers/__init__.py)
    )
    deprecation: Deprecation | None = None  # why, what instead, the sunset
    namespace: str | None = None  # where it is searched (providers/catalog.py)
    defer: bool = False  # not shown up front: found through tool search
    task: str | None = None  # spec `task`: MCP's taskSupport, where declared
    call_examples: tuple[dict[str, Any], ...] = ()  # arguments of the examples of a valid call


def view(tool: CheckedTool) -> ToolView:
    parameters = tool.schema("parameters")
    given = tool.closed_parameters if isinstance(parameters, dict) and parameters else None
    return view_of(tool.spec, parameters, tool.schema("returns"), given)


def view_of(
    spec: ToolSpec, parameters: Any, returns: Any, closed_parameters: Any = None
) -> ToolView:
    """A spec's view, given its `parameters` and `returns` bundled (self-contained): also what
    `toolgen breaking` exports of each side's tools (breaking/providers.py).
    `closed_parameters`: `parameters` closed already (the check's), used as it is."""
    if closed_parameters is None:
        closed_parameters = closed(
            parameters if isinstance(parameters, dict) and parameters else EMPTY_PARAMETERS
        )
    parameters = closed_parameters
    if "properties" not in parameters:
        parameters = {**parameters, "properties": {}}
    return ToolView(
        name=spec.name,
        provider_name=provider_name(spec.name),
        description=spec.description,
        title=spec.title,
        parameters=parameters,
        returns=returns,
        annotations=spec.annotations.declared(),
        stability=spec.stability,
        deprecation=spec.deprecation,
        namespace=spec.namespace,
        defer=spec.defer,
        task=spec.task,
        call_examples=tuple(e.arguments for e in spec.examples if e.error is None),
    )


@dataclass
class Memos:
    """What the tools of one `lower` share: answers that depend on a schema's content alone."""

    leaves: Leaves = field(default_factory=dict)  # leaf annotations (TypeMapper.leaf)
    fields: Fields = field(default_factory=dict)  # leaf fields (TypeMapper.field)
    results: Results = field(default_factory=dict)  # result models (lower/results.py)


def lower_tool(tool: CheckedTool, memos: Memos | None = None) -> ToolIR:
    """`memos`: shared with the other tools of a `lower` (by default, this tool's own)."""
    memos = Memos() if memos is None else memos
    leaves, fields = memos.leaves, memos.fields
    spec = tool.spec
    seen = view(tool)
    name = spec.name
    classes = tool_classes(name)
    parameters, returns = seen.parameters, seen.returns

    models: list[ModelIR] = []
    recursive: list[str] = []

    defs = parameters.get("$defs", {})
    args = TypeMapper(classes.arguments, defs, role="arguments", leaves=leaves, fields=fields)
    args.taken.add(classes.arguments)
    args.object_model(root_object(parameters, defs), classes.arguments)
    models += args.models
    recursive += sorted(args.recursive)

    result_defs = returns.get("$defs", {}) if isinstance(returns, dict) else {}
    result = TypeMapper(classes.result, result_defs, role="result", leaves=leaves, fields=fields)
    result.taken.update(m.class_name for m in models)
    result.taken.add(classes.result)
    models += result_models(result, returns, tool.returns_text, memos.results)
    recursive += sorted(result.recursive)

    injected_fields: tuple[FieldIR, ...] = ()
    imports = args.names | result.names
    if spec.injected:
        names = list(spec.injected)
        properties = {k: tool.injected_schema(k) for k in names}
        injected = TypeMapper(classes.injected, {}, role="injected", leaves=leaves, fields=fields)
        injected.taken.update(m.class_name for m in models)
        injected.taken.add(classes.injected)
        injected.object_model(
            {"type": "object", "properties": properties, "required": names}, classes.injected
        )
        models += injected.models
        injected_fields = injected.models[-1].fields
        imports |= injected.names

    errors = tuple(
        ErrorKindIR(e.kind, e.description, e.retryable)
        for e in sorted(spec.errors, key=lambda e: e.kind)
    )
    return ToolIR(
        name=name,
        module=module_name(name),
        classes=classes,
        description=seen.description,
        title=seen.title,
        category=spec.category,
        namespace=seen.namespace,
        defer=seen.defer,
        task=seen.task,
        kind=spec.kind,
        stability=spec.stability,
        version=spec.version,
        timeout_s=spec.timeout_s,
        retry=(spec.retry.attempts, spec.retry.backoff_s, spec.retry.max_backoff_s),
        rate_limit=(spec.rate_limit.calls, spec.rate_limit.per_s, spec.rate_limit.wait)
        if spec.rate_limit
        else None,
        cache=(spec.cache.ttl_s, spec.cache.max_entries) if spec.cache else None,
        approval_expires_s=spec.approval_expires_s,
        scopes=tuple(sorted(spec.scopes)),
        flags=tuple(sorted(spec.flags)),
        content=tuple(sorted(spec.content)),
        annotations=seen.annotations,
        errors=errors,
        examples=tuple(e.as_json() for e in spec.examples),
        parameters=parameters,
        returns=returns,
        exact_parameters=tool.exact_parameters
        if parameters is tool.closed_parameters
        else exact(parameters, defs),
        exact_returns=tool.exact_returns,  # `returns` is the tool's bundled one
        injected=injected_fields,
        models=tuple(models),
        recursive=tuple(recursive),
        annotation_names=frozenset(imports),
        provider_name=seen.provider_name,
        source=tool.doc.display,
        deprecation=seen.deprecation,
        renames=renames(parameters),
        deprecated_parameters=deprecated_parameters(
            parameters, _arguments(models, classes.arguments)
        ),
        repair=repairs(parameters),
        call_examples=seen.call_examples,
        guards=(spec.guards.input, spec.guards.output),
    )


def repairs(parameters: Any) -> tuple[str, ...]:
    """`x-repair` on the root of `parameters` (the spec format checks its values): the repairs
    allowed, sorted; `true` is every repair but `truncated` (repair.py says why)."""
    declared = parameters.get("x-repair", False) if isinstance(parameters, dict) else False
    if declared is True:
        # (imported where it is needed: the repairs bring pydantic's model building along)
        from toolgen.runtime.validation.repair import BY_DEFAULT

        return tuple(sorted(BY_DEFAULT))
    return tuple(sorted(declared)) if isinstance(declared, list) else ()


def renames(parameters: dict[str, Any]) -> tuple[tuple[str, str, str | None], ...]:
    """`x-renamed-from` of the properties of the root of `parameters` (where lint allows it),
    by old name: (old name, new name, sunset or None)."""
    found = []
    for name, schema in (parameters.get("properties") or {}).items():
        renamed = schema.get("x-renamed-from") if isinstance(schema, dict) else None
        if isinstance(renamed, dict) and isinstance(renamed.get("name"), str):
            sunset = renamed.get("sunset")
            found.append((renamed["name"], name, sunset if isinstance(sunset, str) else None))
    return tuple(sorted(found))


def deprecated_parameters(
    parameters: dict[str, Any], arguments: ModelIR | None
) -> tuple[tuple[str, str, str | None], ...]:
    """The properties of the root of `parameters` marked `deprecated: true`, in declaration
    order: (wire name, Python name of the field, x-sunset or None)."""
    fields = {f.wire_name: f.python_name for f in arguments.fields} if arguments is not None else {}
    found = []
    for name, schema in (parameters.get("properties") or {}).items():
        if isinstance(schema, dict) and schema.get("deprecated") is True and name in fields:
            sunset = schema.get("x-sunset")
            found.append((name, fields[name], sunset if isinstance(sunset, str) else None))
    return tuple(found)


def _arguments(models: list[ModelIR], name: str) -> ModelIR | None:
    return next((m for m in models if m.class_name == name and m.role == "arguments"), None)


_BRANCHING = ("anyOf", "oneOf", "then", "else")


def root_object(schema: dict[str, Any], defs: dict[str, Any], depth: int = 0) -> dict[str, Any]:
    """The root of `parameters` as one object for the Arguments class, whatever combines it
    (`$ref`, `allOf`, `anyOf`, `oneOf`, `if/then/else`): every key any part declares, required
    where every way to satisfy the root requires it. A superset of the root: the exact check
    (schema/exactness.py says when) refuses what the parts together refuse."""
    out = {k: v for k, v in schema.items() if k not in ("$ref", "allOf", "not", "if", *_BRANCHING)}
    if depth > 8:  # a `$ref` chain: the part read so far is a superset already
        return out
    ref = schema.get("$ref")
    conjuncts = list(schema.get("allOf") or [])
    if isinstance(ref, str) and isinstance(defs.get(ref.removeprefix("#/$defs/")), dict):
        conjuncts.append(defs[ref.removeprefix("#/$defs/")])
    for part in conjuncts:
        if isinstance(part, dict):
            out = merged(out, root_object(part, defs, depth + 1), keep=True)
    ways = [[b for b in schema.get(k) or [] if isinstance(b, dict)] for k in ("anyOf", "oneOf")]
    if isinstance(schema.get("then"), dict) or isinstance(schema.get("else"), dict):
        ways.append(
            [
                b if isinstance(b, dict) else {}
                for b in (schema.get("then", {}), schema.get("else", {}))
            ]
        )
    for branches in (w for w in ways if w):
        parts = [root_object(b, defs, depth + 1) for b in branches]
        properties = dict(out.get("properties") or {})
        for part in parts:
            for key, _sub in (part.get("properties") or {}).items():
                if key not in properties:
                    alternatives = [
                        p["properties"][key] for p in parts if key in (p.get("properties") or {})
                    ]
                    if any(
                        key not in (p.get("properties") or {})
                        and p.get("additionalProperties") is not False
                        for p in parts
                    ):
                        properties[key] = True  # a part that does not declare it takes any value
                    else:
                        properties[key] = (
                            alternatives[0] if len(alternatives) == 1 else {"anyOf": alternatives}
                        )
        if properties:
            out["properties"] = properties
        always = set.intersection(*(set(p.get("required") or []) for p in parts))
        if always:
            out["required"] = sorted(set(out.get("required") or []) | always, key=str)
    return out


def lower(tools: Sequence[CheckedTool], package: str, spec_sha256: str = "") -> PackageIR:
    """`spec_sha256`: the spec set's digest (load.specs.SpecSet.sha256), carried into the package."""
    memos = Memos()
    lowered = sorted((lower_tool(t, memos) for t in tools), key=lambda t: t.name)
    return PackageIR(
        name=package, toolgen_version=__version__, tools=tuple(lowered), spec_sha256=spec_sha256
    )
