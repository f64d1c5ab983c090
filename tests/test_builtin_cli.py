"""`toolgen call` runs every built-in tool from the command line with JSON arguments.

The CLI reads the repository's [tool.toolgen] (implementations = "implementations:registry")
and the environment a host would set: the workspace root, processes enabled, web hosts.
"""

from __future__ import annotations

import functools
import json
import threading
from collections.abc import Iterator
from http.server import SimpleHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

import builtin_support
from conftest import REPO
from toolgen.cli import main

PAGE = "<html><body><h1>Title</h1><p>Some <b>bold</b> text.</p></body></html>"

# tool -> (arguments, a check of the printed result)
CALLS: dict[str, tuple[dict[str, Any], Any]] = {
    "read_file": ({"path": "README.md", "end_line": 1}, lambda r: r["content"] == "1\t# Demo"),
    "write_file": ({"path": "notes/todo.txt", "content": "buy milk\n"}, lambda r: r["bytes_written"] == 9),
    "append_file": ({"path": "notes/log.md", "content": "- step 2\n"}, lambda r: r["path"] == "notes/log.md"),
    "edit_file": ({"path": "src/app.py", "old_text": "def old_name(x):", "new_text": "def new_name(x):"},
                  lambda r: r["replacements"] == 1),
    "list_directory": ({"path": "."}, lambda r: "README.md" in json.dumps(r)),
    "glob_files": ({"pattern": "**/*.md"}, lambda r: "README.md" in json.dumps(r)),
    "run_shell": ({"command": "echo hi"}, lambda r: r["stdout"] == "hi\n"),
    "run_python": ({"code": "print(6 * 7)"}, lambda r: r["stdout"] == "42\n"),
    "fetch_url": ({"url": "{base}/page.html", "format": "markdown"}, lambda r: "**bold**" in r["content"]),
    "parse_csv": ({"text": "name,qty\nbolt,12\n", "infer_types": True}, lambda r: r["rows"] == [["bolt", 12]]),
    "query_json": ({"expression": "items[0].name", "text": '{"items": [{"name": "bolt"}]}'},
                   lambda r: r["result"] == "bolt"),
    "summarize_numbers": ({"values": [1, 2, 3, 4]}, lambda r: r["mean"] == 2.5),
    "done": ({"summary": "All done."}, lambda r: r["signal"] == "done"),
    "unable": ({"reason": "No access.", "blockers": ["no token"]}, lambda r: r["blockers"] == ["no token"]),
    "ask_user": ({"question": "Which year?", "options": ["2025", "2026"]}, lambda r: r["signal"] == "ask_user"),
}


@pytest.fixture(scope="module")
def workspace(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[Path, str]]:
    root = tmp_path_factory.mktemp("workspace")
    (root / "README.md").write_text("# Demo\n\nA workspace.\n")
    (root / "src").mkdir()
    (root / "src" / "app.py").write_text("def old_name(x):\n    return x\n")
    (root / "notes").mkdir()
    (root / "notes" / "log.md").write_text("- step 1\n")
    (root / "page.html").write_text(PAGE)
    handler = functools.partial(SimpleHTTPRequestHandler, directory=str(root))
    handler.log_message = lambda *args: None  # type: ignore[attr-defined]
    server = ThreadingHTTPServer(("127.0.0.1", 0), handler)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    yield root, f"http://127.0.0.1:{server.server_address[1]}"
    server.shutdown()
    server.server_close()


def test_every_builtin_tool_is_covered() -> None:
    names = {spec["name"] for family in ("files", "process", "web", "data", "control")
             for spec in builtin_support.specs(family)}
    assert set(CALLS) == names


@pytest.mark.parametrize("tool", sorted(CALLS))
def test_toolgen_call_runs_the_tool(tool: str, workspace: tuple[Path, str], monkeypatch: pytest.MonkeyPatch) -> None:
    root, base = workspace
    monkeypatch.chdir(REPO)
    monkeypatch.setenv("TOOLGEN_WORKSPACE", str(root))
    monkeypatch.setenv("TOOLGEN_ENABLE_PROCESSES", "1")
    monkeypatch.setenv("TOOLGEN_WEB_ALLOW", "127.0.0.1")
    arguments, expect = CALLS[tool]
    text = json.dumps(arguments).replace("{base}", base)
    result = CliRunner().invoke(main, ["call", tool, text])
    assert result.exit_code == 0, result.output
    printed = json.loads(result.stdout)
    assert printed["ok"] is True and expect(printed["result"]), printed
