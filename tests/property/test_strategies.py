"""The generated hypothesis strategies draw only valid values, and not a degenerate few.

Two oracles judge every draw: jsonschema (Draft 2020-12) against the tool's bundled
schema, and the generated package's own validator (what a registry applies to a call).
Checked on the spec cases in tests/golden/cases, the built-in library and a sample of the
corpus, and on one spec made of every construct the compiler handles
(tests/golden/cases/strategies).
"""

from __future__ import annotations

import importlib
import json
from collections import Counter
from collections.abc import Iterator
from types import ModuleType
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from jsonschema import Draft202012Validator

from tests.support import corpus_sample
from tests.support.generation import REPO, generate, imported

CASES = sorted(p.parent.name for p in (REPO / "tests" / "golden" / "cases").glob("*/specs"))
QUIET = settings(deadline=None, database=None, suppress_health_check=[HealthCheck.too_slow])


def _testing(package: ModuleType, name: str) -> ModuleType:
    return importlib.import_module(
        f"{package.__name__}.testing.tools.{package._index.MODULES[name]}"
    )


def _import_every_tool(package: ModuleType) -> None:
    """Every tool's module imported before the first draw. Hypothesis reads the constants of
    modules imported since its last draw, then sifts all of them again for each kind of draw:
    importing each tool just before its draws did that once per tool (most of the corpus
    sample's time)."""
    for name in package.TOOL_NAMES:
        _testing(package, name)


def check_tool(package: ModuleType, name: str, examples: int, results: bool = True) -> Counter[str]:
    """Draw arguments and results of one tool; every draw must satisfy both oracles."""
    module = _testing(package, name)
    arguments_schema = Draft202012Validator(module.PARAMETERS)
    result_schema = Draft202012Validator(module.RETURNS) if module.RETURNS is not None else None
    seen: Counter[str] = Counter()

    @settings(QUIET, max_examples=examples)
    @given(arguments=module.arguments_json(), result=module.result_json() if results else st.none())
    def draw(arguments: dict[str, Any], result: Any) -> None:
        errors = [
            f"{list(e.absolute_path)}: {e.message}" for e in arguments_schema.iter_errors(arguments)
        ]
        assert not errors, (
            f"{name}: jsonschema refuses drawn arguments {json.dumps(arguments)}: {errors}"
        )
        package.validate_arguments(name, arguments)  # raises ToolArgumentsError with the details
        if not results:
            return
        if result_schema is not None:
            errors = [e.message for e in result_schema.iter_errors(result)]
            assert not errors, (
                f"{name}: jsonschema refuses a drawn result {json.dumps(result)}: {errors}"
            )
        module.Result.model_validate_json(json.dumps(result))
        seen.update(arguments.keys())

    draw()
    return seen


@pytest.fixture(scope="module", params=[*CASES, "builtin"])
def case_package(
    request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory
) -> Iterator[ModuleType]:
    name = request.param
    specs = (
        REPO / "schemas"
        if name == "builtin"
        else REPO / "tests" / "golden" / "cases" / name / "specs"
    )
    out = tmp_path_factory.mktemp(f"strategies-{name}")
    generate(specs, out, f"drawn_{name}")
    with imported(out, f"drawn_{name}") as package:
        yield package


def test_every_tool_draws_valid_arguments_and_results(case_package: ModuleType) -> None:
    _import_every_tool(case_package)
    for name in case_package.TOOL_NAMES:
        check_tool(case_package, name, examples=40)


def test_typed_strategies_give_the_models(case_package: ModuleType) -> None:
    name = case_package.TOOL_NAMES[0]
    module = _testing(case_package, name)

    @settings(QUIET, max_examples=10)
    @given(arguments=module.arguments(), result=module.result())
    def draw(arguments: Any, result: Any) -> None:
        assert type(arguments) is case_package.tool_info(name).arguments
        assert type(result) is case_package.tool_info(name).result

    draw()


@pytest.fixture(scope="module")
def sampler(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ModuleType]:
    out = tmp_path_factory.mktemp("sampler")
    generate(REPO / "tests" / "golden" / "cases" / "strategies" / "specs", out, "sampler")
    with imported(out, "sampler") as package:
        yield package


def test_every_construct_is_drawn_valid_and_varied(sampler: ModuleType) -> None:
    """Each optional parameter shows up, and the values cover what the schema allows."""
    module = _testing(sampler, "keywords.sampler")
    values: dict[str, list[Any]] = {}

    @settings(QUIET, max_examples=300)
    @given(module.arguments_json())
    def draw(arguments: dict[str, Any]) -> None:
        sampler.validate_arguments("keywords.sampler", arguments)
        assert Draft202012Validator(module.PARAMETERS).is_valid(arguments)
        for key, value in arguments.items():
            values.setdefault(key, []).append(value)

    draw()
    declared = set(module.PARAMETERS["properties"])
    assert set(values) == declared, f"never drawn: {declared - set(values)}"
    assert {"low", "mid", "high", 3} <= {v for v in values["level"]}
    assert set(values["level_text"]) <= {"low", "mid"}  # 3 and null are listed but not strings
    assert None in values["count"] and any(isinstance(v, int) for v in values["count"])
    assert any(
        isinstance(v, float) and not v.is_integer() for v in values["step"]
    )  # 0.25 steps, not only whole
    assert any(isinstance(v, float) for v in values["ratio"]) and any(
        isinstance(v, int) for v in values["ratio"]
    )
    assert max(_depth(tree) for tree in values["tree"]) >= 2  # the recursion is taken
    assert all(
        not code.endswith("\n") for code in values["code"]
    )  # `$` ends the text, as the model reads it


def _depth(tree: dict[str, Any]) -> int:
    return 1 + max((_depth(child) for child in tree.get("children", [])), default=0)


def test_overrides_replace_a_property_strategy(sampler: ModuleType) -> None:
    module = _testing(sampler, "keywords.sampler")

    @settings(QUIET, max_examples=30)
    @given(module.arguments_json(code=st.just("AB-123"), word=st.just("hey")))
    def draw(arguments: dict[str, Any]) -> None:
        assert arguments["code"] == "AB-123"
        assert arguments.get("word", "hey") == "hey"

    draw()
    with pytest.raises(KeyError, match="no property 'wrod' to override; did you mean 'word'"):
        module.arguments_json(wrod=st.just("x"))


def test_the_facade_finds_strategies_by_name(sampler: ModuleType) -> None:
    testing = importlib.import_module("sampler.testing")
    assert set(testing.CONTRACTS) == set(sampler.TOOL_NAMES)
    assert testing.contract("keywords.sampler").info.name == "keywords.sampler"
    assert (
        testing.contract("keywords_sampler").info.name == "keywords.sampler"
    )  # the provider-safe name
    with pytest.raises(sampler.UnknownToolError, match="keywords.sampler"):
        testing.arguments_json("keywords.smapler")


@pytest.mark.skipif(not corpus_sample.CORPUS.is_dir(), reason=corpus_sample.NO_CORPUS)
def test_corpus_sample_draws_valid_arguments() -> None:
    """About 600 real tools from every source; a few draws each (the breadth is the point)."""
    _, out = corpus_sample.generated()
    with imported(out, corpus_sample.PACKAGE) as package:
        _import_every_tool(package)
        for name in package.TOOL_NAMES:
            check_tool(
                package, name, examples=4, results=False
            )  # corpus tools seldom declare results
    assert len(package.TOOL_NAMES) >= 500


# The building blocks on their own: the cases the JSON-Schema-Test-Suite run found.
from toolgen.runtime_testing import strategies as blocks  # noqa: E402
from toolgen.runtime_testing.judge import json_schema_validator  # noqa: E402


@settings(QUIET, max_examples=100)
@given(blocks.numbers(minimum=-(2**64 - 1), maximum=2**64 - 1))
def test_numbers_take_bounds_no_float_holds(value: Any) -> None:
    assert -(2**64 - 1) <= value <= 2**64 - 1


@settings(QUIET, max_examples=100)
@given(blocks.numbers(minimum=10**400))
def test_numbers_above_every_float_are_integers(value: Any) -> None:
    assert isinstance(value, int) and value >= 10**400


@settings(QUIET, max_examples=200)
@given(blocks.multiples(0.0001, minimum=-(10**6), maximum=10**6))
def test_multiples_are_the_decimal_products(value: float) -> None:
    """k * 0.0001 in decimal: 0.0107, which the package and JSON Schema call a multiple."""
    assert json_schema_validator({"multipleOf": 0.0001}).is_valid(value)
    assert len(repr(value).rstrip("0").partition(".")[2]) <= 4 or "e" in repr(value)


@settings(QUIET, max_examples=200)
@given(blocks.arrays(prefix=[st.booleans(), st.nothing()], max_size=1))
def test_a_prefix_position_nothing_can_fill_ends_the_array(value: list[Any]) -> None:
    assert len(value) <= 1 and all(isinstance(v, bool) for v in value)


def test_prefix_arrays_take_every_allowed_length() -> None:
    lengths: set[int] = set()

    @settings(QUIET, max_examples=200)
    @given(
        blocks.arrays(
            prefix=[st.just("a"), st.just("b")], items=st.just("c"), min_size=1, max_size=3
        )
    )
    def draw(value: list[str]) -> None:
        assert 1 <= len(value) <= 3 and value == ["a", "b", "c"][: len(value)]
        lengths.add(len(value))

    draw()
    assert lengths == {1, 2, 3}


@settings(QUIET, max_examples=200)
@given(blocks.arrays(items=st.integers(0, 9), contains=st.just(42), min_contains=2, max_contains=3))
def test_contains_places_its_values_among_the_items(value: list[int]) -> None:
    assert 2 <= value.count(42) <= 3


@settings(QUIET, max_examples=200)
@given(blocks.other_than("object", "integer"))
def test_other_than_leaves_out_the_named_types(value: Any) -> None:
    assert not isinstance(value, (dict, int, float)) or isinstance(value, bool)


def test_the_judge_reads_patterns_as_ecma_262_and_multiples_exactly() -> None:
    judge = json_schema_validator
    assert judge({"pattern": "^\\d$"}).is_valid("5") and not judge({"pattern": "^\\d$"}).is_valid(
        "৫"
    )  # Bengali 5
    assert judge({"pattern": "^\\cC$"}).is_valid("\x03")  # a Python `re` error
    assert not judge({"pattern": "^a$"}).is_valid("a\n")  # `$` is the very end
    assert judge({"patternProperties": {"^\\w+$": {"type": "integer"}}}).is_valid({"é": "x"})
    assert judge({"multipleOf": 0.0001}).is_valid(0.0107)  # jsonschema alone refuses it
    assert not judge({"multipleOf": 1.5}).is_valid(6755399441055746.0)  # and accepts this
    # A `$schema` inside a subschema does not bring jsonschema's stock reading back.
    assert judge(
        {
            "properties": {
                "x": {
                    "$schema": "https://json-schema.org/draft/2020-12/schema",
                    "multipleOf": 0.0001,
                }
            }
        }
    ).is_valid({"x": 0.0107})
