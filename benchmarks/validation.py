"""Validation of a model's arguments: the generated validators against the baselines.

For the families of benchmarks/validation_tools.py (flat: tiny, typical, wide; nested; nested
with patterns, a format, uniqueItems and multipleOf: order; shared definitions: refs; unions),
prints the median time per call of:
- valid input: toolgen's `validate_arguments` (dict and JSON text), raw pydantic `model_validate`
  (and `model_validate_json`) on the same generated model, `jsonschema`, `fastjsonschema` and
  `jsonschema-rs` (the floor of a compiled validator) on the same (published) schema,
  selectools' and pydantic-ai's validators, and a plain function call;
- invalid input, the message rendered: the same validators, each producing what a model reads;
then the messages of the catalogue's mistakes side by side (toolgen, selectools, pydantic-ai).

Run: `python benchmarks/validation.py [--rounds 7] [--messages]`. The paths are
measured round-robin (every path once per round, the median over rounds) by the thread's CPU
clock, so load from other processes hits them alike; compare rows of one run, not runs.
"""

from __future__ import annotations

import argparse
import importlib
import json
import statistics
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Annotated, Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "benchmarks"))

from validation_families import FAMILIES  # noqa: E402
from validation_tools import MISTAKES, pydantic_ai_functions  # noqa: E402
from validation_tools import TOOLS as FLAT_AND_NESTED  # noqa: E402

TOOLS = {**FLAT_AND_NESTED, **FAMILIES}

Case = Callable[[], Any]


def build_package(folder: Path) -> Any:
    from toolgen.config import BuildOptions
    from toolgen.pipeline import build
    from toolgen.write import apply, plan

    specs = folder / "specs"
    specs.mkdir()
    (specs / "tools.json").write_text(
        json.dumps({"tools": [t["spec"] for t in TOOLS.values()]}), "utf-8"
    )
    options = BuildOptions(package="bench_validation")
    result = build(specs, options)
    assert result.ok, [d.text() for d in result.diagnostics if d.is_error]
    out = folder / "out"
    out.mkdir()
    apply(out, plan(out, result.files, options))
    sys.path.insert(0, str(out))
    return importlib.import_module("bench_validation")


def selectools_tool(spec: dict[str, Any]) -> Any:
    try:
        from selectools.mcp.bridge import _schema_to_params
        from selectools.tools.base import Tool
    except ImportError:
        return None
    # selectools' own import of a JSON Schema (top-level parameters; nested objects become dicts).
    return Tool(
        spec["name"], spec["description"], _schema_to_params(spec["parameters"]), lambda **kw: None
    )


def pydantic_ai_validator(name: str) -> Any:
    try:
        from pydantic_ai import Tool
    except ImportError:
        return None
    function = pydantic_ai_functions().get(name)
    return None if function is None else Tool(function).function_schema.validator


def pydantic_ai_message(validator: Any, name: str, text: str) -> str:
    """What pydantic-ai sends back to the model: a retried tool return holding pydantic's error list."""
    import pydantic_core
    from pydantic_ai.messages import ToolReturnPart

    try:
        validator.validate_json(text)
    except pydantic_core.ValidationError as exc:
        part = ToolReturnPart(
            tool_name=name,
            content=exc.errors(include_url=False, include_context=False),
            outcome="retried",
        )
        return str(part.model_response_str())
    return "(accepted)"


def selectools_message(tool: Any, arguments: dict[str, Any]) -> str:
    """What selectools sends back: "Error executing tool '<name>': " + the ToolValidationError."""
    try:
        tool.validate(dict(arguments))
    except Exception as exc:  # noqa: BLE001 - ToolValidationError
        return f"Error executing tool '{tool.name}': {exc}"
    return "(accepted: the tool runs)"


def raising(fn: Callable[[], Any]) -> Case:
    """A case for invalid input: the exception is caught and its message rendered, as a host does."""

    def case() -> Any:
        try:
            fn()
        except Exception as exc:  # noqa: BLE001
            return str(exc)
        raise AssertionError("invalid input was accepted")

    return case


def cases_for(
    package: Any, key: str, tool: dict[str, Any]
) -> tuple[dict[str, Case], dict[str, Case]]:
    import fastjsonschema
    import jsonschema
    import jsonschema_rs

    name = tool["spec"]["name"]
    info = package.tool_info(name)
    model = info.arguments
    schema = next(d["inputSchema"] for d in package.tool_definitions("mcp") if d["name"] == name)
    reference = jsonschema.Draft202012Validator(schema)
    fast = fastjsonschema.compile(schema)
    rust = jsonschema_rs.Draft202012Validator(schema)
    good, bad = tool["valid"], tool["invalid"]
    good_text, bad_text = json.dumps(good), json.dumps(bad)
    validate = package.validate_arguments

    def floor(arguments: dict[str, Any]) -> Any:
        return arguments

    valid: dict[str, Case] = {
        "toolgen validate_arguments (dict)": lambda: validate(name, good),
        "toolgen validate_arguments (JSON text)": lambda: validate(name, good_text),
        "pydantic model_validate (same model)": lambda: model.model_validate(good),
        "pydantic model_validate_json (same model)": lambda: model.model_validate_json(good_text),
        "jsonschema (Draft 2020-12, compiled validator)": lambda: reference.validate(good),
        "fastjsonschema (compiled)": lambda: fast(good),
        "jsonschema-rs (compiled, Rust: the floor)": lambda: rust.validate(good),
        "plain function call (floor)": lambda: floor(good),
    }

    def rust_all(arguments: Any) -> None:
        messages = [str(e) for e in rust.iter_errors(arguments)]
        if messages:
            raise ValueError("\n".join(messages))

    def jsonschema_all() -> None:
        messages = [e.message for e in reference.iter_errors(bad)]
        if messages:
            raise ValueError("\n".join(messages))

    invalid: dict[str, Case] = {
        "toolgen validate_arguments + message (dict)": raising(lambda: validate(name, bad)),
        "toolgen validate_arguments + message (JSON text)": raising(
            lambda: validate(name, bad_text)
        ),
        "pydantic model_validate + str(error)": raising(lambda: model.model_validate(bad)),
        "jsonschema, every error's message": raising(jsonschema_all),
        "fastjsonschema (first error only)": raising(lambda: fast(bad)),
        "jsonschema-rs, every error's message": raising(lambda: rust_all(bad)),
    }
    selectools = selectools_tool(tool["spec"])
    if selectools is not None:
        valid["selectools Tool.validate (top level only)"] = lambda: selectools.validate(dict(good))
        invalid["selectools Tool.validate + message"] = lambda: selectools_message(selectools, bad)
    pydantic_ai = pydantic_ai_validator(key)
    if pydantic_ai is not None:
        valid["pydantic-ai tool validator (validate_json)"] = lambda: pydantic_ai.validate_json(
            good_text
        )
        invalid["pydantic-ai validator + retry message"] = lambda: pydantic_ai_message(
            pydantic_ai, name, bad_text
        )
    return valid, invalid


def measure(cases: dict[str, Case], rounds: int) -> dict[str, float]:
    """Median microseconds per call over `rounds`; each round runs every case once, in turn.
    Timed by this thread's CPU clock: on a shared machine, the time other processes take
    the CPU does not land in one path's samples."""
    numbers: dict[str, int] = {}
    for label, case in cases.items():  # calls per sample: about 20 ms of work
        case()
        start = time.thread_time()
        for _ in range(20):
            case()
        per_call = (time.thread_time() - start) / 20
        numbers[label] = max(20, min(100_000, int(0.02 / max(per_call, 1e-8))))
    samples: dict[str, list[float]] = {label: [] for label in cases}
    for _ in range(rounds):
        for label, case in cases.items():
            n = numbers[label]
            start = time.thread_time()
            for _ in range(n):
                case()
            samples[label].append((time.thread_time() - start) / n * 1e6)
    return {label: statistics.median(values) for label, values in samples.items()}


def table(title: str, results: dict[str, dict[str, float]], baseline: str) -> str:
    names = list(results)
    labels = list(next(iter(results.values())))
    lines = [
        f"### {title}",
        "",
        "| path | " + " | ".join(names) + " |",
        "|---|" + "---:|" * len(names),
    ]
    for label in labels:
        cells = []
        for name in names:
            value = results[name].get(label)
            ratio = (
                value / results[name][baseline]
                if value is not None and baseline in results[name]
                else None
            )
            cells.append(
                "n/a"
                if value is None
                else f"{value:.2f} µs ({ratio:.2f}x)"
                if ratio
                else f"{value:.2f} µs"
            )
        lines.append(f"| {label} | " + " | ".join(cells) + " |")
    return "\n".join(lines)


def side_by_side(package: Any) -> str:
    out = ["### The same mistakes, side by side", ""]
    for mistake in MISTAKES:
        tool = TOOLS[mistake["tool"]]
        arguments = mistake["arguments"]
        out.append(
            f"#### {mistake['title']}\n\n`{json.dumps(arguments)}` to `{tool['spec']['name']}`\n"
        )
        try:
            package.validate_arguments(tool["spec"]["name"], arguments)
            toolgen = "(accepted)"
        except package.ToolArgumentsError as exc:
            toolgen = str(exc)
        out.append(f"toolgen ({len(toolgen)} characters):\n```\n{toolgen}\n```")
        selectools = selectools_tool(tool["spec"])
        if selectools is not None:
            text = selectools_message(selectools, arguments)
            out.append(f"selectools ({len(text)} characters):\n```\n{text}\n```")
        validator = pydantic_ai_validator(mistake["tool"])
        if validator is not None:
            text = pydantic_ai_message(validator, tool["spec"]["name"], json.dumps(arguments))
            out.append(f"pydantic-ai ({len(text)} characters):\n```\n{text}\n```")
        out.append("")
    return "\n".join(out)


# The families whose schemas use keywords compiled into fields (patterns, uniqueItems, multipleOf).
COMPILED = {"order"}
THREE_MISTAKES = {"loction": "Paris", "days": "three", "units": "celcius"}


def three_mistakes(package: Any, rounds: int) -> str:
    """The invalid path's goals: a tiny tool with one misspelled key (<= 30 µs), the typical
    tool with three mistakes (<= 100 µs), each message rendered."""
    validate = package.validate_arguments
    tiny = TOOLS["tiny"]["invalid"]
    cases = {
        "tiny, one misspelled key": raising(lambda: validate("echo", tiny)),
        "typical, three mistakes": raising(lambda: validate("get_weather", THREE_MISTAKES)),
    }
    results = measure(cases, rounds)
    goals = {"tiny, one misspelled key": 30, "typical, three mistakes": 100}
    return "\n".join(
        f"invalid path, {label}: {value:.1f} µs (goal <= {goals[label]} µs)"
        for label, value in results.items()
    )


def integer_types(rounds: int) -> str:
    """Three integer fields, three ways: what JSON Schema's integer costs (docs/decisions/0004)."""
    from pydantic import BaseModel, BeforeValidator, ConfigDict, Field

    from toolgen.runtime.types import Integer

    def whole(value: Any) -> Any:  # the BeforeValidator generated modules used before
        if type(value) is float and value.is_integer():
            return int(value)
        return value

    before = Annotated[int, BeforeValidator(whole)]
    config = ConfigDict(extra="forbid", strict=True)

    class Plain(BaseModel):
        model_config = config
        a: Annotated[int, Field(ge=1, le=14)]
        b: Annotated[int, Field(ge=0)]
        c: int

    class Before(BaseModel):
        model_config = config
        a: Annotated[before, Field(ge=1, le=14)]
        b: Annotated[before, Field(ge=0)]
        c: before

    class Marker(BaseModel):
        model_config = config
        a: Annotated[int, Integer(ge=1, le=14)]
        b: Annotated[int, Integer(ge=0)]
        c: Annotated[int, Integer()]

    data = {"a": 3, "b": 5, "c": 7}
    labels = {
        "plain strict int (refuses 2.0)": Plain,
        "BeforeValidator (before)": Before,
        "_types.Integer (now)": Marker,
    }
    cases: dict[str, Case] = {
        label: (lambda v=m.__pydantic_validator__: v.validate_python(data))
        for label, m in labels.items()
    }
    results = measure(cases, rounds)
    lines = [
        "### Three integer fields, validate_python",
        "",
        "| integer type | µs per call |",
        "|---|---:|",
    ]
    lines += [f"| {label} | {value:.2f} |" for label, value in results.items()]
    return "\n".join(lines)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=7)
    parser.add_argument(
        "--messages", action="store_true", help="print the side-by-side messages too"
    )
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as folder:
        package = build_package(Path(folder))
        valid: dict[str, dict[str, float]] = {}
        invalid: dict[str, dict[str, float]] = {}
        for key, tool in TOOLS.items():
            good_cases, bad_cases = cases_for(package, key, tool)
            valid[key] = measure(good_cases, args.rounds)
            invalid[key] = measure(bad_cases, args.rounds)
        print(
            f"Python {sys.version.split()[0]}, {args.rounds} rounds, median µs per call "
            "(ratio to raw pydantic model_validate on the same model)\n"
        )
        print(table("Valid input", valid, "pydantic model_validate (same model)"))
        print()
        print(
            table(
                "Invalid input, message rendered", invalid, "pydantic model_validate + str(error)"
            )
        )
        print()
        for key in TOOLS:
            ours = valid[key]["toolgen validate_arguments (dict)"]
            ratio = ours / valid[key]["pydantic model_validate (same model)"]
            text = valid[key]["toolgen validate_arguments (JSON text)"]
            text_ratio = text / valid[key]["pydantic model_validate_json (same model)"]
            speedup = valid[key]["jsonschema (Draft 2020-12, compiled validator)"] / ours
            goal = 1.3 if key in COMPILED else 1.05
            print(
                f"{key}: valid path {ratio:.2f}x raw pydantic (goal <= {goal}x), JSON text "
                f"{text_ratio:.2f}x model_validate_json (goal <= 1.3x), {speedup:.0f}x "
                "faster than jsonschema (goal >= 20x), "
                f"{ours / valid[key]['jsonschema-rs (compiled, Rust: the floor)']:.2f}x jsonschema-rs; "
                f"invalid + message {invalid[key]['toolgen validate_arguments + message (dict)']:.1f} µs"
            )
        print(three_mistakes(package, args.rounds))
        print()
        print(integer_types(args.rounds))
        if args.messages:
            print()
            print(side_by_side(package))


if __name__ == "__main__":
    main()
