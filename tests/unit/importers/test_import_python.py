"""`toolgen import --from python`: specs from Python functions, their type hints and docstrings.

The functions are the fixture package tests/data/pyfuncs: one module per docstring style
(Google, NumPy, Sphinx), one of functions a spec cannot describe, one that cannot be imported.
Every test runs in tests/data, as a user runs the command in their project's folder.
"""

from __future__ import annotations

import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from tests.support.generation import REPO, generate, imported
from toolgen.cli import main
from toolgen.importers.python import error_kind
from toolgen.load.yaml12 import parse_yaml

DATA = REPO / "tests" / "data"

SEARCH_FLIGHTS = """\
# Imported by `toolgen import --from python` from pyfuncs.google_style:search_flights (pyfuncs/google_style.py line 31).
# toolgen import: 2 changes to the original
# - /errors/value_error: from `Raises: ValueError`: the implementation raises ToolError("value_error", ...) for it
# - /errors/lookup_error: from `Raises: LookupError`: the implementation raises ToolError("lookup_error", ...) for it
name: search_flights
description: |-
  Search the flights between two airports on one day.

  Use it before booking: it lists every flight with its price.
parameters:
  type: object
  properties:
    origin:
      type: string
      description: IATA code of the airport to leave from, such as "CDG".
    destination:
      type: string
      description: IATA code of the airport to fly to.
    date:
      type: string
      description: The day of departure.
      format: date
      pattern: ^[0-9]{4}-(0[1-9]|1[0-2])-(0[1-9]|[12][0-9]|3[01])$
    cabin:
      type: string
      description: The class of travel.
      enum:
        - economy
        - premium
        - business
      default: economy
    max_stops:
      type:
        - integer
        - 'null'
      description: At most this many stops; any number when not given.
      default: null
    passengers:
      type: integer
      description: How many people travel.
      maximum: 9
      minimum: 1
      default: 1
  required:
    - origin
    - destination
    - date
returns:
  type: array
  description: The flights found, cheapest first.
  items:
    $ref: '#/$defs/Flight'
  $defs:
    Flight:
      type: object
      description: One flight on offer.
      properties:
        number:
          type: string
          description: The flight number, such as AF1234.
        departs:
          type: string
          format: date-time
        price_eur:
          type: number
        stops:
          type: integer
          default: 0
      required:
        - number
        - departs
        - price_eur
errors:
  value_error:
    description: When the origin and the destination are the same airport.
  lookup_error:
    description: When an airport code is unknown.
"""


@pytest.fixture(autouse=True)
def in_data_folder(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """Run in tests/data (the importer puts the current folder on sys.path); forget the fixtures after."""
    monkeypatch.chdir(DATA)
    yield
    for name in [m for m in sys.modules if m == "pyfuncs" or m.startswith("pyfuncs.")]:
        del sys.modules[name]


def invoke(target: str, out: Path) -> tuple[int, str, str]:
    result = CliRunner().invoke(main, ["import", "--from", "python", target, "--out", str(out)])
    return result.exit_code, result.stdout, result.stderr


def specs(out: Path) -> dict[str, dict[str, Any]]:
    """The written specs by tool name; each must pass lint."""
    result = CliRunner().invoke(main, ["lint", "--specs", str(out)])
    assert result.exit_code == 0, result.stdout
    return {p.stem: parse_yaml(p.read_text("utf-8"))[0] for p in sorted(out.glob("*.yaml"))}


def test_the_yaml_of_a_google_style_function(tmp_path: Path) -> None:
    code, stdout, stderr = invoke("pyfuncs.google_style:search_flights", tmp_path)
    assert (code, stderr) == (0, "")
    assert stdout.startswith("pyfuncs.google_style:search_flights (python): 1 tool: 1 written")
    assert (tmp_path / "search_flights.yaml").read_text("utf-8") == SEARCH_FLIGHTS
    specs(tmp_path)


def test_a_module_gives_its_public_functions_not_imported_or_private_ones(tmp_path: Path) -> None:
    code, _, stderr = invoke("pyfuncs.google_style", tmp_path)
    assert (code, stderr) == (0, "")
    written = specs(tmp_path)
    assert list(written) == [
        "book_flight",
        "search_flights",
    ]  # not lookup_airport (imported), not _cheapest
    booking = written["book_flight"]
    assert booking["parameters"]["properties"]["passenger"] == {
        "$ref": "#/$defs/Passenger",
        "description": "Who travels.",
    }
    assert booking["parameters"]["$defs"]["Passenger"]["required"] == [
        "name",
        "birth_date",
    ]  # a pydantic model
    assert booking["parameters"]["properties"]["seat"]["type"] == ["string", "null"]  # `str | None`
    assert booking["returns"] == {
        "type": "object",
        "description": 'The booking reference, under "reference".',
        "additionalProperties": {"type": "string"},
    }
    text = (tmp_path / "book_flight.yaml").read_text("utf-8")
    assert (
        "# - /parameters/properties/luggage: documented in the docstring but not a parameter: left out\n"
        in text
    )


def test_numpy_style_with_dataclasses_enums_typeddicts_and_containers(tmp_path: Path) -> None:
    assert invoke("pyfuncs.numpy_style", tmp_path)[0] == 0
    written = specs(tmp_path)
    distance, summary = written["distance"], written["summarize"]
    assert distance["description"] == "Measure the straight-line distance between two points."
    parameters = distance["parameters"]
    assert parameters["properties"]["unit"] == {
        "$ref": "#/$defs/Unit",
        "description": "The unit of the result.",
        "default": "m",
    }
    assert parameters["$defs"]["Unit"] == {
        "type": "string",
        "description": "A unit of length.",
        "enum": ["m", "ft"],
    }
    assert parameters["$defs"]["Point"]["properties"] == {
        "x": {"type": "number"},
        "y": {"type": "number"},
    }
    assert distance["returns"] == {"type": "number", "description": "The distance, in `unit`."}
    properties = summary["parameters"]["properties"]
    assert properties["prices"]["additionalProperties"] == {"type": "number"}  # dict[str, float]
    assert properties["tags"]["anyOf"][0] == {
        "type": "array",
        "uniqueItems": True,
        "items": {"type": "string"},
    }
    assert properties["window"]["prefixItems"] == [
        {"type": "integer"},
        {"type": "integer"},
    ]  # tuple[int, int]
    assert properties["window"]["default"] == [0, 10]
    assert summary["returns"]["required"] == ["count", "total"]  # a TypedDict
    assert summary["errors"] == {"key_error": {"description": "If a tag is unknown."}}


def test_sphinx_style_annotated_descriptions_and_a_function_without_a_docstring(
    tmp_path: Path,
) -> None:
    assert invoke("pyfuncs.sphinx_style", tmp_path)[0] == 0
    written = specs(tmp_path)
    message = written["send_message"]
    assert (
        message["parameters"]["properties"]["channel"]["description"]
        == "The channel's name, without the hash sign"
    )
    assert message["parameters"]["properties"]["urgent"] == {
        "type": "boolean",
        "description": "Notify every member of the channel.",
        "default": False,
    }
    assert message["returns"] == {
        "type": "string",
        "description": "The identifier of the posted message.",
    }
    assert list(message["errors"]) == ["permission_error", "timeout_error"]
    assert written["ping"]["description"] == "Ping."
    assert '# - /description: was missing; written from the tool name as "Ping."' in (
        tmp_path / "ping.yaml"
    ).read_text("utf-8")


def test_refusals_name_the_function_and_the_reason(tmp_path: Path) -> None:
    code, stdout, stderr = invoke("pyfuncs.refusals", tmp_path)
    assert code == 1 and "5 tools: 1 written" in stdout and "4 refused" in stdout
    assert stderr.splitlines() == [
        (
            "refused: pyfuncs.refusals pyfuncs/refusals.py line 6 (apply): /parameters/properties/callback: pydantic "
            "cannot express the type Callable[[int], int] in JSON Schema: Cannot generate a JsonSchema for "
            "core_schema.CallableSchema (use JSON types, models, TypedDicts, dataclasses or enums)"
        ),
        (
            "refused: pyfuncs.refusals pyfuncs/refusals.py line 11 (log_all): /parameters: `*messages` takes "
            "arguments no schema can name (give each argument its own parameter)"
        ),
        (
            "refused: pyfuncs.refusals pyfuncs/refusals.py line 15 (configure): /parameters: `**options` takes "
            "arguments no schema can name (give each argument its own parameter)"
        ),
        (
            "refused: pyfuncs.refusals pyfuncs/refusals.py line 19 (forward): /parameters: its type hints cannot be "
            "read: NameError: name 'Undefined' is not defined"
        ),
    ]
    tag = specs(tmp_path)["tag"]  # imported, with what it lacks noted
    assert tag["parameters"]["properties"] == {
        "item": {"type": "string", "description": "What to tag."},
        "when": {},
        "note": {"default": None},
    }
    text = (tmp_path / "tag.yaml").read_text("utf-8")
    assert (
        "# - /parameters/properties/note: no type hint: any JSON value is accepted (add one)\n"
        in text
    )
    assert "# - /parameters/properties/when/default: left out: the default has no JSON form" in text


def test_a_method_leaves_out_self(tmp_path: Path) -> None:
    assert invoke("pyfuncs.refusals:Greeter.greet", tmp_path)[0] == 0
    greet = specs(tmp_path)["greet"]
    assert greet["parameters"] == {
        "type": "object",
        "properties": {"name": {"type": "string", "description": "Who to greet."}},
        "required": ["name"],
    }
    assert "# - /parameters: `self` left out: it is not an argument a model sends\n" in (
        tmp_path / "greet.yaml"
    ).read_text("utf-8")


@pytest.mark.parametrize(
    ("target", "message"),
    [
        (
            "pyfuncs.broken",
            "toolgen: importing pyfuncs.broken raised RuntimeError: this module cannot be imported",
        ),
        (
            "pyfuncs.missing",
            "toolgen: cannot import pyfuncs.missing: No module named 'pyfuncs.missing'",
        ),
        (
            "pyfuncs.shared:nothing",
            "toolgen: pyfuncs.shared:nothing: pyfuncs.shared defines no function 'nothing'",
        ),
        (
            "pyfuncs",
            "toolgen: pyfuncs: the module defines no public function (write module:function for one)",
        ),
        (":f", "toolgen: --from python needs package.module or package.module:function"),
    ],
)
def test_what_cannot_be_imported_is_one_line_and_exit_2(
    tmp_path: Path, target: str, message: str
) -> None:
    assert invoke(target, tmp_path / "out") == (2, "", message + "\n")
    assert not (tmp_path / "out").exists()


def test_without_griffe_the_error_says_what_to_install(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setitem(sys.modules, "griffe", None)  # `import griffe` raises ImportError
    assert invoke("pyfuncs.shared", tmp_path) == (
        2,
        "",
        "toolgen: --from python needs griffe to read docstrings: pip install 'toolgen[python]'\n",
    )


def test_error_kinds_from_exception_names() -> None:
    assert [
        error_kind(name)
        for name in ("ValueError", "HTTPError", "IOError", "errors.NotFound", "_Private")
    ] == ["value_error", "http_error", "io_error", "not_found", "private"]


def test_imported_functions_generate_a_package_that_validates_calls(tmp_path: Path) -> None:
    for target in ("pyfuncs.google_style", "pyfuncs.numpy_style"):
        assert invoke(target, tmp_path / "specs")[0] == 0
    generate(tmp_path / "specs", tmp_path / "out", "flights")
    with imported(tmp_path / "out", "flights") as package:
        call = package.validate_arguments(
            "search_flights", {"origin": "CDG", "destination": "JFK", "date": "2025-05-01"}
        )
        assert (call.cabin, call.passengers, call.max_stops) == ("economy", 1, None)
        with pytest.raises(ValueError):  # Field(le=9)
            package.validate_arguments(
                "search_flights",
                {"origin": "CDG", "destination": "JFK", "date": "2025-05-01", "passengers": 12},
            )
        with pytest.raises(ValueError):  # Literal
            package.validate_arguments(
                "search_flights",
                {"origin": "CDG", "destination": "JFK", "date": "2025-05-01", "cabin": "first"},
            )
        point = package.validate_arguments(
            "distance", {"a": {"x": 0, "y": 0}, "b": {"x": 3, "y": 4}, "unit": "ft"}
        )
        assert point.unit == "ft"
