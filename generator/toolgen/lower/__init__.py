"""Lower checked tools to the IR: names resolved, models derived, schemas bundled."""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from typing import Any

from toolgen import __version__
from toolgen.check.context import CheckedTool
from toolgen.ir import ErrorKindIR, FieldIR, ModelIR, PackageIR, ToolIR
from toolgen.lower.typemap import TypeMapper
from toolgen.naming import class_name, module_name, provider_name
from toolgen.schema.closing import closed

EMPTY_PARAMETERS: dict[str, Any] = {"type": "object", "properties": {}, "additionalProperties": False}
ANNOTATION_ORDER = ("read_only", "destructive", "idempotent", "open_world")


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
