"""Process tools: run a shell command or a Python program, bounded in time, output and environment.

They are not registered unless the host enables them (`registry(root, enable_processes=True)`):
a process can read and write anything the host user can, whatever its working directory.
Within that, each call:

- starts in its own session (a new process group) with a working directory under the root,
  standard input closed (or, for Python, the program text, then end-of-file);
- gets only the environment the policy builds: PATH, LANG, HOME (the workspace root), TERM,
  plus the host variables named in `env_allow` and the values in `env`. Nothing else of the
  host's environment (tokens, keys) is inherited;
- is read through non-blocking pipes: each stream keeps its first `max_output_bytes`; more is
  read and dropped, and once `max_discarded_bytes` have been dropped the whole group is killed
  (`killed: output_limit`), so memory stays bounded and a command that prints without end ends;
- is killed, with every process of its group, at the deadline (`killed: timeout`); and the
  group is killed once the command exits too, so background children never outlive the call.
  A child that leaves the group (setsid, daemons) escapes this: use a container for that.
"""

from __future__ import annotations

import os
import selectors
import signal
import subprocess
import sys
import time
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Literal

from toolgen_builtin import ToolError
from toolgen_builtin.tools.run_python import RunPythonArguments, RunPythonResult, RunPythonTool
from toolgen_builtin.tools.run_shell import RunShellArguments, RunShellResult, RunShellTool

from .files import Workspace

_CHUNK = 65536
_POLL_S = 0.01
DEFAULT_PATH = "/usr/local/bin:/usr/bin:/bin"


@dataclass(frozen=True)
class ProcessPolicy:
    """What a host allows the process tools."""

    max_timeout_s: float = 120.0  # a model's timeout_s is lowered to this
    max_output_bytes: int = 100_000  # kept per stream (stdout, stderr)
    max_discarded_bytes: int = 10_000_000  # dropped past the cap before the group is killed
    env_allow: frozenset[str] = frozenset()  # host environment variables passed through, by name
    env: Mapping[str, str] = field(default_factory=dict)  # values set for every process
    shell: str = "/bin/sh"
    python: str = sys.executable

    def environment(self, home: Path) -> dict[str, str]:
        env = {
            "PATH": os.environ.get("PATH") or DEFAULT_PATH,
            "LANG": "C.UTF-8",
            "HOME": str(home),
            "TERM": "dumb",
            "PYTHONIOENCODING": "utf-8",
        }
        env.update({name: os.environ[name] for name in sorted(self.env_allow) if name in os.environ})
        env.update(self.env)
        return env


Killed = Literal["timeout", "output_limit"] | None


@dataclass
class _Stream:
    keep: int
    data: bytearray = field(default_factory=bytearray)
    dropped: int = 0

    def add(self, chunk: bytes) -> None:
        room = self.keep - len(self.data)
        if room > 0:
            self.data += chunk[:room]
        self.dropped += max(0, len(chunk) - max(room, 0))

    def text(self) -> str:
        return self.data.decode("utf-8", errors="replace")


def run_process(argv: list[str], cwd: Path, timeout_s: float, policy: ProcessPolicy, home: Path,
                stdin: bytes | None = None) -> dict[str, Any]:
    """Run `argv` under the policy; the fields of the process tools' result."""
    started = time.monotonic()
    deadline = started + min(timeout_s, policy.max_timeout_s)
    try:
        proc = subprocess.Popen(
            argv, cwd=cwd, env=policy.environment(home), start_new_session=True, close_fds=True,
            stdin=subprocess.DEVNULL if stdin is None else subprocess.PIPE,
            stdout=subprocess.PIPE, stderr=subprocess.PIPE,
        )
    except OSError as exc:
        raise ToolError("start_failed", f"could not start {argv[0]}: {exc.strerror or exc}") from None
    out, err = _Stream(policy.max_output_bytes), _Stream(policy.max_output_bytes)
    killed: Killed = None
    try:
        killed = _pump(proc, stdin, deadline, out, err, policy.max_discarded_bytes)
        if killed is None and not _exited(proc.pid, deadline):
            killed = "timeout"  # it closed its output but kept running
    finally:
        # The leader is not reaped yet, so its pid (= the group id) cannot have been reused.
        try:
            os.killpg(proc.pid, signal.SIGKILL)
        except (ProcessLookupError, PermissionError):
            pass
        proc.wait()
        for pipe in (proc.stdin, proc.stdout, proc.stderr):
            if pipe is not None and not pipe.closed:
                pipe.close()
    return {
        "exit_code": None if killed else proc.returncode,
        "stdout": out.text(),
        "stderr": err.text(),
        "truncated": bool(out.dropped or err.dropped),
        "killed": killed,
        "duration_s": round(time.monotonic() - started, 3),
    }


def _pump(proc: subprocess.Popen[bytes], stdin: bytes | None, deadline: float,
          out: _Stream, err: _Stream, max_discarded: int) -> Killed:
    """Feed stdin and read both streams until end-of-file; why the process must be killed, if it must."""
    assert proc.stdout is not None and proc.stderr is not None
    selector = selectors.DefaultSelector()
    streams = {proc.stdout.fileno(): out, proc.stderr.fileno(): err}
    for fd in streams:
        os.set_blocking(fd, False)
        selector.register(fd, selectors.EVENT_READ)
    pending = memoryview(stdin or b"")
    if proc.stdin is not None:
        os.set_blocking(proc.stdin.fileno(), False)
        selector.register(proc.stdin.fileno(), selectors.EVENT_WRITE)
    try:
        while selector.get_map():
            remaining = deadline - time.monotonic()
            if remaining <= 0:
                return "timeout"
            for key, _ in selector.select(remaining):
                fd = key.fd
                if fd in streams:
                    try:
                        chunk = os.read(fd, _CHUNK)
                    except BlockingIOError:
                        continue
                    if not chunk:
                        selector.unregister(fd)
                        continue
                    streams[fd].add(chunk)
                    if out.dropped + err.dropped > max_discarded:
                        return "output_limit"
                else:
                    assert proc.stdin is not None
                    try:
                        pending = pending[os.write(fd, pending[:_CHUNK]):]
                    except BlockingIOError:
                        continue
                    except BrokenPipeError:
                        pending = pending[:0]
                    if not pending:
                        selector.unregister(fd)
                        proc.stdin.close()
        return None
    finally:
        selector.close()


def _exited(pid: int, deadline: float) -> bool:
    """Wait until `pid` exits (without reaping it) or the deadline passes."""
    while True:
        try:
            if os.waitid(os.P_PID, pid, os.WEXITED | os.WNOHANG | os.WNOWAIT) is not None:
                return True
        except ChildProcessError:
            return True
        if time.monotonic() >= deadline:
            return False
        time.sleep(_POLL_S)


def working_directory(workspace: Workspace, cwd: str) -> Path:
    target = workspace.resolve(cwd)
    if not target.is_dir():
        if not target.exists():
            raise ToolError("not_found", f"the working directory {cwd} does not exist")
        raise ToolError("not_a_directory", f"{cwd} is not a directory")
    return target


class RunShell(RunShellTool):
    def __init__(self, workspace: Workspace, policy: ProcessPolicy) -> None:
        self.workspace, self.policy = workspace, policy

    def run(self, arguments: RunShellArguments) -> RunShellResult:
        cwd = working_directory(self.workspace, arguments.cwd)
        outcome = run_process([self.policy.shell, "-c", arguments.command], cwd, arguments.timeout_s,
                              self.policy, self.workspace.root.resolve())
        return RunShellResult.model_validate(outcome)


class RunPython(RunPythonTool):
    def __init__(self, workspace: Workspace, policy: ProcessPolicy) -> None:
        self.workspace, self.policy = workspace, policy

    def run(self, arguments: RunPythonArguments) -> RunPythonResult:
        cwd = working_directory(self.workspace, arguments.cwd)
        # The program goes in on standard input ("-"), not argv: no argument-length limit, not
        # visible in `ps`. sys.path[0] is then the working directory, as with `python -c`.
        outcome = run_process([self.policy.python, "-s", "-"], cwd, arguments.timeout_s, self.policy,
                              self.workspace.root.resolve(), stdin=arguments.code.encode("utf-8"))
        return RunPythonResult.model_validate(outcome)
