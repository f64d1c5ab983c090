"""`toolgen import --from mcp-server`: the tools of a running MCP server, over stdio and streamable HTTP.

The servers: tests/data/mcp_weather_server.py (the official SDK's MCPServer, one tool per
`tools/list` page), tests/data/mcp_hostile_server.py (control characters in all it says), and the MCP reference server `@modelcontextprotocol/server-everything`
(MIT), run with npx. What cannot be listed (a command that does not start, a URL that
refuses, a program that is not an MCP server, one that never answers) is one line, exit 2.
"""

from __future__ import annotations

import shlex
import shutil
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import anyio
import pytest
from click.testing import CliRunner

from tests.support.generation import REPO
from tests.support.mcp_support import EVERYTHING
from toolgen.cli import main
from toolgen.importers.common import SourceError
from toolgen.importers.emit import dump_tool
from toolgen.importers.mcp_server import _Session, shown
from toolgen.load.yaml12 import parse_yaml

SERVER = REPO / "tests" / "data" / "mcp_weather_server.py"
COMMAND = shlex.join([sys.executable, str(SERVER)])
PYTHON = shlex.quote(sys.executable)
HOSTILE = shlex.join([sys.executable, str(REPO / "tests" / "data" / "mcp_hostile_server.py")])


def invoke(*args: str) -> tuple[int, str, str]:
    result = CliRunner().invoke(main, ["import", "--from", "mcp-server", *args])
    return result.exit_code, result.stdout, result.stderr


def lint(specs: Path) -> None:
    result = CliRunner().invoke(main, ["lint", "--specs", str(specs)])
    assert result.exit_code == 0, result.stdout


def spec(path: Path) -> dict[str, Any]:
    data: dict[str, Any] = parse_yaml(path.read_text("utf-8"))[0]
    return data


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port: int = probe.getsockname()[1]
        return port


@pytest.fixture
def http_server() -> Iterator[str]:
    """The weather server over streamable HTTP on a free port; its URL once it accepts connections."""
    port = free_port()
    process = subprocess.Popen(
        [sys.executable, str(SERVER), "--http", str(port)],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    try:
        deadline = time.monotonic() + 15
        while True:
            try:
                socket.create_connection(("127.0.0.1", port), timeout=0.2).close()
                break
            except OSError:
                assert process.poll() is None and time.monotonic() < deadline, (
                    "the HTTP server did not start"
                )
                time.sleep(0.05)
        yield f"http://127.0.0.1:{port}/mcp"
    finally:
        process.terminate()
        process.wait(timeout=10)


def check_weather_specs(out: Path, source: str) -> None:
    assert sorted(p.name for p in out.iterdir()) == ["echo.yaml", "get_weather.yaml"]
    weather, echo = spec(out / "get_weather.yaml"), spec(out / "echo.yaml")
    assert (
        (out / "get_weather.yaml")
        .read_text("utf-8")
        .startswith(
            f"# Imported by `toolgen import --from mcp-server` from {source} (weather-demo 1.0.0, tool 1).\nname:"
        )
    )
    assert weather["description"] == "Get the weather forecast for a city."
    assert weather["parameters"]["required"] == ["city"]
    assert (
        weather["parameters"]["properties"]["city"]["description"]
        == "City and country, e.g. Paris, France"
    )
    assert weather["returns"]["required"] == ["temperature", "conditions"]
    assert weather["annotations"] == {"read_only": True, "open_world": True}
    assert echo["title"] == "Echo" and "returns" not in echo  # the tool without an outputSchema
    assert "(weather-demo 1.0.0, tool 2)" in (out / "echo.yaml").read_text(
        "utf-8"
    )  # the second page's tool
    lint(out)


def test_a_stdio_server_lists_every_page_and_its_specs_pass_lint(tmp_path: Path) -> None:
    code, stdout, stderr = invoke(COMMAND, "--out", str(tmp_path / "specs"))
    assert (code, stderr) == (0, ""), stderr
    assert stdout.startswith(f"{COMMAND} (mcp-server): 2 tools: 2 written")
    check_weather_specs(tmp_path / "specs", COMMAND)


@pytest.mark.parametrize("mode", ["lists", "fails"])
def test_what_a_server_says_reaches_the_terminal_escaped(tmp_path: Path, mode: str) -> None:
    """Its name, version, tool names and error messages carry CR LF and ANSI escapes: each line
    printed stays one line, with the escapes shown, never sent (click only strips colours)."""
    command = HOSTILE + (" --fail" if mode == "fails" else "")
    code, stdout, stderr = invoke(command, "--out", str(tmp_path / "specs"))
    lines = (stdout + stderr).splitlines()
    assert code == (1 if mode == "lists" else 2), stderr
    assert not any(c in stdout + stderr for c in "\r\x1b\x07\u202e"), repr(stdout + stderr)
    assert "\\x1b]0;title\\x07 \\u202egnp.exe" in stderr  # shown, escaped
    forged = [line for line in lines if line.startswith("refused: nothing")]
    assert forged == [], lines  # the server's CR LF started no line of its own
    if mode == "lists":
        assert stderr.count("\n") == 1 and stderr.startswith(f"refused: {command} hostile")
        assert "hostile\\r\\nrefused: nothing\\x1b[31m red" in stderr
        assert len(stdout.splitlines()) == 3 and (tmp_path / "specs" / "fine.yaml").is_file()
    else:
        assert stderr.count("\n") == 1 and "listing failed refused: nothing\\x1b[31m" in stderr


def test_a_streamable_http_server(tmp_path: Path, http_server: str) -> None:
    code, _, stderr = invoke(http_server, "--out", str(tmp_path / "specs"))
    assert (code, stderr) == (0, ""), stderr
    check_weather_specs(tmp_path / "specs", http_server)


@pytest.mark.skipif(
    shutil.which("npx") is None, reason="npx is not on PATH (Node.js runs the reference server)"
)
def test_the_reference_server_everything(tmp_path: Path) -> None:
    command = EVERYTHING
    code, _, stderr = invoke(command, "--out", str(tmp_path / "specs"), "--timeout", "120")
    assert (code, stderr) == (0, ""), stderr
    names = sorted(p.stem for p in (tmp_path / "specs").iterdir())
    assert len(names) >= 10 and {"echo", "get-sum", "get-structured-content"} <= set(names), names
    text = (tmp_path / "specs" / "get-structured-content.yaml").read_text("utf-8")
    assert text.startswith(
        f"# Imported by `toolgen import --from mcp-server` from {command} (mcp-servers/everything "
    )
    structured = spec(tmp_path / "specs" / "get-structured-content.yaml")
    assert structured["returns"]["required"] == ["temperature", "conditions", "humidity"]
    # the notes of `--from mcp`: a draft-07 $schema removed, `execution` dropped
    assert "# - /parameters/$schema: removed" in text and "# - /execution: dropped" in text
    lint(tmp_path / "specs")


@pytest.mark.parametrize(
    ("source", "expected"),
    [
        (
            "toolgen-no-such-command --stdio",
            "toolgen: cannot start 'toolgen-no-such-command --stdio': No such file",
        ),
        (
            f"{PYTHON} -c 'print(\"hello\")'",
            (
                "did not answer as an MCP server: Connection closed (MCP error -32000); "
                'it wrote "hello" on stdout, which is not JSON-RPC'
            ),
        ),
        (
            f"{PYTHON} -c 'import sys; sys.exit(\"no server here\")'",
            (
                "did not answer as an MCP server: Connection "
                "closed (MCP error -32000); its stderr ends with: "
                "no server here"
            ),
        ),
        (
            f"{PYTHON} -c 'import time; time.sleep(30)'",
            "no list of tools within 1 s (--timeout sets the limit)",
        ),
        ("'unbalanced", 'toolgen: cannot read the command "\'unbalanced": No closing quotation'),
    ],
    ids=["cannot-start", "not-mcp", "exits", "never-answers", "bad-quoting"],
)
def test_what_cannot_be_listed_is_one_line_and_exit_2(
    tmp_path: Path, source: str, expected: str
) -> None:
    started = time.monotonic()
    code, stdout, stderr = invoke(source, "--out", str(tmp_path / "specs"), "--timeout", "1")
    assert code == 2 and stdout == ""
    assert stderr.count("\n") == 1 and expected in stderr, stderr
    assert time.monotonic() - started < 10
    assert not (tmp_path / "specs").exists()


def test_a_url_that_refuses_is_one_line_and_exit_2(tmp_path: Path) -> None:
    url = f"http://user:secret@127.0.0.1:{free_port()}/mcp?token=secret"
    code, _, stderr = invoke(url, "--out", str(tmp_path / "specs"))
    assert code == 2 and stderr.count("\n") == 1
    assert stderr.startswith(f"toolgen: cannot list the tools of {shown(url)}: ConnectError:")
    assert "secret" not in stderr


def test_pages_that_never_end_are_refused() -> None:
    class Looping:  # a server whose every page points to the same next page
        async def list_tools(self, cursor: str | None = None) -> Any:
            return SimpleNamespace(tools=[], next_cursor="again")

    never = r"^server: its tools/list pages never end \(the cursor 'again' came twice\)$"
    with pytest.raises(SourceError, match=never):
        anyio.run(_Session("server", 5)._pages, Looping())


def test_a_url_is_shown_without_credentials_or_query() -> None:
    assert shown("https://me:pw@example.com:8443/mcp?key=1#x") == "https://example.com:8443/mcp"
    assert shown("python server.py --key=1") == "python server.py --key=1"


def test_a_command_with_a_line_break_stays_one_comment_line_in_the_header() -> None:
    text = dump_tool(
        {"name": "t", "description": "d"}, [], ["from python -c 'import x\nx.serve()'"]
    )
    assert text == "# from python -c 'import x x.serve()'\nname: t\ndescription: d\n"


def test_without_the_sdk_the_error_says_what_to_install(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setitem(sys.modules, "mcp", None)  # `import mcp` raises ImportError
    code, _, stderr = invoke(COMMAND, "--out", str(tmp_path))
    assert (code, stderr) == (
        2,
        "toolgen: --from mcp-server needs the MCP SDK: pip install 'toolgen[mcp]'\n",
    )


def test_timeout_is_for_mcp_server_only(tmp_path: Path) -> None:
    result = CliRunner().invoke(main, ["import", "--from", "mcp", "tools.json", "--timeout", "5"])
    assert result.exit_code == 2 and "--timeout applies to --from mcp-server only" in result.stderr
