"""A cold `toolgen generate` of commits against each other, alternating in one run.

    python benchmarks/cold.py --commits BEFORE,AFTER [--tools 1000] [--repeats 5] [--reuse-out]

Each commit's `generator/` and `templates/` come from `git archive` into a temporary folder,
put first on PYTHONPATH; each run is a fresh `python -m toolgen generate` of the seeded
synthetic specs (`synthetic.py`) into an empty output folder with an empty cache folder
(TOOLGEN_CACHE_DIR), bytecode compiled beforehand (as after a wheel install). The commits
take turns, so that the load of a shared machine falls on each alike. Printed per commit:
the median wall time, and the median CPU time of the process and its children (the build's
children and the one storing the cache entry), with the load average before and after.

Each run writes into folders of its own, deleted when the benchmark ends: ext4 without a
journal (this machine's) looks up, and skips, each inode of the block group freed in the last
minute (the last six while its inode table block is not written back yet) when it makes a
file (`recently_deleted` in a profile of the kernel); where thousands of files had just been
deleted, making one took 0.4-0.5 ms of system time against 16-40 µs elsewhere. Deleting the
last run's output just before a run puts that into its write; any mass deletion in the
minutes before a run (a test suite, a removed checkout) can too, so read the walls of one
run against each other. `--reuse-out` deletes and reuses one output folder and one cache
folder, as `generate.py` did.
"""

from __future__ import annotations

import argparse
import shutil
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from _util import PYTHON, ROOT, bench_env, load, machine, run  # noqa: E402
from synthetic import write_specs  # noqa: E402


def checkout(commit: str, into: Path) -> Path:
    """The commit's generator/ and templates/ under `into`; the folder to put on PYTHONPATH."""
    into.mkdir(parents=True)
    archive = subprocess.run(
        ["git", "-C", str(ROOT), "archive", commit, "generator", "templates"],
        check=True,
        capture_output=True,
    ).stdout
    subprocess.run(["tar", "-x", "-C", str(into)], input=archive, check=True)
    return into / "generator"


def generate(specs: Path, out: Path, cache: Path, path: Path, pycache: Path) -> tuple[float, float]:
    env = bench_env(pycache, TOOLGEN_CACHE_DIR=str(cache), PYTHONPATH=str(path))
    command = ["-m", "toolgen", "generate", "--specs", str(specs), "--out", str(out)]
    wall, cpu, _ = run([PYTHON, *command, "--package", "bench"], env, cwd=specs.parent)
    return wall, cpu


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--commits", required=True, help="commits, comma-separated")
    parser.add_argument("--tools", type=int, default=1000)
    parser.add_argument("--repeats", type=int, default=5)
    parser.add_argument("--reuse-out", action="store_true")
    args = parser.parse_args()
    commits = args.commits.split(",")
    print(f"machine: {machine()}")
    print(f"before: {load()}")
    with tempfile.TemporaryDirectory(prefix="toolgen-cold-") as tmp:
        base = Path(tmp)
        specs = base / "specs"
        write_specs(specs, args.tools)
        paths = {c: checkout(c, base / f"commit-{i}") for i, c in enumerate(commits)}
        pycache = base / "pycache"
        for commit, path in paths.items():  # bytecode, and a first run of each
            generate(specs, base / "warm" / commit, base / "warm-cache" / commit, path, pycache)
        results: dict[str, list[tuple[float, float]]] = {c: [] for c in commits}
        for repeat in range(args.repeats):
            for commit, path in paths.items():
                name = "out" if args.reuse_out else f"out-{repeat}-{len(results[commit])}-{commit}"
                out, cache = base / name / "out", base / name / "cache"
                if args.reuse_out:
                    shutil.rmtree(base / name, ignore_errors=True)
                results[commit].append(generate(specs, out, cache, path, pycache))
    print(f"after: {load()}\n")
    print(f"cold `toolgen generate`, {args.tools} tools, {args.repeats} runs each, alternating")
    print("| commit | wall s (median) | CPU s (median) | walls | CPUs |")
    print("|---|---:|---:|---|---|")
    for commit, timings in results.items():
        walls, cpus = [w for w, _ in timings], [c for _, c in timings]
        print(
            f"| {commit} | {statistics.median(walls):.3f} | {statistics.median(cpus):.3f} "
            f"| {', '.join(f'{w:.2f}' for w in walls)} | {', '.join(f'{c:.2f}' for c in cpus)} |"
        )


if __name__ == "__main__":
    main()
