"""Resource limits of the process tools: small, bounded bombs end in the declared resource_limit error.

Every bomb here is bounded even if its limit failed: 2 GB allocated once, a CPU loop the
call's timeout ends, at most 200 processes that each end by themselves within seconds.
"""

from __future__ import annotations

import os
import resource
import sys
import time
from pathlib import Path
from typing import Any

import pytest

import toolgen_builtin
from implementations import ProcessPolicy, ResourceLimits, registry
from implementations.limits import MB, group_size
from tests.support.builtin_support import within

PY = sys.executable


@pytest.fixture
def root(tmp_path: Path) -> Path:
    root = tmp_path / "root"
    root.mkdir()
    return root


def tools(root: Path, **limits: Any) -> Any:
    return registry(root, processes=ProcessPolicy(limits=ResourceLimits(**limits)))


def call(r: Any, tool: str, **arguments: Any) -> Any:
    return within(30, lambda: r.call(tool, {"timeout_s": 20, **arguments}))


def limit_hit(result: Any, words: str) -> str:
    """The message of a resource_limit failure, which must name the limit."""
    assert result.failure is not None and result.failure.kind == "resource_limit", result.text()
    assert words in result.failure.message, result.failure.message
    return str(result.failure.message)


def test_resource_limit_is_declared() -> None:
    for name in ("run_shell", "run_python"):
        assert "resource_limit" in toolgen_builtin.tool_info(name).errors


def test_a_memory_bomb_gets_memory_error(root: Path) -> None:
    r = tools(root, memory_bytes=256 * MB)
    message = limit_hit(
        call(r, "run_python", code="print('start')\nx = bytearray(2 * 1024 ** 3)\n"),
        "the memory limit (256 MB of address space per process)",
    )
    assert "MemoryError" in message and "start" in message  # the end of both streams
    shell = call(r, "run_shell", command=f"'{PY}' -c 'bytearray(2 * 1024 ** 3)'")
    limit_hit(shell, "memory limit")
    fine = call(r, "run_python", code="x = bytearray(50 * 1024 ** 2)\nprint(len(x))")
    assert fine.ok and fine.to_dict()["result"]["stdout"] == f"{50 * MB}\n"


def test_a_cpu_loop_is_stopped_at_its_cpu_limit(root: Path) -> None:
    r = tools(root, cpu_s=1)
    for tool, arguments in (
        ("run_python", {"code": "while True:\n    pass\n"}),
        ("run_shell", {"command": "while :; do :; done"}),
        ("run_shell", {"command": f"'{PY}' -c 'while True: pass'"}),
    ):
        started = time.monotonic()
        limit_hit(call(r, tool, **arguments), "the CPU-time limit (1 s per process)")
        assert time.monotonic() - started < 10, arguments  # not the 20 s timeout
    # A command that goes on after one of its processes hit a limit was not ended by it.
    went_on = call(r, "run_shell", command=f"'{PY}' -c 'while True: pass'; echo after")
    assert went_on.ok and went_on.to_dict()["result"]["stdout"] == "after\n", went_on.text()
    assert (
        "CPU time limit exceeded" in went_on.to_dict()["result"]["stderr"]
    )  # the shell says what happened


def test_a_bounded_fork_bomb_is_stopped_at_the_process_limit(root: Path) -> None:
    r = tools(root, processes=20)
    # 200 processes at most, each ending by itself after 5 s: survivable even if the limit failed.
    # One new process every 20 ms: the limit, counted every few tens of ms, must stop the bomb
    # long before its 200th, however loaded the machine (unpaced, a shell can start all 200
    # between two counts when the machine is busy).
    bombs = [
        (
            "run_shell",
            {
                "command": "for i in $(seq 200); do sleep 5 & echo $! >> pids; sleep 0.02; done; wait"
            },
        ),
        (
            "run_python",
            {
                "code": "import os, time\nfor i in range(200):\n    pid = os.fork()\n    if pid == 0:\n"
                "        time.sleep(5)\n        os._exit(0)\n    open('pids', 'a').write(f'{pid}\\n')\n"
                "    time.sleep(0.02)\nos.wait()\n"
            },
        ),
    ]
    for tool, arguments in bombs:
        (root / "pids").unlink(missing_ok=True)
        started = time.monotonic()
        limit_hit(call(r, tool, **arguments), "the process limit (20 at once)")
        assert time.monotonic() - started < 5, tool  # killed, not waited for
        pids = [int(line) for line in (root / "pids").read_text().split()]
        # The group counts the bomb itself too, and the shell's paced `sleep 0.02` while it runs:
        # it is stopped with 18 to 20 children started (at most 20 processes at once in all).
        assert 18 <= len(pids) < 200, tool
        deadline = time.monotonic() + 3
        while any(_alive(pid) for pid in pids) and time.monotonic() < deadline:
            time.sleep(0.05)
        assert not [pid for pid in pids if _alive(pid)], tool


def _alive(pid: int) -> bool:
    try:
        with open(f"/proc/{pid}/stat") as handle:
            return handle.read().rsplit(")", 1)[1].split()[0] not in ("Z", "X")
    except FileNotFoundError:
        return False


def test_a_file_past_the_size_limit(root: Path) -> None:
    r = tools(root, file_bytes=1 * MB)
    limit_hit(
        call(r, "run_shell", command="head -c 2000000 /dev/zero > big"),
        "file-size limit (1 MB per file)",
    )
    assert (root / "big").stat().st_size == MB  # written up to the limit, no further
    limit_hit(
        call(r, "run_python", code="open('big2', 'wb').write(b'x' * 2_000_000)"), "file-size limit"
    )
    assert call(r, "run_shell", command="head -c 1000 /dev/zero > small").ok


def test_too_many_open_files(root: Path) -> None:
    r = tools(root, open_files=32)
    code = "files = [open(f'f{i}', 'w') for i in range(100)]"
    limit_hit(call(r, "run_python", code=code), "open-files limit (32 per process)")


def test_the_child_runs_under_the_limits(root: Path) -> None:
    r = tools(root, memory_bytes=512 * MB, cpu_s=7, file_bytes=3 * MB, open_files=64, processes=30)
    code = (
        "import resource as r\nfor name in ('AS', 'CPU', 'FSIZE', 'NOFILE', 'CORE', 'NPROC'):\n"
        "    print(name, *r.getrlimit(getattr(r, 'RLIMIT_' + name)))"
    )
    out = call(r, "run_python", code=code)
    assert out.ok, out.text()
    limits = dict(line.split(" ", 1) for line in out.to_dict()["result"]["stdout"].splitlines())
    assert limits["AS"] == f"{512 * MB} {512 * MB}" and limits["CPU"] == "7 8"
    assert (
        limits["FSIZE"] == f"{3 * MB} {3 * MB}"
        and limits["NOFILE"] == "64 64"
        and limits["CORE"] == "0 0"
    )
    nproc = " ".join(map(str, resource.getrlimit(resource.RLIMIT_NPROC)))
    if os.geteuid() == 0:
        assert (
            limits["NPROC"] == nproc
        )  # root is exempt from RLIMIT_NPROC: the group count bounds it
    else:
        assert limits["NPROC"] != nproc  # the user's processes now, plus 30


def test_limits_that_were_not_hit_are_not_blamed(root: Path) -> None:
    r = tools(root, cpu_s=1, memory_bytes=256 * MB)
    for command, code in (("exit 152", 152), ("echo MemoryError >&2", 0), ("kill -XCPU $$", -24)):
        out = call(r, "run_shell", command=command)
        assert out.ok and out.to_dict()["result"]["exit_code"] == code, (command, out.text())


def test_unlimited_and_from_the_environment(root: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    assert ResourceLimits.from_environment({}) == ResourceLimits()
    env = {
        "TOOLGEN_PROCESS_MEMORY_MB": "300",
        "TOOLGEN_PROCESS_CPU_S": "unlimited",
        "TOOLGEN_PROCESS_FILE_MB": "0",
        "TOOLGEN_PROCESS_OPEN_FILES": "50",
        "TOOLGEN_PROCESS_MAX_PROCESSES": "9",
    }
    assert ResourceLimits.from_environment(env) == ResourceLimits(
        memory_bytes=300 * MB, cpu_s=None, file_bytes=None, open_files=50, processes=9
    )
    with pytest.raises(ValueError, match="TOOLGEN_PROCESS_CPU_S"):
        ResourceLimits.from_environment({"TOOLGEN_PROCESS_CPU_S": "1.5"})
    monkeypatch.setenv("TOOLGEN_PROCESS_CPU_S", "3")  # how a host configures `toolgen call`
    r = registry(root, enable_processes=True)
    out = call(
        r, "run_python", code="import resource\nprint(*resource.getrlimit(resource.RLIMIT_CPU))"
    )
    assert out.to_dict()["result"]["stdout"] == "3 4\n"


def test_group_size_counts_live_members() -> None:
    assert group_size(os.getpgid(0)) >= 1
    assert group_size(2**22 + 12345) == 0  # no such group
