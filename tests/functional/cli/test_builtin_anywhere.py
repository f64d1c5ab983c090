"""The built-in library installed as its own distribution, used outside the repository.

The fresh virtual environment docs/getting-started.md's fourth journey makes, running its
commands as written (`pip install './toolgen-src/generated[all]'` from a clone of HEAD; once
per test session, shared with tests/docs/test_getting_started.py); then every command runs
from an empty folder, with nothing of the checkout on the import path: the implementations
ship in the distribution.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from tests.support.generation import REPO
from tests.support.journeys import journey_four, outside

CLIENT = """
import asyncio, json, sys
from mcp import Client, StdioServerParameters
from mcp.client.stdio import stdio_client

async def main():
    config = json.loads(sys.argv[1])["mcpServers"]["toolgen-builtin"]
    server = StdioServerParameters(command=config["command"], args=config["args"], env=config.get("env"))
    async with Client(stdio_client(server), read_timeout_seconds=60) as client:
        names = sorted(tool.name for tool in (await client.list_tools()).tools)
        listed = await client.call_tool("list_directory", {"path": "."})
        try:  # a tool the host left off: the error names the variable that turns it on
            off = (await client.call_tool("run_shell", {"command": "true"})).model_dump_json()
        except Exception as error:
            off = str(error)
        print(json.dumps({"names": names, "listed": listed.structured_content, "off": off}))

asyncio.run(main())
"""


@pytest.fixture(scope="module")
def venv() -> Path:
    folder, _ = journey_four()
    return folder / "builtin-venv"


def test_the_library_imports_from_the_distribution_alone(venv: Path, tmp_path: Path) -> None:
    script = (
        "import importlib.util, json, sys, toolgen_builtin, implementations\n"
        "print(json.dumps({'path': sys.path, 'toolgen': importlib.util.find_spec('toolgen') is not None,\n"
        "    'files': [toolgen_builtin.__file__, implementations.__file__]}))\n"
    )
    done = outside(venv, ["python", "-c", script], tmp_path)
    seen = json.loads(done.stdout)
    assert not [p for p in seen["path"] if p and Path(p).resolve().is_relative_to(REPO)]
    assert seen["toolgen"] is False, "toolgen is importable: the library must not need it"
    for file in seen["files"]:
        assert Path(file).is_relative_to(venv), file


def test_a_disabled_tool_names_the_variable_that_enables_it(venv: Path, tmp_path: Path) -> None:
    script = (
        "from implementations import registry\n"
        "for name in ('run_shell', 'browser'):\n"
        "    print(registry().call(name, {}).text())\n"
    )
    shell, browser = outside(venv, ["python", "-c", script], tmp_path).stdout.splitlines()
    assert shell.startswith("Tool 'run_shell' is off on this host: set TOOLGEN_ENABLE_PROCESSES=1")
    assert "TOOLGEN_ENABLE_BROWSER=1" in browser


def test_an_mcp_host_config_serves_it_without_pythonpath(venv: Path, tmp_path: Path) -> None:
    """docs/getting-started.md's Claude-Desktop-style entry, its example paths made real: the
    registry the distribution installs is served without --registry, and a client's call of
    a tool left off reads the variable that turns it on."""
    page = (REPO / "docs" / "getting-started.md").read_text("utf-8")
    (text,) = re.findall(r"^```json\n(.*?)^```$", page, re.M | re.S)
    workspace = tmp_path / "workspace"
    workspace.mkdir()
    (workspace / "notes.txt").write_text("hello\n", "utf-8")
    text = text.replace("/srv/agent/builtin-venv", str(venv))
    config = json.loads(text.replace("/srv/agent/workspace", str(workspace)))
    assert "PYTHONPATH" not in config["mcpServers"]["toolgen-builtin"].get("env", {})
    assert "--registry" not in config["mcpServers"]["toolgen-builtin"]["args"]  # the default
    done = outside(venv, ["python", "-c", CLIENT, json.dumps(config)], tmp_path)
    seen = json.loads(done.stdout)
    assert "read_file" in seen["names"] and "run_shell" not in seen["names"]
    assert [e["name"] for e in seen["listed"]["entries"]] == ["notes.txt"]
    assert "Tool 'run_shell' is off on this host: set TOOLGEN_ENABLE_PROCESSES=1" in seen["off"]
