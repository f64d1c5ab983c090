"""Time `toolgen generate` and `toolgen check` on 10, 100 and 1000 synthetic tools, against
datamodel-code-generator (dcg) on the same parameter schemas, measured in the same run.

Every measurement is a fresh process (`python -m toolgen ...`, or a dcg process), with
bytecode compiled for toolgen and its dependencies (as after a wheel install; kept in a
temporary PYTHONPYCACHEPREFIX). Wall times are medians of the repeats; CPU is user+sys of
the process and its children (the formatter's worker processes included).

toolgen rows:
  cold                 a new output folder and a new cache folder (TOOLGEN_CACHE_DIR)
  cold, one process    the same with TOOLGEN_JOBS=1: no tool modules rendered in a forked
                       child (toolgen/parallel.py; below 200 tools the two rows are the same)
  unchanged            a second run with nothing changed (the build cache answers)
  unchanged, no build cache   nothing changed, build cache cleared: the whole pipeline runs
                       (what any edit of a spec costs), nothing is written
  check                `toolgen check` on the unchanged output (the build cache answers)
dcg rows (the baselines):
  in process, <fmt>    one process calling generate() once per tool, writing one module each
  in process, combined one generate() call on one schema holding every tool under $defs,
                       naming_strategy=parent-prefixed, builtin formatter, one module
  CLI, one call        `datamodel-codegen --input <dir of N schemas> --output <dir>`
  CLI --check          the same call with --check on the unchanged output

    python benchmarks/generate.py [--sizes 10,100,1000] [--repeats 3] [--large-repeats 1] [--no-dcg]

Every run that writes a tree from nothing writes into a folder of its own, and the folders are
deleted when the benchmark ends, not between runs: on ext4 without a journal (this
machine's) making a file in the minutes after thousands were deleted costs up to ten times
the system time (see cold.py), which deleting the last run's tree just before a run would
add to it, for toolgen and dcg alike.
"""

from __future__ import annotations

import argparse
import json
import shutil
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from _util import BIN, PYTHON, Timing, bench_env, load, machine, ratio, run, seconds, table  # noqa: E402
from dcg import CLI_FLAGS  # noqa: E402
from synthetic import write_parameter_schemas, write_specs  # noqa: E402

DCG_WORKER = str(Path(__file__).resolve().parent / "dcg.py")


class Fresh:
    """A new folder name under `work` at each call (made by whoever writes there)."""

    def __init__(self, work: Path) -> None:
        self.work, self.count = work, 0

    def __call__(self, name: str) -> Path:
        self.count += 1
        return self.work / "runs" / f"{name}-{self.count}"


def toolgen(
    command: str, specs: Path, out: Path, env: dict[str, str], ok: tuple[int, ...] = (0,)
) -> tuple[float, float]:
    wall, cpu, _ = run(
        [
            PYTHON,
            "-m",
            "toolgen",
            command,
            "--specs",
            str(specs),
            "--out",
            str(out),
            "--package",
            "bench",
        ],
        env,
        cwd=specs.parent,
        ok=ok,
    )
    return wall, cpu


def measure(
    n: int, work: Path, pycache: Path, repeats: int, dcg: bool = True
) -> dict[str, dict[str, float]]:
    specs, schemas = work / "specs", work / "schemas"
    tools = write_specs(specs, n)
    write_parameter_schemas(schemas, tools)
    results: dict[str, Timing] = {}

    def record(label: str, wall: float, cpu: float) -> None:
        results.setdefault(label, Timing()).add(wall, cpu)

    fresh = Fresh(work)
    for _i in range(repeats):  # cold: nothing on disk, nothing cached
        out, cache = fresh("out"), fresh("cache")
        record(
            "toolgen generate, cold",
            *toolgen("generate", specs, out, bench_env(pycache, TOOLGEN_CACHE_DIR=str(cache))),
        )
        out, cache = fresh("out"), fresh("cache")  # the same, the build kept in one process
        record(
            "toolgen generate, cold, one process (TOOLGEN_JOBS=1)",
            *toolgen(
                "generate",
                specs,
                out,
                bench_env(pycache, TOOLGEN_CACHE_DIR=str(cache), TOOLGEN_JOBS="1"),
            ),
        )
    env = bench_env(pycache, TOOLGEN_CACHE_DIR=str(cache))
    for _i in range(3):
        shutil.rmtree(cache / "builds", ignore_errors=True)
        record("toolgen generate, unchanged, no build cache", *toolgen("generate", specs, out, env))
    toolgen("generate", specs, out, env)  # the build cache is warm again
    for _i in range(5):
        record("toolgen generate, unchanged", *toolgen("generate", specs, out, env))
    for _i in range(5):
        record("toolgen check, unchanged", *toolgen("check", specs, out, env))
    if not dcg:
        return {
            label: {"wall": t.wall, "cpu": t.cpu, "runs": len(t.walls)}
            for label, t in results.items()
        }

    dcg_env = bench_env(pycache)
    for formatter in ("builtin", "black"):
        for _i in range(repeats):
            target = fresh(f"dcg-{formatter}")
            wall, cpu, stdout = run(
                [PYTHON, DCG_WORKER, str(schemas), str(target), formatter], dcg_env
            )
            record(f"dcg in process, {formatter}", wall, cpu)
            per_call = json.loads(stdout.strip().splitlines()[-1])["per_call_ms"]
            results.setdefault(f"dcg per call ms, {formatter}", Timing()).add(per_call, per_call)
    for _i in range(repeats):
        target = fresh("dcg-combined")
        wall, cpu, _ = run([PYTHON, DCG_WORKER, str(schemas), str(target), "combined"], dcg_env)
        record("dcg in process, one combined schema (parent-prefixed), builtin", wall, cpu)

    def cli(target: Path) -> list[str]:
        return [
            str(BIN / "datamodel-codegen"),
            "--input",
            str(schemas),
            "--output",
            str(target),
            *CLI_FLAGS,
            "--formatters",
            "builtin",
        ]

    for _i in range(repeats):
        target = fresh("dcg-cli")
        wall, cpu, _ = run(cli(target), dcg_env)
        record("dcg CLI, one call, builtin", wall, cpu)
    for _i in range(repeats):
        wall, cpu, _ = run([*cli(target), "--check"], dcg_env)
        record("dcg CLI --check, unchanged", wall, cpu)
    return {
        label: {"wall": t.wall, "cpu": t.cpu, "runs": len(t.walls)} for label, t in results.items()
    }


def report(n: int, r: dict[str, dict[str, float]]) -> str:
    has_dcg = "dcg in process, black" in r
    rows = []
    for label, value in r.items():
        if label.startswith("dcg per call"):
            continue
        wall = value["wall"]
        baseline = ""
        if has_dcg:
            black, builtin = (
                r["dcg in process, black"]["wall"],
                r["dcg in process, builtin"]["wall"],
            )
            cli, check = (
                r["dcg CLI, one call, builtin"]["wall"],
                r["dcg CLI --check, unchanged"]["wall"],
            )
            baseline = (
                ratio(wall, check)
                if "check" in label or "unchanged" in label
                else f"{ratio(wall, black)} / {ratio(wall, builtin)} / {ratio(wall, cli)}"
            )
        rows.append(
            [
                label,
                str(value["runs"]),
                seconds(wall),
                seconds(value["cpu"]),
                f"{wall / n * 1000:.2f}",
                baseline,
            ]
        )
    per_call = (
        (
            f"\n\ndcg generate() per call, warm: {r['dcg per call ms, builtin']['wall']:.1f} ms (builtin), "
            f"{r['dcg per call ms, black']['wall']:.1f} ms (black)\n"
        )
        if has_dcg
        else "\n"
    )
    return (
        f"### {n} tools\n\n"
        + table(
            [
                "measurement",
                "runs",
                "wall s (median)",
                "CPU s",
                "ms/tool",
                "÷ dcg in-process black / builtin / CLI (unchanged and check rows: ÷ dcg --check)",
            ],
            rows,
        )
        + per_call
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", default="10,100,1000")
    parser.add_argument(
        "--repeats", type=int, default=3, help="repeats of the expensive rows below 1000 tools"
    )
    parser.add_argument(
        "--large-repeats", type=int, default=1, help="repeats of the expensive rows at 1000+ tools"
    )
    parser.add_argument("--json", type=Path, help="also write the raw results here")
    parser.add_argument(
        "--no-dcg", action="store_true", help="toolgen only (no datamodel-code-generator)"
    )
    args = parser.parse_args()
    sizes = [int(s) for s in args.sizes.split(",")]

    print(f"machine: {machine()}")
    print(f"before: {load()}")
    everything: dict[int, dict[str, dict[str, float]]] = {}
    with tempfile.TemporaryDirectory(prefix="toolgen-bench-") as tmp:
        base = Path(tmp)
        pycache = base / "pycache"
        warm = base / "warmup"  # compile bytecode for toolgen, its dependencies and dcg once
        write_parameter_schemas(warm / "schemas", write_specs(warm / "specs", 3))
        env = bench_env(pycache, TOOLGEN_CACHE_DIR=str(warm / "cache"))
        toolgen("generate", warm / "specs", warm / "out", env)
        toolgen("check", warm / "specs", warm / "out", env)
        for formatter in () if args.no_dcg else ("builtin", "black", "combined"):
            run(
                [
                    PYTHON,
                    DCG_WORKER,
                    str(warm / "schemas"),
                    str(warm / f"dcg-{formatter}"),
                    formatter,
                ],
                env,
            )
        if not args.no_dcg:
            run(
                [
                    str(BIN / "datamodel-codegen"),
                    "--input",
                    str(warm / "schemas"),
                    "--output",
                    str(warm / "dcg-cli"),
                    *CLI_FLAGS,
                    "--formatters",
                    "builtin",
                ],
                env,
            )
        for n in sizes:
            repeats = args.large_repeats if n >= 1000 else args.repeats
            everything[n] = measure(n, base / f"n{n}", pycache, repeats, dcg=not args.no_dcg)
            print()
            print(report(n, everything[n]), flush=True)
            print(f"after {n} tools: {load()}")
    print(f"after: {load()}")
    print()
    summary = []
    for n, r in everything.items():
        row = [
            str(n),
            seconds(r["toolgen generate, cold"]["wall"]),
            seconds(r["toolgen generate, unchanged, no build cache"]["wall"]),
            seconds(r["toolgen generate, unchanged"]["wall"]),
            seconds(r["toolgen check, unchanged"]["wall"]),
        ]
        if not args.no_dcg:
            row += [
                seconds(r["dcg in process, black"]["wall"]),
                seconds(r["dcg in process, builtin"]["wall"]),
                seconds(r["dcg CLI, one call, builtin"]["wall"]),
                seconds(r["dcg CLI --check, unchanged"]["wall"]),
                ratio(r["toolgen generate, cold"]["wall"], r["dcg CLI, one call, builtin"]["wall"]),
            ]
        summary.append(row)
    print(
        table(
            [
                "tools",
                "toolgen cold",
                "toolgen, no build cache",
                "toolgen unchanged",
                "toolgen check",
            ]
            + (
                []
                if args.no_dcg
                else [
                    "dcg in-process black",
                    "dcg in-process builtin",
                    "dcg CLI builtin",
                    "dcg CLI --check",
                    "cold ÷ dcg CLI",
                ]
            ),
            summary,
        )
    )
    if args.json:
        args.json.write_text(
            json.dumps({"machine": machine(), "results": everything}, indent=2) + "\n"
        )


if __name__ == "__main__":
    main()
