"""Benchmarks that are quick enough to run as tests, in their smoke-test mode."""

from __future__ import annotations

import importlib.util
import shutil
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


@pytest.mark.skipif(
    importlib.util.find_spec("redis") is None or shutil.which("redis-server") is None,
    reason="the store benchmark needs the redis client and Debian's redis-server",
)
def test_store_quick() -> None:
    """The store benchmark starts its Redis, calls both tools through both stores, and says
    what the Redis store costs each."""
    proc = subprocess.run(
        [sys.executable, str(REPO / "benchmarks" / "store.py"), "--quick"],
        check=False,
        cwd=REPO,
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert proc.returncode == 0, proc.stdout[-2000:] + proc.stderr[-3000:]
    rows = [line for line in proc.stdout.splitlines() if line.startswith("| `")]
    assert [row.split(" | ")[0] for row in rows] == [
        "| `limited` (rate_limit), call",
        "| `limited` (rate_limit), acall",
        "| `plain` (no policy), call",
        "| `plain` (no policy), acall",
    ]


def test_catalog_quick() -> None:
    """The catalog benchmark builds 10 tools' catalog beside `generate`, and (where Chromium
    and Playwright are) loads and searches its index beside an empty page."""
    proc = subprocess.run(
        [sys.executable, str(REPO / "benchmarks" / "catalog.py"), "--quick"],
        check=False,
        cwd=REPO,
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert proc.returncode == 0, proc.stdout[-2000:] + proc.stderr[-3000:]
    rows = [line.split(" | ")[0] for line in proc.stdout.splitlines() if line.startswith("| ")]
    assert rows[:4] == [
        "| build (median of 1)",
        "| generate, cold",
        "| catalog",
        "| catalog beyond generate",
    ]
    assert (
        "index.html" in proc.stdout
        and "target: catalog at most 2 s beyond generate, CPU" in proc.stdout
    )
    assert "page: skipped" in proc.stdout or "| index + search |" in proc.stdout
