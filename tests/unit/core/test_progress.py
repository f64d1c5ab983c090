"""The progress display: shown on a terminal once a build takes a moment, quiet otherwise."""

from __future__ import annotations

import io
import subprocess
import sys
import time
from pathlib import Path

from tests.support.generation import REPO
from toolgen.progress import Progress


class Terminal(io.StringIO):
    def isatty(self) -> bool:
        return True


def test_quiet_when_stderr_is_not_a_terminal() -> None:
    stream = io.StringIO()
    with Progress("building", stream=stream, delay=0) as progress:
        progress("render")
        time.sleep(0.05)
    assert stream.getvalue() == ""


def test_quiet_on_a_terminal_when_the_build_is_quick() -> None:
    stream = Terminal()
    with Progress("building", stream=stream, delay=5) as progress:
        progress("render")
    assert stream.getvalue() == ""


def test_shown_on_a_terminal_once_the_build_takes_a_moment() -> None:
    stream = Terminal()
    with Progress("building", stream=stream, delay=0.01) as progress:
        time.sleep(0.2)
        progress("render")
        time.sleep(0.2)
    assert "building: render" in stream.getvalue()


def test_a_piped_generate_and_lint_json_print_no_progress_and_import_no_rich(
    tmp_path: Path,
) -> None:
    """Through the real command line, stderr a pipe: nothing but the command's own output."""
    specs = REPO / "tests" / "golden" / "cases" / "weather" / "specs"
    env_code = (
        "import sys; from toolgen.cli import main\n"
        "try:\n    main()\nexcept SystemExit:\n    pass\n"
        "assert 'rich' not in sys.modules, 'rich imported'\n"
    )
    for args in (
        ["generate", "--specs", str(specs), "--out", str(tmp_path / "out"), "--package", "weather"],
        ["lint", "--specs", str(specs), "--format", "json"],
    ):
        done = subprocess.run(
            [sys.executable, "-c", env_code, *args],
            capture_output=True,
            text=True,
            cwd=tmp_path,
            env={
                "PYTHONPATH": str(REPO / "generator"),
                "PATH": "/usr/bin:/bin",
                "TOOLGEN_NO_CACHE": "1",
            },
        )
        assert "rich imported" not in done.stderr
        assert "Traceback" not in done.stderr, done.stderr
        if args[0] == "generate":
            assert "tools ->" in done.stdout, done.stdout + done.stderr
        assert "\x1b[" not in done.stderr + done.stdout  # no terminal control sequences
        assert "building" not in done.stderr and "linting" not in done.stderr
        if args[0] == "lint":
            import json

            json.loads(done.stdout or "[]")  # the JSON output is JSON, nothing else
