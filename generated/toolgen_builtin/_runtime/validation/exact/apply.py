# Part of toolgen's runtime, copied verbatim into generated packages (edit toolgen, not a copy).
"""The exact checker's applicators: keywords that apply subschemas to a value or its parts,
the annotations they leave (which keys and items were evaluated) and `unevaluated*`."""

from __future__ import annotations

from typing import Any

from ...errors import quote
from .node import (
    Compiling,
    Ctx,
    Keyword,
    Location,
    Node,
    closest,
    condition,
    forms,
    prefixed,
    shown,
    unknown,
)


def _properties(c: Compiling, schema: dict[str, Any], pointer: str, base: str) -> list[Keyword]:
    out: list[Keyword] = []
    props: dict[str, Any] = (
        schema["properties"] if isinstance(schema.get("properties"), dict) else {}
    )
    children = [(name, c.sub(schema, pointer, base, "properties", name)) for name in props]
    named = frozenset(props)
    patterns = [
        (
            c.pattern(p, f"{pointer}/patternProperties").search,
            c.sub(schema, pointer, base, "patternProperties", p),
        )
        for p in (schema.get("patternProperties") or {})
    ]
    if children:

        def ok(value: Any) -> bool:
            return all(child.valid(value[name]) for name, child in children if name in value)

        def explain(value: Any, location: Location, ctx: Ctx, secret: bool) -> None:
            for name, child in children:
                if name in value and not child.valid(value[name]):
                    child.explain(value[name], (*location, name), ctx, secret)

        def annotate(value: Any, props: set[str], items: set[int]) -> None:
            props.update(name for name in named if name in value)

        out.append(Keyword("properties", "object", ok, explain, annotate))
    if patterns:

        def ok_p(value: Any) -> bool:
            return all(
                child.valid(item)
                for key, item in value.items()
                for search, child in patterns
                if search(key)
            )

        def explain_p(value: Any, location: Location, ctx: Ctx, secret: bool) -> None:
            for key, item in value.items():
                for search, child in patterns:
                    if search(key) and not child.valid(item):
                        child.explain(item, (*location, key), ctx, secret)

        def annotate_p(value: Any, props: set[str], items: set[int]) -> None:
            props.update(k for k in value if any(search(k) for search, _ in patterns))

        out.append(Keyword("patternProperties", "object", ok_p, explain_p, annotate_p))
    if "additionalProperties" in schema:
        extra = c.sub(schema, pointer, base, "additionalProperties")
        closed = schema["additionalProperties"] is False
        declared = list(props)
        required = schema.get("required") if isinstance(schema.get("required"), list) else []

        def others(value: Any) -> list[str]:
            return [
                k for k in value if k not in named and not any(search(k) for search, _ in patterns)
            ]

        def ok_a(value: Any) -> bool:
            return all(extra.valid(value[k]) for k in others(value))

        def explain_a(value: Any, location: Location, ctx: Ctx, secret: bool) -> None:
            for key in others(value):
                if closed:
                    unknown(key, value, location, ctx, declared, required)
                elif not extra.valid(value[key]):
                    extra.explain(value[key], (*location, key), ctx, secret)

        def annotate_a(value: Any, props: set[str], items: set[int]) -> None:
            props.update(others(value))

        out.append(Keyword("additionalProperties", "object", ok_a, explain_a, annotate_a))
    return out


def _property_names(node: Node) -> Keyword:
    def explain(value: Any, location: Location, ctx: Ctx, secret: bool) -> None:
        for key in value:
            if not node.valid(key):
                trial = ctx.trial()
                node.explain(key, (*location, key), trial, False)
                first = trial.out[0] if trial.out else None
                why = f": {first.message}" if first else ""
                hint = first.suggestion if first else None
                ctx.add((*location, key), "key", f"key not allowed{why}", None, None, hint)

    return Keyword("propertyNames", "object", lambda v: all(map(node.valid, v)), explain)


def _items(c: Compiling, schema: dict[str, Any], pointer: str, base: str) -> list[Keyword]:
    out: list[Keyword] = []
    prefix: list[Any] = schema["prefixItems"] if isinstance(schema.get("prefixItems"), list) else []
    firsts = [c.sub(schema, pointer, base, "prefixItems", i) for i in range(len(prefix))]
    start = len(firsts)

    if firsts:

        def ok(value: Any) -> bool:
            return all(node.valid(item) for node, item in zip(firsts, value, strict=False))

        def explain_f(value: Any, location: Location, ctx: Ctx, secret: bool) -> None:
            for index, (node, item) in enumerate(zip(firsts, value, strict=False)):
                if not node.valid(item):
                    node.explain(item, (*location, index), ctx, secret)

        def annotate_f(value: Any, props: set[str], items: set[int]) -> None:
            items.update(range(min(start, len(value))))

        out.append(Keyword("prefixItems", "array", ok, explain_f, annotate_f))
    if "items" in schema:
        rest = c.sub(schema, pointer, base, "items")

        def ok_i(value: Any) -> bool:
            return all(rest.valid(value[i]) for i in range(start, len(value)))

        def explain_i(value: Any, location: Location, ctx: Ctx, secret: bool) -> None:
            for index in range(start, len(value)):
                if not rest.valid(value[index]):
                    rest.explain(value[index], (*location, index), ctx, secret)

        def annotate_i(value: Any, props: set[str], items: set[int]) -> None:
            items.update(range(start, len(value)))

        out.append(Keyword("items", "array", ok_i, explain_i, annotate_i))
    if "contains" in schema:
        out.append(_contains(c.sub(schema, pointer, base, "contains"), schema))
    return out


def _contains(node: Node, schema: dict[str, Any]) -> Keyword:
    least = schema.get("minContains", 1)
    most = schema.get("maxContains")

    def ok(value: Any) -> bool:
        count = 0
        for item in value:
            if node.valid(item):
                count += 1
                if count >= least and most is None:
                    return True
                if most is not None and count > most:
                    return False
        return bool(count >= least)

    def explain(value: Any, location: Location, ctx: Ctx, secret: bool) -> None:
        count = sum(1 for item in value if node.valid(item))
        what = f"that is {node.words}" if node.words else 'that matches the "contains" schema'
        bound = f"at least {least}" if count < least else f"at most {most}"
        expected = f"{bound} item{'' if (least if count < least else most) == 1 else 's'} {what}"
        ctx.add(location, "contains", f"expected {expected}, got {count}", None, expected)

    def annotate(value: Any, props: set[str], items: set[int]) -> None:
        items.update(i for i, item in enumerate(value) if node.valid(item))

    return Keyword("contains", "array", ok, explain, annotate)


def _applicators(c: Compiling, schema: dict[str, Any], pointer: str, base: str) -> list[Keyword]:
    out: list[Keyword] = []
    if "$ref" in schema:
        target = c.ref(schema["$ref"], pointer, base)

        def annotate_ref(value: Any, props: set[str], items: set[int]) -> None:
            _merge(target, value, props, items)

        out.append(Keyword("$ref", None, target.valid, target.explain, annotate_ref))
    for name in ("allOf", "anyOf", "oneOf"):
        if isinstance(schema.get(name), list):
            nodes = [c.sub(schema, pointer, base, name, i) for i in range(len(schema[name]))]
            out.append(_combined(name, nodes))
    if "not" in schema:
        out.append(_not(c.sub(schema, pointer, base, "not")))
    if "if" in schema:
        out.append(_if(c, schema, pointer, base))
    if isinstance(schema.get("dependentSchemas"), dict):
        table = [
            (key, c.sub(schema, pointer, base, "dependentSchemas", key))
            for key in schema["dependentSchemas"]
        ]
        out.append(_dependent(table))
    return out


def _merge(node: Node, value: Any, props: set[str], items: set[int]) -> None:
    found = node.annotate(value)
    if found is not None:
        props.update(found[0])
        items.update(found[1])


def _combined(name: str, nodes: list[Node]) -> Keyword:
    def annotate(value: Any, props: set[str], items: set[int]) -> None:
        for node in nodes:
            _merge(node, value, props, items)

    if name == "allOf":

        def explain(value: Any, location: Location, ctx: Ctx, secret: bool) -> None:
            for node in nodes:
                if not node.valid(value):
                    node.explain(value, location, ctx, secret)

        return Keyword(name, None, lambda v: all(n.valid(v) for n in nodes), explain, annotate)
    if name == "anyOf":

        def explain_any(value: Any, location: Location, ctx: Ctx, secret: bool) -> None:
            closest(nodes, value, location, ctx, secret, "any_of")

        return Keyword(name, None, lambda v: any(n.valid(v) for n in nodes), explain_any, annotate)

    def ok(value: Any) -> bool:
        found = False
        for node in nodes:
            if node.valid(value):
                if found:
                    return False
                found = True
        return found

    def explain_one(value: Any, location: Location, ctx: Ctx, secret: bool) -> None:
        matched = [i for i, node in enumerate(nodes) if node.valid(value)]
        if not matched:
            closest(nodes, value, location, ctx, secret, "one_of")
            return
        message = f"matches forms {forms(matched)}, but must match exactly one of the {len(nodes)}"
        ctx.add(location, "one_of", message, shown(value, secret))

    return Keyword(name, None, ok, explain_one, annotate)


def _not(node: Node) -> Keyword:
    def explain(value: Any, location: Location, ctx: Ctx, secret: bool) -> None:
        if not node.keywords:
            message = "no value is allowed here"
        elif node.words and not secret:  # a secret must not be told which value it is
            message = f"must not be {node.words}"
        else:
            message = 'must not match the schema under "not"'
        ctx.add(location, "not", message, shown(value, secret))

    return Keyword("not", None, lambda value: not node.valid(value), explain)


def _if(c: Compiling, schema: dict[str, Any], pointer: str, base: str) -> Keyword:
    test = c.sub(schema, pointer, base, "if")
    then = c.sub(schema, pointer, base, "then") if "then" in schema else None
    other = c.sub(schema, pointer, base, "else") if "else" in schema else None
    holds, fails = condition(schema["if"])

    def ok(value: Any) -> bool:
        branch = then if test.valid(value) else other
        return branch is None or branch.valid(value)

    def explain(value: Any, location: Location, ctx: Ctx, secret: bool) -> None:
        passed = test.valid(value)
        branch = then if passed else other
        if branch is not None:
            trial = ctx.trial()
            branch.explain(value, location, trial, secret)
            ctx.extend(prefixed(trial.out, "condition", holds if passed else fails))

    def annotate(value: Any, props: set[str], items: set[int]) -> None:
        found = test.annotate(value)
        if found is not None:
            props.update(found[0])
            items.update(found[1])
        branch = then if found is not None else other
        if branch is not None:
            _merge(branch, value, props, items)

    return Keyword("if", None, ok, explain, annotate)


def _dependent(table: list[tuple[str, Node]]) -> Keyword:
    def ok(value: Any) -> bool:
        return all(node.valid(value) for key, node in table if key in value)

    def explain(value: Any, location: Location, ctx: Ctx, secret: bool) -> None:
        for key, node in table:
            if key in value and not node.valid(value):
                trial = ctx.trial()
                node.explain(value, location, trial, secret)
                ctx.extend(prefixed(trial.out, "dependency", f"{quote(key)} is present"))

    def annotate(value: Any, props: set[str], items: set[int]) -> None:
        for key, node in table:
            if key in value:
                _merge(node, value, props, items)

    return Keyword("dependentSchemas", "object", ok, explain, annotate)


def _unevaluated(
    c: Compiling, schema: dict[str, Any], pointer: str, base: str, others: list[Keyword]
) -> list[Keyword]:
    annotators = [k.annotate for k in others if k.annotate is not None]

    def evaluated(value: Any) -> tuple[set[str], set[int]]:
        props: set[str] = set()
        items: set[int] = set()
        for annotate in annotators:
            annotate(value, props, items)
        return props, items

    out: list[Keyword] = []
    if "unevaluatedProperties" in schema:
        node = c.sub(schema, pointer, base, "unevaluatedProperties")
        closed = schema["unevaluatedProperties"] is False
        declared = list(schema.get("properties") or {})

        def left(value: Any) -> list[str]:
            done = evaluated(value)[0]
            return [k for k in value if k not in done]

        def explain(value: Any, location: Location, ctx: Ctx, secret: bool) -> None:
            for key in left(value):
                if closed:
                    unknown(key, value, location, ctx, declared, ())
                elif not node.valid(value[key]):
                    node.explain(value[key], (*location, key), ctx, secret)

        def annotate(value: Any, props: set[str], items: set[int]) -> None:
            props.update(value)

        ok = lambda value: all(node.valid(value[k]) for k in left(value))  # noqa: E731
        out.append(Keyword("unevaluatedProperties", "object", ok, explain, annotate))
    if "unevaluatedItems" in schema:
        rest = c.sub(schema, pointer, base, "unevaluatedItems")

        def left_items(value: Any) -> list[int]:
            done = evaluated(value)[1]
            return [i for i in range(len(value)) if i not in done]

        def explain_i(value: Any, location: Location, ctx: Ctx, secret: bool) -> None:
            for index in left_items(value):
                if not rest.valid(value[index]):
                    rest.explain(value[index], (*location, index), ctx, secret)

        def annotate_i(value: Any, props: set[str], items: set[int]) -> None:
            items.update(range(len(value)))

        ok_i = lambda value: all(rest.valid(value[i]) for i in left_items(value))  # noqa: E731
        out.append(Keyword("unevaluatedItems", "array", ok_i, explain_i, annotate_i))
    return out


def build_applicators(
    c: Compiling, schema: dict[str, Any], pointer: str, base: str, values: list[Keyword]
) -> list[Keyword]:
    """Every applicator of one schema object; `unevaluated*` last, seeing all the others."""
    out = _applicators(c, schema, pointer, base) + _properties(c, schema, pointer, base)
    if isinstance(schema.get("propertyNames"), (dict, bool)):
        out.append(_property_names(c.sub(schema, pointer, base, "propertyNames")))
    out += _items(c, schema, pointer, base)
    return out + _unevaluated(c, schema, pointer, base, values + out)
