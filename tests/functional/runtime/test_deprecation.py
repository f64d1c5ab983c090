"""Deprecations end to end: a renamed parameter's old name taken until its sunset and refused
after it, deprecated parameters and tools marked in every provider's definition and warned
about in each call's result, the lint errors that keep a spec honest (located), and the
versions a generated package carries (SPEC_VERSION, SPEC_SHA256, TOOLGEN_VERSION)."""

from __future__ import annotations

import asyncio
import importlib
import json
import tomllib
from collections.abc import Iterator
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest

from tests.support.generation import REPO, generate, imported
from tests.support.runtime_support import generated_package, interface
from toolgen import __version__
from toolgen.load.specs import SpecSet, load_specs
from toolgen.pipeline import check_specs
from toolgen.providers import PROVIDERS, variants

INVALID = REPO / "tests" / "golden" / "invalid" / "deprecation_invalid" / "specs"
SUNSET = "2030-06-30"
SPECS = {
    "tools": [
        {
            "name": "forecast",
            "description": "The forecast for a city.",
            "parameters": {
                "type": "object",
                "properties": {
                    "location": {
                        "type": "string",
                        "description": "City and country.",
                        "x-renamed-from": {"name": "loc", "sunset": SUNSET},
                    },
                    "days": {
                        "type": "integer",
                        "minimum": 1,
                        "description": "How many days.",
                        "x-renamed-from": {"name": "num_days"},
                    },
                    "units": {
                        "type": "string",
                        "description": "Temperature unit.",
                        "deprecated": True,
                        "x-sunset": "2030-01-01",
                    },
                },
                "required": ["location"],
            },
            "returns": {
                "type": "object",
                "properties": {"summary": {"type": "string"}},
                "required": ["summary"],
            },
        },
        {
            "name": "weather.old_forecast",
            "description": "The forecast, the old way.",
            "version": "1.4",
            "deprecated": {"reason": "It reads a retired API", "replacement": "weather.forecast"},
            "sunset": "2030-01-01",
            "parameters": {
                "type": "object",
                "properties": {"city": {"type": "string", "description": "City."}},
            },
        },
        {
            "name": "weather.forecast",
            "description": "The forecast, the new way.",
            "parameters": {
                "type": "object",
                "properties": {"city": {"type": "string", "description": "City."}},
            },
        },
    ]
}


@pytest.fixture(scope="module")
def package(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ModuleType]:
    yield from generated_package(tmp_path_factory, "deprecations_pkg", SPECS)


@pytest.fixture
def today(package: ModuleType, monkeypatch: pytest.MonkeyPatch) -> Any:
    """Set the day the runtime compares sunsets with."""

    # Imported here: the package's import leaves validation to the first call that needs it.
    deprecation = importlib.import_module(f"{package.__name__}._runtime.validation.deprecation")

    def set_today(day: str) -> None:
        monkeypatch.setattr(deprecation, "today", lambda: day)

    set_today("2029-01-01")
    return set_today


@pytest.fixture(params=["call", "acall"])
def calling(request: pytest.FixtureRequest) -> Any:
    def call(registry: Any, name: str, arguments: Any) -> Any:
        if request.param == "call":
            return registry.call(name, arguments)
        return asyncio.run(registry.acall(name, arguments))

    return call


def registry(package: ModuleType) -> Any:
    class Forecast(interface(package, "forecast")):  # type: ignore[misc]
        def run(self, arguments: Any) -> Any:
            return {"summary": f"{arguments.location}, {arguments.days} days, {arguments.units}"}

    class Old(interface(package, "weather.old_forecast")):  # type: ignore[misc]
        def run(self, arguments: Any) -> Any:
            return {"city": arguments.city}

    class New(interface(package, "weather.forecast")):  # type: ignore[misc]
        def run(self, arguments: Any) -> Any:
            return {"city": arguments.city}

    return package.build_registry(Forecast(), Old(), New())


# -- the alias path ---------------------------------------------------------------------------


@pytest.mark.parametrize("arguments", [{"loc": "Paris", "days": 2}, '{"loc": "Paris", "days": 2}'])
def test_an_old_name_is_taken_before_its_sunset_with_a_warning(
    package: ModuleType, today: Any, calling: Any, arguments: Any
) -> None:
    for day in ("2029-01-01", SUNSET):  # the sunset's own day included
        today(day)
        result = calling(registry(package), "forecast", arguments)
        assert result.ok, result.text()
        assert result.data() == {"summary": "Paris, 2 days, None"}
        [warning] = result.warnings
        assert "'loc'" in warning and "'location'" in warning and SUNSET in warning
        assert warning == (
            f"tool 'forecast': parameter 'loc' was renamed to 'location'; the old name is "
            f"accepted until {SUNSET} (sunset)"
        )


def test_an_old_name_is_refused_after_its_sunset_naming_the_new_one(
    package: ModuleType, today: Any, calling: Any
) -> None:
    today("2030-07-01")
    result = calling(registry(package), "forecast", {"loc": "Paris"})
    assert not result.ok and result.failure.kind == "invalid_arguments"
    [issue] = result.exception.issues
    assert (issue.path, issue.code, issue.suggestion) == ("loc", "unknown_key", 'send "location"')
    assert result.text() == (
        "Invalid arguments for tool 'forecast' (1 problem):\n"
        f'- loc: unknown key: "loc" was renamed to "location"; the old name was accepted until {SUNSET}; '
        'send "location"\n'
        "Fix these and call the tool again."
    )
    # Its other problems are still reported, by the new name.
    refused = calling(registry(package), "forecast", {"loc": 3, "days": 0})
    assert [(i.path, i.code) for i in refused.exception.issues] == [
        ("days", "range"),
        ("loc", "unknown_key"),
        ("location", "type"),
    ]


def test_a_rename_without_sunset_is_taken_until_the_spec_says_otherwise(
    package: ModuleType, today: Any
) -> None:
    today("2999-01-01")
    result = registry(package).call("forecast", {"location": "Oslo", "num_days": 3})
    assert result.ok and result.data() == {"summary": "Oslo, 3 days, None"}
    assert result.warnings == (
        "tool 'forecast': parameter 'num_days' was renamed to 'days'; the old name is "
        "still accepted, for now",
    )


def test_both_names_sent_is_refused(package: ModuleType, today: Any, calling: Any) -> None:
    result = calling(registry(package), "forecast", {"loc": "Paris", "location": "Paris"})
    assert not result.ok
    [issue] = result.exception.issues
    assert (issue.path, issue.code) == ("loc", "unknown_key")
    assert issue.line() == (
        '- loc: unknown key: "loc" is the old name of "location", which is also given; '
        'send only "location"'
    )
    assert result.warnings == ()


def test_the_facade_takes_old_names_and_reports_warnings(
    package: ModuleType, today: Any, caplog: pytest.LogCaptureFixture
) -> None:
    told: list[str] = []
    arguments = package.validate_arguments("forecast", {"loc": "Paris"}, on_warning=told.append)
    assert arguments.location == "Paris" and len(told) == 1 and "'loc'" in told[0]
    with caplog.at_level("WARNING"):  # without on_warning: logged
        package.validate_arguments("forecast", {"loc": "Paris", "units": "celsius"})
    assert [r.getMessage() for r in caplog.records] == [
        f"tool 'forecast': parameter 'loc' was renamed to 'location'; the old name is accepted until {SUNSET} "
        "(sunset)",
        "tool 'forecast': parameter 'units' is deprecated (sunset 2030-01-01)",
    ]


# -- deprecated parameters and tools ------------------------------------------------------------


def test_a_deprecated_parameter_sent_warns_and_still_runs(
    package: ModuleType, today: Any, calling: Any
) -> None:
    tools = registry(package)
    sent = calling(tools, "forecast", {"location": "Paris", "units": "celsius"})
    assert sent.ok and sent.warnings == (
        "tool 'forecast': parameter 'units' is deprecated (sunset 2030-01-01)",
    )
    assert calling(tools, "forecast", {"location": "Paris"}).warnings == ()
    today("2030-01-02")
    late = calling(tools, "forecast", {"location": "Paris", "units": "celsius"})
    assert late.ok and late.warnings == (
        "tool 'forecast': parameter 'units' is deprecated; its sunset "
        "(2030-01-01) has passed: it may be removed at any time",
    )


def test_a_deprecated_tool_warns_with_its_reason_replacement_and_sunset(
    package: ModuleType, today: Any, calling: Any
) -> None:
    tools = registry(package)
    info = tools.info("weather.old_forecast")
    assert info.stability == "deprecated"  # implied by `deprecated`
    assert info.deprecation == package._runtime.validation.deprecation.Deprecation(
        "It reads a retired API", "weather.forecast", "2030-01-01"
    )
    result = calling(tools, "weather.old_forecast", {"city": "Rome"})
    assert result.ok and result.warnings == (
        "tool 'weather.old_forecast' (version 1.4) is deprecated: It reads a retired API; use "
        "'weather.forecast' instead (sunset 2030-01-01)",
    )
    today("2031-01-01")  # past its sunset: still run (a tool goes when the spec removes it)
    late = calling(tools, "weather.old_forecast", {"city": "Rome"})
    assert late.ok and late.warnings[0].endswith(
        "; its sunset (2030-01-01) has passed: it may be removed at any time"
    )


def test_tools_without_deprecations_keep_the_direct_path(package: ModuleType, today: Any) -> None:
    tools = registry(package)
    assert tools._direct["weather.forecast"] is not None and "weather.forecast" in tools._plain
    assert (
        tools._direct["forecast"] is None and "forecast" not in tools._plain
    )  # its warnings are collected
    assert tools.call("weather.forecast", {"city": "Rome"}).warnings == ()


@pytest.fixture(scope="module")
def other(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ModuleType]:
    specs = {
        "name": "ping",
        "description": "Answers.",
        "parameters": {"type": "object", "properties": {}},
    }
    yield from generated_package(tmp_path_factory, "deprecations_other", specs)


def test_another_packages_registry_collects_the_warnings_too(
    package: ModuleType, other: ModuleType, today: Any
) -> None:
    """A tool validated by its own package's runtime (registries merged) still reports them."""

    class Ping(interface(other, "ping")):  # type: ignore[misc]
        def run(self, arguments: Any) -> Any:
            return {}

    merged = other.build_registry(Ping()) + registry(package)
    result = merged.call("forecast", {"loc": "Paris", "units": "celsius"})
    assert result.ok and [w.split(": ", 1)[1] for w in result.warnings] == [
        f"parameter 'loc' was renamed to 'location'; the old name is accepted until {SUNSET} (sunset)",
        "parameter 'units' is deprecated (sunset 2030-01-01)",
    ]


# -- provider definitions -----------------------------------------------------------------------


def keys_and_strings(value: Any) -> Iterator[str]:
    if isinstance(value, dict):
        for key, item in value.items():
            yield key
            yield from keys_and_strings(item)
    elif isinstance(value, list):
        for item in value:
            yield from keys_and_strings(item)
    elif isinstance(value, str):
        yield value


@pytest.mark.parametrize(
    ("provider", "options"), [(p, o) for p in PROVIDERS for o in variants(p)], ids=str
)
def test_every_definition_says_deprecated_and_never_shows_an_old_name_or_an_x_key(
    package: ModuleType, provider: str, options: dict[str, Any]
) -> None:
    definitions = package.tool_definitions(provider, **options)
    text = json.dumps(definitions)
    replacement = "weather.forecast" if provider == "mcp" else "weather_forecast"
    assert (
        text.count(
            f"Deprecated: It reads a retired API; use {replacement} instead (sunset 2030-01-01). "
            "The forecast, the old way."
        )
        == 1
    )
    assert text.count("Deprecated (sunset 2030-01-01). Temperature unit.") == 1
    assert text.count("Deprecated") == 2  # the tool and the parameter, nothing else
    words = list(keys_and_strings(definitions))
    assert not [w for w in words if w.startswith("x-")]
    assert "loc" not in words and "num_days" not in words
    assert "renamed" not in text


# -- lint -----------------------------------------------------------------------------------------


def test_lint_locates_each_deprecation_error() -> None:
    diagnostics, _ = check_specs(INVALID)
    found = {
        (d.file, d.line, d.col, d.severity.value, d.message)
        for d in diagnostics
        if d.rule == "deprecation-invalid"
    }
    assert {
        ("weather.yaml", 5, 5, "error", "tool 'forecast' has a sunset but is not deprecated"),
        ("weather.yaml", 10, 13, "error", "sunset '2030-02-30' is not a date"),
        ("weather.yaml", 19, 49, "error", "sunset '2030-13-01' is not a date"),
        (
            "weather.yaml",
            19,
            34,
            "error",
            "x-renamed-from of 'location' names 'units', which is declared: a call "
            "sending it means that one",
        ),
        ("weather.yaml", 9, 16, "error", "stability 'stable' contradicts `deprecated`"),
        ("weather.yaml", 23, 11, "error", "x-sunset without `deprecated: true` beside it"),
        ("weather.yaml", 8, 64, "warning", "replacement 'forecastt' names no tool of these specs"),
    } <= found
    texts = [d.text() for d in diagnostics]
    assert (
        "weather.yaml:5:5: error[deprecation-invalid]: tool 'forecast' has a sunset but is not deprecated"
        in "\n".join(texts)
    )


def test_a_sunset_that_is_no_date_is_a_located_format_error(tmp_path: Path) -> None:
    (tmp_path / "old.yaml").write_text(
        "name: old\ndescription: Old.\ndeprecated: {reason: Slow}\nsunset: 2030-1-1\n", "utf-8"
    )
    diagnostics, _ = check_specs(tmp_path)
    assert [d.text() for d in diagnostics] == [
        "old.yaml:4:9: error[spec-format]: sunset '2030-1-1' is not a date (YYYY-MM-DD)\n"
        "  hint: write the day as YYYY-MM-DD, e.g. 2026-06-30"
    ]


def test_a_misspelt_toolgen_keyword_is_named_and_other_extensions_are_left_alone(
    tmp_path: Path,
) -> None:
    (tmp_path / "t.yaml").write_text(
        "name: t\ndescription: T.\nparameters:\n  type: object\n  properties:\n"
        "    a: {type: string, description: A., x-renamed_from: {name: b}, x-order: 1}\n",
        "utf-8",
    )
    diagnostics, _ = check_specs(tmp_path)
    assert [d.text() for d in diagnostics if not d.rule.startswith("description-")] == [
        "t.yaml:6:40: error[unknown-keyword]: unknown toolgen keyword 'x-renamed_from' would be ignored\n"
        "  hint: did you mean 'x-renamed-from'?"
    ]


# -- versions ----------------------------------------------------------------------------------


def write_specs(folder: Path, files: dict[str, str]) -> SpecSet:
    folder.mkdir()
    for name, text in files.items():
        (folder / name).write_text(text, "utf-8")
    return load_specs(folder)


ONE = "name: one\ndescription: One.\n"
TWO = "name: two\ndescription: Two.\n"


def test_spec_sha256_changes_with_a_byte_and_not_with_the_order(tmp_path: Path) -> None:
    first = write_specs(tmp_path / "a", {"one.yaml": ONE, "two.yaml": TWO})
    again = write_specs(
        tmp_path / "b", {"two.yaml": TWO, "one.yaml": ONE}
    )  # written in the other order
    assert first.sha256 == again.sha256
    listed = SpecSet(first.root, list(reversed(first.documents)), first.tools, [])
    assert listed.sha256 == first.sha256  # the files in another order
    changed = write_specs(
        tmp_path / "c", {"one.yaml": ONE, "two.yaml": TWO.replace("Two.", "Two!")}
    )
    assert changed.sha256 != first.sha256
    moved = write_specs(
        tmp_path / "d", {"one.yaml": ONE, "three.yaml": TWO}
    )  # the same bytes, another path
    assert moved.sha256 != first.sha256


def test_the_package_carries_the_spec_version_sha256_and_toolgen_version(tmp_path: Path) -> None:
    loaded = write_specs(tmp_path / "specs", {"one.yaml": ONE, "two.yaml": TWO})
    generate(tmp_path / "specs", tmp_path / "out", "pinned")
    with imported(tmp_path / "out", "pinned") as pinned:
        assert (pinned.SPEC_VERSION, pinned.SPEC_SHA256, pinned.TOOLGEN_VERSION) == (
            "0.1.0",
            loaded.sha256,
            __version__,
        )
    table = tomllib.loads((tmp_path / "out" / "pyproject.toml").read_text("utf-8"))["tool"][
        "toolgen-generated"
    ]
    # The spec set's digest is the package's alone: pyproject.toml changes only with a version.
    assert table == {"spec_version": "0.1.0", "toolgen_version": __version__}
