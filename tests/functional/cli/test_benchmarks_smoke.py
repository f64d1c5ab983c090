"""Benchmarks that are quick enough to run as tests, in their smoke-test mode."""

from __future__ import annotations

import importlib.util
import subprocess
import sys

import pytest

from tests.support.generation import REPO


@pytest.mark.skipif(
    importlib.util.find_spec("mcp") is None or importlib.util.find_spec("uvicorn") is None,
    reason="the serve load test needs the mcp SDK and uvicorn (the generated package's server extra)",
)
def test_serve_load_quick() -> None:
    """Both servers start, answer alike, serve a few concurrent clients without an error, and stop."""
    script = REPO / "benchmarks" / "serve_load.py"
    proc = subprocess.run(
        [sys.executable, str(script), "--quick", "--timeout", "90"],
        check=False,
        cwd=REPO,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert proc.returncode == 0, proc.stdout[-2000:] + proc.stderr[-3000:]
    assert "| errors | 0 | 0 |" in proc.stdout, proc.stdout
