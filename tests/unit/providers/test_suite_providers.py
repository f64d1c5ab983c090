"""The official JSON-Schema-Test-Suite through every provider exporter, checked with the SDKs.

Every group that lints clean (computed here, not listed: more groups generate as the
generator learns keywords) is lowered in process, and each variant of each provider
exports it alone; every definition must pass that provider's checks (tests/support/provider_checks.py:
the SDKs' own types and validators, the meta-schema, every `$ref` resolving). MCP keeps the
schema whole, so its definition must also accept what the suite says is valid.
"""

from __future__ import annotations

import re
import time
from collections import Counter
from pathlib import Path
from typing import Any

import jsonschema
import pytest

from tests.support import provider_checks as checks
from tests.support import suite_support
from toolgen.diagnostics import Severity
from toolgen.lower import lower
from toolgen.pipeline import check_specs
from toolgen.providers import PROVIDERS, export, variants


def label(provider: str, option: dict[str, Any]) -> str:
    on = [k for k, v in option.items() if v is True]
    return " ".join([provider, *on])


@pytest.fixture(scope="module")
def suite(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Any]:
    groups = list(suite_support.groups())
    root = tmp_path_factory.mktemp("suite") / "specs"
    suite_support.write_specs(root, groups)
    diagnostics, checked = check_specs(root)
    refused = {Path(d.file).stem for d in diagnostics if d.severity is Severity.ERROR}
    clean = [tool for tool in checked if tool.name not in refused]
    return {
        "groups": {g.tool: g for g in groups},
        "tools": lower(clean, "suitepkg").tools,
        "refused": refused,
    }


def test_enough_of_the_suite_generates(suite: dict[str, Any]) -> None:
    assert len(suite["tools"]) >= 300, (
        f"only {len(suite['tools'])} of {len(suite['groups'])} groups lint clean"
    )


def test_every_definition_of_the_suite_is_accepted_by_its_provider(suite: dict[str, Any]) -> None:
    started = time.perf_counter()
    counts: dict[str, Counter[str]] = {}
    failures: list[str] = []
    for provider in PROVIDERS:
        for option in variants(provider):
            count = counts.setdefault(label(provider, option), Counter())
            for tool in suite["tools"]:
                result = export(provider, [tool], **option)
                for definition in result.definitions:
                    problems = checks.check(provider, definition)
                    if problems:
                        failures.append(f"{label(provider, option)}: {tool.name}: {problems[:3]}")
                count[
                    "refused" if not result.definitions else "noted" if result.notes else "as is"
                ] += 1
    print(
        f"\nsuite: {len(suite['tools'])} of {len(suite['groups'])} groups generate; "
        f"export+checks {time.perf_counter() - started:.1f}s"
    )
    print(f"{'variant':28} {'as is':>6} {'noted':>6} {'refused':>8}")
    for name, count in counts.items():
        print(f"{name:28} {count['as is']:6} {count['noted']:6} {count['refused']:8}")
    assert failures == [], "\n".join(failures[:30])


def test_mcp_input_schemas_accept_what_the_suite_calls_valid(suite: dict[str, Any]) -> None:
    """MCP keeps the schema whole (closed where the spec declares properties): every instance
    the suite calls valid and the closed schema admits is admitted by the published one."""
    disagree = []
    for tool in suite["tools"]:
        (definition,) = export("mcp", [tool]).definitions
        published = jsonschema.Draft202012Validator(definition["inputSchema"])
        closed = jsonschema.Draft202012Validator(tool.parameters)
        for test in suite["groups"][tool.name].tests:
            arguments = {"value": test["data"]}
            try:
                if (
                    test["valid"]
                    and closed.is_valid(arguments)
                    and not published.is_valid(arguments)
                ):
                    disagree.append(f"{tool.name}: {test['description']}")
            except re.error:  # a spec pattern `re` cannot compile: jsonschema cannot check it
                continue
    assert disagree == [], disagree[:20]
