"""Shared helpers for the benchmarks: subprocess timing, environment, tables."""

from __future__ import annotations

import os
import platform
import resource
import statistics
import subprocess
import sys
import time
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
PYTHON = sys.executable
BIN = Path(sys.executable).parent


@dataclass
class Timing:
    walls: list[float] = field(default_factory=list)
    cpus: list[float] = field(default_factory=list)

    @property
    def wall(self) -> float:
        return statistics.median(self.walls)

    @property
    def cpu(self) -> float:
        return statistics.median(self.cpus)

    def add(self, wall: float, cpu: float) -> None:
        self.walls.append(wall)
        self.cpus.append(cpu)


def bench_env(pycache: Path, **extra: str) -> dict[str, str]:
    """The environment of measured subprocesses: bytecode on (as after a wheel install),
    kept under `pycache` so the source tree is not touched; under $TOOLGEN_BENCH_PYCACHE
    when set (the smoke tests share one folder, so each benchmark does not compile the
    standard library and the SDKs again: what they check is that the benchmarks run)."""
    env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
    env["PYTHONPYCACHEPREFIX"] = os.environ.get("TOOLGEN_BENCH_PYCACHE") or str(pycache)
    env.pop("TOOLGEN_NO_CACHE", None)
    env.pop("TOOLGEN_JOBS", None)
    env.update(extra)
    return env


def run(
    cmd: Sequence[str], env: dict[str, str], cwd: Path | None = None, ok: Sequence[int] = (0,)
) -> tuple[float, float, str]:
    """Run a command; (wall seconds, CPU seconds of it and its children, stdout)."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    proc = subprocess.run(list(cmd), env=env, cwd=cwd, capture_output=True, text=True)
    wall = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    if proc.returncode not in ok:
        raise RuntimeError(f"{' '.join(cmd)} exited {proc.returncode}\n{proc.stderr[-3000:]}")
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return wall, cpu, proc.stdout


def machine() -> str:
    cpu = "unknown CPU"
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                cpu = line.split(":", 1)[1].strip()
                break
    except OSError:
        pass
    cores = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count()
    return f"{cores} CPU ({cpu}), {platform.system()} {platform.release()}, Python {platform.python_version()}"


def load() -> str:
    one, five, _ = os.getloadavg()
    return f"load average {one:.2f} (1 min), {five:.2f} (5 min)"


def table(header: Sequence[str], rows: Sequence[Sequence[str]]) -> str:
    lines = [
        "| " + " | ".join(header) + " |",
        "|" + "|".join("---" if i == 0 else "---:" for i in range(len(header))) + "|",
    ]
    lines += ["| " + " | ".join(row) + " |" for row in rows]
    return "\n".join(lines)


def seconds(value: float) -> str:
    return f"{value:.3f}" if value < 10 else f"{value:.1f}"


def ratio(a: float, b: float) -> str:
    return f"{a / b:.2f}×" if b else "n/a"
