"""`toolgen call` runs every built-in tool from the command line with JSON arguments.

The CLI reads the repository's [tool.toolgen] (implementations = "implementations:registry")
and the environment a host would set: the workspace root, processes enabled, web hosts, the
search service (the local server answers SearXNG's /search as well as files).
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

from tests.support import builtin_support
from tests.support.generation import REPO
from toolgen.cli import main

PAGE = "<html><body><h1>Title</h1><p>Some <b>bold</b> text.</p></body></html>"

# tool -> (arguments, a check of the printed result)
CALLS: dict[str, tuple[dict[str, Any], Any]] = {
    "read_file": ({"path": "README.md", "end_line": 1}, lambda r: r["content"] == "1\t# Demo"),
    "write_file": (
        {"path": "notes/todo.txt", "content": "buy milk\n"},
        lambda r: r["bytes_written"] == 9,
    ),
    "append_file": (
        {"path": "notes/log.md", "content": "- step 2\n"},
        lambda r: r["path"] == "notes/log.md",
    ),
    "edit_file": (
        {"path": "src/app.py", "old_text": "def old_name(x):", "new_text": "def new_name(x):"},
        lambda r: r["replacements"] == 1,
    ),
    "insert_lines": (
        {"path": "notes/log.md", "after_line": 0, "text": "# Log"},
        lambda r: (r["first_line"], r["lines_inserted"]) == (1, 1),
    ),
    # Each `toolgen call` is a new registry: its workspace remembers no change to undo.
    "undo_edit": ({"path": "src/app.py"}, "nothing_to_undo"),
    "list_directory": ({"path": "."}, lambda r: "README.md" in json.dumps(r)),
    "glob_files": ({"pattern": "**/*.md"}, lambda r: "README.md" in json.dumps(r)),
    "run_shell": ({"command": "echo hi"}, lambda r: r["stdout"] == "hi\n"),
    "run_python": ({"code": "print(6 * 7)"}, lambda r: r["stdout"] == "42\n"),
    "fetch_url": (
        {"url": "{base}/page.html", "format": "markdown"},
        lambda r: "**bold**" in r["content"],
    ),
    "check_website_status": (
        {"url": "{base}/page.html"},
        lambda r: r["status"] == 200 and r["method"] == "HEAD",
    ),
    "web_search": (
        {"query": "toolgen", "max_results": 1},
        lambda r: r["results"][0]["url"] == "https://example.org/",
    ),
    "parse_csv": (
        {"text": "name,qty\nbolt,12\n", "infer_types": True},
        lambda r: r["rows"] == [["bolt", 12]],
    ),
    "query_json": (
        {"expression": "items[0].name", "text": '{"items": [{"name": "bolt"}]}'},
        lambda r: r["result"] == "bolt",
    ),
    "summarize_numbers": ({"values": [1, 2, 3, 4]}, lambda r: r["mean"] == 2.5),
    "done": ({"summary": "All done."}, lambda r: r["signal"] == "done"),
    "unable": (
        {"reason": "No access.", "blockers": ["no token"]},
        lambda r: r["blockers"] == ["no token"],
    ),
    "ask_user": (
        {"question": "Which year?", "options": ["2025", "2026"]},
        lambda r: r["signal"] == "ask_user",
    ),
}


class Handler(SimpleHTTPRequestHandler):
    """The workspace's files, and a SearXNG-like /search with one result."""

    def log_message(self, format: str, *args: Any) -> None:
        pass

    def do_GET(self) -> None:  # noqa: N802 - the http.server API
        if not self.path.startswith("/search?"):
            super().do_GET()
            return
        body = json.dumps(
            {"results": [{"title": "T", "url": "https://example.org/", "content": "C"}]}
        ).encode()
        self.send_response(200)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)


@pytest.fixture(scope="module")
def workspace(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[Path, str]]:
    root = tmp_path_factory.mktemp("workspace")
    (root / "README.md").write_text("# Demo\n\nA workspace.\n")
    (root / "src").mkdir()
    (root / "src" / "app.py").write_text("def old_name(x):\n    return x\n")
    (root / "notes").mkdir()
    (root / "notes" / "log.md").write_text("- step 1\n")
    (root / "page.html").write_text(PAGE)
    server = ThreadingHTTPServer(("127.0.0.1", 0), functools.partial(Handler, directory=str(root)))
    threading.Thread(target=server.serve_forever, daemon=True).start()
    yield root, f"http://127.0.0.1:{server.server_address[1]}"
    server.shutdown()
    server.server_close()


def test_every_builtin_tool_is_covered() -> None:
    names = {
        spec["name"]
        for family in ("files", "process", "web", "data", "control")
        for spec in builtin_support.specs(family)
    }
    assert len(names) == 19
    assert set(CALLS) == names


@pytest.mark.parametrize("tool", sorted(CALLS))
def test_toolgen_call_runs_the_tool(
    tool: str, workspace: tuple[Path, str], monkeypatch: pytest.MonkeyPatch
) -> None:
    root, base = workspace
    monkeypatch.chdir(REPO)
    monkeypatch.setenv("TOOLGEN_WORKSPACE", str(root))
    monkeypatch.setenv("TOOLGEN_ENABLE_PROCESSES", "1")
    monkeypatch.setenv("TOOLGEN_WEB_ALLOW", "127.0.0.1")
    monkeypatch.setenv("TOOLGEN_SEARCH_URL", base)
    arguments, expect = CALLS[tool]
    text = json.dumps(arguments).replace("{base}", base)
    result = CliRunner().invoke(main, ["call", tool, text])
    if isinstance(expect, str):  # a declared failure
        assert result.exit_code == 1, result.output
        assert json.loads(result.stdout)["error"]["kind"] == expect, result.output
        return
    assert result.exit_code == 0, result.output
    printed = json.loads(result.stdout)
    assert printed["ok"] is True and expect(printed["result"]), printed
