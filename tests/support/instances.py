"""Instances of a JSON Schema, and single mutations of them, for differential tests.

`generate(schema, rnd)` draws a value meant to be valid, recording every position it
filled (a `Site`: where, and the subschema there). `mutate(value, sites, rnd)` breaks one
site in one known way and says which (location, codes) the validator must report. The
oracle (jsonschema) has the last word: callers keep only valid instances and rejected
mutations. `rnd` is a `random.Random`; under hypothesis, `st.randoms()` makes it shrinkable.
"""

from __future__ import annotations

import copy
import math
import random
import re
from dataclasses import dataclass
from typing import Any

Location = tuple[str | int, ...]
MAX_DEPTH = 6
UNKNOWN_KEY = "zq_unknown_key"  # near no real name: no suggestion, no pattern


class Unsatisfiable(Exception):
    """The generator cannot make a value for this schema (an unsupported keyword, `false`)."""


@dataclass(frozen=True)
class Site:
    location: Location
    schema: dict[str, Any]  # the subschema there, references resolved (the whole union at a union)
    required: bool  # a required property (or an array item, or the root)
    branch: bool = False  # the root of a union's branch: a wrong type there may suit another branch


@dataclass(frozen=True)
class Mutation:
    name: str
    value: Any
    location: Location
    codes: frozenset[str]


class Generator:
    def __init__(self, root: dict[str, Any], rnd: random.Random) -> None:
        self.defs: dict[str, Any] = root.get("$defs", {})
        self.rnd = rnd
        self.sites: list[Site] = []

    def resolve(self, schema: Any) -> Any:
        seen = 0
        while isinstance(schema, dict) and isinstance(schema.get("$ref"), str) and seen < 20:
            target = self.defs.get(schema["$ref"].removeprefix("#/$defs/"))
            schema = (
                {**{k: v for k, v in schema.items() if k != "$ref"}, **target}
                if isinstance(target, dict)
                else target
            )
            seen += 1
        return schema

    def value(
        self,
        schema: Any,
        location: Location = (),
        depth: int = 0,
        required: bool = True,
        branch: bool = False,
    ) -> Any:
        schema = self.resolve(schema)
        if schema is True or schema == {}:
            return self.rnd.choice(["x", 1, True, None, [], {"k": 1}])
        if not isinstance(schema, dict) or depth > MAX_DEPTH:
            raise Unsatisfiable(f"{location}: {schema!r:.80}")
        self.sites.append(Site(location, schema, required, branch))
        if "const" in schema:
            return copy.deepcopy(schema["const"])
        if isinstance(schema.get("enum"), list):
            if not schema["enum"]:
                raise Unsatisfiable(f"{location}: empty enum")
            return copy.deepcopy(self.rnd.choice(schema["enum"]))
        for key in ("anyOf", "oneOf"):
            if isinstance(schema.get(key), list) and schema[key]:
                # The union's site stays (wrong types for all branches); the branch gets its own.
                base = {
                    k: v
                    for k, v in schema.items()
                    if k not in (key, "description", "title", "default")
                }
                branch = self.resolve(self.rnd.choice(schema[key]))
                return self.value(
                    {**base, **branch} if isinstance(branch, dict) else branch,
                    location,
                    depth,
                    required,
                    branch=True,
                )
        if isinstance(schema.get("allOf"), list):
            merged = {k: v for k, v in schema.items() if k != "allOf"}
            for branch in schema["allOf"]:
                branch = self.resolve(branch)
                if not isinstance(branch, dict):
                    raise Unsatisfiable(f"{location}: allOf")
                for k, v in branch.items():
                    if k == "properties":
                        merged["properties"] = {**merged.get("properties", {}), **v}
                    elif k == "required":
                        merged["required"] = sorted(set(merged.get("required", [])) | set(v))
                    else:
                        merged.setdefault(k, v)
            self.sites.pop()
            return self.value(merged, location, depth, required, branch)
        kind = schema.get("type")
        if isinstance(kind, list):
            kind = self.rnd.choice(kind) if kind else None
        if kind is None:
            kind = (
                "object"
                if "properties" in schema
                else "array"
                if "items" in schema
                else self.rnd.choice(["string", "integer", "boolean"])
            )
        return getattr(self, f"_{kind}", self._unknown)(schema, location, depth)

    def _unknown(self, schema: dict[str, Any], location: Location, depth: int) -> Any:
        raise Unsatisfiable(f"{location}: type {schema.get('type')!r}")

    def _null(self, schema: dict[str, Any], location: Location, depth: int) -> Any:
        return None

    def _boolean(self, schema: dict[str, Any], location: Location, depth: int) -> Any:
        return self.rnd.random() < 0.5

    def _string(self, schema: dict[str, Any], location: Location, depth: int) -> Any:
        low = int(schema.get("minLength", 0) or 0)
        high = int(schema.get("maxLength", max(low, 12)))
        pattern = schema.get("pattern")
        candidates = [schema.get("default"), *(schema.get("examples") or [])]
        if isinstance(pattern, str):
            for text in candidates + [_from_pattern(pattern, self.rnd)]:
                if isinstance(text, str) and low <= len(text) <= high and _search(pattern, text):
                    return text
            raise Unsatisfiable(f"{location}: pattern {pattern!r}")
        size = self.rnd.randint(low, max(low, min(high, low + 12)))
        return "".join(self.rnd.choice("abcdefgh xyz-Ü日") for _ in range(size))

    def _integer(self, schema: dict[str, Any], location: Location, depth: int) -> Any:
        low, high = _bounds(schema, integer=True)
        step = schema.get("multipleOf")
        value = self.rnd.randint(low, high)
        if isinstance(step, int) and step > 0:
            value = math.ceil(low / step) * step
            if value > high:
                raise Unsatisfiable(f"{location}: multipleOf")
        if self.rnd.random() < 0.2 and abs(value) < 2**52:
            return float(value)  # JSON Schema's integers include 2.0 (Gemini sends them)
        return value

    def _number(self, schema: dict[str, Any], location: Location, depth: int) -> Any:
        low, high = _bounds(schema, integer=False)
        if isinstance(schema.get("multipleOf"), (int, float)):
            return self._integer(schema, location, depth)
        return (
            round(self.rnd.uniform(low, high), 3)
            if self.rnd.random() < 0.7
            else self.rnd.randint(math.ceil(low), math.floor(high))
        )

    def _array(self, schema: dict[str, Any], location: Location, depth: int) -> Any:
        low = int(schema.get("minItems", 0) or 0)
        high = int(schema.get("maxItems", low + 3))
        prefix = schema.get("prefixItems") or []
        size = self.rnd.randint(low, max(low, min(high, low + 3)))
        size = max(size, len(prefix)) if size else 0
        items = schema.get("items", True)
        out = [
            self.value(prefix[i] if i < len(prefix) else items, (*location, i), depth + 1)
            for i in range(size)
        ]
        if schema.get("uniqueItems") and len({repr(v) for v in out}) != len(out):
            raise Unsatisfiable(f"{location}: uniqueItems")
        return out

    def _object(self, schema: dict[str, Any], location: Location, depth: int) -> Any:
        properties: dict[str, Any] = schema.get("properties") or {}
        required = [k for k in schema.get("required") or [] if isinstance(k, str)]
        out: dict[str, Any] = {}
        for key, sub in properties.items():
            if key in required or (depth < MAX_DEPTH - 2 and self.rnd.random() < 0.5):
                out[key] = self.value(sub, (*location, key), depth + 1, key in required)
        for key in required:
            if key not in out:  # required but not declared: anything the object allows
                extra = schema.get("additionalProperties", True)
                out[key] = self.value(
                    extra if isinstance(extra, dict) else True, (*location, key), depth + 1
                )
        minimum = int(schema.get("minProperties", 0) or 0)
        extra = schema.get("additionalProperties", True)
        while len(out) < minimum and extra is not False:
            key = f"k{len(out)}"
            out[key] = self.value(
                extra if isinstance(extra, dict) else True, (*location, key), depth + 1
            )
        return out


def _bounds(schema: dict[str, Any], integer: bool) -> tuple[Any, Any]:
    low, high = -1000, 1000
    if isinstance(schema.get("minimum"), (int, float)):
        low = schema["minimum"]
    if isinstance(schema.get("exclusiveMinimum"), (int, float)):
        low = schema["exclusiveMinimum"] + (1 if integer else 1e-3)
    if isinstance(schema.get("maximum"), (int, float)):
        high = schema["maximum"]
    if isinstance(schema.get("exclusiveMaximum"), (int, float)):
        high = schema["exclusiveMaximum"] - (1 if integer else 1e-3)
    if low > high:
        raise Unsatisfiable("empty range")
    if integer:
        low, high = math.ceil(low), math.floor(high)
        if low > high:
            raise Unsatisfiable("empty range")
        if high - low > 10**6:  # stay near the interesting end
            high = low + 1000 if low > -1000 else min(high, 1000)
    return low, high


def _search(pattern: str, text: str) -> bool:
    try:
        return re.search(pattern, text) is not None
    except re.error:
        return False


_CLASSES = {"d": "0123456789", "w": "abcxyzABC019_", "s": " "}
_TOKEN = re.compile(r"\\([dws])|\\(.)|\[([^\]]+)\]|([^\\\[\](){}*+?|^$.])|(\.)")
_QUANTIFIER = re.compile(r"\{(\d+)(?:,(\d*))?\}|[*+?]")


def _from_pattern(pattern: str, rnd: random.Random) -> str | None:
    """A string for simple patterns (classes, escapes, literals, quantifiers); None for the rest."""
    body = pattern.removeprefix("^").removesuffix("$")
    out: list[str] = []
    position = 0
    while position < len(body):
        token = _TOKEN.match(body, position)
        if token is None:
            return None  # groups, alternation, lookarounds: give up
        position = token.end()
        if token.group(1):
            choices = _CLASSES[token.group(1)]
        elif token.group(2):
            choices = token.group(2)
        elif token.group(3):
            choices = _expand(token.group(3))
            if choices is None:
                return None
        else:
            choices = token.group(4) or "a"
        low = high = 1
        quantifier = _QUANTIFIER.match(body, position)
        if quantifier is not None:
            position = quantifier.end()
            text = quantifier.group(0)
            if text in "*+?":
                low, high = {"*": (0, 3), "+": (1, 3), "?": (0, 1)}[text]
            else:
                low = int(quantifier.group(1))
                high = low if quantifier.group(2) is None else int(quantifier.group(2) or low + 3)
        out.extend(rnd.choice(choices) for _ in range(rnd.randint(low, high)))
    return "".join(out)


def _expand(members: str) -> str | None:
    if members.startswith("^"):
        return "abcXYZ019"  # a negated class: try ordinary characters
    out = ""
    i = 0
    while i < len(members):
        if members[i] == "\\" and i + 1 < len(members):
            out += _CLASSES.get(members[i + 1], members[i + 1])
            i += 2
        elif i + 2 < len(members) and members[i + 1] == "-":
            out += "".join(chr(c) for c in range(ord(members[i]), ord(members[i + 2]) + 1))
            i += 3
        else:
            out += members[i]
            i += 1
    return out or None


def generate(schema: dict[str, Any], rnd: random.Random) -> tuple[Any, list[Site]]:
    """A value meant to be valid for `schema`, and the positions it filled."""
    generator = Generator(schema, rnd)
    value = generator.value(schema)
    return value, generator.sites


# --- mutations ---------------------------------------------------------------------------


def _types(schema: dict[str, Any], defs: Any) -> set[str] | None:
    """The JSON types a subschema admits, or None when it does not say."""
    if "const" in schema or "enum" in schema:
        return None
    for key in ("anyOf", "oneOf"):
        if isinstance(schema.get(key), list):
            found: set[str] = set()
            for branch in schema[key]:
                branch = defs.resolve(branch)
                sub = _types(
                    {**{k: v for k, v in schema.items() if k != key}, **branch}
                    if isinstance(branch, dict)
                    else {},
                    defs,
                )
                if sub is None:
                    return None
                found |= sub
            return found
    kind = schema.get("type")
    if isinstance(kind, str):
        return {kind} | ({"number"} if kind == "integer" else set())
    if isinstance(kind, list):
        return set(kind) | ({"number"} if "integer" in kind else set())
    return None


# What a validator may say of a value that another branch of the union takes up.
ANY_CODE = frozenset(
    {
        "type",
        "union",
        "enum",
        "const",
        "length",
        "pattern",
        "range",
        "items",
        "missing",
        "unknown_key",
    }
)
WRONG = {
    "string": "zq",
    "integer": 7,
    "number": 2.5,
    "boolean": True,
    "array": ["zq"],
    "object": {"zq": 1},
}


def mutations(value: Any, sites: list[Site], generator_defs: Generator) -> list[Mutation]:
    """Every single mutation the sites allow, with what a validator must report."""
    out: list[Mutation] = []
    for site in sites:
        schema, where = site.schema, site.location
        here = _get(value, where)
        if (
            isinstance(here, dict)
            and schema.get("additionalProperties") is False
            and "properties" in schema
            and not schema.get("patternProperties")
        ):
            out.append(
                Mutation(
                    "unknown_key",
                    _set(value, where, {**here, UNKNOWN_KEY: 1}),
                    (*where, UNKNOWN_KEY),
                    frozenset({"unknown_key"}),
                )
            )
            for key in schema.get("required") or []:
                if key in here:
                    dropped = {k: v for k, v in here.items() if k != key}
                    out.append(
                        Mutation(
                            "missing", _set(value, where, dropped), where, frozenset({"missing"})
                        )
                    )
                    break
        admitted = _types(schema, generator_defs)
        if admitted is not None and where:
            for kind, wrong in WRONG.items():
                if kind not in admitted and not (kind == "integer" and "number" in admitted):
                    out.append(
                        Mutation(
                            f"type:{kind}",
                            _set(value, where, wrong),
                            where,
                            ANY_CODE if site.branch else frozenset({"type", "union"}),
                        )
                    )
                    break
        if (
            isinstance(schema.get("enum"), list)
            and all(isinstance(v, str) for v in schema["enum"])
            and where
        ):
            out.append(
                Mutation(
                    "enum",
                    _set(value, where, "zq_not_allowed"),
                    where,
                    frozenset({"enum", "const"}),
                )
            )
        if isinstance(here, str) and where:
            if isinstance(schema.get("minLength"), int) and schema["minLength"] > 0:
                out.append(
                    Mutation("minLength", _set(value, where, ""), where, frozenset({"length"}))
                )
            if isinstance(schema.get("maxLength"), int) and schema["maxLength"] < 1000:
                out.append(
                    Mutation(
                        "maxLength",
                        _set(value, where, "z" * (schema["maxLength"] + 1)),
                        where,
                        frozenset({"length", "pattern"}),
                    )
                )
            if isinstance(schema.get("pattern"), str) and not _search(schema["pattern"], "\x01"):
                out.append(
                    Mutation(
                        "pattern",
                        _set(value, where, "\x01"),
                        where,
                        frozenset({"pattern", "length"}),
                    )
                )
        if isinstance(here, (int, float)) and not isinstance(here, bool) and where:
            if isinstance(schema.get("minimum"), (int, float)):
                out.append(
                    Mutation(
                        "minimum",
                        _set(value, where, math.floor(schema["minimum"]) - 1),
                        where,
                        frozenset({"range"}),
                    )
                )
            if isinstance(schema.get("maximum"), (int, float)):
                out.append(
                    Mutation(
                        "maximum",
                        _set(value, where, math.ceil(schema["maximum"]) + 1),
                        where,
                        frozenset({"range"}),
                    )
                )
        if isinstance(here, list) and where:
            if isinstance(schema.get("minItems"), int) and schema["minItems"] > 0:
                out.append(
                    Mutation(
                        "minItems",
                        _set(value, where, here[: schema["minItems"] - 1]),
                        where,
                        frozenset({"items"}),
                    )
                )
    return out


def _get(value: Any, location: Location) -> Any:
    for part in location:
        value = value[part]
    return value


def _set(value: Any, location: Location, new: Any) -> Any:
    if not location:
        return new
    head, rest = location[0], location[1:]
    if isinstance(value, dict):
        return {**value, head: _set(value[head], rest, new)}  # type: ignore[index]
    items = list(value)
    items[head] = _set(value[head], rest, new)  # type: ignore[index]
    return items
