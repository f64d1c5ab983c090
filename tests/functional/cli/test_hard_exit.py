"""`python -m toolgen` leaves with os._exit after the command (toolgen/__main__.py): what the
command printed still arrives whole through a pipe, and the exit status is the command's."""

from __future__ import annotations

import subprocess
import sys

import pytest

from toolgen.__main__ import _code


def _toolgen(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "toolgen", *args],
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )


def test_the_output_and_status_of_a_command_survive_the_exit() -> None:
    done = _toolgen("--help")
    assert done.returncode == 0
    assert done.stdout.startswith("Usage:") and "generate" in done.stdout


def test_a_usage_error_keeps_its_status_and_message() -> None:
    done = _toolgen("no-such-command")
    assert done.returncode == 2
    assert "No such command" in done.stderr


@pytest.mark.parametrize(("code", "status"), [(None, 0), (0, 0), (1, 1), (2, 2), (256, 0)])
def test_exit_codes_are_sys_exit_s(code: object, status: int) -> None:
    assert _code(code) == status


def test_a_message_exits_1_and_is_printed(capsys: pytest.CaptureFixture[str]) -> None:
    assert _code("broken") == 1
    assert capsys.readouterr().err == "broken\n"
