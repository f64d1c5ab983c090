"""JSON Schema -> Python type expressions and the pydantic classes they need.

One `TypeMapper` per model tree (a tool's arguments, result or injected values). Class
names are local to the tool's module, derived from property paths, so adding or
removing another tool never renames anything here. Each annotation carries the names it
needs imported (`Annotated`, `Any`, `Literal`, `Field`, `_types`); a mapper collects those
of the annotations it commits to fields, so a tool module imports exactly what it uses.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from typing import Any, NamedTuple

from toolgen.ir import MISSING, FieldIR, ModelIR
from toolgen.literals import py_literal, py_string
from toolgen.lower.annotation import (
    ANNOTATED,
    ANY,
    ANY_TYPE,
    FIELD,
    FIELDS,
    TYPES,
    Annotation,
)
from toolgen.lower.typeparts import (
    INTEGER,
    constrained,
    declared_coercions,
    integer_bounds,
    literal,
    merged,
    secret_annotation,
    union,
)
from toolgen.naming import class_name, field_name, unique
from toolgen.schema.exactness import compiled_multiple, compiled_pattern, compiled_unique


class FieldType(NamedTuple):
    """What a field takes of its annotation: the text, with the constraints of a constrained
    part lifted into the field's own Field(), and the names it needs imported."""

    text: str
    names: frozenset[str]
    constraints: tuple[str, ...]
    nullable: bool
    forward: bool

    @classmethod
    def of(cls, annotation: Annotation) -> FieldType:
        nullable, forward = annotation.nullable, annotation.forward
        if annotation.constraints and annotation.bare is not None:
            text, names = annotation.lifted()
            return cls(text, names, annotation.constraints, nullable, forward)
        return cls(annotation.text, annotation.names, (), nullable, forward)


Leaves = dict[tuple[str, frozenset[str], str], FieldType]
FieldArgs = tuple[str, str, bool, bool, Any, str | None, bool, tuple[str, ...]]
# A leaf field's FieldIR arguments and imports, by role, coercions, required, wire name and
# the repr of its whole schema (description and default too).
Fields = dict[tuple[str, frozenset[str], bool, str, str], tuple[FieldArgs, frozenset[str]]]


@dataclass
class TypeMapper:
    prefix: str  # e.g. "GetWeatherArguments"
    defs: dict[str, Any]
    role: str  # "arguments", "result" or "injected": which base class, which rules (ModelIR.role)
    models: list[ModelIR] = field(default_factory=list)
    taken: set[str] = field(default_factory=set)
    def_classes: dict[str, str] = field(default_factory=dict)
    building: set[str] = field(default_factory=set)
    recursive: set[str] = field(default_factory=set)
    coerce: frozenset[str] = frozenset()  # `x-coerce` in force where the mapper is
    root_coerce: frozenset[str] = frozenset()  # the root's, which definitions take
    names: set[str] = field(default_factory=set)  # imports the committed annotations need
    # The field types of leaf schemas (`leaf`), by role, coercions and keywords: one for each
    # distinct leaf of a whole `lower` run when its mappers share it.
    leaves: Leaves = field(default_factory=dict)
    fields: Fields = field(default_factory=dict)  # whole leaf fields (`field`), shared the same way

    # --- classes ---------------------------------------------------------------

    def new_class_name(self, hint: str) -> str:
        """A class name from a CamelCase hint (already prefixed), unique in this module."""
        base = class_name(hint)
        (name,) = unique([base], self.taken)
        self.taken.add(name)
        return name

    def object_model(self, schema: dict[str, Any], name: str) -> str:
        """Emit a class for an object schema with declared properties; returns its name."""
        self.building.add(name)
        saved_coerce, self.coerce = self.coerce, declared_coercions(schema, self.coerce)
        if name == self.prefix:
            self.root_coerce = self.coerce
        properties: dict[str, Any] = schema.get("properties") or {}
        required = set(schema.get("required") or [])
        built = [self.field(wire, sub, wire in required, name) for wire, sub in properties.items()]
        extra, extra_values = self.extras(schema, name)
        # Python names are chosen once the nested classes exist: a field named like a class
        # would shadow it for the annotations after it in the class body.
        python_names = unique([field_name(wire) for wire in properties], self.taken)
        fields = tuple(
            FieldIR(f[0], python, *f[1:]) for f, python in zip(built, python_names, strict=True)
        )
        description = (
            schema.get("description") if isinstance(schema.get("description"), str) else None
        )
        self.models.append(
            ModelIR(name, description, fields, extra, self.role, extra_values=extra_values)
        )
        self.coerce = saved_coerce
        self.building.discard(name)
        return name

    def extras(self, schema: dict[str, Any], name: str) -> tuple[str, str | None]:
        """How a model treats undeclared keys: pydantic's `extra`, and the type of their values.
        As JSON Schema says (arguments were closed by lower.closed(), which wrote `false`):
        absent `additionalProperties` is open; an `allOf`'s merged object stays as open as it is
        published. The host's injected values are exactly the declared keys."""
        additional = schema.get("additionalProperties", True)
        patterns = schema.get("patternProperties")
        if self.role == "injected" or (additional is False and not patterns):
            return "forbid", None
        values: Annotation | None = None
        key = "str"
        if isinstance(patterns, dict) and patterns:
            if len(patterns) == 1 and additional is False:  # keys must match the one pattern
                ((pattern, sub),) = patterns.items()
                pattern_key = constrained("str", {"pattern": pattern}, {"pattern": "pattern"})
                key = pattern_key.text
                self.names |= pattern_key.names
                values = self.annotation(sub, f"{name}Value")
            # else: several patterns, or patterns and other keys: taken as they come (a superset)
        elif isinstance(additional, dict) and additional:
            values = self.annotation(additional, f"{name}Value")
        if values is None and self.holds_secret([patterns, additional]):
            values = secret_annotation(ANY_TYPE)  # taken as they come, never shown
        if values is None:
            return "allow", None
        text = f"dict[{key}, {values.text}]"
        self.names |= values.names
        return "allow", py_string(text) if values.forward else text

    def field(self, wire: str, schema: Any, required: bool, owner: str) -> FieldArgs:
        """FieldIR's arguments but its Python name (chosen once the nested classes exist).
        A leaf's (`_may_name` False: no class, nothing of the mapper but its role and
        coercions) are worked out once per distinct field: the same recur across tools."""
        # The hint names a class this field's type may need: deriving it is skipped for the
        # types that never need one (most fields).
        if _may_name(schema):
            kind = FieldType.of(self.annotation(schema, class_name(owner, wire) if owner else wire))
        elif isinstance(schema, dict):
            index = (self.role, self.coerce, required, wire, repr(schema))
            found = self.fields.get(index)
            if found is None:
                found = self.fields[index] = self._field(
                    wire, schema, required, self.leaf(schema, wire)
                )
            self.names |= found[1]
            return found[0]
        else:
            kind = self.leaf(schema, wire)
        args, names = self._field(wire, schema, required, kind)
        self.names |= names
        return args

    def _field(
        self, wire: str, schema: Any, required: bool, kind: FieldType
    ) -> tuple[FieldArgs, frozenset[str]]:
        nullable = kind.nullable
        # A required key must be sent, default or not (JSON Schema's `default` only annotates).
        default = (
            schema.get("default", MISSING) if isinstance(schema, dict) and not required else MISSING
        )
        text = kind.text
        if not required and default is MISSING and not nullable:
            text = f"{text} | None"  # absent reads as None; an explicit null means absent too
        if kind.forward:
            text = py_string(text)  # quoted as black quotes
        description = schema.get("description") if isinstance(schema, dict) else None
        secret = bool(isinstance(schema, dict) and schema.get("x-secret"))
        args = (
            wire,
            text,
            required,
            nullable,
            default,
            description if isinstance(description, str) else None,
            secret,
            kind.constraints,
        )
        return args, kind.names

    # --- annotations ------------------------------------------------------------

    def annotation(self, schema: Any, hint: str) -> Annotation:
        if isinstance(schema, dict) and "x-coerce" in schema:
            saved, self.coerce = self.coerce, declared_coercions(schema, self.coerce)
            try:
                return self.secret(schema, self._annotation(schema, hint))
            finally:
                self.coerce = saved
        return self.secret(schema, self._annotation(schema, hint))

    def leaf(self, schema: Any, hint: str) -> FieldType:
        """The field type of a schema that names no class (`_may_name` is False: a scalar type,
        an enum, a const), worked out once per distinct leaf: descriptions and defaults aside,
        the same few recur across a spec set's properties (`type: string`). Only a leaf of
        scalar values (and lists of them) is looked up, by the repr of its keywords (which
        tells 1, 1.0, True and -0.0 apart, as the annotation does)."""
        if not isinstance(schema, dict):
            return FieldType.of(self.annotation(schema, hint))
        read = {}
        for key, value in schema.items():
            if key in _NOT_READ:
                continue
            if not isinstance(value, _SCALARS) and not (
                isinstance(value, list) and all(isinstance(item, _SCALARS) for item in value)
            ):
                return FieldType.of(self.annotation(schema, hint))
            read[key] = value
        index = (self.role, self.coerce, repr(read))
        found = self.leaves.get(index)
        if found is None:
            found = self.leaves[index] = FieldType.of(self.annotation(schema, hint))
        return found

    # --- secrets -----------------------------------------------------------------

    def secret(self, schema: Any, annotation: Annotation) -> Annotation:
        """`x-secret: true` at any depth (arguments and injected values): the position is marked
        SECRET, so the runtime never shows its value. Where the type loses the marked position
        (a union with `Any`, an unresolvable `allOf`, a recursive definition), the whole is marked."""
        if self.role == "result" or not isinstance(schema, dict):
            return annotation
        if schema.get("x-secret") is True or (
            annotation.parts == ANY_TYPE.parts  # first: dataclass equality reads every field
            and annotation == ANY_TYPE
            and self.holds_secret(schema)
        ):
            return secret_annotation(annotation)
        return annotation

    def holds_secret(self, schema: Any, seen: frozenset[str] = frozenset()) -> bool:
        """`x-secret: true` anywhere in the schema (through `$ref`s into `$defs`)."""
        if isinstance(schema, list):
            return any(self.holds_secret(item, seen) for item in schema)
        if not isinstance(schema, dict):
            return False
        if schema.get("x-secret") is True:
            return True
        ref = schema.get("$ref")
        if isinstance(ref, str) and ref.startswith("#/$defs/"):
            name = ref.removeprefix("#/$defs/")
            if name not in seen and self.holds_secret(self.defs.get(name), seen | {name}):
                return True
        return any(
            self.holds_secret(value, seen)
            for key, value in schema.items()
            if key not in ("$defs", "default", "examples", "const", "enum")
        )

    def secret_any(self, schema: Any) -> Annotation:
        """`Any`, marked SECRET when the schema it stands for holds a secret."""
        return (
            secret_annotation(ANY_TYPE)
            if self.role != "result" and self.holds_secret(schema)
            else ANY_TYPE
        )

    def _annotation(self, schema: Any, hint: str) -> Annotation:
        if not isinstance(schema, dict):
            return ANY_TYPE
        if "$ref" in schema:
            return self.reference(schema["$ref"], hint)
        if "const" in schema:
            return literal([schema["const"]])
        if "enum" in schema and isinstance(schema["enum"], list):
            return literal(schema["enum"])
        for combinator in ("anyOf", "oneOf"):
            if isinstance(schema.get(combinator), list):
                base = {
                    k: v
                    for k, v in schema.items()
                    if k not in (combinator, "description", "title", "default")
                }
                return union(
                    [
                        self.annotation(
                            merged(base, branch) if isinstance(branch, dict) else branch, hint
                        )
                        for branch in schema[combinator]
                    ]
                )
        if isinstance(schema.get("allOf"), list):
            return self.all_of(schema, hint)
        types = schema.get("type")
        if isinstance(types, list):
            return union([self.annotation({**schema, "type": t}, hint) for t in types])
        # Without `type`, `properties` or `items` constrain only objects or arrays: any other
        # value is valid too, so the model takes any value (the exact check does the rest).
        return self.typed(types, schema, hint)

    def typed(self, kind: str | None, schema: dict[str, Any], hint: str) -> Annotation:
        if kind == "string":
            pattern = schema.get("pattern")
            return constrained(
                "str",
                schema,
                {"minLength": "min_length", "maxLength": "max_length", "pattern": "pattern"},
                markers=(
                    (f"{FIELDS}.Pattern({py_literal(pattern)})",)
                    if compiled_pattern(pattern)
                    else ()
                ),
            )
        if kind == "integer":
            return self.coerced(self.integer(schema), "numbers")
        if kind == "number":
            keys = {
                "minimum": "ge",
                "maximum": "le",
                "exclusiveMinimum": "gt",
                "exclusiveMaximum": "lt",
            }
            step = schema.get("multipleOf")
            markers = (
                (f"{FIELDS}.MultipleOf({py_literal(step)})",) if compiled_multiple(step) else ()
            )
            return self.coerced(constrained("float", schema, keys, markers=markers), "numbers")
        if kind == "boolean":
            return self.coerced(Annotation.of("bool"), "booleans")
        if kind == "null":
            return Annotation.of("None")
        if kind == "array":
            items = schema.get("items")
            inner = (
                self.annotation(items, f"{hint}Item")
                if isinstance(items, dict) and "prefixItems" not in schema
                else self.secret_any([items, schema.get("prefixItems")])
            )
            array = constrained(
                f"list[{inner.text}]",
                schema,
                {"minItems": "min_length", "maxItems": "max_length"},
                inner.forward,
                inner.names,
                (f"{FIELDS}.Unique()",) if compiled_unique(schema) else (),
            )
            return self.coerced(array, "json")
        if kind == "object":
            return self.coerced(self.object(schema, hint), "json")
        return ANY_TYPE

    def integer(self, schema: dict[str, Any]) -> Annotation:
        """Bounds as integers (`minimum: 0.5` is `ge=1`); in arguments, JSON Schema's integer (2.0 too)."""
        bounds = integer_bounds(schema)
        listed = ", ".join(f"{key}={value}" for key, value in bounds.items())
        if (
            self.role != "injected"
        ):  # strict int refuses 2.0, which JSON Schema counts as an integer (and Gemini sends)
            return Annotation.of(
                f"Annotated[int, {INTEGER}({listed})]", uses=frozenset({ANNOTATED, TYPES})
            )
        if not bounds:
            return Annotation.of("int")
        return Annotation.of(f"Annotated[int, Field({listed})]", uses=frozenset({ANNOTATED, FIELD}))

    def coerced(self, annotation: Annotation, kind: str) -> Annotation:
        """Mark a position where the spec declared this coercion (applied only after strict validation fails)."""
        if kind not in self.coerce or self.role == "result" or len(annotation.parts) != 1:
            return annotation
        return replace(
            annotation,
            parts=(f"Annotated[{annotation.text}, {TYPES}.Coerce({py_literal(kind)})]",),
            bare=None,
            constraints=(),
            uses=(annotation.names | {ANNOTATED, TYPES},),
            bare_uses=frozenset(),
        )

    def object(self, schema: dict[str, Any], hint: str) -> Annotation:
        properties = schema.get("properties")
        additional = schema.get("additionalProperties", True)
        if properties or additional is False or schema.get("patternProperties"):
            if (
                not properties
            ):  # only patterns: other keys are allowed (with properties, absent means closed)
                schema = {**schema, "additionalProperties": additional}
            return Annotation.of(self.object_model(schema, self.new_class_name(hint)))
        if isinstance(additional, dict) and additional:
            value = self.annotation(additional, f"{hint}Value")
            return Annotation.of(f"dict[str, {value.text}]", value.forward, value.names)
        return Annotation.of(f"dict[str, {ANY}]", uses=frozenset({ANY}))

    def reference(self, ref: str, hint: str) -> Annotation:
        name = ref.removeprefix("#/$defs/")
        target = self.defs.get(name)
        if not isinstance(target, dict):
            return ANY_TYPE
        if name in self.def_classes:
            cls = self.def_classes[name]
            if cls in self.building:
                self.recursive.add(cls)
                return self.secret(target, Annotation.of(cls, forward=True))
            return self.secret(target, Annotation.of(cls))
        # Only `type: object` makes a class: without it, any non-object value is valid too.
        if target.get("type") == "object" and (
            target.get("properties") or target.get("additionalProperties") is False
        ):
            cls = self.new_class_name(class_name(self.prefix, name))
            self.def_classes[name] = cls
            self.definition(target, cls)
            return self.secret(target, Annotation.of(cls))
        if name in self.building:  # a recursive non-object definition
            return self.secret_any(target)
        self.building.add(name)
        try:
            return self.annotation(target, hint)
        finally:
            self.building.discard(name)

    def definition(self, target: dict[str, Any], cls: str) -> None:
        """A `$defs` class is shared by every use: it takes the root's coercions, and its own."""
        saved, self.coerce = self.coerce, self.root_coerce
        try:
            self.object_model(target, cls)
        finally:
            self.coerce = saved

    def all_of(self, schema: dict[str, Any], hint: str) -> Annotation:
        branches = [self._resolve(b) for b in schema["allOf"]]
        base = {k: v for k, v in schema.items() if k != "allOf"}
        if all(isinstance(b, dict) for b in branches):
            whole: dict[str, Any] = dict(base)
            for branch in branches:
                whole = merged(whole, branch, keep=True)
            return self.annotation(whole, hint)
        return ANY_TYPE

    def _resolve(self, schema: Any) -> Any:
        if isinstance(schema, dict) and "$ref" in schema:
            return self.defs.get(schema["$ref"].removeprefix("#/$defs/"), schema)
        return schema


_SCALAR_TYPES = frozenset(("string", "integer", "number", "boolean", "null"))
# What the annotation of a leaf never reads (`field` reads the description and the default).
_NOT_READ = frozenset(("description", "title", "default", "examples", "example"))
_SCALARS = (str, int, float, type(None))  # bool is an int


def _may_name(schema: Any) -> bool:
    """Whether `TypeMapper._annotation` may read its hint for `schema`: False only where it
    surely does not (a scalar type, a `const` or an `enum`); the checks go in its order."""
    if not isinstance(schema, dict):
        return False
    if "$ref" in schema:
        return True
    if "const" in schema or "enum" in schema and isinstance(schema["enum"], list):
        return False
    get = schema.get
    if isinstance(get("anyOf"), list) or isinstance(get("oneOf"), list):
        return True
    if isinstance(get("allOf"), list):
        return True
    types = get("type")
    if isinstance(types, str):
        return types not in _SCALAR_TYPES
    if isinstance(types, list):
        return not all(isinstance(kind, str) and kind in _SCALAR_TYPES for kind in types)
    return True  # no type (or one of another kind): objects and arrays are still possible
