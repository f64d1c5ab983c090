"""Lower checked tools to the IR: names resolved, models derived, schemas bundled."""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from typing import Any

from . import __version__
from .ir import ErrorKindIR, FieldIR, ModelIR, PackageIR, ToolIR
from .lint import CheckedTool
from .naming import class_name, module_name, provider_name
from .typemap import TypeMapper

EMPTY_PARAMETERS: dict[str, Any] = {"type": "object", "properties": {}, "additionalProperties": False}
ANNOTATION_ORDER = ("read_only", "destructive", "idempotent", "open_world")


# Where JSON Schema keeps subschemas; every other keyword's value is data (const, enum,
# default, examples, x-...), and a map's keys are names, never keywords.
SCHEMA_MAPS = ("properties", "patternProperties", "$defs", "definitions", "dependentSchemas")
SCHEMA_LISTS = ("allOf", "anyOf", "oneOf", "prefixItems")
SCHEMA_VALUES = ("items", "additionalProperties", "additionalItems", "unevaluatedItems", "unevaluatedProperties",
                 "not", "contains", "propertyNames", "if", "then", "else", "contentSchema")
# Subschemas that add conditions to the object around them rather than describe it whole:
# closed, `if: {properties: {unit: {const: c}}}` would refuse every other key of the object.
# (`dependentSchemas` entries too.)
PARTIAL = frozenset({"not", "if", "then", "else"})


def closed(schema: Any, close: bool = True, open_defs: frozenset[str] | None = None) -> Any:
    """Arguments are closed wherever properties are declared (no silent drops of a typo).

    Not an `allOf` branch, nor a definition an `allOf` branch refers to: closed, each
    branch would refuse the others' properties. (The Python model of a merged `allOf`
    is closed all the same: typemap merges the branches into one class.)
    """
    if not isinstance(schema, dict):
        return schema
    if open_defs is None:
        open_defs = frozenset(_all_of_refs(schema))
    out: dict[str, Any] = {}
    for key, value in schema.items():
        if key in SCHEMA_MAPS and isinstance(value, dict):
            out[key] = {name: closed(sub, key != "dependentSchemas" and not (key == "$defs" and name in open_defs),
                                     open_defs) for name, sub in value.items()}
        elif key in SCHEMA_LISTS and isinstance(value, list):
            out[key] = [closed(sub, key != "allOf", open_defs) for sub in value]
        elif key in SCHEMA_VALUES:
            out[key] = closed(value, key not in PARTIAL, open_defs)
        else:
            out[key] = value
    if close and "properties" in out and "additionalProperties" not in out:
        out["additionalProperties"] = False
    return out


def _all_of_refs(schema: Any) -> Iterator[str]:
    """Names of the `#/$defs/...` that some `allOf` lists as a branch."""
    if not isinstance(schema, dict):
        return
    for key, value in schema.items():
        if key in SCHEMA_MAPS and isinstance(value, dict):
            for sub in value.values():
                yield from _all_of_refs(sub)
        elif key in SCHEMA_LISTS and isinstance(value, list):
            for sub in value:
                if key == "allOf" and isinstance(sub, dict) and isinstance(sub.get("$ref"), str):
                    yield sub["$ref"].removeprefix("#/$defs/")
                yield from _all_of_refs(sub)
        elif key in SCHEMA_VALUES:
            yield from _all_of_refs(value)


def lower_tool(tool: CheckedTool) -> ToolIR:
    data = tool.data
    name: str = data["name"]
    prefix = class_name(name)
    parameters = closed(tool.schema("parameters") or EMPTY_PARAMETERS)
    parameters.setdefault("properties", {})
    returns = tool.schema("returns")

    models: list[ModelIR] = []
    recursive: list[str] = []

    args = TypeMapper(f"{prefix}Arguments", parameters.get("$defs", {}), extra="forbid", strict=True)
    args.taken.add(f"{prefix}Arguments")
    args.object_model(parameters, f"{prefix}Arguments")
    models += args.models
    recursive += sorted(args.recursive)

    result = TypeMapper(f"{prefix}Result", (returns or {}).get("$defs", {}), extra="ignore", strict=False)
    result.taken.update(m.class_name for m in models)
    result.taken.add(f"{prefix}Result")
    if isinstance(returns, dict) and (returns.get("type") == "object" and "properties" in returns):
        result.object_model(returns, f"{prefix}Result")
        models += result.models
    else:
        root = result.annotation(returns, f"{prefix}ResultValue") if returns is not None else None
        models += result.models
        text = root.text if root is not None else "Any"
        models.append(ModelIR(f"{prefix}Result", None, (), "ignore", False, root=repr(text) if root and root.forward else text))
    recursive += sorted(result.recursive)

    injected_fields: tuple[FieldIR, ...] = ()
    if data.get("injected"):
        names = list(data["injected"])
        properties = {k: tool.schemas[tool.source.at(f"/injected/{k}")] for k in names}
        injected = TypeMapper(f"{prefix}Injected", {}, extra="forbid", strict=False)
        injected.taken.update(m.class_name for m in models)
        injected.taken.add(f"{prefix}Injected")
        injected.object_model({"type": "object", "properties": properties, "required": names}, f"{prefix}Injected")
        models += injected.models
        injected_fields = injected.models[-1].fields

    errors = tuple(
        ErrorKindIR(kind, spec["description"], bool(spec.get("retryable", False)))
        for kind, spec in sorted((data.get("errors") or {}).items())
    )
    annotations = data.get("annotations") or {}
    return ToolIR(
        name=name,
        module=module_name(name),
        prefix=prefix,
        description=str(data.get("description", "")),
        title=data.get("title"),
        category=data.get("category"),
        kind=data.get("kind"),
        stability=data.get("stability", "stable"),
        version=data.get("version"),
        timeout_s=float(data["timeout_s"]) if "timeout_s" in data else None,
        flags=tuple(sorted(data.get("flags") or [])),
        annotations=tuple((k, bool(annotations[k])) for k in ANNOTATION_ORDER if k in annotations),
        errors=errors,
        examples=tuple(data.get("examples") or ()),
        parameters=parameters,
        returns=returns,
        injected=injected_fields,
        models=tuple(models),
        recursive=tuple(recursive),
        provider_name=provider_name(name),
        source=tool.doc.display,
    )


def lower(tools: Sequence[CheckedTool], package: str) -> PackageIR:
    lowered = sorted((lower_tool(t) for t in tools), key=lambda t: t.name)
    return PackageIR(name=package, toolgen_version=__version__, tools=tuple(lowered))
