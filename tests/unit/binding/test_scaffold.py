"""`toolgen scaffold`: typed stubs for unbound tools, never an overwritten file (generator/toolgen/binding/scaffold.py)."""

from __future__ import annotations

import ast
import importlib
import json
import os
import subprocess
import sys
from pathlib import Path
from types import SimpleNamespace

from hypothesis import given, settings
from hypothesis import strategies as st

from tests.support.binding_support import SEND_NOTE, WEATHER, Project, forgetting, weather_project
from tests.support.generation import tree
from toolgen.binding.discovery import Interface
from toolgen.binding.scaffold import stub_source
from toolgen.naming import module_name, tool_classes

PING = "name: ping\ndescription: Check that the service answers.\n"
WEATHER_IMPL = """\
from weather.tools.get_weather import GetWeatherArguments, GetWeatherResult, GetWeatherTool


class Weather(GetWeatherTool):
    def run(self, arguments: GetWeatherArguments) -> GetWeatherResult:
        return GetWeatherResult(temperature=21.5, conditions=None)
"""
# Names a spec may hold that are awkward in Python, and descriptions with everything a docstring fears.
WEIRD = {
    "tools": [
        {
            "name": "2fa.verify",
            "description": 'Verify """a""" code \\ with "quotes" \ud800. Then more.',
            "injected": {"api_key": {"type": "string", "description": "Key"}},
        },
        {"name": "none", "description": '"Quoted" at both ends: "'},
        {
            "name": "not-implemented-error",
            "description": "A backslash at the end \\\nand a second line.",
        },
        {"name": "ellipsis", "description": "..."},
    ]
}
NOTICE = " (scaffolded by toolgen; this file is yours to edit)."
WEIRD_STUBS = {  # file: (class, tool, docstring)
    "tool_2fa_verify.py": (
        "T2FaVerify",
        "2fa.verify",
        'The 2fa.verify tool: Verify """a""" code \\ with "quotes" \ud800' + NOTICE,
    ),
    "none.py": ("NoneImpl", "none", 'The none tool: "Quoted" at both ends: "' + NOTICE),
    "not_implemented_error.py": (
        "NotImplementedErrorImpl",
        "not-implemented-error",
        "The not-implemented-error tool: A backslash at the end \\" + NOTICE,
    ),
    "ellipsis.py": ("EllipsisImpl", "ellipsis", "The ellipsis tool" + NOTICE),
    "get_weather.py": (
        "GetWeather",
        "get_weather",
        "The get_weather tool: Get the current weather for a city" + NOTICE,
    ),
    "send_note.py": ("SendNote", "send_note", "The send_note tool: Send a note" + NOTICE),
}


def weird_project(root: Path) -> Project:
    return Project(
        root,
        {
            "get_weather.yaml": WEATHER.read_text("utf-8"),
            "send_note.yaml": SEND_NOTE,
            "weird.json": json.dumps(WEIRD),
        },
    )


def test_stubs_for_unbound_tools_only_and_existing_files_untouched(tmp_path: Path) -> None:
    project = weather_project(tmp_path)
    project.write("specs/ping.yaml", PING)
    project.run("generate")
    project.write("impls/weather.py", WEATHER_IMPL)  # binds get_weather, under another file name
    project.write("impls/send_note.py", "# mine, not an implementation\r\nX = 1\n")
    before = tree(project.root / "impls")
    code, out, err = project.run("scaffold")
    assert code == 0, err
    assert out.splitlines() == [
        "wrote impls/ping.py (ping)",
        "skipped impls/send_note.py (send_note): file exists",
        "1 written, 1 skipped; 1 of 3 tools already implemented",
    ]
    after = tree(project.root / "impls")
    assert set(after) - set(before) == {"ping.py"}
    assert {k: after[k] for k in before} == before  # byte for byte
    assert (
        after["ping.py"].decode()
        == '''\
"""The ping tool: Check that the service answers (scaffolded by toolgen; this file is yours to edit)."""

from weather.tools.ping import PingArguments, PingResult, PingTool


class Ping(PingTool):
    def run(self, arguments: PingArguments) -> PingResult:
        raise NotImplementedError("ping is not implemented yet")
'''
    )
    code, out, _ = project.run("check")  # send_note is still unbound: its file is someone else's
    assert code == 1 and "tool 'send_note' has no implementation\n" in out
    # and a stub is not an implementation until its run does more than raise NotImplementedError
    assert (
        "impls/ping.py:7:5: error[binding]: tool 'ping' has no implementation: impls.ping.Ping.run only "
        "raises NotImplementedError (the scaffolded stub)" in out
    )
    project.write(
        "impls/ping.py",
        after["ping.py"]
        .decode()
        .replace('raise NotImplementedError("ping is not implemented yet")', "return PingResult()"),
    )
    code, out, _ = project.run("check")
    assert code == 1 and "'ping'" not in out


def test_weird_names_give_valid_stubs_that_bind_and_pass_mypy_strict(tmp_path: Path) -> None:
    project = weird_project(
        tmp_path
    )  # a new project: no impls/ yet, so its registry is written too
    code, out, err = project.run("scaffold", "--into", "impls")
    assert code == 0, err
    assert out.splitlines()[-2:] == [
        "wrote impls/__init__.py (the registry of the implementations)",
        "6 written, 0 skipped; 0 of 6 tools already implemented",
    ]
    impls = project.root / "impls"
    assert sorted(p.name for p in impls.glob("*.py")) == sorted([*WEIRD_STUBS, "__init__.py"])
    for file, (cls, _tool, doc) in WEIRD_STUBS.items():
        module = ast.parse((impls / file).read_text("utf-8"))
        assert ast.get_docstring(module, clean=False) == doc, file
        assert [n.name for n in module.body if isinstance(n, ast.ClassDef)] == [cls], file
    with forgetting(project.root, "weather", "impls"):
        sys.path[:0] = [str(project.root / "gen"), str(project.root)]
        for file, (cls, tool, _) in WEIRD_STUBS.items():
            stub = getattr(importlib.import_module(f"impls.{file[:-3]}"), cls)
            assert stub.info.name == tool
            try:
                stub().run(*[None] * (stub.info.injected is not None and 2 or 1))
            except NotImplementedError as exc:
                assert str(exc) == f"{tool} is not implemented yet"
            else:
                raise AssertionError(f"{cls}.run returned")
        registry = importlib.import_module(
            "impls"
        ).registry()  # the wiring: every stub, ready to call
        assert sorted(registry) == sorted(tool for _, tool, _ in WEIRD_STUBS.values())
        failure = registry.call("get_weather", {"location": "Paris"}).failure
        assert failure is not None and failure.kind == "internal"  # the stub raised

    code, out, _ = project.run("check")  # six stubs: six tools without an implementation
    assert code == 1 and out.count("only raises NotImplementedError (the scaffolded stub)") == 6, (
        out
    )
    before = tree(impls)
    code, out, _ = project.run("scaffold")
    assert (code, out) == (0, "0 written, 0 skipped; 6 of 6 tools already implemented\n")
    assert tree(impls) == before

    mypy = subprocess.run(
        [sys.executable, "-m", "mypy", "--strict", "--no-incremental", "-p", "impls"],
        cwd=project.root,
        capture_output=True,
        text=True,
        env={"MYPYPATH": f"{project.root / 'gen'}{os.pathsep}{project.root}", "PATH": ""},
    )
    assert mypy.returncode == 0, mypy.stdout + mypy.stderr


def test_into_a_folder_without_implementations_configured(tmp_path: Path) -> None:
    project = weather_project(tmp_path, implementations=None)
    code, _, err = project.run("scaffold")
    assert code == 2 and "no implementations configured" in err and "--into DIR" in err
    code, out, _ = project.run("scaffold", "--into", "stubs")
    assert code == 0
    assert out.splitlines() == [
        "wrote stubs/get_weather.py (get_weather)",
        "wrote stubs/send_note.py (send_note)",
        "wrote stubs/__init__.py (the registry of the implementations)",
        "2 written, 0 skipped; 0 of 2 tools already implemented",
    ]


def test_scaffold_refuses_when_it_cannot_tell_what_is_bound(tmp_path: Path) -> None:
    project = weather_project(tmp_path, implementations="nowhere:registry")
    code, _, err = project.run("scaffold")
    # lint's warnings (provider notes on the spec) come first; the usage error is the last line
    assert (code, err.splitlines()[-1]) == (
        2,
        "toolgen: cannot load implementations 'nowhere:registry': No module "
        "named 'nowhere'; create it (a package folder) or pass --into DIR",
    )
    code, out, _ = project.run("scaffold", "--into", "nowhere")  # then nothing is implemented yet
    assert (
        code == 0
        and out.splitlines()[-1] == "2 written, 0 skipped; 0 of 2 tools already implemented"
    )
    code, out, _ = project.run(
        "check"
    )  # a package now, with a class for every tool: both still stubs
    assert code == 1 and out.count("(the scaffolded stub)") == 2
    assert (project.root / "nowhere" / "__init__.py").read_text("utf-8").count(
        "def registry() -> Registry:"
    ) == 1

    project = weather_project(tmp_path / "broken")
    project.write("impls/bad.py", "raise RuntimeError('boom')\n")
    code, out, err = project.run("scaffold")
    assert (
        code == 1
        and "impls/bad.py:1:1: error[binding]: cannot import impls.bad: RuntimeError: boom" in out
    )
    assert "nothing written" in err and sorted(
        p.name for p in (project.root / "impls").iterdir()
    ) == ["__init__.py", "bad.py"]

    project = weather_project(tmp_path / "stale")
    project.write("specs/ping.yaml", PING)  # not generated yet
    code, _, err = project.run("scaffold")
    assert code == 1 and "run `toolgen generate` first" in err
    assert not (project.root / "impls" / "ping.py").exists()


@settings(max_examples=60, deadline=None)
@given(
    tool=st.from_regex(r"[A-Za-z0-9_][A-Za-z0-9_.-]{0,30}", fullmatch=True),
    description=st.text(),
    injected=st.booleans(),
)
def test_any_description_gives_a_stub_that_parses(
    tool: str, description: str, injected: bool
) -> None:
    classes, module = tool_classes(tool), module_name(tool)
    info = SimpleNamespace(description=description)
    interface = Interface(
        tool,
        module,
        info,
        type(classes.interface, (), {}),
        type(classes.arguments, (), {}),
        type(classes.result, (), {}),
        type(classes.injected, (), {}) if injected else None,
    )
    source = stub_source("pkg", interface)
    parsed = ast.parse(source)
    doc = ast.get_docstring(parsed, clean=False)
    assert doc is not None and doc.startswith(f"The {tool} tool") and doc.endswith(NOTICE)
    stub = next(n for n in ast.walk(parsed) if isinstance(n, ast.ClassDef))
    assert stub.name == classes.implementation and ast.unparse(stub.bases[0]) == classes.interface
    run = next(n for n in ast.walk(parsed) if isinstance(n, ast.FunctionDef))
    assert run.returns is not None and ast.unparse(run.returns) == classes.result
    assert [a.arg for a in run.args.args] == [
        "self",
        "arguments",
        *(["injected"] if injected else []),
    ]
    raised = next(n for n in ast.walk(run) if isinstance(n, ast.Raise))
    assert isinstance(raised.exc, ast.Call)
    assert ast.literal_eval(raised.exc.args[0]) == f"{tool} is not implemented yet"
