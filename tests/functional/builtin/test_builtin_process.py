"""The process tools: off by default; bounded in time, output and environment; nothing outlives a call."""

from __future__ import annotations

import os
import time
from pathlib import Path
from typing import Any

import pytest

from implementations import ProcessPolicy, registry
from tests.support.builtin_support import check_examples, within


@pytest.fixture
def root(tmp_path: Path) -> Path:
    root = tmp_path / "root"
    (root / "sub").mkdir(parents=True)
    return root


@pytest.fixture
def r(root: Path) -> Any:
    return registry(root, enable_processes=True)


def run(r: Any, tool: str, **arguments: Any) -> dict[str, Any]:
    result = within(20, lambda: r.call(tool, arguments))
    assert result.ok, result.text()
    value: dict[str, Any] = result.to_dict()["result"]
    return value


def dead(pid: int) -> bool:
    """Gone, or a zombie nobody has reaped yet (it runs nothing)."""
    try:
        with open(f"/proc/{pid}/stat") as handle:
            return handle.read().rsplit(")", 1)[1].split()[0] in ("Z", "X")
    except FileNotFoundError:
        return True


def test_off_unless_the_host_enables_them(root: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("TOOLGEN_ENABLE_PROCESSES", raising=False)
    default = registry(root)
    assert "run_shell" not in default and "run_python" not in default
    refused = default.call("run_shell", {"command": "true"}).failure
    assert refused.kind == "unknown_tool" and "TOOLGEN_ENABLE_PROCESSES=1" in refused.message
    assert "TOOLGEN_ENABLE_PROCESSES" in default.without("read_file").call("run_python", {}).text()
    assert "Did you mean" in default.call("read_fil", {}).text()  # other names: as before
    assert "run_shell" in registry(root, enable_processes=True)
    assert "run_python" in registry(root, processes=ProcessPolicy())
    assert "run_shell" not in registry(root, enable_processes=False, processes=ProcessPolicy())
    monkeypatch.setenv("TOOLGEN_ENABLE_PROCESSES", "1")  # how `toolgen call` is told
    assert "run_shell" in registry(root)


def test_shell_command_output_exit_code_and_cwd(root: Path, r: Any) -> None:
    out = run(r, "run_shell", command="pwd; echo oops >&2; exit 3", cwd="sub")
    assert out["stdout"] == f"{(root / 'sub').resolve()}\n" and out["stderr"] == "oops\n"
    assert out["exit_code"] == 3 and out["killed"] is None and out["truncated"] is False
    for cwd in ("..", "/", "sub/../.."):
        assert r.call("run_shell", {"command": "true", "cwd": cwd}).failure.kind == "outside_root"
    assert r.call("run_shell", {"command": "true", "cwd": "absent"}).failure.kind == "not_found"
    (root / "file").write_text("x")
    assert r.call("run_shell", {"command": "true", "cwd": "file"}).failure.kind == "not_a_directory"


def test_a_command_that_never_ends_is_killed_at_its_timeout(r: Any) -> None:
    started = time.monotonic()
    out = run(r, "run_shell", command="sleep 30", timeout_s=0.3)
    assert out["killed"] == "timeout" and out["exit_code"] is None
    assert time.monotonic() - started < 5


def test_the_host_caps_the_models_timeout(root: Path) -> None:
    strict = registry(root, processes=ProcessPolicy(max_timeout_s=0.3))
    started = time.monotonic()
    assert run(strict, "run_shell", command="sleep 30", timeout_s=600)["killed"] == "timeout"
    assert time.monotonic() - started < 5


def test_closing_its_output_does_not_let_a_command_outlive_its_timeout(r: Any) -> None:
    out = run(r, "run_shell", command="exec >/dev/null 2>&1; sleep 30", timeout_s=0.3)
    assert out["killed"] == "timeout"


def test_output_without_end_is_cut_off_in_bounded_memory(root: Path) -> None:
    policy = ProcessPolicy(max_output_bytes=1000, max_discarded_bytes=2_000_000)
    r = registry(root, processes=policy)
    started = time.monotonic()
    out = run(r, "run_shell", command="yes", timeout_s=60)
    assert out["killed"] == "output_limit" and out["truncated"] is True
    assert out["stdout"] == "y\n" * 500  # exactly the first max_output_bytes
    assert time.monotonic() - started < 10  # cut off by the output limit, not the 60 s timeout
    py = run(
        r,
        "run_python",
        code="import sys\nwhile True:\n    sys.stderr.write('e' * 4096)\n",
        timeout_s=60,
    )
    assert py["killed"] == "output_limit" and len(py["stderr"]) == 1000


def test_large_output_that_ends_is_truncated_but_not_killed(root: Path) -> None:
    r = registry(root, processes=ProcessPolicy(max_output_bytes=100))
    out = run(r, "run_shell", command="head -c 100000 /dev/zero | tr '\\0' x; echo; echo done >&2")
    assert out["killed"] is None and out["exit_code"] == 0
    assert out["stdout"] == "x" * 100 and out["truncated"] is True and out["stderr"] == "done\n"


def test_the_whole_process_group_is_killed(r: Any) -> None:
    # Background children holding the output open: killed at the timeout with their parent.
    out = run(
        r,
        "run_shell",
        command="sleep 60 & echo $!; sleep 60 & echo $!; sleep 60 & echo $!; wait",
        timeout_s=3,  # time for a shell on a loaded machine to start all three first
    )
    pids = [int(p) for p in out["stdout"].split()]
    assert out["killed"] == "timeout" and len(pids) == 3
    # Background children that let go of the output: killed when the command exits.
    detached = run(r, "run_shell", command="sleep 60 >/dev/null 2>&1 & echo $!")
    assert detached["killed"] is None and detached["exit_code"] == 0
    pids.append(int(detached["stdout"]))
    deadline = time.monotonic() + 5
    while not all(map(dead, pids)) and time.monotonic() < deadline:
        time.sleep(0.05)
    assert [p for p in pids if not dead(p)] == []


def test_no_host_secrets_unless_allowed(root: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("TOOLGEN_TEST_API_KEY", "s3cr3t-value")
    out = run(registry(root, enable_processes=True), "run_shell", command="env")
    assert "s3cr3t-value" not in out["stdout"] and "TOOLGEN_TEST_API_KEY" not in out["stdout"]
    assert f"HOME={root.resolve()}\n" in out["stdout"]
    allowed = registry(
        root,
        processes=ProcessPolicy(env_allow=frozenset({"TOOLGEN_TEST_API_KEY"}), env={"EXTRA": "1"}),
    )
    assert (
        run(allowed, "run_shell", command='echo "$TOOLGEN_TEST_API_KEY $EXTRA"')["stdout"]
        == "s3cr3t-value 1\n"
    )
    py = run(allowed, "run_python", code="import os; print(sorted(os.environ))")
    assert "TOOLGEN_TEST_API_KEY" in py["stdout"] and "PYTEST_CURRENT_TEST" not in py["stdout"]


def test_python_snippets(root: Path, r: Any) -> None:
    (root / "helper.py").write_text("VALUE = 41\n")
    out = run(
        r,
        "run_python",
        code="import helper, sys\nprint(helper.VALUE + 1)\nprint('é', file=sys.stderr)",
    )
    assert out == {**out, "stdout": "42\n", "stderr": "é\n", "exit_code": 0}
    assert run(r, "run_python", code="raise SystemExit(4)")["exit_code"] == 4
    assert "EOFError" in run(r, "run_python", code="input()")["stderr"]  # no standard input
    big = (
        "x = 0\n" + "x += 1\n" * 25_000 + "print(x)\n"
    )  # 175 kB: more than one argv string may hold
    assert run(r, "run_python", code=big)["stdout"] == "25000\n"
    assert (
        run(r, "run_python", code="import os; print(os.getpid() == os.getpgid(0))")["stdout"]
        == "True\n"
    )


def test_a_missing_interpreter_is_a_declared_error(root: Path) -> None:
    broken = registry(
        root, processes=ProcessPolicy(shell="/nonexistent/sh", python="/nonexistent/python")
    )
    assert broken.call("run_shell", {"command": "true"}).failure.kind == "start_failed"
    assert broken.call("run_python", {"code": "pass"}).failure.kind == "start_failed"


def test_examples(root: Path, r: Any) -> None:
    assert check_examples("process", r) == 2


def test_no_descriptor_leaks(r: Any) -> None:
    before = len(os.listdir("/proc/self/fd"))
    for _ in range(5):
        run(r, "run_shell", command="echo x", timeout_s=5)
        run(r, "run_shell", command="sleep 5", timeout_s=0.05)
    assert len(os.listdir("/proc/self/fd")) <= before


def test_run_shell_streams_its_output_as_it_is_printed(r: Any) -> None:
    seen: list[tuple[float, Any]] = []
    started = time.monotonic()
    result = within(
        20,
        lambda: r.call(
            "run_shell",
            {"command": "echo one; sleep 1; echo two"},
            on_event=lambda e: seen.append((time.monotonic() - started, e)),
        ),
    )
    assert result.ok and result.to_dict()["result"]["stdout"] == "one\ntwo\n"
    assert [e.text for _, e in seen] == ["one\n", "two\n"]
    assert seen[0][0] < seen[1][0] - 0.8  # the first line came a second before the second


def test_a_stream_cut_short_kills_the_command(root: Path, tmp_path: Path) -> None:
    import asyncio

    r = registry(root, enable_processes=True)
    pid_file = tmp_path / "pid"

    async def first_chunk() -> Any:
        async for event in r.astream(
            "run_shell", {"command": f"echo $$ > {pid_file}; echo go; sleep 30"}
        ):
            return event
        return None

    assert asyncio.run(first_chunk()).text == "go\n"
    pid = int(pid_file.read_text())
    deadline = time.monotonic() + 5
    while not dead(pid) and time.monotonic() < deadline:
        time.sleep(0.05)
    assert dead(pid)  # leaving the stream closed it, and closing killed the process group


def test_toolgen_call_prints_a_streams_events_as_they_come(root: Path) -> None:
    """Run as a person would: the first event is on stderr before the command has finished."""
    import json
    import subprocess
    import sys

    from tests.support.generation import REPO

    env = {
        **os.environ,
        "TOOLGEN_ENABLE_PROCESSES": "1",
        "TOOLGEN_WORKSPACE": str(root),
        "PYTHONPATH": os.pathsep.join(
            [str(REPO / "generator"), str(REPO / "generated"), str(REPO)]
        ),
    }
    command = [
        sys.executable,
        "-m",
        "toolgen",
        "call",
        "run_shell",
        json.dumps({"command": "echo one; sleep 1.5; echo two"}),
    ]
    started = time.monotonic()
    proc = subprocess.Popen(
        command, cwd=REPO, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True
    )
    assert proc.stderr is not None and proc.stdout is not None
    first = proc.stderr.readline()
    first_at = time.monotonic() - started
    rest, _ = proc.communicate(timeout=30)
    ended_at = time.monotonic() - started
    assert json.loads(first) == {"type": "chunk", "text": "one\n"}
    assert first_at < ended_at - 1.0, (first_at, ended_at)  # it came while the command still ran
    assert proc.returncode == 0 and json.loads(rest)["result"]["stdout"] == "one\ntwo\n"
