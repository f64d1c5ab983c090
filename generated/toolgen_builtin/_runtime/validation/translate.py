# Part of toolgen's runtime, copied verbatim into generated packages (edit toolgen, not a copy).
"""pydantic's errors -> ArgumentIssues a model can act on. Runs only after validation failed.

pydantic reports a union's failure once per branch, with the branch's label in `loc`, and a
map key's own error under a `[key]` part. Labels are told apart from keys by the model's
structure (never by their text), and only the closest branch of a union is reported.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from ..errors import MAX_KEY_CHARS, ArgumentIssue, listing, preview, quote, short
from .hints import type_hint
from .shape import Node
from .suggest import nearest

Location = tuple[str | int, ...]
Item = tuple[Location, dict[str, Any]]  # (loc below the current node, pydantic's error)

# The value's type did not match: the branch of a union that reports one did not get in.
TYPE_ERRORS = frozenset(
    {
        "model_type",
        "model_attributes_type",
        "dict_type",
        "list_type",
        "string_type",
        "int_type",
        "int_parsing",
        "int_from_float",
        "float_type",
        "float_parsing",
        "bool_type",
        "bool_parsing",
        "none_required",
        "literal_error",
        "is_instance_of",
        "string_unicode",
        "json_type",
        "missing_sentinel_error",
    }
)
RANGE = {
    "greater_than": "more than {gt}",
    "greater_than_equal": "at least {ge}",
    "less_than": "less than {lt}",
    "less_than_equal": "at most {le}",
    "multiple_of": "a multiple of {multiple_of}",
}


class Hit:
    """One error at a resolved position; `key` is set for a key's own error (unknown, missing)."""

    __slots__ = ("location", "node", "error", "key", "secret")

    def __init__(
        self,
        location: Location,
        node: Node,
        error: dict[str, Any],
        key: Any = None,
        secret: bool = False,
    ) -> None:
        self.location, self.node, self.error, self.key = location, node, error, key
        # A value that is, or holds, a secret is never shown (an array of secrets, a union
        # with a secret branch): only its position and what was expected.
        self.secret = secret or node.hides


def format_path(location: Location) -> str:
    """`items[2].sku`: keys longer than MAX_KEY_CHARS shortened (`location` keeps them whole)."""
    out = ""
    for part in location:
        if isinstance(part, int):
            out += f"[{part}]"
        else:
            name = short(str(part), MAX_KEY_CHARS)
            out += f".{name}" if out else name
    return out


def resolve(
    node: Node, items: list[Item], location: Location, secret: bool, out: list[Hit]
) -> None:
    """Walk the errors down the model's structure, dropping union labels and choosing branches."""
    secret = secret or node.secret
    if node.kind == "union":
        _union(node, items, location, secret, out)
        return
    below: dict[str | int, list[Item]] = {}
    for loc, error in items:
        if not loc:
            out.append(Hit(location, node, error, secret=secret))
        elif len(loc) == 1 and _is_key_error(node, loc[0], error):
            out.append(Hit(location, node, error, key=loc[0], secret=secret))
        elif len(loc) == 2 and loc[1] == "[key]" and node.kind == "map":
            out.append(
                Hit(location, node, {**error, "type": "key_invalid"}, key=loc[0], secret=secret)
            )
        else:
            below.setdefault(loc[0], []).append((loc[1:], error))
    for part, sub in below.items():
        child = node.child(part)
        if child is None:  # a structure we cannot follow: report where we are
            out.extend(Hit((*location, part), Node(Any), error, secret=secret) for _, error in sub)
        else:
            resolve(child, sub, (*location, part), secret, out)


def _is_key_error(node: Node, part: str | int, error: dict[str, Any]) -> bool:
    kind = error["type"]
    if kind in (
        "missing",
        "extra_forbidden",
        "invalid_key",
    ):  # invalid_key: not a string (a host's dict)
        return True
    # An open object whose keys must match a pattern reports a bad key at the key itself.
    return (
        node.kind == "object"
        and kind == "string_pattern_mismatch"
        and error.get("input") == part
        and part not in node.keys()
    )


def _union(node: Node, items: list[Item], location: Location, secret: bool, out: list[Hit]) -> None:
    members = node.members
    branches: dict[str | int, list[Item]] = {}
    for loc, error in items:
        if loc:
            branches.setdefault(loc[0], []).append((loc[1:], error))
    # pydantic reports every branch, in the union's order: labels map to members by position.
    if len(branches) != len(members) or any(not loc for loc, _ in items):
        out.append(Hit(location, node, {"type": "union", "input": _input(items)}, secret=secret))
        return
    entered = [(m, b) for m, b in zip(members, branches.values(), strict=True) if _entered(b)]
    if not entered:
        out.append(Hit(location, node, {"type": "union", "input": _input(items)}, secret=secret))
        return
    member, branch = min(entered, key=lambda pair: _weight(pair[1]))  # ties: the first branch
    resolve(member, branch, location, secret, out)


def _entered(branch: list[Item]) -> bool:
    return not any(not loc and error["type"] in TYPE_ERRORS for loc, error in branch)


def _weight(branch: list[Item]) -> int:
    # A wrong const (a discriminator such as `kind`) says more than a few wrong fields.
    return sum(
        (
            5
            if e["type"] == "literal_error"
            and " or " not in str((e.get("ctx") or {}).get("expected", " or "))
            else 1
        )
        for _, e in branch
    )


def _input(items: list[Item]) -> Any:
    """The value a union was given: the input of an error at a branch's root."""
    for loc, error in items:
        if len(loc) <= 1 and error["type"] in TYPE_ERRORS:
            return error.get("input")
    return items[0][1].get("input") if items else None


# --- issues ---------------------------------------------------------------------------


def issues(
    hits: list[Hit], data: Callable[[Location], Any], limit: int
) -> tuple[list[ArgumentIssue], int]:
    """One issue per problem (an object's unknown and missing keys paired up first), and how
    many more there are: past `limit` issues, a value's problem is counted, not translated."""
    out: list[ArgumentIssue] = []
    skipped = 0
    objects: dict[Location, tuple[Node, list[Any], list[Any]]] = {}
    for hit in hits:
        if hit.key is None or hit.error["type"] == "key_invalid":
            if len(out) < limit:
                out.append(_issue(hit))
            else:
                skipped += 1
            continue
        node, unknown, missing = objects.setdefault(hit.location, (hit.node, [], []))
        (missing if hit.error["type"] == "missing" else unknown).append(hit.key)
    for location, (node, unknown, missing) in objects.items():
        room = max(0, limit - len(out))  # unknown keys past the limit: counted, not searched
        skipped += max(0, len(unknown) - room)
        out.extend(_keys(location, node, unknown[:room], missing, data))
    return out, skipped


def _keys(
    location: Location,
    node: Node,
    unknown: list[Any],
    missing: list[Any],
    data: Callable[[Location], Any],
) -> list[ArgumentIssue]:
    allowed = node.keys()
    out: list[ArgumentIssue] = []
    still_missing = [k for k in allowed if k in missing] + [k for k in missing if k not in allowed]
    for key in unknown:
        where = (*location, key)
        guess = nearest(key, allowed) if isinstance(key, str) else None
        if guess is not None and guess in still_missing:
            still_missing.remove(guess)
            suggestion = f"did you mean {quote(guess)}? It is required and missing"
        elif guess is not None:
            given = data(location)
            taken = isinstance(given, dict) and guess in given
            suggestion = (
                f"remove it: {quote(guess)} is already given"
                if taken
                else f"did you mean {quote(guess)}?"
            )
        elif allowed:
            suggestion = f"allowed keys: {listing(allowed)}"
        else:
            suggestion = "this object takes no keys"
        out.append(
            ArgumentIssue(
                format_path(where),
                "unknown_key",
                "unknown key",
                expected=listing(allowed) or None,
                suggestion=suggestion,
                location=where,
            )
        )
    if still_missing:
        plural = "s" if len(still_missing) > 1 else ""
        out.append(
            ArgumentIssue(
                format_path(location),
                "missing",
                f"missing required key{plural} {listing(still_missing, 50)}",
                expected=listing(still_missing, 50),
                location=location,
            )
        )
    return out


def _issue(hit: Hit) -> ArgumentIssue:
    error, node = hit.error, hit.node
    kind = error["type"]
    raw = error.get("input")
    value = None if hit.secret else preview(raw)
    got = "a secret value" if value is None else value
    ctx = error.get("ctx") or {}
    location = (*hit.location, hit.key) if hit.key is not None else hit.location
    path = format_path(location)

    def make(
        code: str, message: str, expected: str | None = None, suggestion: str | None = None
    ) -> ArgumentIssue:
        return ArgumentIssue(path, code, message, value, expected, suggestion, location)

    if kind == "key_invalid":
        pattern = ctx.get("pattern")
        rule = f"keys must match the pattern {pattern}" if pattern else "this key is not allowed"
        return ArgumentIssue(
            path,
            "unknown_key",
            "unknown key",
            None,
            str(pattern) if pattern else None,
            rule,
            location,
        )
    if kind == "literal_error" or (kind == "union" and node.kind == "enum"):
        return _enum(node, raw, got, hit.secret, make)
    if kind == "union" or kind in TYPE_ERRORS:
        expected = node.describe()
        hint = None if hit.secret else type_hint(raw, node)
        if kind == "union" and not hint:
            hint = _union_enum_hint(node, raw) if not hit.secret else None
        return make(
            "union" if kind == "union" else "type",
            f"expected {expected}, got {got}",
            expected,
            hint,
        )
    if kind in RANGE:
        bound = RANGE[kind].format(**{k: _number(v) for k, v in ctx.items()})
        return make("range", f"expected {bound}, got {got}", bound)
    if kind in ("string_too_short", "string_too_long"):
        limit = ctx.get("min_length", ctx.get("max_length"))
        size = len(raw) if isinstance(raw, str) else None
        word = "at least" if kind == "string_too_short" else "at most"
        expected = f"{word} {limit} character{'s' if limit != 1 else ''}"
        return make(
            "length", f"expected {expected}, got {size if size is not None else 'fewer'}", expected
        )
    if kind in ("too_short", "too_long"):
        limit = ctx.get("min_length", ctx.get("max_length"))
        word = "at least" if kind == "too_short" else "at most"
        expected = f"{word} {limit} item{'s' if limit != 1 else ''}"
        return make("items", f"expected {expected}, got {ctx.get('actual_length', '?')}", expected)
    if kind == "string_pattern_mismatch":
        pattern = str(ctx.get("pattern", ""))
        return make(
            "pattern", f"expected a string matching the pattern {pattern}, got {got}", pattern
        )
    if kind == "unique_items":  # the exact check's words (exact/values.py), compiled in a field
        second = ctx.get("second")
        message = f"items {ctx.get('first')} and {second} are equal, but items must be unique"
        return ArgumentIssue(
            path, "unique", message, None, "unique items", f"remove item {second}", location
        )
    if kind.startswith("recursion"):
        return make("limit", "nested too deeply")
    if hit.secret:  # pydantic's own wording may quote the value
        return make("invalid", "is not valid")
    message = str(error.get("msg") or "is not valid")
    return make("invalid", message[:1].lower() + message[1:])


def _enum(
    node: Node, raw: Any, got: str, secret: bool, make: Callable[..., ArgumentIssue]
) -> ArgumentIssue:
    values = node.values
    expected = node.describe() if values else "an allowed value"
    code = "const" if len(values) == 1 else "enum"
    suggestion = None
    if isinstance(raw, str) and not secret:
        guess = nearest(raw, [v for v in values if isinstance(v, str)])
        suggestion = f"did you mean {quote(guess)}?" if guess is not None else None
    return make(code, f"expected {expected}, got {got}", expected, suggestion)


def _union_enum_hint(node: Node, raw: Any) -> str | None:
    if not isinstance(raw, str):
        return None
    options = [v for m in node.members if m.kind == "enum" for v in m.values if isinstance(v, str)]
    guess = nearest(raw, options)
    return f"did you mean {quote(guess)}?" if guess is not None else None


def _number(value: Any) -> str:
    if isinstance(value, float) and value.is_integer():
        return str(int(value))
    return str(value)
