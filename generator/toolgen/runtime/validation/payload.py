# Part of toolgen's runtime, copied verbatim into generated packages (edit toolgen, not a copy).
"""The limits on arguments (as JSON text, or as a dict or list), and what to say about broken JSON.

Text is measured before parsing (its length; its bracket nesting when it has many brackets).
A dict or list is measured by `measure`: an iterative walk counting what its JSON text would
hold, stopping as soon as a limit is passed, so its cost is bounded by the limits too.
"""

from __future__ import annotations

import itertools
import json
import operator
import re
from dataclasses import dataclass
from typing import Any

from pydantic_core import from_json, to_json

from ..errors import ArgumentIssue

_STRINGS = re.compile(r'"(?:[^"\\]|\\.)*"', re.DOTALL)
_BRACKETS = {ord("["): "\x02", ord("{"): "\x02", ord("]"): "\x00", ord("}"): "\x00"}
_POSITION = re.compile(r" at line (\d+) column (\d+)$")


@dataclass(frozen=True)
class Limits:
    """What a call may send. Text beyond these gets a `limit` issue, never a parse."""

    max_bytes: int = 1_000_000  # length of JSON text (characters or bytes), or a dict's as text
    max_depth: int = 64  # nesting of arrays and objects
    max_issues: int = 20  # issues listed; `ToolArgumentsError.total` counts them all

    @property
    def max_errors(self) -> int:
        """pydantic errors read (translated, or tried as repairs) per round; the rest are counted."""
        return max(1000, 50 * self.max_issues)

    def __post_init__(self) -> None:
        if min(self.max_bytes, self.max_depth, self.max_issues) < 1:
            raise ValueError("limits must be positive")


LIMITS = Limits()


def check(text: str | bytes | bytearray, limits: Limits) -> ArgumentIssue | None:
    """A `limit` issue for text too large or too deeply nested to parse, else None. Cheap when small."""
    if len(text) > limits.max_bytes:
        return ArgumentIssue(
            "",
            "limit",
            f"{len(text)} characters long; the limit is {limits.max_bytes}",
            suggestion="send less data",
        )
    if isinstance(text, str):
        opens = text.count("{") + text.count("[")
    else:
        opens = text.count(b"{") + text.count(b"[")
    if opens > limits.max_depth and depth(text) > limits.max_depth:
        return _too_deep(limits)
    return None


def not_json_numbers(text: str | bytes | bytearray) -> ArgumentIssue | None:
    """A `json` issue for `NaN` or `Infinity` read as a number (pydantic-core reads them, JSON
    has no such numbers; a string holding the words is fine), else None."""
    if isinstance(text, str):
        if "NaN" not in text and "Infinity" not in text:
            return None
    elif b"NaN" not in text and b"Infinity" not in text:
        return None
    try:
        from_json(text, allow_inf_nan=False)
    except ValueError:
        try:
            from_json(text)
        except ValueError:
            return None  # broken otherwise too: the usual reading explains it
        else:
            return ArgumentIssue(
                "",
                "json",
                "NaN and Infinity are not JSON numbers",
                suggestion="send a finite number, or null",
            )
    return None


class _Twice(Exception):
    def __init__(self, key: str) -> None:
        self.key = key


def _once(pairs: list[tuple[str, Any]]) -> list[tuple[str, Any]]:
    """json's object_pairs_hook: the pairs of one object, unless it holds a key twice."""
    if len({key for key, _ in pairs}) != len(pairs):
        seen: set[str] = set()
        for key, _ in pairs:
            if key in seen:
                raise _Twice(key)
            seen.add(key)
    return pairs


UNREADABLE = object()  # what `read` gives for text pydantic-core cannot read as JSON
_PARSE = object()


def read(text: str | bytes | bytearray) -> Any:
    """The JSON value of the text, as pydantic-core reads it, or UNREADABLE."""
    try:
        return from_json(text, cache_strings=False)  # (faster on large text, alike on small)
    except (ValueError, TypeError):
        return UNREADABLE


def duplicate_key(text: str | bytes | bytearray, value: Any = _PARSE) -> ArgumentIssue | None:
    """A `json` issue naming a key that an object of the JSON text holds twice, else None (also
    for text that is not JSON: its reading says what is wrong). pydantic-core, as most readers,
    keeps the last value of a key: the first would be hidden from whoever reads the text.

    Cheap on the valid path: every member of an object has one colon outside strings, so text
    whose colons are as many as the members pydantic-core reads plus the colons inside their
    strings holds no key twice (a key spelled with escapes is still one member, one colon).
    pydantic-core counts them at C speed: the value it read, written back as JSON, holds
    exactly those colons, and a key read twice drops at least one. Only text with more colons
    (or an escaped colon, which the text does not show) is read again, by json with a hook on
    each object's pairs, to tell which key. `value`: the text as `read` already read it,
    if it was."""
    if not isinstance(text, str):
        try:
            text = bytes(text).decode("utf-8")
        except UnicodeDecodeError:
            return None
    colons = text.count(":")
    if colons < 2:
        return None
    if value is _PARSE:
        value = read(text)
    if value is UNREADABLE:
        return None
    if type(value) is dict and len(value) == colons:
        return None  # the typical call: one flat object, no colon inside a string
    if "\\u003" not in text and colons == _written_colons(value):
        return None  # (an escaped colon, `\\u003a`, is one the text does not show)
    try:
        json.loads(text, object_pairs_hook=_once)
    except _Twice as twice:
        from ..errors import quote, short

        return ArgumentIssue(
            "",
            "json",
            f"the key {quote(short(twice.key))} appears twice in one object; which value "
            "counts depends on who reads it",
            suggestion="send each key once",
        )
    except (ValueError, RecursionError):
        return None
    return None


def _written_colons(value: Any) -> int:
    """The colons of a JSON value written back as JSON text (-1 if it cannot be written)."""
    try:
        return to_json(value).count(b":")
    except (ValueError, TypeError):
        return -1


_FLAT = frozenset({str, int, float, bool, type(None)})
FLAT_KEYS = 64


def flat(value: dict[Any, Any]) -> bool:
    """At most FLAT_KEYS keys, no array or object inside: nothing to walk before validating
    (pydantic-core's pass over it is bounded by its few values; a long string is only referenced).
    A C-speed test: the valid path of a typical call stays one pydantic-core call."""
    return len(value) <= FLAT_KEYS and _FLAT.issuperset(map(type, value.values()))


def measure(value: Any, limits: Limits) -> ArgumentIssue | None:
    """A `limit` issue for a dict or list larger or deeper than the limits, else None
    (`measured`'s issue)."""
    return measured(value, limits)[0]


def measured(value: Any, limits: Limits) -> tuple[ArgumentIssue | None, int]:
    """A `limit` issue for a dict or list larger or deeper than the limits, else None; and
    the members of its arrays and objects counted before it stopped.

    Size is counted as the value's JSON text would be, at least: a string by its length and
    quotes, a key by its length, quotes and colon, any other value as one character, each
    member's comma, each array's or object's brackets. The walk is iterative (no recursion
    limit), breadth first, and stops once a limit is passed: at most about `max_bytes`
    steps, however large the value (a value shared many times counts at every use, as in
    its text; a cycle is "too deep").
    """
    budget, max_depth = limits.max_bytes, limits.max_depth
    level: list[Any] = [value]
    depth = seen = 0
    while level:
        depth += 1
        if depth > max_depth:
            return _too_deep(limits), seen
        below: list[Any] = []
        push = below.append
        for node in level:
            # Brackets, and one character (a comma, or a value's least) per member: the loop
            # below runs only when its length fits what is left.
            budget -= 2 + len(node)
            seen += len(node)
            if isinstance(node, dict):
                try:
                    budget -= sum(map(len, node)) + 3 * len(node)  # keys: quotes and colon
                except TypeError:  # a key that is not a string (a host's dict)
                    budget -= 4 * len(node)
                members: Any = node.values()
            else:
                members = node
            if budget < 0:
                return _too_large(limits), seen
            for item in members:
                kind = type(item)
                if kind is str:
                    budget -= len(item) + 1
                elif kind is dict or kind is list:
                    push(item)
                elif kind in _FLAT:
                    continue
                elif isinstance(item, str):
                    budget -= len(item) + 1
                elif isinstance(item, (dict, list, tuple)):
                    push(item)
            if budget < 0:
                return _too_large(limits), seen
        level = below
    return None, seen


# Core-schema types of one JSON value that holds nothing inside.
SCALARS = frozenset(
    {
        "str",
        "int",
        "float",
        "bool",
        "none",
        "literal",
        "enum",
        "function-plain",
        "date",
        "datetime",
        "time",
        "timedelta",
        "decimal",
        "uuid",
        "url",
        "multi-host-url",
        "bytes",
    }
)
# Types that only wrap another schema (`schema`), or choose among several.
WRAPPERS = frozenset({"nullable", "default", "function-after", "function-before", "function-wrap"})
_CONTAINERS = frozenset({"list", "set", "frozenset", "tuple", "dict", "model-fields", "typed-dict"})


def shallow(model: type[Any]) -> int | None:
    """How deeply the values a pydantic class accepts can nest, when it bounds that and types
    every value inside (no untyped `Any`, no open extras, no recursion: a class used twice
    is read through its shared definition), else None.

    Such a class refuses anything deeper than its depth, and `NaN`/`Infinity` (its floats
    are finite: `allow_inf_nan=False`) on its own: text or a dict for it can be read before
    being measured. Unknown schema types count as unbounded.
    """
    try:
        return _depth(model.__pydantic_core_schema__, {}, {})
    except (AttributeError, KeyError, TypeError, RecursionError):
        return None


def _depth(schema: Any, config: dict[str, Any], defs: dict[str, Any]) -> int | None:
    kind = schema.get("type")
    if kind in SCALARS:
        return 0
    if kind in WRAPPERS:
        return _depth(schema["schema"], config, defs)
    if kind == "model":
        return _depth(schema["schema"], schema.get("config") or {}, defs)
    if kind == "definitions":  # classes used more than once, shared by reference
        defs.update((d["ref"], d) for d in schema["definitions"])
        return _depth(schema["schema"], config, defs)
    if kind == "definition-ref":
        ref = schema["schema_ref"]
        if defs.get(ref) is None:
            return None  # recursion (the definition is being read), or unknown
        definition, defs[ref] = defs[ref], None
        try:
            return _depth(definition, config, defs)
        finally:
            defs[ref] = definition
    parts: list[Any] | None
    if kind == "union":
        parts = [c[0] if isinstance(c, tuple) else c for c in schema["choices"]]
    elif kind == "tagged-union":
        parts = list(schema["choices"].values())
    elif kind == "chain":
        parts = list(schema["steps"])
    elif kind == "lax-or-strict":
        parts = [schema["lax_schema"], schema["strict_schema"]]
    elif kind in _CONTAINERS:
        parts = _members(kind, schema, config)
    else:
        return None  # any, or a type this does not know
    if parts is None:
        return None
    deepest = 0
    for part in parts:
        found = _depth(part, config, defs)
        if found is None:
            return None
        deepest = max(deepest, found)
    return deepest + 1 if kind in _CONTAINERS else deepest


def _members(kind: str, schema: dict[str, Any], config: dict[str, Any]) -> list[Any] | None:
    """The schemas inside a container's values, or None when some value is untyped."""
    if kind in ("model-fields", "typed-dict"):
        fields = [field["schema"] for field in schema["fields"].values()]
        extra = schema.get("extra_behavior") or config.get("extra_fields_behavior")
        if extra == "allow":
            if "extras_schema" not in schema:
                return None
            fields.append(schema["extras_schema"])
        return fields
    if kind == "tuple":
        items = list(schema.get("items_schema") or [])
        return items if "variadic_item_index" not in schema or items else None
    keys = [schema.get("keys_schema")] if kind == "dict" else []
    values = [schema.get("values_schema" if kind == "dict" else "items_schema")]
    parts = keys + values
    return None if None in parts else parts


def _too_large(limits: Limits) -> ArgumentIssue:
    return ArgumentIssue(
        "",
        "limit",
        f"more than {limits.max_bytes} characters as JSON, the limit",
        suggestion="send less data",
    )


def _too_deep(limits: Limits) -> ArgumentIssue:
    return ArgumentIssue(
        "",
        "limit",
        f"nested more than {limits.max_depth} levels deep",
        suggestion="flatten the structure",
    )


def depth(text: str | bytes | bytearray) -> int:
    """How deeply arrays and objects nest in JSON text (brackets inside strings do not count)."""
    if not isinstance(text, str):
        text = bytes(text).decode("utf-8", "replace")
    skeleton = _STRINGS.sub("", text)
    ups = _only(skeleton)
    steps = map(operator.sub, ups.encode("latin-1"), itertools.repeat(1))
    return max(itertools.accumulate(steps), default=0)


def _only(skeleton: str) -> str:
    """Brackets as \\x02 (open) and \\x00 (close); everything else removed."""
    kept = re.sub(r"[^\[\]{}]+", "", skeleton)
    return kept.translate(_BRACKETS)


def blank(text: str | bytes | bytearray) -> bool:
    """No arguments at all, as some models send them: "", whitespace, or null."""
    stripped = text.strip()
    return not stripped or stripped in ("null", b"null")


def json_issue(message: str, text: str | bytes | bytearray) -> ArgumentIssue:
    """An issue for invalid JSON, from pydantic-core's message (`... at line 1 column 9`)."""
    message = message.removeprefix("Invalid JSON: ")
    found = _POSITION.search(message)
    line, column = (int(found.group(1)), int(found.group(2))) if found else (0, 0)
    what = _POSITION.sub("", message)
    if what.startswith("recursion limit exceeded"):
        return ArgumentIssue("", "limit", "nested too deeply", suggestion="flatten the structure")
    source = text if isinstance(text, str) else bytes(text).decode("utf-8", "replace")
    where = f" at line {line}, column {column}" if found else ""
    return ArgumentIssue(
        "",
        "json",
        f"invalid JSON{where}: {_plain(what)}",
        suggestion=_hint(what, source, line, column),
    )


# The parser's words for what went wrong, as a model reads them.
_PLAIN = (
    ("expected ident", "unexpected word"),
    ("expected value", "expected a value"),
    ("EOF while parsing a", "the text ends inside a"),  # "a value", "an object"
    ("trailing characters", "more text after the JSON value"),
    ("expected `,` or `}`", "expected , or }"),
    ("expected `,` or `]`", "expected , or ]"),
    ("expected `:`", "expected :"),
)


def _plain(what: str) -> str:
    for parser, plain in _PLAIN:
        if what.startswith(parser):
            return plain + what[len(parser) :]
    return what


def _hint(what: str, text: str, line: int, column: int) -> str | None:
    lines = text.splitlines() or [""]
    row = lines[line - 1] if 0 < line <= len(lines) else ""
    near = row[max(0, column - 1) : column + 10]
    around = row[max(0, column - 6) : column + 6]  # the parser may stop inside a word
    start = text.lstrip()[:3]
    if start == "```":
        return "send only the JSON object, without a Markdown code fence"
    if start[:2] in ("//", "/*"):
        return "JSON has no comments; remove them"
    if what.startswith("trailing comma"):
        return "remove the comma before the closing bracket"
    if what.startswith("key must be a string"):
        return (
            "use double quotes, not single quotes"
            if near.startswith("'")
            else "put every key in double quotes"
        )
    if what.startswith(("expected value", "expected ident")):
        for python, json_word in (("None", "null"), ("True", "true"), ("False", "false")):
            if python in around:
                return f"write {json_word}, not {python}"
        if near.startswith("'"):
            return "use double quotes, not single quotes"
        if near.startswith(("NaN", "Infinity", "undefined")):
            return "JSON has no NaN, Infinity or undefined; send a number or null"
        return None
    if what.startswith("EOF while parsing"):
        return "the JSON is cut off: close every string, array and object"
    if what.startswith("trailing characters"):
        return "send exactly one JSON object and nothing after it"
    if what.startswith("expected `,`"):
        return "separate members with a comma"
    if what.startswith("control character"):
        return "escape line breaks and tabs inside strings as \\n and \\t"
    if what.startswith("invalid escape"):
        return "escape a backslash as \\\\"
    if what.startswith("invalid number"):
        return "write numbers without leading zeros, quotes or a trailing dot"
    return None


def not_an_object(value: Any) -> ArgumentIssue:
    """Valid JSON that is not an object: an array, a number, or an object's JSON inside a string."""
    from ..errors import preview

    if isinstance(value, str) and value.strip().startswith("{"):
        return ArgumentIssue(
            "",
            "type",
            "expected an object, got a string holding its JSON",
            preview(value),
            "an object",
            "send the object itself, not a string of JSON",
        )
    kind = {
        list: "an array",
        str: "a string",
        bool: "true or false",
        int: "a number",
        float: "a number",
    }.get(type(value), "another value")
    return ArgumentIssue(
        "",
        "type",
        f"expected an object, got {kind}",
        preview(value),
        "an object",
        'send the arguments as one object: {"key": value, ...}',
    )
