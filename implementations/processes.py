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
  A child that leaves the group (setsid, daemons) escapes this: use a container for that;
- runs under resource limits (memory, CPU time, file size, open files, processes; see
  implementations/limits.py); a program ended by one fails with the declared `resource_limit`
  error, which names the limit and carries the end of its output.
"""

from __future__ import annotations

import codecs
import os
import selectors
import signal
import subprocess
import sys
import time
from collections.abc import Generator, Iterator, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Literal

from toolgen_builtin import Chunk, ToolError, cancelled
from toolgen_builtin.tools.run_python import RunPythonArguments, RunPythonResult, RunPythonTool
from toolgen_builtin.tools.run_shell import RunShellArguments, RunShellResult, RunShellTool

from .files import Workspace
from .limits import ResourceLimits, describe, diagnose, group_size

_CHUNK = 65536
_POLL_S = 0.01
_COUNT_EVERY_S = 0.05  # how often the processes of a call's group are counted
_POLL_S = 0.1  # how often a command waiting in silence looks whether its call is over
_TAIL_CHARS = 2000  # of each stream, in a resource_limit message
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
    limits: ResourceLimits = field(default_factory=ResourceLimits)

    def environment(self, home: Path) -> dict[str, str]:
        env = {
            "PATH": os.environ.get("PATH") or DEFAULT_PATH,
            "LANG": "C.UTF-8",
            "HOME": str(home),
            "TERM": "dumb",
            "PYTHONIOENCODING": "utf-8",
        }
        env.update(
            {name: os.environ[name] for name in sorted(self.env_allow) if name in os.environ}
        )
        env.update(self.env)
        return env


Killed = (
    Literal["timeout", "output_limit", "processes"] | None
)  # "processes" becomes resource_limit


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


class _Watch:
    """Counts the processes of the call's group now and then; past the limit the group must go."""

    def __init__(self, pgid: int, limit: int | None) -> None:
        self.pgid, self.limit, self.next = pgid, limit, 0.0

    def over(self) -> bool:
        if self.limit is None or time.monotonic() < self.next:
            return False
        self.next = time.monotonic() + _COUNT_EVERY_S
        return group_size(self.pgid) > self.limit

    def wait_s(self, remaining: float) -> float:
        return remaining if self.limit is None else min(remaining, _COUNT_EVERY_S)


def run_process(
    argv: list[str],
    cwd: Path,
    timeout_s: float,
    policy: ProcessPolicy,
    home: Path,
    stdin: bytes | None = None,
) -> dict[str, Any]:
    """Run `argv` under the policy; the fields of the process tools' result (or resource_limit)."""
    process = stream_process(argv, cwd, timeout_s, policy, home, stdin)
    while True:
        try:
            next(process)
        except StopIteration as done:
            result: dict[str, Any] = done.value
            return result


def stream_process(
    argv: list[str],
    cwd: Path,
    timeout_s: float,
    policy: ProcessPolicy,
    home: Path,
    stdin: bytes | None = None,
) -> Generator[str, None, dict[str, Any]]:
    """`run_process`, yielding the output's text as it comes (both streams, in the order read);
    closed early, it kills the process group."""
    started = time.monotonic()
    deadline = started + min(timeout_s, policy.max_timeout_s)
    try:
        proc = subprocess.Popen(
            argv,
            cwd=cwd,
            env=policy.environment(home),
            start_new_session=True,
            close_fds=True,
            stdin=subprocess.DEVNULL if stdin is None else subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            preexec_fn=policy.limits.preexec(),
        )
    except OSError as exc:
        raise ToolError(
            "start_failed", f"could not start {argv[0]}: {exc.strerror or exc}"
        ) from None
    out, err = _Stream(policy.max_output_bytes), _Stream(policy.max_output_bytes)
    watch = _Watch(proc.pid, policy.limits.processes)
    killed: Killed = None
    cpu_s = 0.0
    try:
        killed = yield from _pump(
            proc, stdin, deadline, out, err, policy.max_discarded_bytes, watch
        )
        if killed is None:
            killed = _exited(
                proc.pid, deadline, watch
            )  # it may have closed its output but kept running
    finally:
        # The leader is not reaped yet, so its pid (= the group id) cannot have been reused.
        try:
            os.killpg(proc.pid, signal.SIGKILL)
        except (ProcessLookupError, PermissionError):
            pass
        _, status, usage = os.wait4(proc.pid, 0)
        proc.returncode = os.waitstatus_to_exitcode(status)
        cpu_s = usage.ru_utime + usage.ru_stime  # the leader and the children it waited for
        for pipe in (proc.stdin, proc.stdout, proc.stderr):
            if pipe is not None and not pipe.closed:
                pipe.close()
    limit = (
        "processes"
        if killed == "processes"
        else (
            diagnose(policy.limits, proc.returncode, cpu_s, err.text()) if killed is None else None
        )
    )
    if limit is not None:
        _limit_error(policy, limit, proc.returncode if killed is None else None, out, err)
    return {
        "exit_code": None if killed else proc.returncode,
        "stdout": out.text(),
        "stderr": err.text(),
        "truncated": bool(out.dropped or err.dropped),
        "killed": killed,
        "duration_s": round(time.monotonic() - started, 3),
    }


def _limit_error(
    policy: ProcessPolicy, limit: str, exit_code: int | None, out: _Stream, err: _Stream
) -> None:
    """Raise resource_limit: which limit, how the program ended, and the end of its output."""
    ended = (
        "it was killed"
        if exit_code is None
        else (
            f"it was ended by signal {-exit_code}"
            if exit_code < 0
            else f"it exited with status {exit_code}"
        )
    )
    tails = "".join(
        f"\n--- end of {name} ---\n{stream.text()[-_TAIL_CHARS:]}"
        for name, stream in (("stdout", out), ("stderr", err))
        if stream.data
    )
    raise ToolError(
        "resource_limit",
        f"the program hit {describe(policy.limits, limit)}; {ended}.{tails}",
        details={
            "limit": limit,
            "exit_code": exit_code,
            "stdout": out.text()[-_TAIL_CHARS:],
            "stderr": err.text()[-_TAIL_CHARS:],
        },
    )


def _pump(
    proc: subprocess.Popen[bytes],
    stdin: bytes | None,
    deadline: float,
    out: _Stream,
    err: _Stream,
    max_discarded: int,
    watch: _Watch,
) -> Generator[str, None, Killed]:
    """Feed stdin and read both streams until end-of-file, yielding the text of what is read
    (kept or not); why the process must be killed, if it must."""
    assert proc.stdout is not None and proc.stderr is not None
    selector = selectors.DefaultSelector()
    streams = {proc.stdout.fileno(): out, proc.stderr.fileno(): err}
    decoders = {fd: codecs.getincrementaldecoder("utf-8")("replace") for fd in streams}
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
            if remaining <= 0 or cancelled():  # past its deadline, or the call is over
                return "timeout"
            if watch.over():
                return "processes"
            for key, _ in selector.select(min(watch.wait_s(remaining), _POLL_S)):
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
                    if text := decoders[fd].decode(chunk):
                        yield text
                else:
                    assert proc.stdin is not None
                    try:
                        pending = pending[os.write(fd, pending[:_CHUNK]) :]
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


def _exited(pid: int, deadline: float, watch: _Watch) -> Killed:
    """Wait until `pid` exits (without reaping it); "timeout" or "processes" when it must be killed."""
    while True:
        try:
            if os.waitid(os.P_PID, pid, os.WEXITED | os.WNOHANG | os.WNOWAIT) is not None:
                return None
        except ChildProcessError:
            return None
        if time.monotonic() >= deadline:
            return "timeout"
        if watch.over():
            return "processes"
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

    def run(self, arguments: RunShellArguments) -> Iterator[Any]:
        """Streams: the command's output text as it is printed (Chunk events), then the result."""
        cwd = working_directory(self.workspace, arguments.cwd)
        process = stream_process(
            [self.policy.shell, "-c", arguments.command],
            cwd,
            arguments.timeout_s,
            self.policy,
            self.workspace.root.resolve(),
        )
        try:
            while True:
                try:
                    text = next(process)
                except StopIteration as done:
                    yield RunShellResult.model_validate(done.value)
                    return
                yield Chunk(text)
        finally:
            process.close()  # stopped early (its deadline, a cancelled call): the processes are killed


class RunPython(RunPythonTool):
    def __init__(self, workspace: Workspace, policy: ProcessPolicy) -> None:
        self.workspace, self.policy = workspace, policy

    def run(self, arguments: RunPythonArguments) -> RunPythonResult:
        cwd = working_directory(self.workspace, arguments.cwd)
        # The program goes in on standard input ("-"), not argv: no argument-length limit, not
        # visible in `ps`. sys.path[0] is then the working directory, as with `python -c`.
        outcome = run_process(
            [self.policy.python, "-s", "-"],
            cwd,
            arguments.timeout_s,
            self.policy,
            self.workspace.root.resolve(),
            stdin=arguments.code.encode("utf-8"),
        )
        return RunPythonResult.model_validate(outcome)
