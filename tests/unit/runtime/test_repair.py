"""Repair of malformed argument text (`x-repair`: runtime/validation/repair.py, its tokenizer
lenient.py, glued calls glued.py) and the closest valid example in refused calls' messages.

tests/data/repair/calls.jsonl is a corpus of malformed calls to the tools of tests/data/repair/specs:
each is repaired to an exact value with exact repair kinds, or refused with the message the
same call gets when the specs say `x-repair: false` (a second package, generated from the
same specs with every `x-repair` turned off). Names that no tool has are glued calls, answered
through `adapters.respond`. Property tests (derandomized) hold the repairs to the text they
read: nothing invented, nothing changed.
"""

from __future__ import annotations

import ast
import asyncio
import copy
import json
import re
import sys
import warnings
from collections.abc import Callable, Iterator
from importlib import import_module
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest
import yaml
from hypothesis import example, given, settings
from hypothesis import strategies as st

from tests.support.runtime_support import generated_package
from toolgen import pipeline
from toolgen.runtime.validation import glued, repair
from toolgen.runtime.validation.repair import KINDS

HERE = Path(__file__).parents[2] / "data" / "repair"
SPECS: dict[str, Any] = yaml.safe_load((HERE / "specs" / "tools.yaml").read_text("utf-8"))
CALLS = [
    json.loads(line)
    for line in (HERE / "calls.jsonl").read_text("utf-8").splitlines()
    if line.strip()
]
TOOLS = {tool["name"] for tool in SPECS["tools"]}


def without_repair(specs: dict[str, Any]) -> dict[str, Any]:
    plain = copy.deepcopy(specs)
    for tool in plain["tools"]:
        if "x-repair" in tool["parameters"]:
            tool["parameters"]["x-repair"] = False
    return plain


class Harness:
    """A generated package's registry, with implementations that record what they receive."""

    def __init__(self, package: ModuleType) -> None:
        self.package = package
        self.received: list[tuple[str, Any]] = []
        self.results: list[Any] = []  # every result the registry's hook saw
        as_sent = import_module(f"{package.__name__}._runtime.validation.validate").as_sent
        implementations = []
        for name in package.TOOL_NAMES:
            tools = import_module(f"{package.__name__}.tools.{package._index.MODULES[name]}")
            base = next(
                v
                for v in vars(tools).values()
                if isinstance(v, type)
                and getattr(v, "info", None) is tools.INFO
                and v.__name__.endswith("Tool")
            )

            class Impl(base):  # type: ignore[misc, valid-type]
                def run(self, arguments: Any, *injected: Any, _name: str = name) -> Any:
                    harness.received.append((_name, as_sent(arguments)))
                    return {}

            harness = self
            implementations.append(Impl())
        self.registry = package.Registry(implementations, hooks=[self])

    def after(self, event: Any) -> None:
        self.results.append(event.result)

    error = after

    def take(self) -> tuple[list[tuple[str, Any]], list[Any]]:
        received, results = self.received, self.results
        self.received, self.results = [], []
        return received, results


@pytest.fixture(scope="module")
def repairing(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Harness]:
    for package in generated_package(tmp_path_factory, "repairing", SPECS):
        yield Harness(package)


@pytest.fixture(scope="module")
def strict(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Harness]:
    for package in generated_package(tmp_path_factory, "strict", without_repair(SPECS)):
        yield Harness(package)


def exact(value: Any) -> str:
    """JSON text that tells 1 from 1.0 and keeps key order: equal values, equal text."""
    return json.dumps(value)


# -- the corpus, through a generated package's registry ------------------------------------------


@pytest.mark.parametrize("case", [c for c in CALLS if c["tool"] in TOOLS], ids=lambda c: c["name"])
def test_a_call_is_repaired_exactly_or_refused_as_without_repair(
    repairing: Harness, strict: Harness, case: dict[str, Any]
) -> None:
    result = repairing.registry.call(case["tool"], case["text"])
    received, seen = repairing.take()
    assert seen == [result]  # the hooks saw the result the host got
    if case.get("refused"):
        assert result.failure is not None and result.failure.kind == "invalid_arguments", result
        assert received == [] and result.repairs == () and result.warnings == ()
        plain = strict.registry.call(case["tool"], case["text"])
        strict.take()
        assert result.failure.message == plain.failure.message  # byte for byte
        return
    assert result.ok, result.failure
    assert [(name, exact(value)) for name, value in received] == [
        (case["tool"], exact(case["value"]))
    ]
    assert [r.kind for r in result.repairs] == case["repairs"]
    assert all(r.message and r.kind in KINDS for r in result.repairs)
    assert result.warnings == (
        f"the arguments of tool '{case['tool']}' were repaired: "
        + "; ".join(r.message for r in result.repairs),
    )
    # The pure function agrees with the registry.
    allowed = repairing.package.tool_info(case["tool"]).repair
    assert import_module(f"{repairing.package.__name__}._runtime.validation.repair").repair(
        case["text"], allowed
    ) == (case["value"], result.repairs)


@pytest.mark.parametrize(
    "case", [c for c in CALLS if c["tool"] not in TOOLS], ids=lambda c: c["name"]
)
def test_a_glued_call_is_run_as_its_parts_or_unknown(
    repairing: Harness, strict: Harness, case: dict[str, Any]
) -> None:
    adapters = import_module(f"{repairing.package.__name__}._runtime.providers.adapters")
    call = [
        {
            "id": "c1",
            "type": "function",
            "function": {"name": case["tool"], "arguments": case["text"]},
        }
    ]
    answer = adapters.respond(repairing.registry, "openai", call)
    received, results = repairing.take()
    plain_answer = import_module(f"{strict.package.__name__}._runtime.providers.adapters").respond(
        strict.registry, "openai", call
    )
    strict.take()
    if case.get("refused"):
        assert received == [] and repairing.registry.split_call(case["tool"], case["text"]) is None
        assert answer == plain_answer  # the unknown tool's answer, as without x-repair
        return
    expected = [(tool, value) for tool, value in case["parts"]]
    assert [(name, exact(v)) for name, v in received] == [
        (t, exact(v)) for t, v in expected if v is not None
    ]
    assert [r.tool for r in results] == [tool for tool, _ in expected]
    parts = [tool for tool, _ in expected]
    for i, result in enumerate(results):
        assert result.ok == (expected[i][1] is not None)
        assert [(r.kind, r.message) for r in result.repairs] == [
            ("split", glued.split_message(case["tool"], parts, i))
        ]
        assert result.warnings[-1].startswith(
            f"the arguments of tool '{parts[i]}' were repaired: ran the glued call"
        )
    # One answer under the call's id, each part's result labelled with its tool's name.
    assert len(answer) == 1 and answer[0]["tool_call_id"] == "c1"
    assert answer[0]["content"] == "\n\n".join(f"{r.tool}: {r.text()}" for r in results)
    # What hosts that dispatch calls themselves get.
    split = repairing.registry.split_call(case["tool"], case["text"])
    assert split is not None and [name for name, _ in split] == parts
    assert "".join(text for _, text in split) == re.sub(r"(?<=})\s+", "", case["text"]).strip()


def test_glued_calls_async_and_in_each_provider(repairing: Harness) -> None:
    adapters = import_module(f"{repairing.package.__name__}._runtime.providers.adapters")
    text = '{"city": "Paris"}{"tz": "UTC"}'
    block = {"type": "tool_use", "id": "t1", "name": "get_weatherget_time", "input": {}}
    # Anthropic sends an object, never glued text: nothing to split, the unknown tool's answer.
    answer = asyncio.run(adapters.arespond(repairing.registry, "anthropic", [block]))
    assert "Unknown tool 'get_weatherget_time'" in answer["content"][0]["content"]
    item = {
        "type": "function_call",
        "call_id": "r1",
        "name": "get_weatherget_time",
        "arguments": text,
    }
    answer = asyncio.run(adapters.arespond(repairing.registry, "openai-responses", [item]))
    assert answer == [
        {
            "type": "function_call_output",
            "call_id": "r1",
            "output": "get_weather: {}\n\nget_time: {}",
        }
    ]
    received, results = repairing.take()
    assert received == [("get_weather", {"city": "Paris"}), ("get_time", {"tz": "UTC"})]
    assert [r.repairs[0].kind for r in results if r.repairs] == ["split", "split"]
    parts = asyncio.run(repairing.registry.acall_split("get_weatherget_time", text))
    assert [r.tool for r in parts] == ["get_weather", "get_time"] and all(r.ok for r in parts)
    repairing.take()


def test_repairs_are_logged_as_coercions_are(
    repairing: Harness, caplog: pytest.LogCaptureFixture
) -> None:
    with caplog.at_level("INFO"):
        result = repairing.registry.call("echo", "```json\n{'password': 'hunter22'}\n```")
    repairing.take()
    assert result.ok and [r.kind for r in result.repairs] == ["fence", "quotes"]
    logged = [r for r in caplog.records if r.name.endswith("_runtime.repair")]
    assert [r.getMessage() for r in logged] == [
        "tool echo: arguments repaired (fence): removed a Markdown code fence",
        "tool echo: arguments repaired (quotes): read single-quoted strings as JSON strings",
    ]
    assert "hunter22" not in caplog.text  # repairs count, they never quote


def test_bytes_and_acall_are_repaired_too(repairing: Harness) -> None:
    result = asyncio.run(repairing.registry.acall("echo", b'```json\n{"a": None}\n```'))
    assert result.ok and [r.kind for r in result.repairs] == ["fence", "python"]
    assert repairing.take()[0] == [("echo", {"a": None})]
    refused = repairing.registry.call("echo", b"\xff{")
    assert refused.failure.kind == "invalid_arguments" and repairing.take()[0] == []


# -- the closest valid example in a refused call's message -----------------------------------------


def refused(harness: Harness, tool: str, arguments: Any, registry: Any = None) -> str:
    result = (registry or harness.registry).call(tool, arguments)
    harness.take()
    assert result.failure is not None and result.failure.kind == "invalid_arguments"
    return str(result.failure.message)


def test_a_refused_call_ends_with_a_valid_example(repairing: Harness) -> None:
    message = refused(repairing, "get_weather", {"city": 5})
    lines = message.splitlines()
    assert lines[-2:] == [
        "Fix these and call the tool again.",
        'A valid call looks like: {"city": "Paris"}',
    ]
    # The same line for invoke's exception and in to_dict.
    error = repairing.registry.call("get_weather", {"city": 5}).exception
    repairing.take()
    assert (
        str(error) == message == error.render()
        and error.to_dict()["example"] == '{"city": "Paris"}'
    )
    again = error.with_example('{"city": "Oslo"}')  # replaces the line, never adds a second
    assert str(again) == again.render() == message.replace('"Paris"', '"Oslo"')


def test_the_closest_example_is_chosen(repairing: Harness) -> None:
    def example(arguments: Any) -> str:
        return (
            refused(repairing, "get_weather", arguments)
            .splitlines()[-1]
            .removeprefix("A valid call looks like: ")
        )

    assert example({"city": "Oslo", "days": "3"}) == '{"city": "Oslo", "days": 3}'  # more keys sent
    assert example({"days": 3}) == '{"city": "Oslo", "days": 3}'  # the key sent, same type
    assert example({"city": 5}) == '{"city": "Paris"}'  # a tie: the first in the spec
    assert example('{"city": "Oslo", "days": "3"}') == '{"city": "Oslo", "days": 3}'  # text too
    assert example("{not json") == '{"city": "Paris"}'  # nothing to compare: the first


def test_an_example_holding_a_secret_is_never_quoted(repairing: Harness) -> None:
    # The first example is closer (user, password, remember sent) but holds a password.
    message = refused(repairing, "login", {"user": 1, "password": "x", "remember": True})
    assert message.splitlines()[-1] == 'A valid call looks like: {"user": "ada"}'
    assert "hunter22" not in message
    # Every example of `unlock` holds a secret (in an array's items): no example line.
    message = refused(repairing, "unlock", {"door": 1})
    assert (
        message.splitlines()[-1] == "Fix these and call the tool again." and "1234" not in message
    )


def test_examples_in_errors_can_be_turned_off(repairing: Harness) -> None:
    quiet = repairing.package.Registry(list(repairing.registry.values()), examples_in_errors=False)
    for registry in (
        quiet,
        quiet.copy(),
        quiet.without("echo"),
        quiet + repairing.package.Registry(),
    ):
        message = refused(repairing, "get_weather", {"city": 5}, registry)
        assert message.splitlines()[-1] == "Fix these and call the tool again."
        assert message == str(_validation_error(repairing.package, "get_weather", {"city": 5}))


def test_a_tool_without_examples_keeps_its_message(repairing: Harness) -> None:
    for arguments in ({"tz": 5}, {}, "{oops", '```json\n{"tz": "UTC"}\n```'):
        message = refused(repairing, "get_time", arguments)
        assert message == str(_validation_error(repairing.package, "get_time", arguments))
        assert "A valid call looks like" not in message


def _validation_error(package: ModuleType, tool: str, arguments: Any) -> Exception:
    with pytest.raises(package.ToolArgumentsError) as raised:
        package.validate_arguments(tool, arguments)
    return raised.value


# -- the lint rule -------------------------------------------------------------------------------


def test_x_repair_anywhere_but_the_root_of_parameters_is_an_error(tmp_path: Path) -> None:
    specs = tmp_path / "specs"
    specs.mkdir()
    (specs / "tools.yaml").write_text(
        "$defs:\n"
        "  City: {type: string, x-repair: true}\n"
        "tools:\n"
        "  - name: t\n"
        "    description: A tool.\n"
        "    parameters:\n"
        "      type: object\n"
        "      x-repair: [fence]\n"
        "      properties:\n"
        "        a: {type: object, x-repair: true, description: A.}\n"
        "    returns: {type: object, x-repair: [fence]}\n",
        "utf-8",
    )
    found = [d for d in pipeline.check_specs(specs)[0] if d.rule == "repair-misplaced"]
    assert [(d.line, d.severity.value) for d in found] == [
        (2, "error"),
        (10, "error"),
        (11, "error"),
    ]
    assert all(d.hint and "parameters" in d.hint for d in found)


# -- properties of the pure function --------------------------------------------------------------

SCALARS = (
    st.none()
    | st.booleans()
    | st.integers(-(10**20), 10**20)
    | st.floats(allow_nan=False, allow_infinity=False)
)
# Text whose Python repr uses only escapes JSON shares (\n, \t, \\, \') and the quotes.
TEXT = st.text(
    st.characters(exclude_categories=("C", "Z")) | st.sampled_from(" '\"\\\n\t"), max_size=12
)
VALUES = st.recursive(
    SCALARS | TEXT,
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(TEXT, inner, max_size=4),
    max_leaves=12,
)
OBJECTS = st.dictionaries(TEXT, VALUES, max_size=5)
# Prose: a word first (no JSON or Python token), then no bracket, quote, colon or fence.
PROSE = st.builds(
    lambda first, rest: first + rest,
    st.sampled_from(["Let", "I", "Here", "Done", "<|im_end|>", "</tool_call>", "(the city)"]),
    st.text(
        st.characters(exclude_characters="{}[]`~\"':", exclude_categories=("Cs",)), max_size=40
    ),
)
FENCES = st.sampled_from(
    [
        "```json\n{}\n```",
        "```\n{}\n```",
        "~~~\n{}\n~~~",
        "```json {}```",
        "```JSON\n{}\n```\n",
        "Here it is:\n```json\n{}\n```",
        "```json\n{}",
    ]
)


@settings(max_examples=150, deadline=None)
@given(OBJECTS, FENCES)
def test_a_fenced_value_is_that_value(value: dict[str, Any], fence: str) -> None:
    text = fence.replace("{}", json.dumps(value, indent=None if len(value) % 2 else 2))
    for allowed in ({"fence"}, KINDS):
        found = repair.repair(text, allowed)
        assert found is not None and exact(found[0]) == exact(value)
        assert [r.kind for r in found[1]] == ["fence"]
    assert repair.repair(text, set(KINDS) - {"fence"}) is None


@settings(max_examples=150, deadline=None)
@given(OBJECTS, PROSE)
def test_prose_after_a_value_is_ignored(value: dict[str, Any], prose: str) -> None:
    text = json.dumps(value) + " " + prose
    found = repair.repair(text, {"trailing"})
    assert found is not None and exact(found[0]) == exact(value)
    ignored = len(prose.lstrip(" \t\n\r"))
    assert [(r.kind, r.message) for r in found[1]] == [
        (
            "trailing",
            f"ignored {ignored} character{'' if ignored == 1 else 's'} after the JSON value",
        )
    ]
    assert repair.repair(text, set(KINDS) - {"trailing"}) is None


@settings(max_examples=200, deadline=None)
@given(OBJECTS)
def test_a_python_rendering_is_read_as_its_value(value: dict[str, Any]) -> None:
    text = repr(value)
    found = repair.repair(text, {"python", "quotes"})
    assert found is not None and found[0] == value
    strings = list(re.finditer(r"'(?:[^'\\]|\\.)*'|\"(?:[^\"\\]|\\.)*\"", text))
    outside = re.sub(r"'(?:[^'\\]|\\.)*'|\"(?:[^\"\\]|\\.)*\"", "", text)
    expected = []
    if re.search(r"\b(None|True|False)\b", outside):
        expected.append("python")
    if any(m.group().startswith("'") for m in strings):
        expected.append("quotes")
    assert [r.kind for r in found[1]] == expected
    if not expected:  # nothing Python-only: it was JSON already
        assert json.loads(text) == value


@settings(max_examples=200, deadline=None)
@given(VALUES, st.sets(st.sampled_from(KINDS)))
def test_valid_json_is_never_touched(value: Any, allowed: set[str]) -> None:
    for text in (
        json.dumps(value),
        json.dumps(value, indent=1),
        json.dumps(value, ensure_ascii=False),
    ):
        assert repair.repair(text, allowed) == (value, ())


# Values whose JSON text is what json.dumps writes of the value read back (no floats: `1e+2`
# cut from `1e+20` reads as 100.0, written `100.0`).
CANONICAL = st.recursive(
    st.none() | st.booleans() | st.integers(-(10**6), 10**6) | TEXT,
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(TEXT, inner, max_size=4),
    max_leaves=12,
)


@settings(max_examples=300, deadline=None)
@given(st.dictionaries(TEXT, CANONICAL, max_size=5), st.data())
def test_a_truncated_value_is_a_prefix_of_the_text(
    value: dict[str, Any], data: st.DataObject
) -> None:
    text = json.dumps(value, separators=(",", ":"))
    cut = text[: data.draw(st.integers(1, len(text) - 1), label="cut")] if len(text) > 2 else text
    found = repair.repair(cut, {"truncated"})
    if found is None:
        return
    repaired, made = found
    closed = re.search(r"closed (\d+) bracket", made[0].message) if made else None
    if closed is None:  # the cut text was valid JSON on its own (a number cut short)
        assert made == () and json.loads(cut) == repaired
        return
    shown = json.dumps(repaired, separators=(",", ":"))
    assert cut.startswith(shown[: len(shown) - int(closed[1])])  # nothing invented but brackets
    assert [r.kind for r in made] == ["truncated"]


def test_glued_names_split_one_way_only() -> None:
    names = ["get_weather", "get_time", "a", "ab", "b", "ba"]
    assert glued.segment("get_weatherget_time", names) == ["get_weather", "get_time"]
    assert glued.segment("aba", names) is None  # a+ba or ab+a: ambiguous
    assert glued.segment("abab", ["ab"]) == ["ab", "ab"]
    assert glued.segment("get_weather", names) is None  # one name is no glued call
    assert glued.segment("x" * 10_000, ["x"]) is None  # more parts than MAX_PARTS
    assert glued.split("get_weatherget_time", '{"a": 1} {"b": [2]}', names) == [
        ("get_weather", '{"a": 1}'),
        ("get_time", '{"b": [2]}'),
    ]
    assert glued.split("get_weatherget_time", '{"a": 1} x {"b": 2}', names) is None
    assert glued.split("get_weatherget_time", '{"a": NaN}{"b": 2}', names) is None


def _steps(text: str) -> int:
    """How many Python and C function calls repairing `text` makes (deterministic, unlike time)."""
    steps = 0

    def count(frame: Any, event: str, arg: Any) -> None:
        nonlocal steps
        steps += event in ("call", "c_call")

    sys.setprofile(count)
    try:
        repair.repair(text, KINDS)
    finally:
        sys.setprofile(None)
    return steps


@pytest.mark.parametrize(
    "make",
    [
        lambda n: "{'a': " * (n // 10),
        lambda n: "[" * n,
        lambda n: '{"a": [' + "None, " * (n // 3) + "1",
        lambda n: "{'a': '" + "\\'" * (n // 2) + "'}",
        lambda n: "```json\n" + " " * n + "{}",
    ],
    ids=["open-dicts", "open-lists", "python-nones", "escaped-quotes", "fenced-blank"],
)
def test_repair_work_is_linear(make: Callable[[int], str]) -> None:
    """Four times the text costs at most about four times the calls: no quadratic walk (counted,
    not timed, so a loaded machine cannot fail it)."""
    small, large = _steps(make(20_000)), _steps(make(80_000))
    assert large <= 4.5 * small + 200, (small, large)


# -- a repair never changes what a call means ------------------------------------------------------


def strict_reading(text: str) -> Any:
    """What a strict reader reads from the text: JSON, else a Python literal (JSON's `true`,
    `false`, `null` too), else None."""
    try:
        return json.loads(text)
    except ValueError:
        pass
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")  # Python reads `\\q` as a backslash and a q, and warns
            return _literal(ast.parse(text.strip(" \t\n\r"), mode="eval").body)
    except (SyntaxError, ValueError, RecursionError, MemoryError):
        return None


def _literal(node: ast.AST) -> Any:
    if isinstance(node, ast.Constant) and isinstance(node.value, (str, int, float, type(None))):
        return node.value
    if isinstance(node, ast.Name) and node.id in ("true", "false", "null"):
        return {"true": True, "false": False, "null": None}[node.id]
    if isinstance(node, ast.List):
        return [_literal(item) for item in node.elts]
    if isinstance(node, ast.Dict) and all(k is not None for k in node.keys):
        return {_literal(k): _literal(v) for k, v in zip(node.keys, node.values, strict=True)}  # type: ignore[arg-type]
    if isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.USub):
        inner = _literal(node.operand)
        if type(inner) in (int, float):
            return -inner
    raise ValueError("not a literal")


def continuations(body: str, tail: str) -> Iterator[Any]:
    """The values a strict reader gets when `tail` continues the value `body` spells: written
    after it, or before its closing brackets (one misplaced, `{"a": 1}, "b": 2}`)."""
    closers = len(body) - len(body.rstrip("}]"))
    for cut in range(closers + 1):
        head, closed = body[: len(body) - cut], body[len(body) - cut :]
        for text in (head + tail, head + tail + closed):
            reading = strict_reading(text)
            if reading is not None:
                yield reading


PROSE_TAILS = [" Let me know if you need more.", "\n\nI called the tool.", "\n</tool_call>"]
TAIL_PIECES = PROSE_TAILS + [
    *" ,:\"'{}[]0123456789.-",
    " true",
    " None",
    ' "dry_run"',
    " 'b'",
    ', "dry_run": true}',
    " and ",
]


@settings(max_examples=400, deadline=None)
@given(OBJECTS, st.booleans(), st.lists(st.sampled_from(TAIL_PIECES), min_size=1, max_size=4))
def test_a_repair_reads_what_a_strict_reader_reads(
    value: dict[str, Any], python: bool, pieces: list[str]
) -> None:
    body = repr(value) if python else json.dumps(value)
    tail = "".join(pieces)
    found = repair.repair(body + tail, KINDS)
    if found is None:
        # Prose after a value a strict reader reads is read past.
        assert (
            not all(piece in PROSE_TAILS for piece in pieces)
            or strict_reading(body + tail) is not None
        )
        return
    repaired, made = found
    assert exact(repaired) == exact(strict_reading(body))
    if "trailing" in [r.kind for r in made]:  # what was ignored may not have been meant
        assert all(exact(reading) == exact(repaired) for reading in continuations(body, tail))


ESCAPED = st.lists(
    st.sampled_from([*"\\/abnrtvfxuUN0178{}'\"\n\t é", "\\\n", "\\u00e9", "\\ud83d\\ude00"]),
    max_size=12,
).map("".join)


@settings(max_examples=400, deadline=None)
@example("a\\/b", "{'a': '%s'}")
@example("\\ud83d\\ude00", '{"a": "%s", "b": None}')
@given(
    ESCAPED, st.sampled_from(["{'a': '%s'}", "{'a': \"%s\", 'b': None}", '{"a": "%s", "b": None}'])
)
def test_python_text_is_read_as_python_reads_it(inside: str, shape: str) -> None:
    text = shape % inside
    found = repair.repair(text, KINDS)
    if found is not None and found[1]:  # (valid JSON is JSON's, untouched)
        assert exact(found[0]) == exact(strict_reading(text))


@pytest.mark.parametrize(
    "text",
    [
        '{"path": "notes.txt"}, "dry_run": true}',
        '{"a": 1}0',
        '{"a": [1]}, 2]}',
        '{"a": 1} "b": 2}',
        '{"a": 1} and "dry_run": true',
        '{"a": 1} -1',
        '{"a": 1} None',
        "{'a': 'a\\/b'} true",
    ],
)
def test_text_that_may_continue_the_value_is_never_dropped(
    repairing: Harness, strict: Harness, text: str
) -> None:
    assert repair.repair(text, KINDS) is None
    result = repairing.registry.call("echo", text)
    plain = strict.registry.call("echo", text)
    assert repairing.take()[0] == [] and strict.take()[0] == []
    assert result.failure is not None and result.failure.message == plain.failure.message


def test_single_quoted_strings_follow_pythons_escapes() -> None:
    text = "{'a': 'a\\/b', 'b': '\\101\\x41\\u0041\\a\\v\\q\\8', 'c': 'x\\\ny'}"
    found = repair.repair(text, {"quotes"})
    assert found is not None and found[0] == strict_reading(text) == {
        "a": "a\\/b",
        "b": "AAA\x07\x0b\\q\\8",
        "c": "xy",
    }
    for refused in ("'\\N{BULLET}'", "'\\x4'", "'\\ud800'", "'\\U00110000'", "'a\nb'"):
        assert repair.repair("{'a': " + refused + "}", KINDS) is None, refused
    # Text read the Python way: a double-quoted string JSON reads otherwise is refused.
    assert repair.repair('{"a": "c\\/d", "b": None}', KINDS) is None
    assert repair.repair('{"a": "c/d", "b": None}', KINDS) == (
        {"a": "c/d", "b": None},
        (repair.Repair("python", "read Python literals None as null"),),
    )


@pytest.mark.parametrize(
    "text",
    [
        '{"path": "safe", "path": "/"}',
        '{"opts": {"path": "safe", "path": "/"}}',
        '{"path": "safe", "pa\\u0074h": "/"}',
        "{'path': 'safe', 'path': '/'}",
        '```json\n{"path": "safe", "path": "/"}\n```',
    ],
)
def test_a_key_sent_twice_is_refused_with_and_without_repair(
    repairing: Harness, strict: Harness, text: str
) -> None:
    result = repairing.registry.call("echo", text)
    plain = strict.registry.call("echo", text)
    assert repairing.take()[0] == [] and strict.take()[0] == []
    assert result.failure is not None and result.failure.message == plain.failure.message
    if json_text(text):
        assert 'the key "path" appears twice in one object' in result.failure.message


def json_text(text: str) -> bool:
    try:
        json.loads(text)
    except ValueError:
        return False
    return True


@settings(max_examples=100, deadline=None)
@given(OBJECTS, st.booleans(), st.lists(st.sampled_from(TAIL_PIECES), max_size=3))
def test_a_call_runs_with_what_a_strict_reader_reads_or_is_refused_as_without_repair(
    repairing: Harness, strict: Harness, value: dict[str, Any], python: bool, pieces: list[str]
) -> None:
    body = repr(value) if python else json.dumps(value)
    text = body + "".join(pieces)
    result = repairing.registry.call("echo", text)
    received, _ = repairing.take()
    if result.ok:
        assert [(name, exact(v)) for name, v in received] == [("echo", exact(strict_reading(body)))]
        if "trailing" in [r.kind for r in result.repairs]:
            assert all(
                exact(reading) == exact(received[0][1])
                for reading in continuations(body, "".join(pieces))
            )
    else:
        plain = strict.registry.call("echo", text)
        strict.take()
        assert received == [] and result.failure.message == plain.failure.message
