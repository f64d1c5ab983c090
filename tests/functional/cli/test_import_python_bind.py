"""`toolgen import --from python --bind`: a code-first user's whole journey.

Import the functions of tests/data/pyfuncs/typed.py (each asserts that it received exactly
its own types: dataclasses, pydantic models, enums, dates, times, `Path`, `Decimal`, UUIDs,
in lists, dicts and optionals), generate the package, build the registry of the bound
module, and call each tool with JSON arguments as a model sends them.
"""

from __future__ import annotations

import importlib
import sys
from collections.abc import Iterator
from pathlib import Path
from types import ModuleType

import pytest
from click.testing import CliRunner

from tests.support.generation import REPO, generate, imported
from tests.support.mypy_support import mypy
from toolgen.cli import main
from toolgen.format import format_python

DATA = REPO / "tests" / "data"
TRIP = {
    "legs": [
        {"origin": "CDG", "destination": "JFK", "day": "2026-05-01"},
        {"origin": "JFK", "destination": "CDG", "day": "2026-05-09"},
    ],
    "traveller": {"name": "Ann", "born": "1990-01-02"},
    "cabin": "business",
    "departs_at": "10:30",
    "budget": "300.50",
}


@pytest.fixture
def project(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A user's folder: the functions importable (tests/data on the path), the bound module written here."""
    monkeypatch.chdir(tmp_path)
    monkeypatch.syspath_prepend(str(DATA))
    return tmp_path


def run_import(*args: str) -> tuple[int, str, str]:
    result = CliRunner().invoke(main, ["import", "--from", "python", *args])
    return result.exit_code, result.stdout, result.stderr


@pytest.fixture
def bound(project: Path) -> Iterator[ModuleType]:
    """The bound module, imported with the package generated from the imported specs."""
    code, out, err = run_import(
        "pyfuncs.typed", "--out", "specs", "--bind", "impls.trips", "--package", "trips"
    )
    assert (code, err) == (0, "")
    assert out.splitlines()[-2:] == [
        "wrote impls/trips.py: 4 tools bound to their functions",
        'next: toolgen generate, then [tool.toolgen] implementations = "impls.trips:registry"',
    ]
    generate(project / "specs", project / "out", "trips")
    sys.path.insert(0, str(project))
    try:
        with imported(project / "out", "trips"):
            yield importlib.import_module("impls.trips")
    finally:
        sys.path.remove(str(project))
        for name in [m for m in sys.modules if m == "impls" or m.startswith("impls.")]:
            del sys.modules[name]


def test_each_function_gets_its_own_types_and_the_result_comes_back_typed(
    bound: ModuleType,
) -> None:
    registry = bound.registry()
    result = registry.call("plan_trip", TRIP)
    assert result.failure is None, result.exception  # the function's asserts held
    assert type(result.value).__name__ == "PlanTripResult"
    assert result.value.model_dump() == {
        "reference": "12345678-1234-5678-1234-567812345678",
        "total": "241.00",
        "legs": TRIP["legs"],
        "valid_until": "2026-01-02T03:04:05Z",
    }
    archived = registry.call(
        "archive_booking",
        {
            "reference": "12345678-1234-5678-1234-567812345678",
            "folder": "/srv/bookings",
            "tags": {"paid": "2026-04-01", "flown": "2026-05-09"},
            "when": "2026-04-01T09:15:00+02:00",
        },
    )
    assert archived.failure is None, archived.exception
    assert archived.value.root == "/srv/bookings/12345678-1234-5678-1234-567812345678.pdf"
    days = registry.call("count_days", '{"start": "2026-01-01", "end": "2026-02-01"}')
    assert (days.failure, days.value.root) == (None, 31)
    departure = registry.call(
        "next_departure", {"after": "2026-05-01T10:00:00Z", "cabins": ["economy", "business"]}
    )  # an async function: the registry runs it to completion
    assert departure.failure is None, departure.exception
    assert departure.value.root == "2026-05-01T12:00:00Z"


def test_defaults_are_the_functions_own(bound: ModuleType) -> None:
    """An argument left out is not sent: the function applies its own default (Cabin.ECONOMY)."""
    trip = {k: v for k, v in TRIP.items() if k in ("legs", "traveller")}
    result = bound.registry().call("plan_trip", trip)
    assert result.failure is None, result.exception
    assert result.value.total == "241.00"


@pytest.mark.parametrize(
    ("tool", "arguments", "path"),
    [
        ("count_days", {"start": "tomorrow", "end": "2026-02-01"}, "start"),
        ("plan_trip", {**TRIP, "legs": [{**TRIP["legs"][0], "day": "next friday"}]}, "legs[0].day"),
        ("plan_trip", {**TRIP, "departs_at": "noon"}, "departs_at"),
        (
            "archive_booking",
            {"reference": "B-1", "folder": "/", "tags": {}, "when": "now"},
            "reference",
        ),
    ],
)
def test_a_value_its_format_refuses_never_reaches_the_function(
    bound: ModuleType, tool: str, arguments: dict[str, object], path: str
) -> None:
    result = bound.registry().call(tool, arguments)
    assert result.failure is not None and result.failure.kind == "invalid_arguments"
    issues = result.exception.issues
    assert [(issue.path, issue.code) for issue in issues][0] == (path, "pattern")


def test_a_declared_exception_is_the_error_kind_the_spec_declares(bound: ModuleType) -> None:
    result = bound.registry().call("count_days", {"start": "2026-02-01", "end": "2026-01-01"})
    assert result.failure is not None
    assert (result.failure.kind, result.failure.message) == (
        "value_error",
        "value_error: 2026-01-01 is before 2026-02-01",
    )


def test_the_bound_module_is_black_stable_and_mypy_strict_clean(
    bound: ModuleType, project: Path
) -> None:
    text = (project / "impls" / "trips.py").read_text(encoding="utf-8")
    assert format_python(text) == text
    result = mypy(
        "-m",
        "impls.trips",
        cwd=project,
        env={"MYPYPATH": f"{project}:{project / 'out'}:{DATA}", "PATH": ""},
    )
    assert result.returncode == 0, result.stdout + result.stderr


def test_an_existing_module_is_kept_unless_forced_and_a_method_is_not_bound(project: Path) -> None:
    (project / "impls").mkdir()
    (project / "impls" / "trips.py").write_text("# mine\n", encoding="utf-8")
    code, _, err = run_import("pyfuncs.typed", "--out", "specs", "--bind", "impls.trips")
    assert (code, err) == (1, "skipped: impls/trips.py exists (--force replaces it)\n")
    assert (project / "impls" / "trips.py").read_text(encoding="utf-8") == "# mine\n"
    code, _, err = run_import("pyfuncs.typed", "--out", "specs", "--bind", "impls.trips", "--force")
    assert (code, err) == (0, "")
    assert "class PlanTrip(PlanTripTool):" in (project / "impls" / "trips.py").read_text("utf-8")
    code, _, err = run_import("pyfuncs.refusals:Greeter.greet", "--out", "m", "--bind", "impls.m")
    assert code == 1
    assert err == (
        "not bound: greet: a method needs its instance: bind a module-level function or a "
        "staticmethod\n"
    )
    assert not (project / "impls" / "m.py").exists()


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (
            ["--from", "openai", "x.json", "--bind", "impls"],
            "--bind and --package apply to --from python only",
        ),
        (
            ["--from", "python", "pyfuncs.typed", "--bind", "impls/trips.py"],
            "--bind 'impls/trips.py' is not a dotted module name (such as impls.flights)",
        ),
    ],
)
def test_bind_usage_errors(project: Path, args: list[str], message: str) -> None:
    result = CliRunner().invoke(main, ["import", *args])
    assert result.exit_code == 2
    assert message in result.stderr
    assert not (project / "impls").exists()


def test_toolgen_check_finds_every_tool_implemented(bound: ModuleType, project: Path) -> None:
    (project / "pyproject.toml").write_text(
        '[tool.toolgen]\npackage = "trips"\nspecs = "specs"\nout = "out"\n'
        'implementations = "impls.trips:registry"\n',
        encoding="utf-8",
    )
    result = CliRunner().invoke(main, ["check"])
    assert result.exit_code == 0, result.output
    assert result.stdout.splitlines()[-1] == "4 tools implemented in impls.trips"


@pytest.mark.parametrize(
    ("tool", "arguments", "path"),
    [
        ("count_days", {"start": "2026-02-30", "end": "2026-03-01"}, "start"),
        ("plan_trip", {**TRIP, "legs": [{**TRIP["legs"][0], "day": "2026-04-31"}]}, "legs[0].day"),
    ],
)
def test_a_date_the_calendar_lacks_is_refused_as_the_arguments(
    bound: ModuleType, tool: str, arguments: dict[str, object], path: str
) -> None:
    """`2026-02-30` has the shape of a date (its pattern passes) but the function's own type
    refuses it: the model reads which argument and why, as for any other bad argument, and
    the function is never called (not an `internal` failure)."""
    result = bound.registry().call(tool, arguments)
    assert result.failure is not None and result.failure.kind == "invalid_arguments", result
    issue = result.exception.issues[0]
    assert issue.path == path and issue.code == "format", str(result.exception)
    assert "2026-0" in result.failure.message and "got" in result.failure.message
