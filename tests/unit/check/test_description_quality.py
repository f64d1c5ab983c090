"""Description quality (check/rules/description_quality.py), namespace size (check/rules/namespaces.py),
token estimates and the catalog budget (providers/tokens.py), and `toolgen tokens`.

Each rule has a spec that trips it and one that does not; the estimator is checked against
counts made by hand with OpenAI's o200k_base, and a catalog's estimate never drops when a
tool is added.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from tests.support.generation import REPO
from toolgen.check.catalogue import by_id, validate_disabled
from toolgen.check.rules import description_quality as quality
from toolgen.cli import main
from toolgen.diagnostics import Diagnostic, Severity
from toolgen.pipeline import check_specs
from toolgen.providers import tokens

GOOD = "Get the current weather for a city: the temperature in degrees Celsius and the sky."
CITY = {"type": "string", "description": "City and country, e.g. Paris, France"}


def tool(name: str = "get_weather", description: str = GOOD, **more: Any) -> dict[str, Any]:
    entry = {
        "name": name,
        "description": description,
        "parameters": {"type": "object", "properties": {"city": CITY}, "required": ["city"]},
    }
    return {**entry, **more}


def lint(tmp_path: Path, *tools: dict[str, Any], exports: bool = False) -> list[Diagnostic]:
    specs = tmp_path / "specs"
    specs.mkdir(exist_ok=True)
    (specs / "tools.json").write_text(json.dumps({"tools": list(tools)}), "utf-8")
    diagnostics, _ = check_specs(specs, exports=exports)
    assert not [d for d in diagnostics if d.is_error], diagnostics
    return diagnostics


def of(rule: str, diagnostics: list[Diagnostic]) -> list[str]:
    return [f"{d.line}:{d.col}: {d.message}" for d in diagnostics if d.rule == rule]


# -- the rules ----------------------------------------------------------------------------------------


def test_a_good_tool_trips_none_of_the_rules(tmp_path: Path) -> None:
    diagnostics = lint(
        tmp_path,
        tool(
            errors={"not_found": {"description": "No city has that name."}},
            description=GOOD + " Fails with not_found when no city matches.",
        ),
    )
    assert [
        d for d in diagnostics if d.rule.startswith(("description-", "namespace-", "catalog-"))
    ] == []


@pytest.mark.parametrize(
    ("description", "message"),
    [
        (
            "Gets the weather.",
            "the description of 'get_weather' restates its name ('Gets the weather.')",
        ),
        ("Retrieve weather information", "the description of 'get_weather' restates its name"),
        (
            "Current weather conditions in any city of the world",
            "the description of 'get_weather' has no verb saying what the tool does",
        ),
    ],
)
def test_description_purpose(tmp_path: Path, description: str, message: str) -> None:
    (found,) = of(quality.ID, lint(tmp_path, tool(description=description)))
    assert (
        found.startswith("1:") and message in found
    )  # located at the description (JSON: one line)


@pytest.mark.parametrize(
    "description",
    [
        GOOD,
        "Rent a car near the user for the dates given.",
        "Checks whether a city has a weather station.",
        "This tool converts a city name to its coordinates.",
        "获取指定城市的当前天气和温度。",
    ],
)
def test_description_purpose_passes_a_stated_purpose(tmp_path: Path, description: str) -> None:
    assert of(quality.ID, lint(tmp_path, tool(description=description))) == []


def test_description_parameters(tmp_path: Path) -> None:
    properties = {
        "user_id": {"type": "string", "description": "The ID of the user."},
        "count": {"type": "integer", "description": "integer"},
        "page": {"type": "integer", "description": "Page number"},
        "dots": {"type": "string", "description": "..."},
        "city": CITY,
        "rate": {
            "type": "number",
            "description": "The annual interest rate as a decimal, e.g. 0.05",
        },
        "blank": {"type": "string", "description": ""},  # description-missing's, not this rule's
    }
    spec = tool(parameters={"type": "object", "properties": properties})
    found = of(quality.PARAMETERS, lint(tmp_path, spec))
    assert [f.split(": ", 1)[1] for f in found] == [
        "the description of parameter 'user_id' restates its name ('The ID of the user.')",
        "the description of parameter 'count' says only its type ('integer')",
        "the description of parameter 'page' says only its name and type ('Page number')",
        "the description of parameter 'dots' has no words ('...')",
    ]


def test_description_returns(tmp_path: Path) -> None:
    silent = tool("send_email", "Send an email to one recipient, from the user's own address.")
    said = tool("send_mail", "Send an email to one recipient; returns the message's ID.")
    described = tool(
        "send_note",
        "Send a note to one recipient.",
        returns={"type": "string", "description": "The note's ID."},
    )
    nothing = tool("send_ping", "Send a ping to one host.", returns={"type": "null"})
    terminal = tool(
        "finish", "Finish the task and hand the answer to the user.", flags=["terminal"]
    )
    found = of(quality.RETURNS, lint(tmp_path, silent, said, described, nothing, terminal))
    assert [f.split(": ", 1)[1] for f in found] == [
        "the description of 'send_email' does not say what the tool returns"
    ]


def test_description_errors(tmp_path: Path) -> None:
    errors = {
        "not_found": {"description": "No city has that name."},
        "rate_limited": {"description": "Too many."},
    }
    silent = tool("get_weather", GOOD, errors=errors)
    named = tool(
        "get_forecast",
        "Get the forecast for a city; when the city is not found, say so.",
        errors=errors,
    )
    failing = tool(
        "get_climate", "Get the climate of a city. Fails when the service is down.", errors=errors
    )
    undeclared = tool("get_sky", GOOD.replace("weather", "sky"))
    found = of(quality.ERRORS, lint(tmp_path, silent, named, failing, undeclared))
    assert [f.split(": ", 1)[1] for f in found] == [
        "'get_weather' declares errors (not_found, rate_limited), but its description names none of them nor says "
        "when the tool fails"
    ]


def test_description_length(tmp_path: Path) -> None:
    short = tool("get_weather", "Get weather now.")
    long = tool(
        "get_forecast", "Get the forecast for a city. " + "It says more about the sky. " * 60
    )
    restated = tool("get_sky", "Get sky.")  # a restatement is reported once, as one
    found = of(quality.LENGTH, lint(tmp_path, short, long, restated))
    assert [f.split(": ", 1)[1] for f in found] == [
        "the description of 'get_weather' has 3 words, fewer than 4 ('Get weather now.')",
        "the description of 'get_forecast' has 1,708 characters, more than the budget of 1,500 (about 427 tokens "
        "with every request)",
    ]


def test_the_built_in_library_is_clean() -> None:
    diagnostics, tools = check_specs(REPO / "schemas", exports=False)
    assert len(tools) >= 20
    assert [
        d.text() for d in diagnostics if d.rule.startswith(("description-", "namespace-"))
    ] == []


def test_a_description_without_a_purpose_is_reported_once(tmp_path: Path) -> None:
    diagnostics = lint(tmp_path, tool("tool_00", "Tool number 0."))
    assert [d.rule for d in diagnostics if d.rule.startswith("description-")] == [quality.ID]


def test_the_rules_are_catalogued_as_warnings_that_can_be_disabled() -> None:
    ids = [
        "description-purpose",
        "description-parameters",
        "description-returns",
        "description-errors",
        "description-length",
        "namespace-size",
        "catalog-tokens",
    ]
    assert all(by_id()[rule].severity is Severity.WARNING for rule in ids)
    assert validate_disabled(ids) == tuple(ids)


def test_namespace_size(tmp_path: Path) -> None:
    crowd = [tool(f"crm_tool_{i}", GOOD, category="crm", defer=i == 3) for i in range(10)]
    alone = tool("get_sky", GOOD, category="sky", defer=True)
    found = of("namespace-size", lint(tmp_path, *crowd, alone))
    assert len(found) == 1 and "namespace 'crm' holds 10 tools" in found[0]
    not_searched = [tool(f"crm_tool_{i}", GOOD, category="crm") for i in range(12)]
    assert of("namespace-size", lint(tmp_path, *not_searched)) == []


# -- token estimates ----------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "counted"),
    [  # o200k_base's counts
        ("", 0),
        ("Hello, world!", 4),
        ("get_weather", 2),
        ("The quick brown fox jumps over the lazy dog.", 10),
        (
            '{"type":"object","properties":{"location":{"type":"string","description":"City and country, e.g. Paris, '
            'France"}},"required":["location"]}',
            32,
        ),
    ],
)
def test_the_estimate_of_hand_counted_texts(text: str, counted: int) -> None:
    assert tokens.estimate(text) == counted


def test_the_estimate_rounds_the_exact_sum_of_its_pieces() -> None:
    """25 pieces of 1.02 (` abcd`): their exact sum is 25.5, which rounds half to even to 26;
    added in order, as floats, they make 25.499999999999993 (and 25), and Python 3.12's `sum`
    would have made 25.5: the estimate must not depend on either."""
    assert tokens.estimate(" abcd" * 25) == 26


def test_the_estimate_is_deterministic_and_near_for_other_scripts() -> None:
    text = "获取指定城市的当前天气，并以摄氏度返回温度。"  # o200k_base: 15
    assert tokens.estimate(text) == tokens.estimate(text) and 12 <= tokens.estimate(text) <= 18


def definition(name: str, description: str) -> dict[str, Any]:
    return {
        "name": name,
        "description": description,
        "input_schema": {"type": "object", "properties": {}},
    }


def test_adding_a_tool_never_lowers_the_catalog() -> None:
    definitions: list[dict[str, Any]] = []
    totals = []
    for i, text in enumerate(
        ["a", "", "Get the weather.", "x" * 40, "天气", "}}]", "one two three"]
    ):
        definitions.append(definition(f"t{i}", text))
        totals.append(
            tokens.catalog("anthropic", {}, definitions, [d["name"] for d in definitions]).total
        )
    assert totals == sorted(totals) and len(set(totals)) == len(totals)


def test_a_deferred_definition_costs_nothing_up_front() -> None:
    shown, hidden = (
        definition("a", "Get the weather."),
        {**definition("b", "Get the sky."), "defer_loading": True},
    )
    estimated = tokens.catalog("anthropic", {}, [shown, hidden], ["a", "b"])
    assert estimated.up_front == ["a"] and set(estimated.tools) == {"a", "b"}
    assert estimated.total == estimated.tools["a"]
    responses = tokens.catalog(
        "openai-responses", {}, [shown, hidden], ["a", "b"]
    )  # name and description still shown
    assert estimated.total < responses.total < estimated.tools["a"] + estimated.tools["b"]


def test_catalog_tokens(tmp_path: Path) -> None:
    big = [
        tool(
            f"tool_{i:02}",
            GOOD + " It also says a great deal more about the sky and the sea." * 20,
            parameters={
                "type": "object",
                "properties": {f"p{j}": CITY for j in range(8 + (i == 7))},
            },
        )
        for i in range(30)
    ]
    (found,) = of("catalog-tokens", lint(tmp_path, *big, exports=True))
    assert (
        "every request sends tool definitions of about" in found
        and "over the budget of 10,000 for openai" in found
    )
    assert "); the biggest: tool_07 (" in found
    assert of("catalog-tokens", lint(tmp_path, *big[:3], exports=True)) == []


# -- toolgen tokens -----------------------------------------------------------------------------------


def test_the_tokens_command(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    lint(tmp_path, tool(), tool("get_sky", GOOD.replace("weather", "sky")))
    runner = CliRunner()
    text = runner.invoke(
        main, ["tokens", "--specs", "specs", "--provider", "openai", "--provider", "mcp"]
    )
    assert text.exit_code == 0, text.output
    lines = text.stdout.splitlines()
    assert lines[0].split() == ["tool", "openai", "mcp"]
    assert [line.split()[0] for line in lines[1:3]] == ["get_sky", "get_weather"]
    assert lines[4].startswith("up front (2 of 2 tools)")
    done = runner.invoke(main, ["tokens", "--specs", "specs", "--format", "json"])
    assert done.exit_code == 0, done.output
    data = json.loads(done.stdout)
    assert list(data["providers"]) == [
        "openai",
        "openai-responses",
        "anthropic",
        "gemini",
        "mcp",
        "bedrock",
    ]
    assert [t["name"] for t in data["tools"]] == ["get_sky", "get_weather"]
    for provider, seen in data["providers"].items():
        assert seen["up_front"] == sum(t["tokens"][provider] for t in data["tools"])
    assert lines[1].split()[1:] == [str(data["tools"][0]["tokens"][p]) for p in ("openai", "mcp")]
