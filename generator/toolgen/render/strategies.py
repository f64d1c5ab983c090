"""JSON Schema -> hypothesis strategies, compiled at generation time into Python code.

A schema is compiled into calls of hypothesis and of the runtime's building blocks
(runtime_testing/strategies.py, imported by generated code as `_s`). What they build is
valid by construction: bounds, lengths, patterns, formats, enums (checked against the whole
schema here, once), required and optional keys, closed objects, unique items, leading
`prefixItems`, unions and merged `allOf`s, `$defs` (one cached function each, so recursion
is a cycle), and the other JSON types a schema without `type` accepts. What they build only
close to the schema (`contains` counts, `not`, `if`/`then`/`else` branches, overlapping
`oneOf` branches, dependencies, property counts, `unevaluated*`) is judged where it is said,
by `_s.satisfying`: a filter with jsonschema as the judge, on the smallest subschema that
needs it. A schema no value can satisfy (`false`, `not: {}`, two `true` branches of a
`oneOf`, a required key whose schema is one of these) compiles to `st.nothing()`, and
`impossible` says where: lint reports it (rule `unsatisfiable`).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from toolgen.literals import py_literal
from toolgen.naming import field_name
from toolgen.render.code import Display, Node, call, literal
from toolgen.render.scalar_strategies import NOTHING, SCALARS, count, scalar
from toolgen.render.schema_merge import constraints, fold_all_of, merge
from toolgen.schema.keywords import ANNOTATIONS, BY_TYPE, JSON_TYPES
from toolgen.schema.pointer import escape, resolve

# Per type, the keywords the strategies build values for (a subset of keywords.BY_TYPE): a
# schema with any other keyword of its type is drawn and then filtered (not exact).
BUILT = {
    "string": BY_TYPE["string"],
    "integer": BY_TYPE["integer"],
    "number": BY_TYPE["number"],
    "array": frozenset({"items", "prefixItems", "minItems", "maxItems", "uniqueItems"}),
    "object": frozenset({"properties", "required", "additionalProperties", "propertyNames"}),
    "boolean": BY_TYPE["boolean"],
    "null": BY_TYPE["null"],
}
ANY_TYPE_KEYWORD = frozenset().union(*BUILT.values())
# A schema without `type` is about the first of these types whose keywords it has
# (generating only that type is still valid).
IMPLIED_TYPE = tuple((kind, BY_TYPE[kind]) for kind in ("object", "array", "string", "number"))
JSON_VALUES = "_s.json_values()"


@dataclass
class StrategyCompiler:
    """Compiles the schemas of one root (a tool's parameters, or its returns).

    `root_name` is the module constant holding the root schema (for `_s.satisfying`);
    `definitions` collects one function per `$defs` entry that was referenced."""

    root: Any
    root_name: str
    prefix: str  # of the definition functions' names, e.g. "_arguments_"
    # Arguments: a merged allOf is one closed class in the generated model (typemap), so
    # its strategy draws no undeclared keys, though JSON Schema alone would allow them.
    close_merged: bool = False
    definitions: dict[str, tuple[str, Node]] = field(
        default_factory=dict
    )  # def name -> (function, body)
    impossible: dict[str, str] = field(
        default_factory=dict
    )  # pointer -> why no value is valid there
    _taken: set[str] = field(default_factory=set)

    @property
    def defs(self) -> dict[str, Any]:
        found = self.root.get("$defs") if isinstance(self.root, dict) else None
        return found if isinstance(found, dict) else {}

    def compile(self, schema: Any, pointer: str = "") -> Node:
        if schema is False:
            return self.nothing(pointer, "the schema is `false`")
        if not isinstance(schema, dict):
            return JSON_VALUES
        node, exact = self._build(constraints(schema), pointer)
        if node == NOTHING:
            return self.nothing(pointer, "no value satisfies every keyword")
        if exact:
            return node
        if resolve(self.root, pointer) == schema:
            return call("_s.satisfying", node, self.root_name, literal(pointer))
        # A schema put together here (a merged allOf's parts): judged as itself.
        return call("_s.satisfying", node, self.root_name, schema=literal(schema))

    def nothing(self, pointer: str, why: str) -> Node:
        """No value is valid at `pointer`: say so once (the deepest reason is kept first)."""
        self.impossible.setdefault(pointer, why)
        return NOTHING

    def _build(self, schema: dict[str, Any], pointer: str) -> tuple[Node, bool]:
        """The strategy, and whether it is exact (every value it draws is valid)."""
        if schema.get("not") is True or schema.get("not") == {}:
            return self.nothing(f"{pointer}/not", "`not` of a schema every value satisfies"), True
        if schema.get("not") is False or schema.get("not") == {"not": {}}:
            schema = {k: v for k, v in schema.items() if k != "not"}
        if "$ref" in schema:
            rest = {k: v for k, v in schema.items() if k != "$ref"}
            if not rest:
                return self.reference(schema["$ref"]), True
            return self._build({"allOf": [{"$ref": schema["$ref"]}, rest]}, pointer)
        if "const" in schema or "enum" in schema:
            return self.enumerated(schema, pointer), True
        if "if" in schema or "then" in schema or "else" in schema:
            return self.conditional(schema, pointer)
        if "allOf" in schema:
            merged, simple = fold_all_of(schema, self.defs)
            if merged is not None:
                if self.close_merged and "properties" in merged:
                    merged.setdefault("additionalProperties", False)
                node, exact = self._build(merged, pointer)
                return node, exact and simple
            if merged is None and any(b is False for b in schema["allOf"]):
                return self.nothing(f"{pointer}/allOf", "an `allOf` branch is `false`"), True
            return self._build({k: v for k, v in schema.items() if k != "allOf"}, pointer)[0], False
        for key in ("anyOf", "oneOf"):
            if key in schema and isinstance(schema[key], list):
                return self.union(schema, key, pointer)
        kinds = schema.get("type")
        if isinstance(kinds, list):
            built = [self.typed(k, schema, pointer) for k in dict.fromkeys(kinds)]
            exact = all(e for _, e in built) and not ("integer" in kinds and "number" in kinds)
            return _one_of([n for n, _ in built]), exact
        if isinstance(kinds, str):
            return self.typed(kinds, schema, pointer)
        for implied, keywords in IMPLIED_TYPE:
            if keywords & schema.keys():
                # The implied type's keywords say nothing about the other types' values.
                node, exact = self.typed(implied, schema, pointer)
                others_exact = set(schema) <= BUILT.get(implied, frozenset())
                return _one_of(
                    [node, call("_s.other_than", literal(implied))]
                ), exact and others_exact
        return JSON_VALUES, not schema

    def typed(self, kind: str, schema: dict[str, Any], pointer: str) -> tuple[Node, bool]:
        if kind not in BUILT:
            return NOTHING, True
        exact = not (
            set(schema) - ANY_TYPE_KEYWORD - {"type"}
        )  # another type's keywords do not apply
        node, own_exact = (
            scalar(kind, schema)
            if kind in SCALARS
            else self._array(schema, pointer)
            if kind == "array"
            else self._object(schema, pointer)
        )
        return node, exact and own_exact

    def _array(self, schema: dict[str, Any], pointer: str) -> tuple[Node, bool]:
        keywords: dict[str, Node] = {}
        exact = True
        written = schema.get("prefixItems")
        prefix: list[Any] = written if isinstance(written, list) else []
        # Where `items` is not said, `unevaluatedItems` has the last word past the prefix.
        items = schema.get("items", schema.get("unevaluatedItems", True))
        least, most = count(schema.get("minItems")) or 0, count(schema.get("maxItems"))
        heads = [self.compile(s, f"{pointer}/prefixItems/{i}") for i, s in enumerate(prefix)]
        if NOTHING in heads:  # nothing can stand at that position: arrays stop before it
            heads = heads[: heads.index(NOTHING)]
            most = len(heads) if most is None else min(most, len(heads))
        tail = (
            self.compile(items, f"{pointer}/items") if items is not True and items != {} else None
        )
        if tail == NOTHING or items is False:
            most = len(heads) if most is None else min(most, len(heads))
            tail = None
        if most is not None and least > most:
            return NOTHING, True
        if tail is not None:
            keywords["items"] = tail
        if heads:
            keywords["prefix"] = Display("[]", tuple(heads))
        if least:
            keywords["min_size"] = repr(least)
        if most is not None:
            keywords["max_size"] = repr(most)
        if schema.get("uniqueItems") is True:
            keywords["unique"] = "True"
        if "contains" in schema:
            wanted = schema["contains"]
            if isinstance(items, dict) and items and not prefix:  # what it contains is an item too
                wanted = {"allOf": [items, wanted]}
            contains = self.compile(wanted, f"{pointer}/contains")
            low, high = count(schema.get("minContains")), count(schema.get("maxContains"))
            low = 1 if low is None else low
            if (contains == NOTHING or (high is not None and high < low)) and low > 0:
                return self.nothing(
                    f"{pointer}/contains", "no array can hold what `contains` asks"
                ), True
            if contains != NOTHING:
                keywords["contains"] = contains
                if low != 1:
                    keywords["min_contains"] = repr(low)
                if high is not None:
                    keywords["max_contains"] = repr(high)
            exact = False  # other items may match too: the filter counts
        return call("_s.arrays", **keywords), exact

    def _object(self, schema: dict[str, Any], pointer: str) -> tuple[Node, bool]:
        properties: dict[str, Any] = (
            schema["properties"] if isinstance(schema.get("properties"), dict) else {}
        )
        required = [r for r in schema.get("required", []) if isinstance(r, str)]
        # Where `additionalProperties` is not said, `unevaluatedProperties` has the last word.
        additional = schema.get("additionalProperties", schema.get("unevaluatedProperties", True))
        names = schema.get("propertyNames", True)
        if names is False or names == {"not": {}}:
            additional = False
        declared = {
            name: self.compile(sub, f"{pointer}/properties/{escape(name)}")
            for name, sub in properties.items()
        }
        extra_value = (
            None
            if additional is False
            else (
                JSON_VALUES
                if additional is True
                else self.compile(additional, f"{pointer}/additionalProperties")
            )
        )
        if extra_value == NOTHING:
            extra_value = None
        for name in required:
            if name not in declared:
                if extra_value is None:
                    return self.nothing(
                        f"{pointer}/required", f"{name!r} is required and no value may stand there"
                    ), True
                declared[name] = extra_value
            elif declared[name] == NOTHING:
                return NOTHING, True
        keywords: dict[str, Node] = {}
        if required:
            keywords["required"] = Display(
                "{}", tuple((py_literal(n), declared[n]) for n in dict.fromkeys(required))
            )
        optional: list[tuple[str, Node]] = [
            (py_literal(n), s) for n, s in declared.items() if n not in required and s != NOTHING
        ]
        if optional:
            keywords["optional"] = Display("{}", tuple(optional))
        if extra_value is not None:
            keywords["extra"] = extra_value
            if isinstance(names, dict):
                keywords["extra_keys"] = self.compile(
                    {"type": "string", **names}, f"{pointer}/propertyNames"
                )
        exact = (
            names is True or names == {} or not declared
        )  # declared names must satisfy propertyNames too
        return call("_s.objects", **keywords), exact

    def reference(self, ref: Any) -> Node:
        name = ref.removeprefix("#/$defs/") if isinstance(ref, str) else None
        if name is None or name == ref or name not in self.defs:
            return JSON_VALUES  # lint refuses such a reference; never reached from a checked spec
        if name not in self.definitions:
            function = self._function_name(name)
            self.definitions[name] = (function, "")  # reserved first: a recursive body refers to it
            self.definitions[name] = (
                function,
                self.compile(self.defs[name], f"/$defs/{escape(name)}"),
            )
        if self.definitions[name][1] == NOTHING:
            return NOTHING
        return call("st.deferred", f"lambda: {self.definitions[name][0]}()")

    def _function_name(self, name: str) -> str:
        base = f"{self.prefix}{field_name(name).strip('_').lower() or 'definition'}"
        candidate, n = base, 2
        while candidate in self._taken:
            candidate, n = f"{base}_{n}", n + 1
        self._taken.add(candidate)
        return candidate

    def enumerated(self, schema: dict[str, Any], pointer: str) -> Node:
        """The listed values the whole schema accepts (checked here, once)."""
        values = [schema["const"]] if "const" in schema else list(schema.get("enum") or [])
        valid = _plainly_valid(schema, values)
        if valid is None:
            # Imported here: the judge brings the runtime's pydantic models with it (about
            # 0.2 s), which a build whose enums are all plain strings never needs.
            from toolgen.runtime_testing.judge import json_schema_validator

            whole = {**schema, "$defs": self.defs} if self.defs else schema
            validator = json_schema_validator(whole)
            valid = [v for v in values if _json_literal(v) and validator.is_valid(v)]
        if not valid:
            return self.nothing(pointer, "no listed value satisfies the rest of the schema")
        if len(valid) == 1:
            return call("st.just", literal(valid[0]))
        return call("st.sampled_from", Display("[]", tuple(literal(v) for v in valid)))

    def conditional(self, schema: dict[str, Any], pointer: str) -> tuple[Node, bool]:
        """`if`/`then`/`else`: the values of the `if` and `then` branch, and those of `else`
        (a value of the second may still satisfy `if`: the filter judges)."""
        rest = {k: v for k, v in schema.items() if k not in ("if", "then", "else")}
        if "if" not in schema:  # `then` and `else` alone say nothing
            return self._build(rest, pointer)
        condition, then, other = schema["if"], schema.get("then", True), schema.get("else", True)
        branches = []
        if condition is not False:
            branches.append(self._build({"allOf": [rest, condition, then]}, pointer))
        if condition is not True:
            branches.append(self._build({"allOf": [rest, other]}, pointer))
        nodes = [node for node, _ in branches if node != NOTHING]
        exact = isinstance(condition, bool) and all(e for _, e in branches)
        return _one_of(nodes), exact

    def union(self, schema: dict[str, Any], key: str, pointer: str) -> tuple[Node, bool]:
        """anyOf/oneOf: one branch at a time, each with the schema's other keywords merged in.
        A oneOf is exact only when its branches cannot overlap (different types)."""
        base = {k: v for k, v in schema.items() if k != key}
        options: list[Node] = []
        kinds: list[set[str]] = []
        exact = True
        accepting = sum(branch is True or branch == {} for branch in schema[key])
        if key == "oneOf" and accepting > 1:  # every value satisfies two branches
            return self.nothing(f"{pointer}/{key}", "two branches accept every value"), True
        for i, branch in enumerate(schema[key]):
            if branch is False:
                continue
            merged = merge(base, constraints(branch)) if isinstance(branch, dict) else base
            if merged is None:
                merged, exact = base, False
            node, branch_exact = self._build(merged, f"{pointer}/{key}/{i}")
            if node == NOTHING:
                continue
            options.append(node)
            kinds.append(_types(merged))
            exact = exact and branch_exact
        if not options:
            return self.nothing(f"{pointer}/{key}", "no branch can be satisfied"), True
        if key == "oneOf" and len(options) > 1:
            exact = exact and all(
                not (k & other) for i, k in enumerate(kinds) for other in kinds[i + 1 :]
            )
        return _one_of(options), exact


def _types(schema: dict[str, Any]) -> set[str]:
    """The JSON types a schema may accept (every type when it does not say)."""
    kinds = schema.get("type")
    named = (
        set(kinds)
        if isinstance(kinds, list)
        else {kinds}
        if isinstance(kinds, str)
        else set(JSON_TYPES)
    )
    return named | {"integer"} if "number" in named else named


def _one_of(nodes: list[Node]) -> Node:
    live = [node for node in nodes if node != NOTHING]
    return NOTHING if not live else live[0] if len(live) == 1 else call("st.one_of", *live)


# What a plain enum schema may say (`_plainly_valid`): its values and type, and keywords
# that restrict no value (the annotations, a schema's own words and samples).
_PLAIN = ANNOTATIONS | {"title", "description", "default", "examples", "enum", "const", "type"}


def _plainly_valid(schema: dict[str, Any], values: list[Any]) -> list[Any] | None:
    """The listed `values` the judge (`json_schema_validator`) accepts, decided without it for
    the most frequent shape: strings listed by a schema that says nothing else of its values
    but `type: string` (each listed value is then valid). None: ask the judge."""
    if "const" in schema and "enum" in schema:
        return None
    if schema.get("type", "string") != "string" or not all(type(v) is str for v in values):
        return None
    if not schema.keys() <= _PLAIN:
        return None
    return [v for v in values if _json_literal(v)]


def _json_literal(value: Any) -> bool:
    try:
        py_literal(value)
        return True
    except (TypeError, ValueError):
        return False
