"""Differential tests against the reference validator, jsonschema (Draft 2020-12).

For the specs in tests/ (hypothesis drives the generator) and for a deterministic sample of
600 corpus tools from all sources (one generated package, a few instances per tool):
- what jsonschema accepts, the generated `validate_arguments` accepts (as a dict and as JSON text);
- each single mutation jsonschema rejects (unknown key, missing key, wrong type, out-of-enum,
  length, pattern, range, item count; at any depth, inside union branches too) is rejected
  with an issue at the mutated location and with the expected code.

The oracle's schema is the published one (the MCP `inputSchema`: closed wherever properties
are declared, as the validation contract says). Differences by design, each pinned by its own test below:
- `null` for an optional key is accepted (models send null for "not given"); jsonschema refuses
  it unless the schema admits null. The generator never sends such a null.
- coercions a spec declares with `x-coerce` ("42" -> 42) are accepted; jsonschema refuses them.
"""

from __future__ import annotations

import functools
import json
import random
from collections import Counter
from collections.abc import Iterator
from pathlib import Path
from types import ModuleType
from typing import Any

import jsonschema
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tests.support import corpus_sample
from tests.support.generation import REPO, generate, imported
from tests.support.instances import Generator, Unsatisfiable, mutations

SPEC_DIRS = sorted(
    [
        *(REPO / "tests" / "golden" / "cases").glob("*/specs"),
        REPO / "tests" / "golden" / "errors" / "specs",
    ]
)


def published(package: ModuleType, name: str) -> dict[str, Any]:
    """The tool's input schema as published: its MCP `inputSchema` (a deferred tool, which MCP
    lists only through search, has it in the package's search index)."""
    schemas = _published_schemas(package)
    info = package.tool_info(name)
    if info.name not in schemas:
        raise LookupError(name)
    return schemas[info.name]


@functools.cache
def _published_schemas(package: ModuleType) -> dict[str, dict[str, Any]]:
    """Every tool's published input schema by name, read once per package (the corpus sample's
    definitions are megabytes: read again for each tool, they were most of its test's time)."""
    index = json.loads(
        (Path(package.__file__).parent / "definitions" / "search.json").read_text("utf-8")
    )
    schemas: dict[str, dict[str, Any]] = {}
    for definition in [*package.tool_definitions("mcp"), *index["tools"]]:
        schemas.setdefault(definition["name"], definition["inputSchema"])
    return schemas


def check_tool(
    package: ModuleType,
    name: str,
    schema: dict[str, Any],
    rnd: random.Random,
    stats: Counter[str],
    instances: int = 3,
    per_instance: int | None = None,
) -> None:
    oracle = jsonschema.Draft202012Validator(schema)
    for _ in range(instances):
        generator = Generator(schema, rnd)
        try:
            value = generator.value(schema)
        except Unsatisfiable:
            stats["unsatisfiable"] += 1
            continue
        if not oracle.is_valid(value):
            stats["generator missed"] += 1
            continue
        stats["valid instances"] += 1
        model = package.validate_arguments(
            name, value
        )  # accepted, or the test fails with the message
        assert package.validate_arguments(name, json.dumps(value)) == model
        found = mutations(value, generator.sites, generator)
        if per_instance is not None and len(found) > per_instance:
            found = rnd.sample(found, per_instance)
        for mutation in found:
            if oracle.is_valid(mutation.value):
                stats["mutation still valid"] += 1
                continue
            for sent in (mutation.value, json.dumps(mutation.value)):
                try:
                    package.validate_arguments(name, sent)
                except package.ToolArgumentsError as error:
                    reported = [(i.location, i.code) for i in error.issues]
                    assert any(
                        loc == mutation.location and code in mutation.codes
                        for loc, code in reported
                    ), (
                        f"{name}: mutation {mutation.name} at {mutation.location} ({sorted(mutation.codes)}) "
                        f"reported as {reported}\n{error}\nsent: {json.dumps(mutation.value)[:2000]}"
                    )
                else:
                    pytest.fail(
                        f"{name}: mutation {mutation.name} at {mutation.location} accepted, jsonschema refuses it"
                        f"\nsent: {json.dumps(mutation.value)[:2000]}\nschema: {json.dumps(schema)[:3000]}"
                    )
            stats[f"rejected: {mutation.name.split(':')[0]}"] += 1


# --- the specs in tests/ ------------------------------------------------------------------


@pytest.fixture(scope="module")
def spec_packages(
    tmp_path_factory: pytest.TempPathFactory,
) -> Iterator[list[tuple[ModuleType, str]]]:
    tools: list[tuple[ModuleType, str]] = []
    with_stack = []
    for i, specs in enumerate(SPEC_DIRS):
        name = f"differential_{i}"
        out = tmp_path_factory.mktemp(name)
        generate(specs, out, name)
        context = imported(out, name)
        package = context.__enter__()
        with_stack.append(context)
        tools += [(package, tool) for tool in package.TOOL_NAMES]
    yield tools
    for context in reversed(with_stack):
        context.__exit__(None, None, None)


@settings(
    max_examples=60,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
@given(data=st.data())
def test_specs_in_tests_agree_with_jsonschema(
    spec_packages: list[tuple[ModuleType, str]], data: st.DataObject
) -> None:
    package, name = data.draw(st.sampled_from(spec_packages), label="tool")
    rnd = data.draw(st.randoms(use_true_random=False), label="random")
    check_tool(package, name, published(package, name), rnd, Counter(), instances=2)


def test_specs_in_tests_are_all_exercised(spec_packages: list[tuple[ModuleType, str]]) -> None:
    """The hypothesis test above samples tools; here every tool gets instances and mutations."""
    stats: Counter[str] = Counter()
    for package, name in spec_packages:
        before = stats["valid instances"]
        check_tool(package, name, published(package, name), random.Random(name), stats, instances=4)
        assert stats["valid instances"] > before, (
            f"no valid instance of {name}: the generator needs work"
        )
    for kind in (
        "unknown_key",
        "missing",
        "type",
        "enum",
        "minLength",
        "maxLength",
        "pattern",
        "minimum",
        "maximum",
        "minItems",
    ):
        assert stats[f"rejected: {kind}"] > 0, f"no {kind} mutation was exercised: {stats}"


# --- the corpus ---------------------------------------------------------------------------


@pytest.mark.slow
@pytest.mark.skipif(not corpus_sample.CORPUS.is_dir(), reason=corpus_sample.NO_CORPUS)
def test_corpus_sample_agrees_with_jsonschema() -> None:
    sample, out = corpus_sample.generated()
    assert len(sample) >= 500 and {source for source, _ in sample} == set(corpus_sample.SHARE)
    stats: Counter[str] = Counter()
    exercised: Counter[str] = Counter()
    with imported(out, corpus_sample.PACKAGE) as package:
        assert len(package.TOOL_NAMES) == len(sample)
        for source, tool in sample:
            before = stats["valid instances"]
            check_tool(
                package,
                tool["name"],
                published(package, tool["name"]),
                random.Random(tool["name"]),
                stats,
                instances=3,
                per_instance=8,
            )
            exercised[source] += stats["valid instances"] > before
    print(
        f"\ncorpus differential: {dict(stats)}; tools with valid instances by source: {dict(exercised)}"
    )
    assert sum(exercised.values()) >= 0.9 * len(sample), (
        exercised
    )  # the generator covers nearly every tool
    for kind in (
        "unknown_key",
        "missing",
        "type",
        "enum",
        "minLength",
        "maxLength",
        "pattern",
        "minimum",
        "maximum",
        "minItems",
    ):
        assert stats[f"rejected: {kind}"] > 0, stats


# --- differences by design ----------------------------------------------------------------


def test_null_for_an_optional_key_is_accepted_though_jsonschema_refuses(
    spec_packages: list[tuple[ModuleType, str]],
) -> None:
    package = next(
        p
        for p, name in spec_packages
        if name == "get_weather" and "units" in json.dumps(published(p, name))
    )
    schema = published(package, "get_weather")
    call = {"location": "Paris", "days": 3, "units": None}
    assert not jsonschema.Draft202012Validator(schema).is_valid(call)
    assert (
        package.validate_arguments("get_weather", call).units == "celsius"
    )  # the default: null means "not given"


def test_declared_coercion_is_accepted_though_jsonschema_refuses(
    spec_packages: list[tuple[ModuleType, str]],
) -> None:
    package = next(p for p, name in spec_packages if name == "set_thermostat")
    call = {"room": "hall", "celsius": "19.5", "eco": "false"}
    assert not jsonschema.Draft202012Validator(published(package, "set_thermostat")).is_valid(call)
    model = package.validate_arguments("set_thermostat", call)
    assert (model.celsius, model.eco) == (19.5, False)
