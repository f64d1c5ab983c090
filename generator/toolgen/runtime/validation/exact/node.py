# Part of toolgen's runtime, copied verbatim into generated packages (edit toolgen, not a copy).
"""The exact checker's parts: a compiled schema (`Node`), a compiled keyword, JSON equality,
and the words its messages are made of."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace
from typing import Any, Protocol

from ...errors import ArgumentIssue, listing, preview, quote
from ...types import is_json_type
from ..suggest import nearest

Location = tuple[str | int, ...]
Ok = Callable[[Any], bool]
Explain = Callable[[Any, Location, "Ctx", bool], None]
Annotate = Callable[[Any, set[str], set[int]], None]
MAX_WORK = 20_000  # nodes explained per `issues` call: branches of branches stay bounded

_KINDS: dict[type, str] = {
    dict: "object",
    list: "array",
    tuple: "array",
    str: "string",
    int: "number",
    float: "number",
    bool: "boolean",
    type(None): "null",
}
_WORDS = {
    "string": "a string",
    "integer": "an integer",
    "number": "a number",
    "boolean": "a boolean",
    "null": "null",
    "array": "an array",
    "object": "an object",
}


class Unsupported(ValueError):
    """A schema this checker refuses to compile (the message names the keyword and its JSON pointer)."""


class Compiling(Protocol):
    """What a keyword's builder may ask of the compiler."""

    formats: bool

    def sub(self, schema: Any, pointer: str, base: str, *parts: str | int) -> Node: ...

    def ref(self, ref: Any, pointer: str, base: str) -> Node: ...

    def pattern(self, text: Any, pointer: str) -> Any: ...


def kind(value: Any) -> str:
    """The JSON type of a value, integers and numbers alike being "number"."""
    found = _KINDS.get(type(value))
    if found is not None:
        return found
    for cls, name in _KINDS.items():
        if isinstance(value, cls):
            return "boolean" if isinstance(value, bool) else name
    return "other"


def is_integer(value: Any) -> bool:
    return is_json_type(value, "integer")


def canon(value: Any) -> Any:
    """A hashable key equal for JSON-equal values (1 == 1.0, true != 1, key order ignored)."""
    k = kind(value)
    if k == "object":
        return ("o", frozenset((key, canon(item)) for key, item in value.items()))
    if k == "array":
        return ("a", tuple(canon(item) for item in value))
    return (k, value)


class Ctx:
    """Where issues go while explaining: bounded by `limit` issues and MAX_WORK nodes."""

    __slots__ = ("out", "limit", "work")

    def __init__(self, limit: int, work: list[int] | None = None) -> None:
        self.out: list[ArgumentIssue] = []
        self.limit = limit
        self.work = work if work is not None else [MAX_WORK]

    def full(self) -> bool:
        return len(self.out) >= self.limit

    def trial(self) -> Ctx:
        """A scratch context sharing the work budget (to compare union branches)."""
        return Ctx(self.limit, self.work)

    def add(
        self,
        location: Location,
        code: str,
        message: str,
        value: str | None = None,
        expected: str | None = None,
        suggestion: str | None = None,
    ) -> None:
        if len(self.out) < self.limit:
            self.out.append(ArgumentIssue.at(location, code, message, value, expected, suggestion))

    def extend(self, issues: list[ArgumentIssue]) -> None:
        self.out.extend(issues[: max(0, self.limit - len(self.out))])


def shown(value: Any, secret: bool) -> str | None:
    return None if secret else preview(value)


def got(value: Any, secret: bool) -> str:
    return "a secret value" if secret else preview(value)


class Keyword:
    """One compiled keyword: `ok` (fast), `explain` (after `ok` failed), its annotations."""

    __slots__ = ("name", "applies", "ok", "explain", "annotate")

    def __init__(
        self,
        name: str,
        applies: str | None,
        ok: Ok,
        explain: Explain,
        annotate: Annotate | None = None,
    ) -> None:
        self.name, self.applies, self.ok, self.explain = name, applies, ok, explain
        self.annotate = annotate


class Node:
    """One compiled (sub)schema: keywords for any value first, then those of the value's type."""

    __slots__ = ("pointer", "keywords", "secret", "any_ok", "typed_ok", "annotators", "words")

    def __init__(self, pointer: str, keywords: list[Keyword], secret: bool) -> None:
        self.pointer, self.secret = pointer, secret
        self.words: str | None = None  # what the schema asks for, when short (`an integer`)
        self.set_keywords(keywords)

    def set_keywords(self, keywords: list[Keyword]) -> None:
        self.keywords = keywords
        self.any_ok = [k.ok for k in keywords if k.applies is None]
        self.typed_ok: dict[str, list[Ok]] = {}
        for k in keywords:
            if k.applies is not None:
                self.typed_ok.setdefault(k.applies, []).append(k.ok)
        self.annotators = [k.annotate for k in keywords if k.annotate is not None]

    def valid(self, value: Any) -> bool:
        for ok in self.any_ok:
            if not ok(value):
                return False
        checks = self.typed_ok.get(kind(value)) if self.typed_ok else None
        if checks:
            for ok in checks:
                if not ok(value):
                    return False
        return True

    def annotate(self, value: Any) -> tuple[set[str], set[int]] | None:
        """The keys and indexes this schema evaluated, or None when the value is invalid."""
        if not self.valid(value):
            return None
        props: set[str] = set()
        items: set[int] = set()
        if isinstance(value, (dict, list, tuple)):
            for annotate in self.annotators:
                annotate(value, props, items)
        return props, items

    def explain(self, value: Any, location: Location, ctx: Ctx, secret: bool) -> None:
        """Add issues for a value this node rejects."""
        if ctx.full():
            return
        ctx.work[0] -= 1
        secret = secret or self.secret
        if ctx.work[0] < 0:
            ctx.add(location, "invalid", "is not valid", shown(value, secret))
            return
        k = kind(value)
        for keyword in self.keywords:
            if (keyword.applies is None or keyword.applies == k) and not keyword.ok(value):
                keyword.explain(value, location, ctx, secret)
                if keyword.name == "type" or ctx.full():
                    return


def false_keyword() -> Keyword:
    def explain(value: Any, location: Location, ctx: Ctx, secret: bool) -> None:
        hint = "remove this key" if location and isinstance(location[-1], str) else None
        ctx.add(location, "invalid", "no value is allowed here", shown(value, secret), None, hint)

    return Keyword("false", None, lambda value: False, explain)


def types_words(names: list[str]) -> str:
    words = list(dict.fromkeys(_WORDS.get(n, n) for n in names))
    return words[0] if len(words) == 1 else ", ".join(words[:-1]) + " or " + words[-1]


def number(value: Any) -> str:
    if isinstance(value, float) and value.is_integer() and abs(value) < 1e16:
        return str(int(value))
    return preview(value)


def plural(count: int, word: str) -> str:
    return f"{count} {word}{'' if count == 1 else 's'}"


def values_words(values: list[Any]) -> str:
    if len(values) == 1:
        return preview(values[0])
    shown_values = ", ".join(preview(v) for v in values[:12])
    return f"one of {shown_values}" + (" and more" if len(values) > 12 else "")


GENERIC = ('the value matches the "if" schema', 'the value does not match the "if" schema')


def prefixed(issues: list[ArgumentIssue], code: str, reason: str) -> list[ArgumentIssue]:
    return [replace(i, code=code, message=f"since {reason}, {i.message}") for i in issues]


def forms(indexes: list[int]) -> str:
    names = [str(i + 1) for i in indexes]
    return ", ".join(names[:-1]) + " and " + names[-1]


def closest(
    branches: list[Node], value: Any, location: Location, ctx: Ctx, secret: bool, code: str
) -> None:
    """The branch the value came closest to (fewest issues; of those, the one whose first issue
    is deepest: the value got furthest into it; then the first), under a preface."""
    trials: list[tuple[int, list[ArgumentIssue]]] = []
    for index, branch in enumerate(branches):
        trial = ctx.trial()
        branch.explain(value, location, trial, secret or branch.secret)
        wrong_type = any(i.code == "type" and i.location == location for i in trial.out)
        if not wrong_type:
            trials.append((index, trial.out))
    count = len(branches)
    if not trials:
        words = [b.words for b in branches]
        if all(words):
            expected = " or ".join(dict.fromkeys(w for w in words if w))
            message = f"expected {expected}, got {got(value, secret)}"
        else:
            message = f"matches none of the {count} allowed forms"
            expected = None
        ctx.add(location, code, message, shown(value, secret), expected)
        return
    index, issues = min(
        trials, key=lambda pair: (len(pair[1]), -len(pair[1][0].location) if pair[1] else 0)
    )
    message = f"matches none of the {count} allowed forms; the closest is form {index + 1}"
    ctx.add(location, code, message, shown(value, secret))
    ctx.extend(issues)


def unknown(
    key: str,
    value: dict[str, Any],
    location: Location,
    ctx: Ctx,
    declared: list[str],
    required: Any,
) -> None:
    wanted = [r for r in required if isinstance(r, str) and r not in value and r not in declared]
    guess = nearest(key, declared + wanted) if isinstance(key, str) else None
    if guess is not None and guess in value:
        hint = f"remove it: {quote(guess)} is already given"
    elif guess is not None and guess in required:
        hint = f"did you mean {quote(guess)}? It is required and missing"
    elif guess is not None:
        hint = f"did you mean {quote(guess)}?"
    else:
        hint = f"allowed keys: {listing(declared)}" if declared else "this object takes no keys"
    ctx.add((*location, key), "unknown_key", "unknown key", None, listing(declared) or None, hint)


def condition(schema: Any) -> tuple[str, str]:
    """What an `if` says, in words (`"country" is "US"`), when it is that simple."""
    if not isinstance(schema, dict) or set(schema) - {"properties", "required", "type"}:
        return GENERIC
    props, required = schema.get("properties") or {}, schema.get("required") or []
    if schema.get("type", "object") != "object" or not isinstance(props, dict):
        return GENERIC
    if not props and len(required) == 1:
        return f"{quote(required[0])} is present", f"{quote(required[0])} is absent"
    if len(props) == 1 and list(props) == list(required):
        name, sub = next(iter(props.items()))
        if isinstance(sub, dict) and list(sub) == ["const"]:
            shown_value = preview(sub["const"])
            return f"{quote(name)} is {shown_value}", f"{quote(name)} is not {shown_value}"
    return GENERIC
