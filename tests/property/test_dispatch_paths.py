"""The fast path of a call (a tool without policies, in a registry without hooks: fast.py)
answers exactly as the general path does, for any arguments a model may send.

The general path is taken by the same registry with a hook that does nothing (hooks.py: a
registry with hooks has no fast path), so the two differ in nothing else. For arguments drawn
valid and invalid (dicts, JSON text, text to repair, values of the wrong type), and each
behaviour of the run (a dict, the Result model, a declared failure, a retried one, an
unexpected exception, an invalid result, guidance, a suspension), the results of `call` (sync
implementations) and of `acall` (async ones) are equal field by field, the exception's type
and text included; only `duration_s` differs.
"""

from __future__ import annotations

import asyncio
import json
from collections.abc import Iterator
from dataclasses import replace
from types import ModuleType
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tests.support.runtime_support import FakeClock, generated_package, interface

MODES = ["dict", "model", "gone", "busy", "crash", "invalid", "guided", "ask", "awaitable"]
PARAMETERS = {
    "type": "object",
    "x-repair": True,
    "properties": {
        "a": {"type": "integer", "minimum": -1000, "maximum": 1000, "description": "First."},
        "b": {"type": "integer", "description": "Second."},
        "mode": {"type": "string", "enum": MODES, "description": "What the run does."},
    },
    "required": ["a", "b", "mode"],
}
RETURNS = {
    "type": "object",
    "properties": {"sum": {"type": "integer"}},
    "required": ["sum"],
}
ERRORS = {
    "busy": {"description": "Try again.", "retryable": True},
    "gone": {"description": "It will not come back."},
}
SPECS = {
    "tools": [
        {
            "name": "math.compute",
            "description": "Adds, or does what `mode` says.",
            "retry": {"attempts": 2},
            "parameters": PARAMETERS,
            "returns": RETURNS,
            "errors": ERRORS,
            "examples": [{"arguments": {"a": 1, "b": 2, "mode": "dict"}}],
        },
        {
            "name": "finish",
            "description": "Adds, and ends the turn.",
            "flags": ["terminal"],
            "parameters": PARAMETERS,
            "returns": RETURNS,
            "errors": ERRORS,
        },
    ]
}
NAMES = [tool["name"] for tool in SPECS["tools"]]
ALIAS = "math_compute"  # the provider-safe name of `math.compute`: found, and run, as it


@pytest.fixture(scope="module")
def package(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ModuleType]:
    yield from generated_package(tmp_path_factory, "dispatch_paths", SPECS)


def outcome(package: ModuleType, name: str, arguments: Any) -> Any:
    """What a run of `name` does for `arguments`, as its `mode` says."""
    total = arguments.a + arguments.b
    result = package.tool_info(name).result
    mode = arguments.mode
    if mode in ("gone", "busy"):
        raise package.ToolError(mode, f"{mode} at {arguments.a}")
    if mode == "crash":
        raise ValueError(f"crashed at {arguments.a}")
    if mode == "ask":
        raise package.Suspend("Which one?", state={"a": arguments.a})
    if mode == "invalid":
        return {"sum": "many"}
    if mode == "model":
        return result(sum=total)
    if mode == "guided":
        return package.Output({"sum": total}, metadata=f"summed {arguments.a}")
    return {"sum": total}


def implementations(package: ModuleType, asynchronous: bool) -> list[Any]:
    made = []
    for name in NAMES:

        def run(self: Any, arguments: Any, name: str = name) -> Any:
            if arguments.mode == "awaitable":
                return _later({"sum": arguments.a + arguments.b})
            return outcome(package, name, arguments)

        async def arun(self: Any, arguments: Any, name: str = name) -> Any:
            return outcome(package, name, arguments)

        cls = type(
            f"{name}_impl", (interface(package, name),), {"run": arun if asynchronous else run}
        )
        made.append(cls())
    return made


async def _later(value: Any) -> Any:
    return value


class Silent:
    """A hook that does nothing: its registry takes the general path."""

    def before(self, event: Any) -> None:
        pass


def registries(package: ModuleType, asynchronous: bool) -> tuple[Any, Any]:
    tools = implementations(package, asynchronous)
    fast = package.Registry(tools, clock=FakeClock(), secret="k" * 32)
    general = package.Registry(tools, clock=FakeClock(), secret="k" * 32, hooks=[Silent()])
    return fast, general


def seen(result: Any) -> Any:
    """A result as compared: every field but its duration, its exception by type and text, and
    its suspension record by what it asks (each record has its own id and signature)."""
    exception = result.exception
    suspended = result.suspended
    return (
        replace(result, duration_s=0.0, suspended=None),
        None if exception is None else (type(exception).__name__, str(exception)),
        None if suspended is None else (suspended.tool, suspended.prompt, suspended.state),
    )


VALID = st.fixed_dictionaries(
    {
        "a": st.integers(-1000, 1000),
        "b": st.integers(-(2**40), 2**40),
        "mode": st.sampled_from(MODES),
    }
)
ANYTHING = st.dictionaries(
    st.sampled_from(["a", "b", "mode", "c", "mdoe"]),
    st.one_of(
        st.integers(-2000, 2000),
        st.sampled_from([*MODES, "nope", "", "1"]),
        st.none(),
        st.booleans(),
        st.floats(allow_nan=False),
        st.lists(st.integers(), max_size=2),
    ),
)
TEXT = st.one_of(
    VALID.map(json.dumps),
    ANYTHING.map(json.dumps),
    VALID.map(lambda v: "```json\n" + json.dumps(v) + "\n```"),  # repaired: a fence
    VALID.map(lambda v: json.dumps(v).replace('"', "'")),  # repaired: single quotes
    st.text(max_size=20),
)
ARGUMENTS = st.one_of(VALID, ANYTHING, TEXT, st.none(), st.integers(), st.lists(st.integers()))


@settings(max_examples=150, deadline=None)
@given(name=st.sampled_from([*NAMES, ALIAS, "compte"]), arguments=ARGUMENTS)
def test_call_takes_the_fast_path_to_the_same_result(
    package: ModuleType, name: str, arguments: Any
) -> None:
    fast, general = registries(package, asynchronous=False)
    assert set(fast._fast) == {*NAMES, ALIAS} and not general._fast  # the paths under test
    assert seen(fast.call(name, arguments)) == seen(general.call(name, arguments))


@settings(max_examples=100, deadline=None)
@given(name=st.sampled_from([*NAMES, ALIAS]), arguments=ARGUMENTS)
def test_acall_takes_the_fast_path_to_the_same_result(
    package: ModuleType, name: str, arguments: Any
) -> None:
    fast, general = registries(package, asynchronous=True)
    assert set(fast._afast) == {*NAMES, ALIAS} and not general._afast

    async def both() -> tuple[Any, Any]:
        return await fast.acall(name, arguments), await general.acall(name, arguments)

    quick, slow = asyncio.run(both())
    assert seen(quick) == seen(slow)
