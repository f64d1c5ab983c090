"""The capped dict reader (runtime/validation/capped.py): a class whose only unbounded values
are its own arrays reads a dict through its validator with those arrays capped natively, so
nothing is counted on the valid path; what it builds, accepts and reports is the class's."""

from __future__ import annotations

from collections.abc import Iterator
from types import ModuleType
from typing import Annotated, Any

import pytest
from pydantic import ValidationError

from tests.support._generated import package, spec
from tests.support.runtime_support import validation_module as runtime

ITEM = {
    "type": "object",
    "properties": {"sku": {"type": "string"}, "quantity": {"type": "integer"}},
    "required": ["sku"],
}
WORDS = {"type": "array", "items": {"type": "string"}}
TOOLS = [
    spec(
        "flights",
        {
            "origin": {"type": "string"},
            "airlines": WORDS,
            "avoid": WORDS,
            "limit": {"type": "integer"},
        },
        required=["origin"],
    ),
    spec("order", {"lines": {"type": "array", "items": ITEM, "minItems": 1}}),
    # what is unbounded is inside an object, or in a union: counted per call, as before
    spec("inner", {"box": {"type": "object", "properties": {"words": WORDS}}}),
    spec("either", {"x": {"anyOf": [WORDS, {"type": "integer"}]}}),
    spec("fixed", {"tags": {**WORDS, "maxItems": 5}, "n": {"type": "integer"}}),
]


@pytest.fixture(scope="module")
def p(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ModuleType]:
    with package(tmp_path_factory.mktemp("capped"), TOOLS) as generated:
        yield generated


def model(p: ModuleType, tool: str) -> Any:
    return p.tool_info(tool).arguments


def budget(p: ModuleType) -> int:
    validation = runtime(p, "validate")
    return int(runtime(p, "bounds").budget(validation.LIMITS))


def cap_of(read: Any, key: str) -> int:
    """The cap of the array at `key`, as the reader reports it for an array far past it."""
    with pytest.raises(ValidationError) as caught:
        read({key: [None] * 5000})
    (error,) = [e for e in caught.value.errors() if e["type"] == "too_long"]
    return int(error["ctx"]["max_length"])


def test_the_caps_are_the_largest_that_keep_the_pass_within_the_budget(p: ModuleType) -> None:
    capped, bounds = runtime(p, "capped"), runtime(p, "bounds")
    for tool, keys in (("flights", ["airlines", "avoid"]), ("order", ["lines"])):
        read, _ = capped.reader(model(p, tool), budget(p))
        fixed, arrays = bounds.own_arrays(model(p, tool))
        assert [key for key, _ in arrays] == keys
        caps = {cap_of(read, key) for key in keys}
        assert len(caps) == 1
        cap = caps.pop()

        def most(cap: int, fixed: int = fixed, arrays: Any = arrays) -> int:
            return int(fixed + sum(1 + (cap + 1) * per for _, per in arrays))

        assert most(cap) <= budget(p) < most(cap + 1)
        assert cap >= capped.MIN_CAP
        # one item past a cap: refused at once, the items before it not reported one by one
        with pytest.raises(ValidationError) as caught:
            read({keys[0]: [1] * 100_000})
        assert caught.value.error_count() <= 2  # (and `origin` missing)


def test_only_a_class_whose_own_arrays_are_all_it_leaves_unbounded_has_one(p: ModuleType) -> None:
    capped = runtime(p, "capped")
    assert capped.reader(model(p, "inner"), budget(p)) is None
    assert capped.reader(model(p, "either"), budget(p)) is None
    assert capped.reader(model(p, "fixed"), budget(p)) is None  # nothing unbounded
    assert capped.reader(model(p, "flights"), 200) is None  # caps under MIN_CAP: counted


def test_the_valid_path_counts_nothing_and_builds_the_class_own_instance(p: ModuleType) -> None:
    validation = runtime(p, "validate")
    call = {"origin": "CDG", "airlines": ["AF", "DL"], "limit": 3}
    value = p.validate_arguments("flights", call)
    ready = validation._READY[model(p, "flights")]
    assert (
        ready is not None and ready.count is None and ready.fits is not None
    )  # no count: the capped reader
    assert type(value) is model(p, "flights")
    assert value == model(p, "flights").model_validate(call)
    assert value.model_fields_set == {"origin", "airlines", "limit"}
    p.validate_arguments("inner", {"box": {"words": ["a"]}})
    assert validation._READY[model(p, "inner")].fits is None  # counted, as before


@pytest.mark.parametrize("length", [400, 497, 800, 5000])
def test_arrays_past_their_cap_are_accepted_as_before(p: ModuleType, length: int) -> None:
    call = {"origin": "CDG", "airlines": [f"A{i}" for i in range(length)]}
    value = p.validate_arguments("flights", call)
    assert value == model(p, "flights").model_validate(call) and len(value.airlines) == length
    lines = [{"sku": "x", "quantity": i} for i in range(length)]
    assert len(p.validate_arguments("order", {"lines": lines}).lines) == length


@pytest.mark.parametrize("length", [3, 800, 5000])
def test_refusals_are_the_class_own(p: ModuleType, length: int) -> None:
    """The same issues as the generic path (any other `Limits` reads no capped reader)."""
    words: list[Any] = ["AF"] * length
    words[-1] = 7
    for call in (
        {"origin": "CDG", "airlines": words},
        {"airlines": words, "limt": 3},
        {"origin": "CDG", "avoid": "AF"},
    ):
        with pytest.raises(p.ToolArgumentsError) as capped:
            p.validate_arguments("flights", call)
        with pytest.raises(p.ToolArgumentsError) as generic:
            p.validate_arguments("flights", call, limits=p.Limits())
        assert str(capped.value) == str(generic.value)
        assert capped.value.total == generic.value.total
    with pytest.raises(p.ToolArgumentsError) as refused:
        p.validate_arguments("order", {"lines": []})
    assert [i.path for i in refused.value.issues] == ["lines"]


def test_the_class_is_left_as_it_was(p: ModuleType) -> None:
    cls = model(p, "order")
    assert runtime(p, "capped").reader(cls, budget(p)) is not None
    assert cls.__dict__["__pydantic_complete__"] is True
    assert "max_length" not in cls.__pydantic_core_schema__["schema"]["fields"]["lines"]["schema"]
    lines = [{"sku": "x"}] * 5000
    assert len(cls.model_validate({"lines": lines}).lines) == 5000  # its own validator: uncapped


def test_no_reader_when_the_compiled_one_is_not_capped(
    p: ModuleType, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Were the class's prebuilt validator compiled instead of the capped schema (pydantic-core
    reuses a complete class's own), the probe finds it uncapped: no reader, counted instead."""
    capped = runtime(p, "capped")
    cls = model(p, "flights")
    monkeypatch.setattr(capped, "_compiled", lambda model, schema: model.__pydantic_validator__)
    assert capped.reader(cls, budget(p)) is None


def test_a_refusal_within_the_caps_is_reported_at_once(
    p: ModuleType, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A refused dict whose arrays are within their caps has the class's own errors: not
    read again; one with an array past its cap is, as before."""
    validation = runtime(p, "validate")
    read, _ = runtime(p, "capped").reader(model(p, "flights"), budget(p))
    cap = cap_of(read, "airlines")
    again: list[Any] = []
    generic = validation._validate
    monkeypatch.setattr(
        validation,
        "_validate",
        lambda model, tool, a, *rest: again.append(a) or generic(model, tool, a, *rest),
    )
    for length, read_again in ((3, 0), (cap, 0), (cap + 1, 1), (900, 1)):
        call = {"airlines": ["AF"] * length, "avoid": ("DL",), "limit": "3"}
        with pytest.raises(p.ToolArgumentsError):
            p.validate_arguments("flights", {**call, "avoid": ["DL"]})
        assert len(again) == read_again, length
        again.clear()
        with pytest.raises(p.ToolArgumentsError):  # a tuple may be read as an array: again
            p.validate_arguments("flights", call)
        assert len(again) == 1
        again.clear()


def test_arrays_a_function_reads_first_are_always_read_again() -> None:
    """Under a `before` validator (or read by name as well as by alias) the array validated
    may not be the value sent at its key: `fits` never vouches for a refusal."""
    from pydantic import BaseModel, BeforeValidator, ConfigDict, Field

    from toolgen.runtime.validation import capped

    class Before(BaseModel):
        model_config = ConfigDict(extra="forbid", strict=True)
        words: Annotated[list[str], BeforeValidator(lambda v: v)] = []

    class ByName(BaseModel):
        model_config = ConfigDict(extra="forbid", strict=True, validate_by_name=True)
        words: list[str] = Field(default=[], validation_alias="w")

    class Plain(BaseModel):
        model_config = ConfigDict(extra="forbid", strict=True)
        words: list[str] = []

    class Observed(Plain):  # a class whose validator a pydantic plugin wraps: no reader
        pass

    Observed.__pydantic_validator__ = type("Wrapped", (), {})()  # type: ignore[assignment]
    assert capped.reader(Observed, 1000) is None
    for cls, fits_small in ((Before, False), (ByName, False), (Plain, True)):
        found = capped.reader(cls, 1000)
        assert found is not None, cls
        read, fits = found
        assert type(read({"words": ["a"]} if cls is not ByName else {"w": ["a"]})) is cls
        assert fits({"words": ["a"], "w": ["a"]}) is fits_small
        assert fits({"words": ["a"] * 5000, "w": ["a"] * 5000}) is False
