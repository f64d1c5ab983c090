"""Benchmarks that are quick enough to run as tests, in their smoke-test mode."""

from __future__ import annotations

import importlib.util
import shutil
import subprocess
import sys

import pytest

from tests.support.generation import REPO, once


@pytest.fixture(autouse=True)
def _one_bytecode_folder(monkeypatch: pytest.MonkeyPatch) -> None:
    """The benchmarks' subprocesses compile what they import once for the session, not once
    a benchmark (benchmarks/_util.py: bench_env): a smoke run measures nothing it keeps."""
    monkeypatch.setenv("TOOLGEN_BENCH_PYCACHE", str(once("benchmark-pycache", lambda _: None)))


def benchmark(script: str, *options: str, timeout: int) -> str:
    """What `benchmarks/<script> <options>` prints; it must exit 0."""
    proc = subprocess.run(
        [sys.executable, str(REPO / "benchmarks" / script), *options],
        check=False,
        cwd=REPO,
        capture_output=True,
        text=True,
        timeout=timeout,
    )
    assert proc.returncode == 0, proc.stdout[-2000:] + proc.stderr[-3000:]
    return proc.stdout


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
    printed = benchmark("store.py", "--quick", timeout=300)
    rows = [line for line in printed.splitlines() if line.startswith("| `")]
    assert [row.split(" | ")[0] for row in rows] == [
        "| `limited` (rate_limit), call",
        "| `limited` (rate_limit), acall",
        "| `plain` (no policy), call",
        "| `plain` (no policy), acall",
    ]


@pytest.mark.skipif(
    importlib.util.find_spec("docket") is None or shutil.which("redis-server") is None,
    reason="the task engines benchmark needs Docket (the server extra) and Debian's redis-server",
)
def test_task_engines_quick() -> None:
    """The engines benchmark measures Docket in memory and on Redis, and skips an engine that
    is not installed instead of failing."""
    proc = subprocess.run(
        [sys.executable, str(REPO / "benchmarks" / "task_engines.py"), "--jobs", "5"],
        check=False,
        cwd=REPO,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert proc.returncode == 0, proc.stdout[-2000:] + proc.stderr[-3000:]
    rows = [
        line.split(" | ")[:3] for line in proc.stdout.splitlines() if line.startswith("| docket")
    ]
    assert rows == [["| docket", "memory", "5"], ["| docket", "redis", "5"]], proc.stdout


@pytest.mark.skipif(
    importlib.util.find_spec("docket") is None or shutil.which("redis-server") is None,
    reason="the tasks benchmark needs Docket (the server extra) and Debian's redis-server",
)
def test_tasks_quick() -> None:
    """Two servers and two workers on one Redis answer task calls and direct calls alike;
    FastMCP's fleet beside them where its environment was made (--setup-fastmcp), else the
    benchmark says it skipped it and why."""
    printed = benchmark("tasks.py", "--quick", timeout=240)
    rows = [line.split(" | ")[0] for line in printed.splitlines() if line.startswith("| ")]
    ours = ["| path", "| toolgen, direct tools/call", "| toolgen, task: call + result"]
    if "FastMCP: skipped: no environment" in printed:
        assert rows == ours, printed
    else:
        assert rows == [*ours, "| FastMCP, direct tools/call", "| FastMCP, task: call + result"]
        assert "toolgen / FastMCP, task: call + result: calls/s" in printed, printed


def test_catalog_quick() -> None:
    """The catalog benchmark builds 10 tools' catalog beside `generate`, and (where Chromium
    and Playwright are) loads and searches its index beside an empty page."""
    out = benchmark("catalog.py", "--quick", timeout=300)
    rows = [line.split(" | ")[0] for line in out.splitlines() if line.startswith("| ")]
    assert rows[:4] == [
        "| build (median of 1)",
        "| generate, cold",
        "| catalog",
        "| catalog beyond generate",
    ]
    assert "index.html" in out and "target: catalog at most 2 s beyond generate, CPU" in out
    assert "page: skipped" in out or "| index + search |" in out


def test_stages_quick() -> None:
    """The per-stage benchmark builds 200 tools (the fewest that fork children) in one process
    and with its children, with every content memo emptied before each build, and prints a
    row per stage: the attribution a profile of the build starts from."""
    out = benchmark("stages.py", "--tools", "200", timeout=300)
    lines = out.splitlines()
    table = lines[lines.index("| stage | one process | with the children |") + 2 :]
    stages = ["load", "check", "lower", "export", "render", "format", "total"]
    assert [line.split(" | ")[0] for line in table[: len(stages)]] == [f"| {s}" for s in stages]
    assert "the children:" in out, out
