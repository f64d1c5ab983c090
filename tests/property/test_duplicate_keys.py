"""The runtime's cheap duplicate-key detectors against the plain answer: `json.loads` with a
hook on each object's pairs. `duplicates.duplicate_key` (colons counted against what
pydantic-core read) agrees with it on any JSON text with objects nested in objects and
arrays, keys spelt plainly or with escapes, colons inside strings. `duplicates.sent_once`
(the valid path's test: colons counted against the members the class read) never clears
text that holds a key twice, for classes with nested, listed, recursive, untyped and extra
values, text pretty-printed or not, and the validation as a whole refuses exactly that
text."""

from __future__ import annotations

import json
from typing import Annotated, Any, Literal

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from pydantic import BaseModel, ConfigDict, Field, ValidationError

from toolgen.runtime.errors import ToolArgumentsError
from toolgen.runtime.validation.duplicates import duplicate_key, sent_once
from toolgen.runtime.validation.validate import validate

# Few distinct keys, so that duplicates are common; some hold a colon or need an escape.
KEYS = st.sampled_from(["a", "b", "a:b", ":", "é", 'q"'])
SCALARS = st.one_of(
    st.none(), st.booleans(), st.integers(-5, 5), st.sampled_from(["x", "x:y", "::", "\\"])
)


def _key(key: str, escaped: bool) -> str:
    """A key as JSON text, plainly or with every character escaped (\\uXXXX)."""
    if not escaped:
        return json.dumps(key, ensure_ascii=False)
    return '"' + "".join(f"\\u{ord(c):04x}" for c in key) + '"'


def _texts(children: st.SearchStrategy[str]) -> st.SearchStrategy[str]:
    member = st.tuples(KEYS, st.booleans(), children).map(lambda m: f"{_key(m[0], m[1])}: {m[2]}")
    objects = st.lists(member, max_size=4).map(lambda ms: "{" + ", ".join(ms) + "}")
    arrays = st.lists(children, max_size=3).map(lambda xs: "[" + ", ".join(xs) + "]")
    return st.one_of(objects, arrays)


TEXTS = st.recursive(SCALARS.map(json.dumps), _texts, max_leaves=12).filter(
    lambda t: t.startswith("{")
)


def _has_duplicate(text: str) -> bool:
    def once(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
        keys = [k for k, _ in pairs]
        if len(set(keys)) != len(keys):
            raise KeyError(keys)
        return dict(pairs)

    try:
        json.loads(text, object_pairs_hook=once)
    except KeyError:
        return True
    return False


@settings(max_examples=300, deadline=None)
@given(TEXTS)
def test_the_cheap_detector_agrees_with_json_loads(text: str) -> None:
    assert (duplicate_key(text) is not None) == _has_duplicate(text), text
    assert (duplicate_key(text.encode("utf-8")) is not None) == _has_duplicate(text), text


class Leaf(BaseModel):
    model_config = ConfigDict(extra="forbid", strict=True)
    x: int | None = None
    colon: str | None = Field(default=None, alias="a:b")


class Open(BaseModel):
    model_config = ConfigDict(extra="allow", strict=True)
    x: Leaf | None = None


class Tree(BaseModel):
    """Every way a class holds objects: a nested class (nullable), a list of classes, itself
    (recursion), an untyped value, a map of classes, a union, an open class."""

    model_config = ConfigDict(extra="forbid", strict=True)
    a: Tree | None = None
    b: list[Leaf] = []
    any_: Any = Field(default=None, alias="é")
    map_: dict[str, Leaf] = Field(default={}, alias=":")
    either: Leaf | int | None = Field(default=None, alias='q"')
    open_: Open | None = Field(default=None, alias="o")
    x: int | None = None


LEAF_KEYS = st.sampled_from(["x", "a:b"])
LEAF_VALUES = {"x": st.integers(-3, 3).map(json.dumps), "a:b": st.sampled_from(['"p"', '":q"'])}


def _object(members: st.SearchStrategy[tuple[str, str]]) -> st.SearchStrategy[str]:
    """An object's text from drawn (key, value text) members: keys may repeat."""
    return st.lists(members, max_size=4).map(
        lambda ms: "{" + ", ".join(f"{json.dumps(k, ensure_ascii=False)}: {v}" for k, v in ms) + "}"
    )


LEAF = _object(LEAF_KEYS.flatmap(lambda k: LEAF_VALUES[k].map(lambda v: (k, v))))
OPEN = _object(
    st.one_of(
        st.just("x").flatmap(lambda k: LEAF.map(lambda v: (k, v))),
        st.sampled_from(["y", "z:"]).flatmap(lambda k: TEXTS.map(lambda v: (k, v))),
    )
)


def _tree(children: st.SearchStrategy[str]) -> st.SearchStrategy[str]:
    values = {
        "a": children,
        "b": st.lists(LEAF, max_size=3).map(lambda xs: "[" + ", ".join(xs) + "]"),
        "é": st.one_of(TEXTS, SCALARS.map(json.dumps)),
        ":": _object(st.tuples(st.sampled_from(["k", "k:"]), LEAF)),
        'q"': st.one_of(LEAF, st.integers(0, 3).map(json.dumps)),
        "o": OPEN,
        "x": st.integers(0, 3).map(json.dumps),
    }
    keys = st.sampled_from(list(values))
    return _object(keys.flatmap(lambda k: values[k].map(lambda v: (k, v))))


TREES = st.recursive(st.just("{}"), _tree, max_leaves=8)


@settings(max_examples=400, deadline=None)
@given(TREES, st.sampled_from(["plain", "lines", "space", "break"]))
def test_the_valid_paths_detector_never_misses_a_key_sent_twice(text: str, layout: str) -> None:
    if layout == "lines":  # the same text with line breaks
        text = text.replace(", ", ",\n ")
    elif layout == "space":  # a space before the first member's colon
        text = text.replace('": ', '" : ', 1)
    elif layout == "break":  # a line break there
        text = text.replace('": ', '"\n: ', 1)
    twice = _has_duplicate(text)
    try:
        value = Tree.__pydantic_validator__.validate_json(text)
    except ValidationError:
        return
    if twice:
        assert not sent_once(text, value), text
    try:
        validate(Tree, "tree", text)
    except ToolArgumentsError as error:
        assert twice and error.issues[0].code == "json", text
    else:
        assert not twice, text


def test_the_valid_paths_detector_clears_the_typical_call_without_reading_it_again() -> None:
    text = '{"a": {"b": [{"x": 1}, {"a:b": "p:q"}]}, "é": {"k": [1, {"m": 2}]}, "x": 3}'
    value = Tree.__pydantic_validator__.validate_json(text)
    assert sent_once(text, value)
    assert not sent_once(text.replace('"x": 3', '"x": 3, "x": 4'), value)
    # Pretty-printed, a time among the values: the colons after a digit are inside strings.
    pretty = json.dumps({**json.loads(text), "é": "08:30:00"}, indent=2, ensure_ascii=False)
    assert sent_once(pretty, Tree.__pydantic_validator__.validate_json(pretty))
    # A colon after a space inside a string could be a member's: read again (not cleared).
    spaced = text.replace('"p:q"', '"p :q"')
    assert not sent_once(spaced, Tree.__pydantic_validator__.validate_json(spaced))


@pytest.mark.parametrize("model", [Leaf, Open, Tree])
def test_a_key_sent_twice_to_a_flat_class_is_refused_by_name(model: type[BaseModel]) -> None:
    text = '{"x": 1, "x": 2}' if model is not Open else '{"y": 1, "y": 2}'
    with pytest.raises(ToolArgumentsError) as caught:
        validate(model, "flat", text)
    assert caught.value.issues[0].code == "json" and '"' in caught.value.issues[0].message
    assert validate(model, "flat", text.replace(', "x": 2', "").replace(', "y": 2', ""))


class Card(BaseModel):
    model_config = ConfigDict(extra="forbid", strict=True)
    kind: Literal["card"]
    number: str


class Bank(BaseModel):
    model_config = ConfigDict(extra="forbid", strict=True)
    kind: Literal["bank"]
    iban: str | None = None


class Payment(BaseModel):
    """A tagged union of closed classes, and an optional one: counted in the parent's loop."""

    model_config = ConfigDict(extra="forbid", strict=True)
    method: Annotated[Card | Bank, Field(discriminator="kind")]
    backup: Bank | None = None
    amount: int | Card = 0


@pytest.mark.parametrize(
    "text",
    [
        '{"method": {"kind": "bank", "iban": "FR76"}, "amount": 3}',
        '{"method": {"kind": "card", "number": "4:2"}, "backup": {"kind": "bank"}}',
        '{"method": {"kind": "card", "number": "42"}, "amount": {"kind": "card", "number": "1"}}',
        '{"method": {"kind": "bank"}, "backup": null}',
    ],
)
def test_unions_and_optional_classes_are_counted_exactly(text: str) -> None:
    value = Payment.__pydantic_validator__.validate_json(text)
    assert sent_once(text, value)
    for twice in (
        text.replace('"kind": ', '"kind": "bank", "kind": ', 1),
        text[:-1] + ', "method": {"kind": "bank"}}',
    ):
        again = Payment.__pydantic_validator__.validate_json(twice)
        assert _has_duplicate(twice) and not sent_once(twice, again), twice
