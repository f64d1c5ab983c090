"""ContractTests as a user runs it: a subclass in a test module, under pytest (pytester)."""

from __future__ import annotations

import pytest

pytest_plugins = ["pytester"]

TOOLS = """
import pytest
from hypothesis import strategies as st
from pydantic import BaseModel, ConfigDict

from toolgen.runtime import Registry, ToolError, ToolInfo
from toolgen.runtime_testing.contract import ContractTests, ToolContract


class Args(BaseModel):
    model_config = ConfigDict(extra="forbid", strict=True)
    n: int


class Res(BaseModel):
    double: int


class Token(BaseModel):
    token: str


RETURNS = {"type": "object", "properties": {"double": {"type": "integer"}}, "required": ["double"]}


def info(name, flags=(), injected=None, **policies):
    return ToolInfo(name=name, description="", arguments=Args, result=Res, injected=injected,
                    flags=frozenset(flags), errors=frozenset({"negative"}), **policies)


def arguments(**overrides):
    return st.fixed_dictionaries({"n": overrides.get("n", st.integers())})


GOOD, PLAIN, BROKEN, SMALL, SECRET, ABSENT, CACHED = (
    info("good", ["idempotent"], retry=(3, 0.0, None)), info("plain"), info("broken"), info("small"),
    info("secret", injected=Token), info("absent"), info("cached", cache=(60.0, 10)))


class Good:
    info = GOOD

    def run(self, a):
        if a.n < 0:
            raise ToolError("negative", "n must not be negative")
        return Res(double=2 * a.n)


class Plain(Good):
    info = PLAIN


class Broken:
    info = BROKEN

    def run(self, a):
        return {"double": str(2 * a.n) if a.n > 10 else 2 * a.n}


class Cached(Good):
    info = CACHED


class Small:
    info = SMALL

    def run(self, a):
        if not 0 <= a.n <= 5:
            raise OverflowError("only small numbers, please")
        return Res(double=2 * a.n)


class Secret:
    info = SECRET

    def run(self, a, injected):
        assert injected.token == "t0ken"
        return Res(double=2 * a.n)


CONTRACTS = {
    "good": ToolContract(GOOD, arguments, RETURNS, ({"arguments": {"n": 2}, "result": {"double": 4}},
                                                    {"arguments": {"n": -1}, "error": "negative"})),
    "plain": ToolContract(PLAIN, arguments, RETURNS),
    "broken": ToolContract(BROKEN, arguments, RETURNS),
    "small": ToolContract(SMALL, arguments, RETURNS),
    "secret": ToolContract(SECRET, arguments, RETURNS),
    "absent": ToolContract(ABSENT, arguments, RETURNS),
    "cached": ToolContract(CACHED, arguments, RETURNS),
}


class Contracts(ContractTests):  # what a generated testing package provides
    contracts = CONTRACTS
"""

USER = """
from tools import *


class TestContracts(Contracts):
    max_examples = 30

    @pytest.fixture
    def registry(self):
        return {registry}

    def injected(self, tool):
        return {{"token": "t0ken"}} if tool == "secret" else None

    def overrides(self, tool):
        return {{"n": st.integers(0, 5)}} if tool == "small" else {{}}
"""

SHARED = "Registry([Good(), Plain(), Broken(), Small(), Secret(), Cached()])"


def literal(text: str) -> str:
    """`text` as an fnmatch pattern matching itself (brackets are pattern syntax)."""
    return "".join({"[": "[[]", "]": "[]]"}.get(c, c) for c in text)


def run(pytester: pytest.Pytester, registry: str = SHARED) -> pytest.RunResult:
    pytester.makepyfile(tools=TOOLS, test_user=USER.format(registry=registry))
    return pytester.runpytest("-rs", "-v", "-p", "no:cacheprovider")


def test_passing_tools_pass_a_broken_one_fails_with_its_cli_line_and_the_rest_is_skipped(
    pytester: pytest.Pytester,
) -> None:
    result = run(pytester)
    # good: 4 passed (its retry is safe: it is idempotent), streams skipped; plain, small, secret:
    # results passed, the others skipped; broken: results failed, the others skipped; absent: 5
    # skipped; cached: policies failed (a cache, not idempotent), results passed, the others skipped.
    result.assert_outcomes(passed=8, failed=2, skipped=25)
    result.stdout.fnmatch_lines(
        [
            f"*::TestContracts::{literal('test_results[broken]')} FAILED*",
            "*ContractViolation: broken: returned a result the spec's `returns` schema refuses",
            "*at $.double: '22' is not of type 'integer'",
            "*toolgen call broken '{\"n\": 11}'",
        ]
    )
    result.stdout.fnmatch_lines(["*SKIPPED*the registry does not hold absent*"])
    result.stdout.fnmatch_lines(["*SKIPPED*plain is not flagged idempotent*"])
    result.stdout.fnmatch_lines(["*SKIPPED*plain's spec has no examples*"])
    result.stdout.fnmatch_lines(["*SKIPPED*plain declares no cache or retry*"])
    result.stdout.fnmatch_lines(
        [
            f"*::TestContracts::{literal('test_policies[cached]')} FAILED*",
            "*ContractViolation: cached: is cached (ttl_s 60, max_entries 10) but not flagged idempotent*",
            "*in the spec, add `idempotent` to `flags`*else remove `cache`",
        ]
    )
    for passed in (
        "test_policies[good]",
        "test_results[good]",
        "test_idempotent[good]",
        "test_examples[good]",
        "test_results[small]",
        "test_results[secret]",
        "test_results[plain]",
        "test_results[cached]",
    ):
        result.stdout.fnmatch_lines([f"*::TestContracts::{literal(passed)} PASSED*"])


def test_a_registry_factory_gives_each_example_a_fresh_registry(pytester: pytest.Pytester) -> None:
    result = run(pytester, f"lambda: {SHARED}")
    result.assert_outcomes(passed=8, failed=2, skipped=25)
    result.stdout.fnmatch_lines(["*toolgen call broken '{\"n\": 11}'"])


def test_without_the_injected_values_a_tool_that_needs_them_fails_with_a_setup_error(
    pytester: pytest.Pytester,
) -> None:
    pytester.makepyfile(
        tools=TOOLS,
        test_user="""
from tools import *


class TestContracts(Contracts):
    contracts = {"secret": CONTRACTS["secret"]}

    @pytest.fixture
    def registry(self):
        return Registry([Secret()])
""",
    )
    result = pytester.runpytest("-p", "no:cacheprovider")
    result.assert_outcomes(failed=1, skipped=4)
    result.stdout.fnmatch_lines(
        ["*ValueError: tool 'secret' needs injected values for: token*injected(tool)*"]
    )
