# Part of toolgen's runtime, copied verbatim into generated packages (edit toolgen, not a copy).
"""A key sent twice in one object of JSON text, ruled out from what the class read, at almost
no cost on the valid path.

pydantic-core, as most readers, keeps the last value of a key sent twice: the first is hidden
from whoever reads the text (a reviewer approving `{"path": "safe", "path": "/"}`). Every
member of an object has exactly one colon outside strings, so the text's colons are at least
its members; a key read twice is one member less in what the class read. So when the members
of the validated value (`members`: the keys each object set, counted down the value, never
more than were read) are as many as the text's colons, less those known to be inside strings
(a colon after a character no member's colon follows: a URL, a time), no object holds a key
twice. The count can only exceed the members, never miss one. Only other text (a colon after
a quote or a space inside a string, bytes) is read again (`duplicate_key`, which names the
key).

`members` is compiled once per class from its core schema: the fields that may hold an
object or an array of them are looked into, the others only counted.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from typing import Any

from pydantic import BaseModel
from pydantic_core import to_json

from ..errors import ArgumentIssue
from .jsontext import UNREADABLE, read
from .nesting import SCALARS

Count = Callable[[Any], int]
# The colons after a character that cannot precede a member's colon: colons inside strings
# (`cleared`; validate.py calls it inline on its valid path).
inside = re.compile(r':(?<=[^"\s]:)').findall
# Of each class met: how the members of one of its instances are counted.
_COUNTS: dict[type[Any], Count] = {}


def sent_once(text: str, value: Any) -> bool:
    """True when the JSON text the class read `value` from holds no key twice in one object,
    known without reading it again; False when that needs the text read again (not a
    verdict). Never True for text holding a key twice."""
    extra = text.count(":") - members(value)
    return not extra or cleared(text, extra)


def cleared(text: str, extra: int) -> bool:
    """`sent_once` for text with colons inside strings: `extra` colons more than the members
    of what the class read. A member's colon follows its key's closing quote, or whitespace
    after it: a colon after any other character is inside a string. When those are as many
    as the extra colons, the text's members are no more than the members read: no object
    holds a key twice. One pass of the regex engine, from each colon only (its literal
    first character is searched for, as `str.find` does)."""
    return len(inside(text)) == extra


def members(value: Any) -> int:
    """The members of every object in a validated value (a key sent twice counts once), at
    most as many as the text it was read from holds."""
    kind = type(value)
    count = _COUNTS.get(kind)
    if count is not None:
        return count(value)
    if kind is list or kind is tuple:
        return sum(map(members, value))
    if kind is dict:
        return len(value) + sum(map(members, value.values()))
    if not isinstance(value, BaseModel):
        return 0
    return counter(kind)(value)


def counter(cls: type[BaseModel]) -> Count:
    """The members of an instance of `cls` (compiled once): the keys it set, and those inside
    the fields that may hold objects (its extra keys' values too)."""
    count = _COUNTS.get(cls)
    if count is None:
        _COUNTS[cls] = members  # while compiling: a class met again inside counts generically
        count = _COUNTS[cls] = _compile(cls)
    return count


def _compile(cls: type[BaseModel]) -> Count:
    try:
        schema: Any = cls.__pydantic_core_schema__
        definitions: dict[str, Any] = {}
        if schema["type"] == "definitions":
            definitions = {d["ref"]: d for d in schema["definitions"]}
            schema = schema["schema"]
            if schema["type"] == "definition-ref":  # a recursive class
                schema = definitions[schema["schema_ref"]]
        if schema.get("root_model"):
            return _root
        fields = schema["schema"]["fields"]
        deep = tuple(
            (name, found)
            for name, field in fields.items()
            if (found := _node(field["schema"], definitions, set())) is not None
        )
    except (AttributeError, KeyError, TypeError):
        return _none  # a class this does not know: count nothing (the text is read again)
    closed = (
        schema["schema"].get("extra_behavior", "ignore") != "allow"
        and (schema.get("config") or {}).get("extra_fields_behavior") != "allow"
    )
    if not deep:
        return closed_count if closed else _flat
    if closed:  # no extra keys: only the deep fields sent are looked into

        def count_closed(value: Any) -> int:
            sent = value.__pydantic_fields_set__
            values = value.__dict__
            total = len(sent)
            for name, f in deep:
                if name in sent:  # closed classes with no object inside counted here
                    item = values[name]
                    if f is closed_count:
                        total += len(item.__pydantic_fields_set__)
                    elif f is closed_or_scalar:
                        found = getattr(item, "__pydantic_fields_set__", None)
                        if found is not None:
                            total += len(found)
                    elif f is closed_list:
                        for each in item:
                            total += len(each.__pydantic_fields_set__)
                    else:
                        total += f(item)
            return total

        return count_closed

    def count(value: Any) -> int:
        sent = value.__pydantic_fields_set__
        total = len(sent)
        extra = value.__pydantic_extra__
        if extra:  # (its keys are in the fields set; an extra key may share a field's name)
            total += sum(map(members, extra.values()))
            return total + sum(
                f(getattr(value, name)) for name, f in deep if name in sent and name not in extra
            )
        for name, f in deep:
            if name in sent:
                total += f(getattr(value, name))
        return total

    return count


def closed_count(value: Any) -> int:
    """The members of an instance of a closed class with no object inside: its keys sent."""
    return len(value.__pydantic_fields_set__)


def closed_or_scalar(value: Any) -> int:
    """The members of a value that is a scalar, None, or an instance of a closed class with
    no object inside (a nullable such class, a union of them and scalars)."""
    found = getattr(value, "__pydantic_fields_set__", None)
    return 0 if found is None else len(found)


def closed_list(value: Any) -> int:
    """The members of a list of instances of such a class (no Python call per item)."""
    total = 0
    for each in value:
        total += len(each.__pydantic_fields_set__)
    return total


def _flat(value: Any) -> int:
    extra = value.__pydantic_extra__
    found = len(value.__pydantic_fields_set__)
    return found + sum(map(members, extra.values())) if extra else found


def _root(value: Any) -> int:
    return members(value.root)


def _none(value: Any) -> int:
    return 0


def _node(schema: Any, definitions: dict[str, Any], entered: set[str]) -> Count | None:
    """How to count the members inside a value of this core schema, or None when it never
    holds an object."""
    kind = schema.get("type")
    if kind in SCALARS:
        return None
    if kind in ("default", "function-after"):  # the value as the inner schema made it
        return _node(schema["schema"], definitions, entered)
    if kind == "nullable":
        inner = _node(schema["schema"], definitions, entered)
        if inner is None or inner is closed_count:
            return None if inner is None else closed_or_scalar
        return lambda value: 0 if value is None else inner(value)
    if kind == "model" and schema.get("cls") is not None:
        return counter(schema["cls"])
    if kind == "definition-ref":
        ref = schema["schema_ref"]
        if ref in entered or ref not in definitions:
            return members
        entered.add(ref)
        try:
            return _node(definitions[ref], definitions, entered)
        finally:
            entered.discard(ref)
    if kind in ("list", "set", "frozenset"):
        item = _node(schema["items_schema"], definitions, entered)
        if item is None or item is closed_count:
            return None if item is None else closed_list
        return lambda value: sum(map(item, value))
    if kind in ("union", "tagged-union"):
        if kind == "union":
            choices = [c[0] if isinstance(c, tuple) else c for c in schema["choices"]]
        else:
            choices = list(schema["choices"].values())
        found = [_node(c, definitions, entered) for c in choices]
        if all(f is None for f in found):
            return None
        if all(f is None or f is closed_count for f in found):
            return closed_or_scalar  # (a scalar, or an instance of a closed class)
    if kind == "chain" and all(_node(s, definitions, entered) is None for s in schema["steps"]):
        return None
    return members  # dicts, tuples, unions of objects, any, what this module does not know


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


_PARSE = object()


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
