"""Resource limits for the children of run_shell and run_python, and telling which one was hit.

Each child gets, before it runs anything (a preexec function between fork and exec):

- RLIMIT_AS (address space; a Python program gets MemoryError, a C program NULL from malloc),
- RLIMIT_CPU (seconds of CPU: SIGXCPU at the limit, SIGKILL one second later),
- RLIMIT_FSIZE (the largest file it may write: SIGXFSZ, or EFBIG where the signal is ignored,
  as Python ignores it),
- RLIMIT_NOFILE (open descriptors), and RLIMIT_CORE 0 (no core dump on SIGXCPU),
- RLIMIT_NPROC, for a host that does not run as root. The kernel counts it per *user* (every
  process and thread of the uid, not of the call), so the limit is set to the user's current
  count plus `processes`. The kernel does not enforce RLIMIT_NPROC on root (nor on a process
  with CAP_SYS_RESOURCE or CAP_SYS_ADMIN), so on top of it the supervisor counts the
  processes of the child's process group while it runs and kills the group past the limit.
  That count is polled, so a fast fork bomb can overshoot it for one interval, and a process
  that leaves the group (setsid) is not counted: a pids cgroup (or a container) is the real
  bound; see docs/builtin-tools.md.

All limits are per process (each child gets the whole allowance), except the process count.
"""

from __future__ import annotations

import os
import re
import resource
import signal
from collections.abc import Callable, Mapping
from dataclasses import dataclass

Limit = int | None  # None: not limited

MB = 1 << 20
_SHELL_SIGNALLED = 128  # a POSIX shell reports a command killed by signal N as exit status 128 + N


@dataclass(frozen=True)
class ResourceLimits:
    """Per-call resource limits of the process tools (None: unlimited)."""

    memory_bytes: Limit = 4096 * MB  # address space of each process (RLIMIT_AS)
    cpu_s: Limit = 120  # CPU seconds of each process (RLIMIT_CPU)
    file_bytes: Limit = 1024 * MB  # size of a file a process writes (RLIMIT_FSIZE)
    open_files: Limit = 1024  # descriptors of each process (RLIMIT_NOFILE)
    processes: Limit = (
        256  # processes at once in the call's process group (RLIMIT_NPROC when not root)
    )

    # Environment variables a host sets to change them ("0" or "unlimited": no limit).
    ENVIRONMENT = {
        "memory_bytes": ("TOOLGEN_PROCESS_MEMORY_MB", MB),
        "cpu_s": ("TOOLGEN_PROCESS_CPU_S", 1),
        "file_bytes": ("TOOLGEN_PROCESS_FILE_MB", MB),
        "open_files": ("TOOLGEN_PROCESS_OPEN_FILES", 1),
        "processes": ("TOOLGEN_PROCESS_MAX_PROCESSES", 1),
    }

    @classmethod
    def from_environment(cls, environ: Mapping[str, str] | None = None) -> ResourceLimits:
        """The defaults, overridden by the TOOLGEN_PROCESS_* variables that are set."""
        environ = os.environ if environ is None else environ
        values: dict[str, Limit] = {}
        for name, (variable, unit) in cls.ENVIRONMENT.items():
            raw = environ.get(variable, "").strip().lower()
            if not raw:
                continue
            if raw in ("0", "unlimited", "none"):
                values[name] = None
            elif raw.isdigit():
                values[name] = int(raw) * unit
            else:
                raise ValueError(
                    f"{variable}={raw!r}: expected a whole number, or 0 or 'unlimited'"
                )
        return cls(**values)

    def preexec(self) -> Callable[[], None]:
        """A function for Popen's preexec_fn: it only calls setrlimit with values computed here."""
        settings: list[tuple[int, tuple[int, int]]] = [(resource.RLIMIT_CORE, (0, 0))]
        for which, value, grace in (
            (resource.RLIMIT_AS, self.memory_bytes, 0),
            (
                resource.RLIMIT_CPU,
                self.cpu_s,
                1,
            ),  # SIGXCPU at the soft limit, SIGKILL at the hard one
            (resource.RLIMIT_FSIZE, self.file_bytes, 0),
            (resource.RLIMIT_NOFILE, self.open_files, 0),
            (resource.RLIMIT_NPROC, _user_process_limit(self.processes), 0),
        ):
            if value is not None:
                settings.append((which, _lowered(which, value, grace)))

        def apply() -> None:  # runs in the child between fork and exec: nothing but system calls
            for which, pair in settings:
                resource.setrlimit(which, pair)

        return apply


def _lowered(which: int, value: int, grace: int) -> tuple[int, int]:
    """(soft, hard) no higher than the host's own hard limit (an unprivileged host cannot raise it)."""
    _, hard = resource.getrlimit(which)
    wanted_hard = value + grace
    if hard != resource.RLIM_INFINITY:
        wanted_hard = min(wanted_hard, hard)
    return min(value, wanted_hard), wanted_hard


def _user_process_limit(allowed: Limit) -> Limit:
    """RLIMIT_NPROC for `allowed` more processes of this user; None for root (exempt anyway)."""
    if allowed is None or os.geteuid() == 0:
        return None
    return user_tasks(os.getuid()) + allowed


def user_tasks(uid: int) -> int:
    """Processes and threads of `uid` now: what the kernel compares with RLIMIT_NPROC."""
    count = 0
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            with open(f"/proc/{entry}/status", encoding="ascii", errors="replace") as handle:
                status = handle.read()
        except OSError:
            continue
        uid_line = re.search(r"^Uid:\s+(\d+)", status, re.MULTILINE)
        threads = re.search(r"^Threads:\s+(\d+)", status, re.MULTILINE)
        if uid_line and int(uid_line.group(1)) == uid:
            count += int(threads.group(1)) if threads else 1
    return count


def group_size(pgid: int) -> int:
    """How many live processes are in process group `pgid` (zombies not counted)."""
    count = 0
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            with open(f"/proc/{entry}/stat", "rb") as handle:
                fields = handle.read().rsplit(b")", 1)[1].split()
        except (OSError, IndexError):
            continue
        # After the command name: state, ppid, pgrp, ...
        if len(fields) > 2 and fields[2] == str(pgid).encode() and fields[0] not in (b"Z", b"X"):
            count += 1
    return count


# What a limit looks like from outside: the exit status, and the last line of standard error.
_STDERR_SIGNS = (
    ("memory", re.compile(r"\bMemoryError\b|Cannot allocate memory|std::bad_alloc")),
    ("file_size", re.compile(r"File too large")),
    ("open_files", re.compile(r"Too many open files")),
    (
        "processes",
        re.compile(
            r"[Cc]annot fork|fork.*Resource temporarily unavailable|"
            r"Resource temporarily unavailable.*fork|BlockingIOError: \[Errno 11\]"
        ),
    ),
)


def diagnose(limits: ResourceLimits, exit_code: int, cpu_s: float, stderr: str) -> str | None:
    """Which limit (memory, cpu, file_size, open_files, processes) ended the program, if one visibly did."""
    signalled = (
        -exit_code
        if exit_code < 0
        else exit_code - _SHELL_SIGNALLED
        if exit_code > _SHELL_SIGNALLED
        else 0
    )
    # The kernel sends SIGXCPU at the soft CPU-time limit and SIGKILL at the hard one; either
    # signal is the limit's only when the CPU time shows it (a command may send itself one). On a
    # loaded machine the time rusage reads can fall short of the limit the kernel measured, so
    # half of it is proof enough.
    if (
        limits.cpu_s is not None
        and cpu_s >= limits.cpu_s / 2
        and signalled in (signal.SIGXCPU, signal.SIGKILL)
    ):
        return "cpu"
    if limits.file_bytes is not None and signalled == signal.SIGXFSZ:
        return "file_size"
    if exit_code == 0:
        return None
    tail = [line for line in stderr.splitlines() if line.strip()][-3:]
    for name, sign in _STDERR_SIGNS:
        if getattr(limits, _FIELDS[name]) is not None and any(sign.search(line) for line in tail):
            return name
    return None


_FIELDS = {
    "memory": "memory_bytes",
    "cpu": "cpu_s",
    "file_size": "file_bytes",
    "open_files": "open_files",
    "processes": "processes",
}


def _size(value: int) -> str:
    return f"{value // MB} MB" if value % MB == 0 else f"{value} bytes"


def describe(limits: ResourceLimits, name: str) -> str:
    """The limit in words, e.g. "the memory limit (256 MB of address space per process)"."""
    value = getattr(limits, _FIELDS[name])
    return {
        "memory": f"the memory limit ({_size(value)} of address space per process)",
        "cpu": f"the CPU-time limit ({value} s per process)",
        "file_size": f"the file-size limit ({_size(value)} per file)",
        "open_files": f"the open-files limit ({value} per process)",
        "processes": f"the process limit ({value} at once)",
    }[name]
