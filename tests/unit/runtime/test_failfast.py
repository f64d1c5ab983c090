"""The fail-fast twin of a class (runtime/validation/failfast.py): the class's verdict on every
input, with a number of errors bounded by the schema, not by the input, recursive classes and
nested classes of another configuration included; and when it is used."""

from __future__ import annotations

import importlib
import inspect
import json
import pkgutil
import tracemalloc
from types import ModuleType
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from pydantic import BaseModel, ConfigDict, Field, ValidationError, model_validator

from tests.support import corpus_sample
from tests.support.forest import Branch, Forest, Leaf, Node, branch_items, branch_keys, tree_items
from tests.support.generation import REPO, imported
from toolgen.runtime.errors import ToolArgumentsError
from toolgen.runtime.validation import failfast
from toolgen.runtime.validation.payload import LIMITS, Limits
from toolgen.runtime.validation.validate import validate


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
    _judged_alike(Order, arguments)


def _judged_alike(model: type[BaseModel], arguments: dict[str, Any]) -> None:
    twin = failfast.twin(model)
    assert twin is not None
    text = json.dumps(arguments)
    assert _verdict(twin.validate_json, text) == _verdict(
        model.__pydantic_validator__.validate_json, text
    ), text
    assert _verdict(twin.validate_python, arguments) == _verdict(
        model.__pydantic_validator__.validate_python, arguments
    ), text


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


# --- recursion and nested configurations ------------------------------------------------------

SCALARS = st.one_of(st.none(), st.booleans(), st.sampled_from([0, 1, -2, 1.5, "", "1", "long"]))
NODES = st.recursive(
    st.fixed_dictionaries({"id": SCALARS}),
    lambda inner: st.fixed_dictionaries(
        {"id": st.sampled_from([1, "1"])},
        optional={"children": st.one_of(st.lists(inner, max_size=3), SCALARS), "x": SCALARS},
    ),
    max_leaves=6,
)
LEAVES = st.dictionaries(st.sampled_from(["size", "Size", "x"]), SCALARS, max_size=3)
BRANCHES = st.recursive(
    st.fixed_dictionaries({}, optional={"name": SCALARS, "leaf": st.one_of(LEAVES, SCALARS)}),
    lambda inner: st.fixed_dictionaries(
        {},
        optional={
            "name": SCALARS,
            "leaf": LEAVES,
            "nodes": st.lists(NODES, max_size=2),
            "branches": st.one_of(st.lists(inner, max_size=2), SCALARS),
            "x": SCALARS,
        },
    ),
    max_leaves=6,
)
FORESTS = st.fixed_dictionaries(
    {},
    optional={
        "trees": st.one_of(st.lists(NODES, max_size=3), VALUES),
        "branch": st.one_of(BRANCHES, VALUES),
        "x": SCALARS,
    },
)


@settings(max_examples=400, deadline=None)
@given(st.one_of(st.tuples(st.just(Forest), FORESTS), st.tuples(st.just(Node), NODES)))
def test_the_twin_of_a_recursive_class_judges_as_the_class_does(
    case: tuple[type[BaseModel], dict[str, Any]],
) -> None:
    _judged_alike(*case)


def test_the_twin_reads_a_nested_class_with_its_own_configuration() -> None:
    twin = failfast.twin(Forest)
    assert twin is not None
    lax = {"branch": {"name": "abc", "leaf": {"size": "1", "x": 0}, "branches": [{"name": "1"}]}}
    for accepted in (lax, {"branch": {"leaf": {"Size": 2}, "nodes": [{"id": 1}]}}):
        Forest.model_validate(accepted)
        twin.validate_python(accepted)
        twin.validate_json(json.dumps(accepted))
    for refused in (
        {"branch": {"name": "abcd"}},  # over the branch's str_max_length
        {"branch": {"nodes": [{"id": "1"}]}},  # a strict node in a lax branch
        {"branch": {"branches": [{"x": 0}]}},  # closed, through recursion
        {"trees": [{"id": 1, "children": [{"id": 1, "leaf": {}}]}]},
    ):
        with pytest.raises(ValidationError):
            Forest.model_validate(refused)
        with pytest.raises(ValidationError):
            twin.validate_python(refused)


def test_the_twin_takes_an_instance_of_a_nested_class_as_the_class_does() -> None:
    twin = failfast.twin(Forest)
    assert twin is not None
    held = {"trees": [Node(id=1)], "branch": Branch(leaf=Leaf(Size=2))}
    assert Forest.model_validate(held).trees == [Node(id=1)]
    twin.validate_python(held)
    order = failfast.twin(Order)
    assert order is not None
    order.validate_python({"from": "x", "items": [Item(id=1)]})  # one configuration too
    with pytest.raises(ValidationError):
        twin.validate_python({"trees": [Leaf()]})


@pytest.mark.parametrize(
    ("make", "most"),
    [(tree_items, 4_000_000), (branch_items, 4_000_000), (branch_keys, 14_000_000)],
    ids=["wrong items deep in a tree", "wrong items in another configuration", "unknown keys"],
)
def test_a_million_wrong_values_in_a_recursive_class_keep_a_few_errors(
    make: Any, most: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    text = make(1_000_000)  # 3 to 12.9 MB: one value per wrong item or unknown key
    limits = Limits(max_bytes=most)
    assert failfast.needed(text, limits) and failfast.twin(Forest) is not None
    counts: list[int] = []
    twin = failfast.twin

    class Counting:
        def __init__(self, judge: Any) -> None:
            self.judge = judge

        def validate_json(self, data: Any) -> Any:
            try:
                return self.judge.validate_json(data)
            except ValidationError as exc:
                counts.append(exc.error_count())
                raise

    monkeypatch.setattr(failfast, "twin", lambda model: Counting(twin(model)))
    tracemalloc.start()
    try:
        with pytest.raises(ToolArgumentsError) as refused:
            validate(Forest, "forest", text, limits=limits)
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert counts and max(counts) <= 3  # before: no twin, one error per wrong value
    assert len(refused.value.issues) == 20 and refused.value.total <= limits.max_errors
    # Python's objects (the twin's copy of a closed object and the report's parse): 4-8 bytes
    # per byte of text here; pydantic-core's errors are not Python objects, counted above.
    assert peak < 16 * len(text), f"{peak / len(text):.1f} bytes per byte of text"


# --- which classes have none --------------------------------------------------------------------


def test_a_class_running_python_code_on_its_objects_has_none() -> None:
    class Checked(BaseModel):
        model_config = ConfigDict(strict=True)
        item: Item

        def model_post_init(self, context: Any) -> None:
            pass

    class Built(BaseModel):
        item: Item

        def __init__(self, **data: Any) -> None:
            super().__init__(**data)

    class Validated(BaseModel):
        item: Item

        @model_validator(mode="after")
        def checked(self) -> Validated:
            return self

    class Holding(BaseModel):
        model_config = ConfigDict(strict=True)
        inner: Checked

    for model in (Checked, Built, Validated, Holding):
        assert failfast.twin(model) is None
        with pytest.raises(failfast.NoTwin):
            failfast.build(model)


def _without_twin(package: ModuleType) -> tuple[int, list[str]]:
    """How many classes the package's tool modules hold, and those without a twin."""
    judge = importlib.import_module(f"{package.__name__}._runtime.validation.failfast")
    tools = importlib.import_module(f"{package.__name__}.tools")
    classes = [
        cls
        for module in pkgutil.iter_modules(tools.__path__, tools.__name__ + ".")
        for cls in vars(importlib.import_module(module.name)).values()
        if inspect.isclass(cls) and issubclass(cls, BaseModel) and cls.__module__ == module.name
    ]
    return len(classes), [cls.__name__ for cls in classes if judge.twin(cls) is None]


def test_every_class_of_the_builtin_tools_has_a_twin() -> None:
    # (their results hold a class of another configuration: RunPythonResult, RunShellResult)
    with imported(REPO / "generated", "toolgen_builtin") as package:
        count, without = _without_twin(package)
    assert count > 20 and without == []


@pytest.mark.skipif(not corpus_sample.CORPUS.is_dir(), reason=corpus_sample.NO_CORPUS)
def test_every_class_generated_from_the_corpus_sample_has_a_twin() -> None:
    _, out = corpus_sample.generated()
    with imported(out, corpus_sample.PACKAGE) as package:
        count, without = _without_twin(package)
    assert count > 1000 and without == []
