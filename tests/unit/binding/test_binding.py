"""`toolgen check` with implementations configured: every tool bound to a class that subclasses
its interface, with the interface's `run` signature (generator/toolgen/binding/conformance.py)."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.support.binding_support import forgetting, weather_project
from tests.support.generation import REPO, generate
from toolgen.binding import conformance
from toolgen.binding.discovery import discover
from toolgen.config import load_config

WEATHER_OK = """\
from weather.tools.get_weather import GetWeatherArguments, GetWeatherResult, GetWeatherTool


class GetWeather(GetWeatherTool):
    def run(self, arguments: GetWeatherArguments) -> GetWeatherResult:
        return GetWeatherResult(temperature=21.5, conditions=None)
"""
NOTE_OK = """\
from weather.tools.send_note import SendNoteArguments, SendNoteInjected, SendNoteResult, SendNoteTool


class SendNote(SendNoteTool):
    def run(self, arguments: SendNoteArguments, injected: SendNoteInjected) -> SendNoteResult:
        return SendNoteResult(id="1")
"""
NOTE_HINT = "  hint: make it `def run(self, arguments: SendNoteArguments, injected: SendNoteInjected) -> SendNoteResult`"
WEATHER_HINT = "  hint: make it `def run(self, arguments: GetWeatherArguments) -> GetWeatherResult`"
RETURN_HINT = (
    "  hint: annotate the return as GetWeatherResult, Output[GetWeatherResult], "
    "Awaitable[GetWeatherResult] or their union, or make run an async def returning GetWeatherResult"
)


def findings(out: str) -> list[str]:
    """stdout of check without its first line (`... is up to date (N files)`)."""
    first, *rest = out.splitlines()
    assert first.endswith("files)") and "is up to date" in first, out
    return rest


def test_a_tool_without_an_implementation_is_a_finding_at_its_interface(tmp_path: Path) -> None:
    project = weather_project(tmp_path)
    project.write("impls/weather.py", WEATHER_OK)
    code, out, _ = project.run("check")
    line = project.line_of("gen/weather/tools/send_note.py", "class SendNoteTool(")
    assert code == 1
    assert findings(out) == [
        f"gen/weather/tools/send_note.py:{line}:1: error[binding]: tool 'send_note' has no implementation",
        "  hint: subclass SendNoteTool (from weather.tools.send_note) in the implementations, "
        "or run `toolgen scaffold` to write a stub",
        "1 error(s), 0 warning(s)",
    ]
    project.write("impls/note.py", NOTE_OK)
    code, out, _ = project.run("check")
    assert (code, findings(out)) == (0, ["2 tools implemented in impls"])


def test_a_class_meant_for_a_tool_must_subclass_its_interface(tmp_path: Path) -> None:
    project = weather_project(tmp_path)
    project.write("impls/sub/__init__.py", "")  # found in a nested package too
    project.write(
        "impls/sub/tools.py",
        """\
from weather.tools import get_weather
from weather.tools.send_note import SendNoteArguments, SendNoteInjected, SendNoteResult


class GetWeather:
    info = get_weather.INFO

    def run(self, arguments: get_weather.GetWeatherArguments) -> get_weather.GetWeatherResult:
        raise RuntimeError("not called here")


class SendNote:
    def run(self, arguments: SendNoteArguments, injected: SendNoteInjected) -> SendNoteResult:
        raise RuntimeError("not called here")
""",
    )
    code, out, _ = project.run("check")
    assert code == 1
    assert findings(out) == [
        "impls/sub/tools.py:5:1: error[binding]: class impls.sub.tools.GetWeather is meant to implement tool "
        "'get_weather' (its info is get_weather's INFO) but does not subclass GetWeatherTool",
        "  hint: declare it as `class GetWeather(GetWeatherTool)`, with "
        "`from weather.tools.get_weather import GetWeatherTool`",
        "impls/sub/tools.py:12:1: error[binding]: class impls.sub.tools.SendNote is meant to implement tool "
        "'send_note' (its run() takes SendNoteArguments) but does not subclass SendNoteTool",
        "  hint: declare it as `class SendNote(SendNoteTool)`, with `from weather.tools.send_note import SendNoteTool`",
        "2 error(s), 0 warning(s)",  # and no "has no implementation" on top of these
    ]


WRONG = {
    "parameter name": (
        "def run(self, args: GetWeatherArguments) -> GetWeatherResult:",
        [
            "impls.weather.GetWeather.run (tool 'get_weather') takes (self, args); "
            "the interface's run takes (self, arguments)",
            WEATHER_HINT,
        ],
    ),
    "required extra parameter": (
        "def run(self, arguments: GetWeatherArguments, verbose: bool) -> GetWeatherResult:",
        [
            "impls.weather.GetWeather.run (tool 'get_weather') takes (self, arguments, verbose); "
            "the interface's run takes (self, arguments)",
            WEATHER_HINT,
        ],
    ),
    "keyword-only arguments": (
        "def run(self, *, arguments: GetWeatherArguments, trace: bool = False) -> GetWeatherResult:",
        [
            "impls.weather.GetWeather.run (tool 'get_weather') takes (self, *, arguments, trace=...); "
            "the interface's run takes (self, arguments)",
            WEATHER_HINT,
        ],
    ),
    "argument type": (
        "def run(self, arguments: SendNoteArguments) -> GetWeatherResult:",
        [
            "impls.weather.GetWeather.run (tool 'get_weather'): parameter 'arguments' is annotated "
            "SendNoteArguments; the interface has GetWeatherArguments",
            WEATHER_HINT,
        ],
    ),
    "return type": (
        "def run(self, arguments: GetWeatherArguments) -> dict[str, float]:",
        [
            "impls.weather.GetWeather.run (tool 'get_weather') returns dict[str, float]; "
            "the interface returns GetWeatherResult | Output[GetWeatherResult] | Awaitable[...]",
            RETURN_HINT,
        ],
    ),
    "another tool's result": (
        "def run(self, arguments: GetWeatherArguments) -> GetWeatherResult | SendNoteResult:",
        [
            "impls.weather.GetWeather.run (tool 'get_weather') returns GetWeatherResult | SendNoteResult; "
            "the interface returns GetWeatherResult | Output[GetWeatherResult] | Awaitable[...]",
            RETURN_HINT,
        ],
    ),
    "a stream, from a tool that does not stream": (
        "def run(self, arguments: GetWeatherArguments) -> Iterator[Any]:",
        [
            "impls.weather.GetWeather.run (tool 'get_weather') returns Iterator[Any]; "
            "the interface returns GetWeatherResult | Output[GetWeatherResult] | Awaitable[...]",
            RETURN_HINT,
        ],
    ),
    "async def returning an awaitable": (
        "async def run(self, arguments: GetWeatherArguments) -> Awaitable[GetWeatherResult]:",
        [
            "impls.weather.GetWeather.run (tool 'get_weather') is an async def returning "
            "Awaitable[GetWeatherResult]; an async run returns GetWeatherResult",
            RETURN_HINT,
        ],
    ),
}


@pytest.mark.parametrize("case", list(WRONG))
def test_a_run_signature_that_disagrees_with_the_interface(case: str, tmp_path: Path) -> None:
    definition, expected = WRONG[case]
    project = weather_project(tmp_path)
    project.write("impls/note.py", NOTE_OK)
    project.write(
        "impls/weather.py",
        f"""\
from collections.abc import Awaitable, Iterator
from typing import Any

from weather.tools.get_weather import GetWeatherArguments, GetWeatherResult, GetWeatherTool
from weather.tools.send_note import SendNoteArguments, SendNoteResult


class GetWeather(GetWeatherTool):
    {definition}
        raise RuntimeError("not called here")
""",
    )
    code, out, _ = project.run("check")
    assert code == 1
    assert findings(out) == [
        f"impls/weather.py:9:5: error[binding]: {expected[0]}",
        expected[1],
        "1 error(s), 0 warning(s)",
    ]


def test_async_awaitable_and_postponed_annotations_are_accepted(tmp_path: Path) -> None:
    project = weather_project(tmp_path)
    project.write(
        "impls/weather.py",
        """\
from weather.tools.get_weather import GetWeatherArguments, GetWeatherResult, GetWeatherTool


class GetWeather(GetWeatherTool):
    async def run(self, arguments: GetWeatherArguments, *, trace: bool = False) -> GetWeatherResult:
        return GetWeatherResult(temperature=1.0, conditions=None)
""",
    )
    project.write(
        "impls/note.py",
        """\
from __future__ import annotations

from typing import TYPE_CHECKING

from weather.tools.send_note import SendNoteTool

if TYPE_CHECKING:  # names that exist only for the type checker still resolve
    from collections.abc import Awaitable

    from weather import Output

    from weather.tools.send_note import SendNoteArguments, SendNoteInjected, SendNoteResult


class Base(SendNoteTool):  # abstract: neither an implementation nor a finding
    def __init__(self, prefix: str) -> None:
        self.prefix = prefix


class SendNote(Base):
    def run(self, arguments: SendNoteArguments, injected: SendNoteInjected) -> (
            SendNoteResult | Output[SendNoteResult] | Awaitable[SendNoteResult | Output[SendNoteResult]]):
        raise RuntimeError("not called here")
""",
    )
    code, out, err = project.run("check")
    assert (code, findings(out)) == (0, ["2 tools implemented in impls"]), out + err


def test_one_class_per_tool_and_the_interface_owns_info(tmp_path: Path) -> None:
    project = weather_project(tmp_path)
    project.write(
        "impls/both.py",
        """\
from weather.tools.get_weather import GetWeatherArguments, GetWeatherResult, GetWeatherTool
from weather.tools.send_note import INFO, SendNoteTool


class Both(GetWeatherTool, SendNoteTool):
    def run(self, arguments: GetWeatherArguments) -> GetWeatherResult:  # type: ignore[override]
        raise RuntimeError("not called here")


class Renamed(GetWeatherTool):
    info = INFO

    def run(self, arguments: GetWeatherArguments) -> GetWeatherResult:
        raise RuntimeError("not called here")
""",
    )
    code, out, _ = project.run("check")
    assert code == 1
    assert findings(out)[:4] == [
        "impls/both.py:5:1: error[binding]: class impls.both.Both subclasses the interfaces of several tools "
        "('get_weather', 'send_note')",
        "  hint: one class implements one tool: split it into one class per tool",
        "impls/both.py:10:1: error[binding]: class impls.both.Renamed subclasses GetWeatherTool but overrides its info",
        "  hint: remove the `info` attribute: the interface sets it",
    ]


def test_a_module_that_fails_to_import_is_a_finding_and_suspends_the_missing_check(
    tmp_path: Path,
) -> None:
    project = weather_project(tmp_path)
    project.write("impls/weather.py", WEATHER_OK)
    project.write("impls/broken.py", "import json\n\nRATIO = 1 / 0\n")
    code, out, _ = project.run("check")
    assert code == 1
    assert findings(out) == [
        "impls/broken.py:3:1: error[binding]: cannot import impls.broken: ZeroDivisionError: division by zero",
        "  hint: toolgen check imports every module of the implementations; fix this one "
        "(tools are not checked for missing implementations until it imports)",
        "1 error(s), 0 warning(s)",
    ]
    project.write("impls/broken.py", "def f(:\n")
    code, out, _ = project.run("check")
    assert code == 1 and findings(out)[0].startswith(
        "impls/broken.py:1:7: error[binding]: cannot import impls.broken: SyntaxError:"
    )


def test_an_implementations_module_that_does_not_exist_is_a_usage_error(tmp_path: Path) -> None:
    project = weather_project(tmp_path, implementations="nowhere:registry")
    code, out, err = project.run("check")
    assert code == 2
    # lint's warnings (provider notes on the spec) come first; the usage error is the last line
    assert (
        err.splitlines()[-1]
        == "toolgen: cannot load implementations 'nowhere:registry': No module named 'nowhere'"
    )


def test_without_implementations_check_is_what_it_was(tmp_path: Path) -> None:
    project = weather_project(tmp_path, implementations=None)
    code, out, _ = project.run("check")
    assert code == 0 and len(out.splitlines()) == 1 and "is up to date" in out


def test_drift_is_reported_first_and_the_binding_check_waits(tmp_path: Path) -> None:
    project = weather_project(tmp_path)  # no implementation at all
    (project.root / "gen" / "weather" / "_index.py").unlink()
    code, out, err = project.run("check")
    assert code == 1
    assert "missing: weather/_index.py" in out and "binding" not in out
    assert "(implementations are checked once the generated files are up to date)" in err


def test_the_builtin_library_is_fully_bound(tmp_path: Path) -> None:
    """implementations/ binds every tool of schemas/, the process tools included (they are not in
    the default registry: discovery is by class). Generated afresh, so drift in generated/ is not this test's business."""
    config = load_config(REPO).override(out=str(tmp_path))
    generate(config.specs, tmp_path, config.package)
    with forgetting(tmp_path, config.package, "implementations"):
        discovery = discover(config)
        assert conformance.check(discovery) == []
        assert (
            discovery.bound()
            == set(discovery.interfaces)
            >= {"run_shell", "run_python", "edit_file"}
        )
        assert {c.__name__ for c in discovery.implementers("run_shell")} == {"RunShell"}


def test_implementations_follow_the_package_they_are_configured_for(tmp_path: Path) -> None:
    project = weather_project(tmp_path)  # impls:registry implements nothing yet
    generate(project.root / "specs", project.root / "other", "wx")
    code, out, _ = project.run(
        "check", "--out", "other", "--package", "wx"
    )  # impls are for `weather`
    assert code == 0 and len(out.splitlines()) == 1
    code, out, _ = project.run(
        "check", "--out", "other", "--package", "wx", "--implementations", "impls:registry"
    )
    assert code == 1 and "error[binding]: tool 'get_weather' has no implementation" in out

    bare = weather_project(tmp_path / "bare", implementations=None)
    bare.write("impls/weather.py", WEATHER_OK)
    code, out, _ = bare.run("check", "--implementations", "impls")
    assert code == 1 and findings(out)[0].endswith(
        "error[binding]: tool 'send_note' has no implementation"
    )
