"""What each formatting strategy costs on one rendered package (decision 0007).

    python benchmarks/formatting.py [--tools 1000] [--jobs 2]

Renders N synthetic tools once, then times, in this process, on the rendered files:
  A  black on every Python file, misses spread over a process pool, results cached by
     content (cold: empty cache; warm: every file a cache hit);
  B  nothing: the renderer already emits black's layout; what B costs instead is the
     test that proves it (black once over every file, serial), reported apart;
  C  (only where toolgen.format still has `in_black_layout`) black on the files the
     layout check does not clear, with the same cache and pool.
Also counts the files that are not black-stable as rendered.
"""

from __future__ import annotations

import argparse
import hashlib
import multiprocessing
import os
import sys
import tempfile
import time
from collections.abc import Callable
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

import black  # noqa: E402
from _util import load, machine, table  # noqa: E402
from black.mode import Mode, TargetVersion  # noqa: E402
from synthetic import write_specs  # noqa: E402

MODE = Mode(target_versions={TargetVersion.PY311}, line_length=100)


def _format(job: tuple[str, str]) -> str:
    source, entry = job
    out = black.format_str(source, mode=MODE)
    Path(entry).parent.mkdir(parents=True, exist_ok=True)
    Path(entry).write_text(out, "utf-8")
    return out


def black_cached(files: dict[str, str], cache: Path, jobs: int) -> dict[str, str]:
    """Strategy A's mechanism: content cache, misses over a fork pool."""
    out: dict[str, str] = {}
    misses: dict[str, tuple[str, str]] = {}
    for path, text in files.items():
        key = hashlib.sha256(text.encode()).hexdigest()
        entry = cache / key[:2] / key
        try:
            out[path] = entry.read_text("utf-8")
        except OSError:
            misses[path] = (text, str(entry))
    if jobs > 1 and len(misses) >= 24:
        with ProcessPoolExecutor(jobs, mp_context=multiprocessing.get_context("fork")) as pool:
            out.update(
                zip(
                    misses,
                    pool.map(_format, misses.values(), chunksize=max(1, len(misses) // (jobs * 8))),
                    strict=False,
                )
            )
    else:
        out.update((path, _format(job)) for path, job in misses.items())
    return out


def timed(function: Callable[[], object]) -> float:
    start = time.perf_counter()
    function()
    return time.perf_counter() - start


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tools", type=int, default=1000)
    parser.add_argument("--jobs", type=int, default=len(os.sched_getaffinity(0)))
    args = parser.parse_args()
    os.environ["TOOLGEN_NO_CACHE"] = "1"
    from toolgen import format as formatting
    from toolgen.check import run
    from toolgen.load.specs import load_specs
    from toolgen.lower import lower
    from toolgen.render import render_package

    with tempfile.TemporaryDirectory(prefix="toolgen-formatting-") as tmp:
        write_specs(Path(tmp) / "specs", args.tools)
        ir = lower(run(load_specs(Path(tmp) / "specs"))[1], "bench")
        try:
            from toolgen.config import BuildOptions

            rendered = render_package(ir, BuildOptions(package="bench"))
        except ImportError:
            rendered = render_package(ir)
        python = {p: t for p, t in rendered.items() if p.endswith(".py")}
        rows: list[list[str]] = []
        cache = Path(tmp) / "a"
        rows.append(
            [
                f"A cold: black on all {len(python)} files, pool of {args.jobs}",
                f"{timed(lambda: black_cached(python, cache, args.jobs)):.3f}",
            ]
        )
        rows.append(
            [
                "A warm: the same, every file a cache hit",
                f"{timed(lambda: black_cached(python, cache, args.jobs)):.3f}",
            ]
        )
        rows.append(["B cold and warm: nothing to do", "0.000"])
        start = time.perf_counter()
        unstable = [p for p, t in python.items() if black.format_str(t, mode=MODE) != t]
        rows.append(
            [
                f"B's proof: black once over all {len(python)} files, serial (a test, not a build)",
                f"{time.perf_counter() - start:.3f}",
            ]
        )
        laid_out = getattr(formatting, "in_black_layout", None)
        if laid_out is not None:
            sent = {p: t for p, t in python.items() if "/_runtime/" in p or not laid_out(t)}
            cache = Path(tmp) / "c"
            rows.append(
                [
                    f"C cold: layout check on all, black on the {len(sent)} it does not clear",
                    f"{timed(lambda: ([laid_out(t) for t in python.values()], black_cached(sent, cache, args.jobs))):.3f}",
                ]
            )
            rows.append(
                [
                    "C warm: the same, cache hits",
                    f"{timed(lambda: ([laid_out(t) for t in python.values()], black_cached(sent, cache, args.jobs))):.3f}",
                ]
            )
    print(f"machine: {machine()}; {load()}")
    print(
        f"\n{args.tools} tools; {len(unstable)} of {len(python)} Python files not black-stable as rendered"
        + (
            f" ({', '.join(sorted(unstable)[:8])}{', ...' if len(unstable) > 8 else ''})"
            if unstable
            else ""
        )
        + "\n"
    )
    print(table(["strategy", "seconds"], rows))


if __name__ == "__main__":
    main()
