"""The fail-fast twin of a class (runtime/validation/failfast.py): the class's verdict on every
input, with a number of errors bounded by the schema, not by the input; and when it is used."""

from __future__ import annotations

import json
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from pydantic import BaseModel, ConfigDict, Field, ValidationError

from toolgen.runtime.validation import failfast
from toolgen.runtime.validation.payload import LIMITS


class Item(BaseModel):
    model_config = ConfigDict(extra="forbid", strict=True)
    id: int
    tag: str | None = None


class Open(BaseModel):
    model_config = ConfigDict(extra="allow", strict=True)
    n: int = 0


class Order(BaseModel):
    model_config = ConfigDict(extra="forbid", strict=True)
    names: list[str] = []
    items: list[Item] = []
    table: dict[str, int] = {}
    either: Item | list[int] | None = None
    open_: Open | None = Field(default=None, alias="open")
    when: str = Field(alias="from")
    metadata: int | None = None  # a field named as a core schema's own keys
    type: str | None = None


def _verdict(validate: Any, text: str) -> bool:
    try:
        validate(text)
    except ValidationError:
        return False
    return True


VALUES = st.recursive(
    st.one_of(st.none(), st.booleans(), st.integers(-2, 2), st.sampled_from(["", "x"])),
    lambda inner: st.one_of(
        st.lists(inner, max_size=3),
        st.dictionaries(st.sampled_from(["id", "tag", "n", "x"]), inner, max_size=3),
    ),
    max_leaves=8,
)
VALUES = st.one_of(VALUES, st.just("1"), st.just([{"id": "1"}]), st.just({"id": 1.5}))
ARGUMENTS = st.dictionaries(
    st.sampled_from(
        ["names", "items", "table", "either", "open", "from", "when", "x", "metadata", "type"]
    ),
    VALUES,
    max_size=5,
)


@settings(max_examples=300, deadline=None)
@given(ARGUMENTS)
def test_the_twin_judges_as_the_class_does(arguments: dict[str, Any]) -> None:
    twin = failfast.twin(Order)
    assert twin is not None
    text = json.dumps(arguments)
    assert _verdict(twin.validate_json, text) == _verdict(
        Order.__pydantic_validator__.validate_json, text
    ), text
    assert _verdict(twin.validate_python, arguments) == _verdict(
        Order.__pydantic_validator__.validate_python, arguments
    )


@pytest.mark.parametrize(
    "text",
    [
        '{"from": "x", "names": [' + ",".join(["1"] * 100_000) + "]}",
        '{"from": "x", "items": [' + ",".join(['{"id": "1"}'] * 20_000) + "]}",
        '{"from": "x", "table": {' + ",".join(f'"k{i}": ""' for i in range(50_000)) + "}}",
        "{" + ",".join(f'"k{i}": 0' for i in range(100_000)) + "}",
        '{"from": "x", "either": [' + ",".join(['""'] * 50_000) + "]}",
        '{"from": "x", "items": [{"id": 1, '
        + ",".join(f'"k{i}": 0' for i in range(50_000))
        + "}]}",
    ],
    ids=["items", "objects", "map values", "unknown keys", "union", "nested unknown keys"],
)
def test_the_twins_errors_are_bounded_by_the_schema_not_the_input(text: str) -> None:
    twin = failfast.twin(Order)
    assert twin is not None
    with pytest.raises(ValidationError) as own:
        Order.__pydantic_validator__.validate_json(text)
    with pytest.raises(ValidationError) as fast:
        twin.validate_json(text)
    assert own.value.error_count() >= 20_000
    assert fast.value.error_count() <= 3 and fast.value.title == failfast.TITLE


def test_the_twin_is_needed_for_text_with_more_values_than_max_errors() -> None:
    assert not failfast.needed("[" + ",".join(["1"] * 400) + "]", LIMITS)  # shorter than 1,000
    assert not failfast.needed('{"text": "' + "x" * 100_000 + '"}', LIMITS)  # one value
    assert failfast.needed("[" + ",".join(["1"] * 1001) + "]", LIMITS)
    assert failfast.needed(("[" + ",".join(["1"] * 1001) + "]").encode(), LIMITS)


def test_a_class_the_twin_cannot_judge_alike_has_none() -> None:
    class Lax(BaseModel):
        model_config = ConfigDict(extra="forbid")
        item: Item  # strict, in a lax class: two configurations

    class Checked(BaseModel):
        model_config = ConfigDict(strict=True)
        item: Item

        def model_post_init(self, context: Any) -> None:
            pass

    assert failfast.twin(Checked) is None
    assert failfast.twin(Lax) is None
