"""JSON Schema -> Python type expressions and the pydantic classes they need.

One `TypeMapper` per model tree (a tool's arguments, result or injected values). Class
names are local to the tool's module, derived from property paths, so adding or
removing another tool never renames anything here.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any

import pydantic_core
from pydantic_core import core_schema

from .ir import MISSING, FieldIR, ModelIR
from .naming import class_name, field_name, unique
from .render.literals import py_literal

LITERAL_TYPES = (str, int, bool, type(None))
ANY = "Any"


@dataclass(frozen=True)
class Annotation:
    """A type expression as the members of a union (most often one)."""

    parts: tuple[str, ...]
    forward: bool = False  # mentions a class defined later (recursion): quote the whole annotation

    @classmethod
    def of(cls, text: str, forward: bool = False) -> Annotation:
        return cls((text,), forward)

    @property
    def text(self) -> str:
        return " | ".join(self.parts)

    @property
    def nullable(self) -> bool:
        return "None" in self.parts or any(p.startswith("Literal[") and "None" in p for p in self.parts)


def _rust_regex_ok(pattern: str) -> bool:
    try:
        pydantic_core.SchemaValidator(core_schema.str_schema(pattern=pattern))
        return True
    except pydantic_core.SchemaError:
        return False


def python_regex_ok(pattern: str) -> bool:
    try:
        re.compile(pattern)
        return True
    except re.error:
        return False


@dataclass
class TypeMapper:
    prefix: str  # e.g. "GetWeatherArguments"
    defs: dict[str, Any]
    extra: str  # "forbid" for arguments, "ignore" for results
    strict: bool
    models: list[ModelIR] = field(default_factory=list)
    taken: set[str] = field(default_factory=set)
    def_classes: dict[str, str] = field(default_factory=dict)
    building: set[str] = field(default_factory=set)
    recursive: set[str] = field(default_factory=set)
    python_regex: bool = False

    # --- classes ---------------------------------------------------------------

    def new_class_name(self, hint: str) -> str:
        """A class name from a CamelCase hint (already prefixed), unique in this module."""
        base = class_name(hint)
        name = unique([*sorted(self.taken), base])[-1]
        self.taken.add(name)
        return name

    def object_model(self, schema: dict[str, Any], name: str) -> str:
        """Emit a class for an object schema with declared properties; returns its name."""
        self.building.add(name)
        saved, self.python_regex = self.python_regex, False
        properties: dict[str, Any] = schema.get("properties") or {}
        required = set(schema.get("required") or [])
        python_names = unique(field_name(wire) for wire in properties)
        fields = tuple(
            self.field(wire, python, sub, wire in required, name)
            for (wire, sub), python in zip(properties.items(), python_names, strict=True)
        )
        additional = schema.get("additionalProperties", False)
        extra = "allow" if additional not in (False, None) and self.extra == "forbid" else self.extra
        description = schema.get("description") if isinstance(schema.get("description"), str) else None
        self.models.append(ModelIR(name, description, fields, extra, self.strict, python_regex=self.python_regex))
        self.python_regex = saved
        self.building.discard(name)
        return name

    def field(self, wire: str, python: str, schema: Any, required: bool, owner: str) -> FieldIR:
        annotation = self.annotation(schema, class_name(owner, wire) if owner else wire)
        nullable = annotation.nullable
        default = schema.get("default", MISSING) if isinstance(schema, dict) else MISSING
        text = annotation.text
        if not required and default is MISSING and not nullable:
            text = f"{text} | None"  # absent reads as None; an explicit null means absent too
        if annotation.forward:
            text = repr(text)
        description = schema.get("description") if isinstance(schema, dict) else None
        secret = bool(isinstance(schema, dict) and schema.get("x-secret"))
        return FieldIR(wire, python, text, required, nullable, default, description if isinstance(description, str) else None, secret)

    # --- annotations ------------------------------------------------------------

    def annotation(self, schema: Any, hint: str) -> Annotation:
        if not isinstance(schema, dict):
            return Annotation.of(ANY)
        if "$ref" in schema:
            return self.reference(schema["$ref"], hint)
        if "const" in schema:
            return self.literal([schema["const"]])
        if "enum" in schema and isinstance(schema["enum"], list):
            return self.literal(schema["enum"])
        for combinator in ("anyOf", "oneOf"):
            if isinstance(schema.get(combinator), list):
                base = {k: v for k, v in schema.items() if k not in (combinator, "description", "title", "default")}
                return self.union([self.annotation({**base, **branch} if isinstance(branch, dict) else branch, hint)
                                   for branch in schema[combinator]])
        if isinstance(schema.get("allOf"), list):
            return self.all_of(schema, hint)
        types = schema.get("type")
        if isinstance(types, list):
            return self.union([self.annotation({**schema, "type": t}, hint) for t in types])
        if types is None:
            types = "object" if "properties" in schema else "array" if "items" in schema else None
        return self.typed(types, schema, hint)

    def typed(self, kind: str | None, schema: dict[str, Any], hint: str) -> Annotation:
        if kind == "string":
            return self.constrained("str", schema, {"minLength": "min_length", "maxLength": "max_length", "pattern": "pattern"})
        if kind in ("integer", "number"):
            keys = {"minimum": "ge", "maximum": "le", "exclusiveMinimum": "gt", "exclusiveMaximum": "lt", "multipleOf": "multiple_of"}
            return self.constrained("int" if kind == "integer" else "float", schema, keys)
        if kind == "boolean":
            return Annotation.of("bool")
        if kind == "null":
            return Annotation.of("None")
        if kind == "array":
            items = schema.get("items")
            inner = self.annotation(items, f"{hint}Item") if isinstance(items, dict) and "prefixItems" not in schema else Annotation.of(ANY)
            return self.constrained(f"list[{inner.text}]", schema, {"minItems": "min_length", "maxItems": "max_length"}, inner.forward)
        if kind == "object":
            return self.object(schema, hint)
        return Annotation.of(ANY)

    def object(self, schema: dict[str, Any], hint: str) -> Annotation:
        properties = schema.get("properties")
        additional = schema.get("additionalProperties", True)
        if properties or additional is False:
            return Annotation.of(self.object_model(schema, self.new_class_name(hint)))
        if isinstance(additional, dict) and additional:
            value = self.annotation(additional, f"{hint}Value")
            return Annotation.of(f"dict[str, {value.text}]", value.forward)
        return Annotation.of(f"dict[str, {ANY}]")

    def reference(self, ref: str, hint: str) -> Annotation:
        name = ref.removeprefix("#/$defs/")
        target = self.defs.get(name)
        if not isinstance(target, dict):
            return Annotation.of(ANY)
        if name in self.def_classes:
            cls = self.def_classes[name]
            if cls in self.building:
                self.recursive.add(cls)
                return Annotation.of(cls, forward=True)
            return Annotation.of(cls)
        is_object = target.get("type") == "object" or ("properties" in target and "type" not in target)
        if is_object and (target.get("properties") or target.get("additionalProperties") is False):
            cls = self.new_class_name(class_name(self.prefix, name))
            self.def_classes[name] = cls
            self.object_model(target, cls)
            return Annotation.of(cls)
        if name in self.building:  # a recursive non-object definition
            return Annotation.of(ANY)
        self.building.add(name)
        try:
            return self.annotation(target, hint)
        finally:
            self.building.discard(name)

    def literal(self, values: list[Any]) -> Annotation:
        if not values or not all(isinstance(v, LITERAL_TYPES) for v in values):
            return Annotation.of(ANY)  # floats, arrays or objects in an enum: checked by the runtime
        return Annotation.of("Literal[" + ", ".join(py_literal(v) for v in values) + "]")

    def union(self, parts: list[Annotation]) -> Annotation:
        texts: list[str] = []
        for part in parts:
            texts.extend(t for t in part.parts if t not in texts)
        if ANY in texts:
            return Annotation.of(ANY)
        if "None" in texts:  # None last reads best
            texts = [t for t in texts if t != "None"] + ["None"]
        return Annotation(tuple(texts), any(p.forward for p in parts))

    def all_of(self, schema: dict[str, Any], hint: str) -> Annotation:
        branches = [self._resolve(b) for b in schema["allOf"]]
        base = {k: v for k, v in schema.items() if k != "allOf"}
        if all(isinstance(b, dict) for b in branches):
            merged: dict[str, Any] = dict(base)
            for branch in branches:
                for key, value in branch.items():
                    if key == "properties":
                        merged["properties"] = {**merged.get("properties", {}), **value}
                    elif key == "required":
                        merged["required"] = sorted(set(merged.get("required", [])) | set(value))
                    else:
                        merged.setdefault(key, value)
            return self.annotation(merged, hint)
        return Annotation.of(ANY)

    def _resolve(self, schema: Any) -> Any:
        if isinstance(schema, dict) and "$ref" in schema:
            return self.defs.get(schema["$ref"].removeprefix("#/$defs/"), schema)
        return schema

    def constrained(self, base: str, schema: dict[str, Any], keys: dict[str, str], forward: bool = False) -> Annotation:
        args: list[str] = []
        for key, argument in keys.items():
            value = schema.get(key)
            if value is None or isinstance(value, bool):
                continue
            if key == "pattern":
                if not isinstance(value, str) or not python_regex_ok(value):
                    continue  # lint reports it; never break the generated module
                if not _rust_regex_ok(value):
                    self.python_regex = True
            args.append(f"{argument}={py_literal(value)}")
        if not args:
            return Annotation.of(base, forward)
        return Annotation.of(f"Annotated[{base}, Field({', '.join(args)})]", forward)
