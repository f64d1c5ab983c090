"""The parts lowering builds annotations from, each read from one schema's keywords without
the type mapper's state (lower/typemap.py): an enum or const as a `Literal` (or a JSON
equality check), a union, constraints as `Field()` arguments and the exact check's markers,
a secret mark, integer bounds, declared coercions, and two schemas merged as a model reads
them."""

from __future__ import annotations

import math
import re
from fractions import Fraction
from typing import Any

from toolgen.literals import py_literal
from toolgen.lower.annotation import (
    ANNOTATED,
    ANY,
    ANY_TYPE,
    FIELD,
    FIELDS,
    LITERAL,
    TYPES,
    Annotation,
)
from toolgen.runtime.types import is_json_type
from toolgen.schema.patterns import pydantic_exact

LITERAL_TYPES = (str, int, bool, type(None))
ONE_OF = f"{TYPES}.OneOf"  # enum/const membership with JSON equality (True is not 1)
INTEGER = f"{TYPES}.Integer"  # int that also takes 2.0, as JSON Schema does
COERCIONS = ("numbers", "booleans", "json")  # what `x-coerce` may declare
_SURROGATE = re.compile("[\ud800-\udfff]")


def _literal_ok(value: Any) -> bool:
    if isinstance(value, str):
        return not _SURROGATE.search(value)
    return isinstance(value, LITERAL_TYPES)


def literal(values: list[Any]) -> Annotation:
    """An enum or const. Literal where it can hold the values; else a JSON-equality check."""
    listed = ", ".join(py_literal(v) for v in values)
    accepts_null = None in values
    if values and all(_literal_ok(v) for v in values):
        literal, uses = f"Literal[{listed}]", frozenset({LITERAL})
        if any(isinstance(v, (int, bool)) for v in values):
            # Literal compares with Python's ==, where True == 1 == 1.0: check JSON equality first.
            literal, uses = (
                f"Annotated[{literal}, {ONE_OF}({listed})]",
                uses | {ANNOTATED, TYPES},
            )
        return Annotation((literal,), accepts_null=accepts_null, uses=(uses,))
    # Floats (type checkers refuse them in Literal), arrays, objects, strings pydantic-core
    # cannot hold (lone surrogates), or no value at all (nothing is valid).
    return Annotation(
        (f"Annotated[{ANY}, {ONE_OF}({listed})]",),
        accepts_null=accepts_null,
        uses=(frozenset({ANNOTATED, ANY, TYPES}),),
    )


def union(parts: list[Annotation]) -> Annotation:
    members: dict[str, frozenset[str]] = {}
    for part in parts:
        for text, needs in zip(part.parts, part.uses, strict=True):
            members.setdefault(text, needs)
    if ANY in members:
        return ANY_TYPE
    if "None" in members:  # None last reads best
        members["None"] = members.pop("None")
    texts, uses = tuple(members), tuple(members.values())
    liftable = [p for p in parts if p.constraints]
    if len(liftable) == 1 and all(t == "None" or t == liftable[0].text for t in texts):
        lifted = liftable[0]  # `T | None` keeps T's constraints liftable
        return Annotation(
            texts,
            lifted.forward,
            lifted.accepts_null,
            lifted.bare,
            lifted.constraints,
            uses,
            lifted.bare_uses,
        )
    return Annotation(
        texts, any(p.forward for p in parts), any(p.accepts_null for p in parts), uses=uses
    )


def constrained(
    base: str,
    schema: dict[str, Any],
    keys: dict[str, str],
    forward: bool = False,
    base_uses: frozenset[str] = frozenset(),
    markers: tuple[str, ...] = (),
) -> Annotation:
    """`Annotated[base, Field(constraints), *markers]`: pydantic-core's own constraints
    where they are exact, then the exact check compiled into the field (`markers`,
    runtime/validation/exact/fields.py). Constraints alone may move to the field's Field()."""
    args: list[str] = []
    for key, argument in keys.items():
        value = schema.get(key)
        if value is None or isinstance(value, bool):
            continue
        if key in ("minLength", "maxLength", "minItems", "maxItems") and isinstance(value, float):
            value = int(value)  # 3.0 is the integer 3 in JSON Schema (the meta-schema refuses 3.5)
        if key == "pattern" and not (isinstance(value, str) and pydantic_exact(value)):
            continue  # Rust's reading of it could differ from ECMA-262's: a marker's, or the exact check's
        args.append(f"{argument}={py_literal(value)}")
    if markers:
        parts = [f"Field({', '.join(args)})"] if args else []
        uses = base_uses | {ANNOTATED, FIELDS} | ({FIELD} if args else set())
        return Annotation.of(f"Annotated[{base}, {', '.join([*parts, *markers])}]", forward, uses)
    if not args:
        return Annotation.of(base, forward, base_uses)
    text = f"Annotated[{base}, Field({', '.join(args)})]"
    return Annotation(
        (text,),
        forward,
        bare=base,
        constraints=tuple(args),
        uses=(base_uses | {ANNOTATED, FIELD},),
        bare_uses=base_uses,
    )


def merged(base: dict[str, Any], branch: dict[str, Any], keep: bool = False) -> dict[str, Any]:
    """One schema for `base` and `branch` both holding, as the model reads it: a superset of
    both holding (the exact check does the rest). Properties and required keys are united; of
    other keywords, the branch's (`keep`: the base's) where both have one."""
    out = {**branch, **base} if keep else {**base, **branch}
    if isinstance(base.get("properties"), dict) and isinstance(branch.get("properties"), dict):
        first, second = (branch, base) if keep else (base, branch)
        out["properties"] = {**first["properties"], **second["properties"]}
    if isinstance(base.get("required"), list) and isinstance(branch.get("required"), list):
        out["required"] = sorted(set(base["required"]) | set(branch["required"]), key=str)
    return out


def secret_annotation(annotation: Annotation) -> Annotation:
    """`Annotated[T, _types.SECRET]`: one part, whatever T's union; nullability kept for the field."""
    return Annotation(
        (f"Annotated[{annotation.text}, {TYPES}.SECRET]",),
        annotation.forward,
        annotation.nullable,
        uses=(annotation.names | {ANNOTATED, TYPES},),
    )


def declared_coercions(schema: dict[str, Any], inherited: frozenset[str]) -> frozenset[str]:
    """`x-coerce: true | false | [numbers, booleans, json]` (the spec format checks the values)."""
    declared = schema.get("x-coerce", None)
    if declared is True:
        return frozenset(COERCIONS)
    if declared is False:
        return frozenset()
    if isinstance(declared, list):
        return frozenset(k for k in declared if k in COERCIONS)
    return inherited


def integer_bounds(schema: dict[str, Any]) -> dict[str, int]:
    """JSON Schema's numeric bounds of an integer as integer bounds pydantic-core takes."""
    out: dict[str, int] = {}
    for key, argument, whole in (
        ("minimum", "ge", math.ceil),
        ("maximum", "le", math.floor),
        ("exclusiveMinimum", "ge", lambda v: math.floor(v) + 1),
        ("exclusiveMaximum", "le", lambda v: math.ceil(v) - 1),
    ):
        value = schema.get(key)
        if (
            isinstance(value, bool)
            or not isinstance(value, (int, float))
            or not math.isfinite(value)
        ):
            continue
        bound = int(whole(value))
        if argument not in out or (
            bound > out[argument] if argument == "ge" else bound < out[argument]
        ):
            out[argument] = bound
    step: Any = schema.get("multipleOf")
    if is_json_type(step, "number") and math.isfinite(step) and step > 0:
        # An integer is a multiple of p/q (lowest terms) exactly when it is a multiple of p.
        numerator = Fraction(str(step)).numerator
        if numerator != 1:
            out["multiple_of"] = numerator
    return out
