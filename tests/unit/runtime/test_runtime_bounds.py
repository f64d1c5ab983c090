"""Hostile input costs bounded time and memory; a name that is not a string is an unknown
tool, injected values that are not a mapping a TypeError; first imports race-free.

Each case states its bounds: wall-clock seconds (at least 10x what it typically takes here,
so load from other processes does not make it flaky) and the peak of Python allocations
under tracemalloc. The typical cost and the cost before these bounds existed are in
docs/errors.md ("Bounds"); the old code broke every dict bound by orders of magnitude.
"""

from __future__ import annotations

import asyncio
import importlib
import json
import sys
import threading
import time
import tracemalloc
from collections.abc import Callable, Iterator
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest

from tests.support._generated import package, spec

MiB = 2**20
TOOLS = [
    spec(
        "bulk",
        {
            "numbers": {"type": "array", "items": {"type": "integer"}},
            "table": {"type": "object", "additionalProperties": {"type": "integer"}},
            "rows": {
                "type": "array",
                "items": {
                    "type": "object",
                    "properties": {"id": {"type": "integer"}},
                    "required": ["id"],
                },
            },
        },
    ),
    {
        **spec("mail", {"to": {"type": "string"}}, required=["to"]),
        "injected": {"password": {"type": "string", "x-secret": True}},
    },
]


@pytest.fixture(scope="module")
def p(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ModuleType]:
    with package(tmp_path_factory.mktemp("bounds"), TOOLS) as generated:
        generated.validate_arguments("bulk", {})  # the module imported: not measured below
        yield generated


def bounded(run: Callable[[], Any], seconds: float, mib: float) -> Any:
    """What `run` raised (or returned), checked against the bounds: CPU seconds of this thread
    (what the work costs, however loaded the machine) and peak memory."""
    tracemalloc.start()
    started = time.thread_time()
    try:
        outcome: Any = run()
    except Exception as exc:  # noqa: BLE001 - the outcome is checked by the caller
        outcome = exc
    elapsed = time.thread_time() - started
    peak = tracemalloc.get_traced_memory()[1]
    tracemalloc.stop()
    assert elapsed < seconds, f"{elapsed:.2f} s (bound {seconds} s)"
    assert peak < mib * MiB, f"{peak / MiB:.1f} MiB (bound {mib} MiB)"
    return outcome


def single_issue(p: ModuleType, outcome: Any, code: str) -> Any:
    assert isinstance(outcome, p.ToolArgumentsError), repr(outcome)
    assert [i.code for i in outcome.issues] == [code], str(outcome)
    assert len(str(outcome)) < 400
    return outcome.issues[0]


# --- dicts (the Anthropic, Gemini, Bedrock and MCP adapters pass dicts) ------------------------


def test_a_dict_with_a_million_wrong_items_is_refused_by_its_size(p: ModuleType) -> None:
    arguments = {"numbers": [""] * 1_000_000}  # old: 49 s and 3.3 GiB
    issue = single_issue(p, bounded(lambda: p.validate_arguments("bulk", arguments), 2, 5), "limit")
    assert "1000000 characters" in issue.message


def test_a_dict_of_shared_huge_strings_is_refused_without_reading_them(p: ModuleType) -> None:
    big = "x" * 10_000_000
    arguments = {"numbers": [big] * 10_000}  # 100 GB as text
    single_issue(p, bounded(lambda: p.validate_arguments("bulk", arguments), 2, 5), "limit")


def test_a_flat_dict_with_a_huge_value_is_refused_once_it_fails(p: ModuleType) -> None:
    arguments = {"numbers": "x" * 5_000_000}
    single_issue(p, bounded(lambda: p.validate_arguments("bulk", arguments), 2, 5), "limit")


def test_a_deep_dict_is_refused_by_its_depth(p: ModuleType) -> None:
    deep: Any = []
    for _ in range(200_000):
        deep = [deep]
    issue = single_issue(
        p, bounded(lambda: p.validate_arguments("bulk", {"numbers": deep}), 2, 5), "limit"
    )
    assert "64 levels" in issue.message


def test_a_cycle_is_refused(p: ModuleType) -> None:
    loop: dict[str, Any] = {}
    loop["id"] = loop
    single_issue(p, bounded(lambda: p.validate_arguments("bulk", {"rows": [loop]}), 2, 5), "limit")


def counting(p: ModuleType, monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """Counts the issues translated one by one (the work the old code did for every error)."""
    translate = importlib.import_module(f"{p.__name__}._runtime.validation.translate")
    made = [0]
    original = translate._issue

    def issue(hit: Any) -> Any:
        made[0] += 1
        return original(hit)

    monkeypatch.setattr(translate, "_issue", issue)
    return made


def test_many_errors_within_the_limits_are_cut_before_translation(
    p: ModuleType, monkeypatch: pytest.MonkeyPatch
) -> None:
    made = counting(p, monkeypatch)
    arguments = {
        "numbers": [""] * 40_000,
        "table": {f"k{i}": "" for i in range(20_000)},
    }  # ~250 kB as text
    error = bounded(lambda: p.validate_arguments("bulk", arguments), 10, 100)
    assert isinstance(error, p.ToolArgumentsError)
    # `total`: the problems among the first max_errors values (the key "numbers" is one)
    assert len(error.issues) == 20 and error.total == 999
    assert str(error).splitlines()[-2] == "- … and 979 more"
    assert made[0] == 20  # old: 60,000


def test_a_valid_dict_at_the_limit_is_accepted(p: ModuleType) -> None:
    numbers = list(range(100_000))  # ~590 kB as text
    assert (
        bounded(lambda: p.validate_arguments("bulk", {"numbers": numbers}), 5, 50).numbers
        == numbers
    )


def test_dict_limits_follow_the_given_limits(p: ModuleType) -> None:
    small = p.Limits(max_bytes=100, max_depth=3)
    single_issue(
        p,
        bounded(lambda: p.validate_arguments("bulk", {"numbers": [1] * 120}, limits=small), 1, 1),
        "limit",
    )
    single_issue(
        p,
        bounded(
            lambda: p.validate_arguments("bulk", {"rows": [{"id": [[1]]}]}, limits=small), 1, 1
        ),
        "limit",
    )
    assert p.validate_arguments("bulk", {"numbers": [1] * 10}, limits=small).numbers == [1] * 10


# --- text -------------------------------------------------------------------------------------


def test_a_megabyte_of_text_with_330000_mistakes(
    p: ModuleType, monkeypatch: pytest.MonkeyPatch
) -> None:
    made = counting(p, monkeypatch)
    text = '{"numbers": [' + ",".join(['""'] * 330_000) + "]}"  # 990 kB; old: 23 s, 395 MiB here
    # What remains is linear in the text (the fail-fast twin's pass and one parse): the clock
    # cannot tell old from new by much here, the count of translated issues can.
    error = bounded(lambda: p.validate_arguments("bulk", text), 30, 100)
    assert isinstance(error, p.ToolArgumentsError)
    assert len(error.issues) == 20 and error.total == 999
    assert made[0] == 20  # old: 330,000


@pytest.mark.parametrize(
    ("text", "most"),
    [
        ('{"rows": [' + ",".join(["1"] * 490_000) + "]}", 1_000_000),  # 980 kB; old: 190 MiB
        ("{" + ",".join(f'"k{i}": 1' for i in range(200_000)) + "}", 3_000_000),  # old: 130 MiB
    ],
    ids=["wrong items", "unknown keys"],
)
def test_pydantics_failing_pass_is_bounded_by_max_errors(
    p: ModuleType, monkeypatch: pytest.MonkeyPatch, text: str, most: int
) -> None:
    # The pass that finds the call wrong keeps a few errors (failfast.py); the report is read
    # from the first max_errors values: what stays is the parse, linear in the text.
    failfast = importlib.import_module(f"{p.__name__}._runtime.validation.failfast")
    counts: list[int] = []
    twin = failfast.twin

    def counted(model: Any) -> Any:
        judge = twin(model)

        class Counting:
            def validate_json(self, data: Any) -> Any:
                try:
                    return judge.validate_json(data)
                except Exception as exc:
                    counts.append(exc.error_count())
                    raise

        return Counting()

    monkeypatch.setattr(failfast, "twin", counted)
    limits = p.Limits(max_bytes=most)
    error = bounded(lambda: p.validate_arguments("bulk", text, limits=limits), 30, 40)
    assert isinstance(error, p.ToolArgumentsError)
    assert counts and max(counts) <= 2  # old: one error per wrong value, 200,000 and more
    assert len(error.issues) == 20 and error.total <= limits.max_errors


@pytest.mark.parametrize(
    "text",
    [
        "[" * 1_000_000 + "]" * 1_000_000,
        '{"numbers": "' + "x" * 2_000_000 + '"}',
        '{"' + "k" * 900_000 + '": 1}',
    ],
)
def test_hostile_text(p: ModuleType, text: str) -> None:
    error = bounded(lambda: p.validate_arguments("bulk", text), 2, 20)
    assert isinstance(error, p.ToolArgumentsError)
    assert all(len(line) <= 300 for line in str(error).splitlines())
    assert len(str(error)) < 1000 and len(repr(error.to_dict()["issues"][0]["path"])) < 400


def test_a_huge_key_is_shortened_in_paths(p: ModuleType) -> None:
    key = "k" * 100_000
    error = bounded(lambda: p.validate_arguments("bulk", {"table": {key: "x"}}), 2, 10)
    assert isinstance(error, p.ToolArgumentsError)
    issue = error.issues[0]
    assert issue.path == f"table.{'k' * 256}… (100000 characters)" and issue.location == (
        "table",
        key,
    )


# --- names and the host's mistakes ------------------------------------------------------------


def test_a_huge_unknown_tool_name_is_shortened(p: ModuleType) -> None:
    name = "x" * 55_000_000
    error = bounded(lambda: p.validate_arguments(name, {}), 2, 5)
    assert isinstance(error, p.UnknownToolError) and error.name is name
    assert str(error) == f"Unknown tool '{'x' * 64}… (55000000 characters)'. There are 2 tools."
    result = bounded(lambda: p.build_registry().call(name, {}), 2, 5)
    assert result.failure.kind == "unknown_tool" and len(result.failure.message) < 200
    assert len(repr(result)) < 400
    assert (
        result.to_dict()["error"]["message"]
        == f"Unknown tool '{'x' * 64}… (55000000 characters)'. There are 0 tools."
    )


NOT_STRINGS = [
    (None, "null"),
    (123, "a number"),
    (1.5, "a number"),
    (True, "true or false"),
    (["bulk"], "an array"),
    ({"name": "bulk"}, "an object"),
    (b"bulk", "bytes"),
]


@pytest.mark.parametrize("name, kind", NOT_STRINGS)
def test_a_tool_name_that_is_not_a_string_is_an_unknown_tool(
    p: ModuleType, name: Any, kind: str
) -> None:
    said = f"Unknown tool: a tool's name is a string, not {kind}."
    for lookup, tools in (
        (lambda: p.validate_arguments(name, {}), 2),  # the package's tools
        (lambda: p.tool_info(name), 2),
        (lambda: p.build_registry().resolve(name), 0),  # the registry's (none implemented)
    ):
        with pytest.raises(p.UnknownToolError) as caught:
            lookup()
        assert str(caught.value) == f"{said} There are {tools} tools."
        assert caught.value.name is name
    registry = p.build_registry()
    for result in (
        registry.call(name, {}),
        asyncio.run(registry.acall(name, {})),
        registry.call(name, "{}", injected={}),
    ):
        assert result.failure.kind == "unknown_tool" and result.failure.message.startswith(said)
        assert result.tool == "" and result.to_dict()["error"]["kind"] == "unknown_tool"
    assert name not in registry and registry.get(name) is None


# Each provider's call, with the name a model sent (not a string).
def _provider_calls(name: Any) -> dict[str, Any]:
    return {
        "openai": [{"id": "c1", "type": "function", "function": {"name": name, "arguments": "{}"}}],
        "openai-responses": [
            {"type": "function_call", "call_id": "c1", "name": name, "arguments": "{}"}
        ],
        "anthropic": [{"type": "tool_use", "id": "c1", "name": name, "input": {}}],
        "gemini": [{"function_call": {"id": "c1", "name": name, "args": {}}}],
        "mcp": {"jsonrpc": "2.0", "id": 1, "method": "tools/call", "params": {"name": name}},
        "bedrock": [{"toolUse": {"toolUseId": "c1", "name": name, "input": {}}}],
    }


@pytest.mark.parametrize("name, kind", NOT_STRINGS[:6])
def test_a_provider_call_whose_name_is_not_a_string_is_answered_as_unknown(
    p: ModuleType, name: Any, kind: str
) -> None:
    adapters = importlib.import_module(f"{p.__name__}._runtime.providers.adapters")
    registry = p.build_registry()
    for provider, calls in _provider_calls(name).items():
        for answer in (
            adapters.respond(registry, provider, calls),
            asyncio.run(adapters.arespond(registry, provider, calls)),
        ):
            assert f"a tool's name is a string, not {kind}" in json.dumps(answer), provider


def _mail_registry(p: ModuleType, ran: list[Any]) -> Any:
    from_module = importlib.import_module(f"{p.__name__}.tools.mail")

    class Mail(from_module.MailTool):  # type: ignore[misc, name-defined]
        def run(self, arguments: Any, injected: Any) -> Any:
            ran.append(arguments)
            return {}

    return p.build_registry(Mail())


@pytest.mark.parametrize("injected", [[("password", "x")], 5, "password=x"])
def test_injected_values_that_are_not_a_mapping_are_a_type_error(
    p: ModuleType, injected: Any
) -> None:
    ran: list[Any] = []
    registry = _mail_registry(p, ran)
    with pytest.raises(TypeError, match="injected values are a mapping, not "):
        registry.call("mail", {"to": "a"}, injected=injected)
    assert registry.call("mail", {"to": "a"}, injected={"password": "x"}).ok
    failed = registry.call(
        "mail", {"to": "a"}, injected={}
    )  # missing: the host's mistake, told as before
    assert failed.failure.kind == "internal" and "password" in failed.failure.message
    assert len(ran) == 1


def test_injected_values_that_are_not_a_mapping_are_raised_once_per_turn(p: ModuleType) -> None:
    """At the turn's boundary, before any call runs: not once per call of the turn (arespond
    runs calls together: one TypeError each would be left unretrieved)."""
    adapters = importlib.import_module(f"{p.__name__}._runtime.providers.adapters")
    ran: list[Any] = []
    registry = _mail_registry(p, ran)
    calls = [
        {"type": "tool_use", "id": f"c{i}", "name": "mail", "input": {"to": "a"}} for i in range(3)
    ]
    for respond in (
        lambda: adapters.respond(registry, "anthropic", calls, injected=[1]),
        lambda: asyncio.run(adapters.arespond(registry, "anthropic", calls, injected=[1])),
        lambda: adapters.respond(registry, "anthropic", [], injected=[1]),
    ):
        with pytest.raises(TypeError, match="^injected values are a mapping, not list$"):
            respond()
    assert ran == []


# --- the first import of a tool module, from many threads --------------------------------------

THREADED = [
    spec(
        f"tool_{i}",
        {
            f"p{j}": {
                "type": "object",
                "properties": {"a": {"type": "string"}, "b": {"type": "integer"}},
            }
            for j in range(40)
        },
    )
    for i in range(6)
]


def test_first_use_from_many_threads(tmp_path: Path) -> None:
    """8 threads released at once on a tool whose module is not imported yet, 60 times over.

    Before the fix, a thread could find the module half-imported in `sys.modules` and fail
    with `AttributeError: partially initialized module ... has no attribute 'INFO'`."""
    failures: list[BaseException] = []
    with package(tmp_path, THREADED) as generated:
        for round_ in range(60):
            name = f"tool_{round_ % 6}"
            for module in [m for m in sys.modules if m.startswith(f"{generated.__name__}.tools.")]:
                del sys.modules[module]
            generated._facade.infos.clear()
            barrier = threading.Barrier(8)

            def call() -> None:
                barrier.wait()
                try:
                    assert type(generated.validate_arguments(name, {})).__name__.endswith(
                        "Arguments"
                    )
                except BaseException as exc:  # noqa: BLE001 - collected, reported below
                    failures.append(exc)

            threads = [threading.Thread(target=call) for _ in range(8)]
            for thread in threads:
                thread.start()
            for thread in threads:
                thread.join()
    assert not failures, f"{len(failures)} failures, the first: {failures[0]!r}"
