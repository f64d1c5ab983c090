"""The official JSON-Schema-Test-Suite (draft 2020-12) through generated packages.

Every group's schema is the schema of one required parameter `value` of one tool (and of
the same key of its result; tests/support/suite_support.py). For the groups toolgen generates,
each instance of the suite is sent as arguments (`validate_arguments`, as a dict and as
JSON text) and returned as a result (through `Registry.call`): the verdict must be the
suite's. Two rules of toolgen's own make the expected verdict differ from the suite's,
each counted and printed:

- arguments' objects that declare `properties` are closed (docs/spec-format.md): the
  expected verdict is jsonschema's on the closed schema, which is the one every provider
  receives (results are not closed);
- `null` for an optional key is read as absent (docs/errors.md, repairs).

The groups toolgen refuses must be refused by a rule documented as an intended limit.
"""

from __future__ import annotations

import collections
import json
from typing import Any

import jsonschema

from tests.support.suite_support import GROUPS, INTENDED, Group, result_tool
from toolgen.lower import closed


def _without_optional_nulls(schema: Any, instance: Any) -> Any:
    """The instance as toolgen reads it: `null` for an optional key of an object whose schema
    declares it (at the top of `value`) is absent."""
    if not (
        isinstance(schema, dict)
        and isinstance(instance, dict)
        and isinstance(schema.get("properties"), dict)
    ):
        return instance
    required = set(schema.get("required") or [])
    properties = schema["properties"]
    return {
        k: v
        for k, v in instance.items()
        if not (
            v is None
            and k in properties
            and k not in required
            and not jsonschema.Draft202012Validator(properties[k]).is_valid(None)
        )
    }


def _expected_arguments(group: Group, data: Any, valid: bool) -> tuple[bool, str]:
    parameters = group.parameters()
    published = closed(parameters)
    read = {"value": _without_optional_nulls(published["properties"]["value"], data)}
    if published == parameters and read["value"] == data:
        return valid, "suite"
    verdict = jsonschema.Draft202012Validator(published).is_valid(read)
    return verdict, "closed" if published != parameters else "null"


def test_refused_groups_are_intended_limits(suite: Any) -> None:
    _, generated, found = suite
    refused = {
        tool: errors
        for tool, ds in found.items()
        if (errors := [d for d in ds if d.severity == "error"])
    }
    rules = collections.Counter(ds[0].rule for ds in refused.values())
    print(
        f"\nJSON-Schema-Test-Suite: {len(GROUPS)} groups, {len(generated)} generate, {len(refused)} refused: "
        + ", ".join(f"{rule} {n}" for rule, n in sorted(rules.items()))
    )
    for tool, found in refused.items():
        assert {d.rule for d in found} & INTENDED, (tool, [d.text() for d in found])
        assert all(d.line >= 1 and d.col >= 1 for d in found)


def test_arguments_agree_with_the_suite(suite: Any) -> None:
    package, generated, _ = suite
    counts: collections.Counter[str] = collections.Counter()
    wrong = []
    for group in generated:
        for case in group.tests:
            expected, why = _expected_arguments(group, case["data"], case["valid"])
            counts[why] += 1
            for sent in ({"value": case["data"]}, json.dumps({"value": case["data"]})):
                try:
                    package.validate_arguments(group.tool, sent)
                    got = True
                except package.ToolArgumentsError:
                    got = False
                except Exception as exc:  # noqa: BLE001 - a crash is a disagreement too
                    got = f"crash: {exc!r}"[:200]
                if got != expected:
                    wrong.append(
                        (
                            group.file,
                            group.description,
                            case["description"],
                            type(sent).__name__,
                            expected,
                        )
                    )
    total = sum(counts.values())
    print(
        f"\narguments: {total - len(wrong) // 2} of {total} instances agree ({counts['suite']} judged by the suite, "
        f"{counts['closed']} by jsonschema on the closed schema, {counts['null']} with null read as absent)"
    )
    assert not wrong, "\n".join(map(str, wrong[:40]))


def test_results_agree_with_the_suite(suite: Any) -> None:
    package, generated, _ = suite
    wrong = []
    total = 0
    for group in generated:
        tool = result_tool(group)
        for case in group.tests:
            total += 1

            class Impl:
                info = package.tool_info(tool)

                def run(self, arguments: Any, value: Any = case["data"]) -> Any:
                    return {"value": value}

            outcome = package.Registry([Impl()]).call(tool, {})
            if not outcome.ok:
                assert outcome.failure.kind == "invalid_result", (tool, outcome.failure)
            if outcome.ok != case["valid"]:
                wrong.append((group.file, group.description, case["description"], case["valid"]))
            if outcome.ok:  # the result as the tool returned it (numbers as JSON numbers: floats)
                assert _same(json.loads(outcome.text()), {"value": case["data"]}), (tool, case)
    print(f"\nresults: {total - len(wrong)} of {total} instances agree")
    assert not wrong, "\n".join(map(str, wrong[:40]))


def _same(a: Any, b: Any) -> bool:
    """JSON equality, numbers compared as floats (a `number` is a float in Python)."""
    if isinstance(a, bool) or isinstance(b, bool):
        return a is b
    if isinstance(a, (int, float)) and isinstance(b, (int, float)):
        return float(a) == float(b)
    if isinstance(a, list) and isinstance(b, list):
        return len(a) == len(b) and all(_same(x, y) for x, y in zip(a, b, strict=False))
    if isinstance(a, dict) and isinstance(b, dict):
        return a.keys() == b.keys() and all(_same(a[k], b[k]) for k in a)
    return type(a) is type(b) and a == b
