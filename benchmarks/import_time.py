"""Import cost of generated packages, against pydantic's own, in the same run.

Generates two 1-tool packages and one of N synthetic tools into a temporary folder, compiles
bytecode (as a wheel install would; this machine sets PYTHONDONTWRITEBYTECODE=1, which the
measured processes do not inherit), then times in fresh processes, median of --runs (interleaved):

  baseline A   `import pydantic`
  baseline B   `from pydantic import BaseModel, ConfigDict, Field` (what every generated module needs)
  one          `import <1-tool package>`                  (target: at most half of baseline B)
  second       `import <another 1-tool package>` after the first, in the same process
                                                         (target: at most a tenth of baseline B)
  package      `import <pkg>; <pkg>.tool_definitions("openai")` for N tools
                                                         (target: at most 30 ms beyond `one`)
  first call   `<pkg>.validate_arguments(name, arguments)` right after the import (imports
               that tool's module and builds its models), then the second call

Times are taken inside the child with perf_counter (interpreter start-up excluded), and
the child's whole wall time is reported too. `-X importtime` names the costliest
modules each import loads beyond the interpreter's start-up.

    python benchmarks/import_time.py [--tools 1000] [--runs 15]
"""

from __future__ import annotations

import argparse
import json
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from _util import PYTHON, bench_env, load, machine, run, table  # noqa: E402
from synthetic import example_arguments, write_specs  # noqa: E402

PACKAGE = "bench_tools"  # N tools
ONE, TWO = "bench_one", "bench_two"  # 1 tool each: the first and a second package in one process
CHILD = """
import json, sys, time
c0 = time.process_time()
t0 = time.perf_counter()
{body}
result.setdefault('cpu_ms', (time.process_time() - c0) * 1000)
print(json.dumps(result))
"""
BASELINE_A = "import pydantic\nresult = {'ms': (time.perf_counter() - t0) * 1000}"
BASELINE_B = "from pydantic import BaseModel, ConfigDict, Field\nresult = {'ms': (time.perf_counter() - t0) * 1000}"
ONE_BODY = f"import {ONE}\nresult = {{'ms': (time.perf_counter() - t0) * 1000}}"
SECOND_BODY = f"""
import {ONE}
c1, t1 = time.process_time(), time.perf_counter()
import {TWO}
result = {{'ms': (time.perf_counter() - t1) * 1000, 'cpu_ms': (time.process_time() - c1) * 1000}}
"""
PACKAGE_BODY = f"""
import {PACKAGE}
t1 = time.perf_counter()
definitions = {PACKAGE}.tool_definitions("openai")
t2 = time.perf_counter()
assert len(definitions) == int(sys.argv[1])
result = {{'ms': (t2 - t0) * 1000, 'import_ms': (t1 - t0) * 1000, 'definitions_ms': (t2 - t1) * 1000}}
"""
FLOOR_BODY = """
with open(sys.argv[1], "rb") as handle:
    definitions = json.loads(handle.read())["variants"][0]["definitions"]  # the default variant
result = {'ms': (time.perf_counter() - t0) * 1000}
"""
VALIDATE_BODY = f"""
import {PACKAGE}
name, arguments = sys.argv[1], json.loads(sys.argv[2])
t1 = time.perf_counter()
{PACKAGE}.validate_arguments(name, arguments)
t2 = time.perf_counter()
{PACKAGE}.validate_arguments(name, arguments)
t3 = time.perf_counter()
result = {{'first_ms': (t2 - t1) * 1000, 'second_ms': (t3 - t2) * 1000, 'ms': (t2 - t0) * 1000}}
"""


def child(body: str, env: dict[str, str], cwd: Path, *args: str) -> tuple[float, dict[str, float]]:
    wall, _, stdout = run([PYTHON, "-c", CHILD.format(body=body), *args], env, cwd=cwd)
    return wall * 1000, json.loads(stdout.strip().splitlines()[-1])


def medians(
    runs: int, jobs: dict[str, tuple[str, tuple[str, ...]]], env: dict[str, str], cwd: Path
) -> dict[str, dict[str, float]]:
    """Run every job once per round, interleaved, so that load from other processes hits all alike."""
    samples: dict[str, list[tuple[float, dict[str, float]]]] = {label: [] for label in jobs}
    for _ in range(runs):
        for label, (body, args) in jobs.items():
            samples[label].append(child(body, env, cwd, *args))
    out: dict[str, dict[str, float]] = {}
    for label, got in samples.items():
        out[label] = {"wall_ms": statistics.median(w for w, _ in got)}
        for key in got[0][1]:
            out[label][key] = statistics.median(s[key] for _, s in got)
    return out


def _importtime(script: str, env: dict[str, str], cwd: Path) -> dict[str, tuple[int, int]]:
    proc = subprocess.run(
        [PYTHON, "-X", "importtime", "-c", script],
        env=env,
        cwd=cwd,
        capture_output=True,
        text=True,
        check=True,
    )
    rows: dict[str, tuple[int, int]] = {}
    for line in proc.stderr.splitlines():
        if line.startswith("import time:") and "self [us]" not in line:
            self_us, cumulative, name = (
                part.strip() for part in line.removeprefix("import time:").split("|")
            )
            rows[name] = (int(self_us), int(cumulative))
    return rows


def importtime_top(
    script: str, env: dict[str, str], cwd: Path, count: int = 8
) -> tuple[int, list[tuple[str, int, int]]]:
    """What `script` imports beyond the interpreter's start-up: how many modules, and the
    costliest by self time (module, self us, cumulative us)."""
    before = _importtime("pass", env, cwd)
    added = [(n, s, c) for n, (s, c) in _importtime(script, env, cwd).items() if n not in before]
    return len(added), sorted(added, key=lambda r: -r[1])[:count]


def generate(specs: Path, out: Path, package: str, env: dict[str, str]) -> None:
    command = ["generate", "--specs", str(specs), "--out", str(out), "--package", package]
    run([PYTHON, "-m", "toolgen", *command], env, cwd=specs.parent)
    run([PYTHON, "-m", "compileall", "-q", str(out / package)], env)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tools", type=int, default=1000)
    parser.add_argument("--runs", type=int, default=15)
    args = parser.parse_args()
    print(f"machine: {machine()}")
    print(f"before: {load()}")
    with tempfile.TemporaryDirectory(prefix="toolgen-import-") as tmp:
        base = Path(tmp)
        tools = write_specs(base / "specs", args.tools)
        write_specs(base / "one", 1)
        env = bench_env(base / "pycache", TOOLGEN_CACHE_DIR=str(base / "cache"))
        out = base / "out"
        generate(base / "specs", out, PACKAGE, env)
        for package in (ONE, TWO):
            generate(base / "one", out, package, env)
        # Warm the bytecode of pydantic & co. (under PYTHONPYCACHEPREFIX) and the OS file cache.
        for _ in range(2):
            child(PACKAGE_BODY, env, out, str(args.tools))
            child(SECOND_BODY, env, out)
        tool = tools[len(tools) // 2]
        m = medians(
            args.runs,
            {
                "a": (BASELINE_A, ()),
                "b": (BASELINE_B, ()),
                "one": (ONE_BODY, ()),
                "second": (SECOND_BODY, ()),
                "p": (PACKAGE_BODY, (str(args.tools),)),
                "v": (VALIDATE_BODY, (tool["name"], json.dumps(example_arguments(tool)))),
                "floor": (FLOOR_BODY, (str(out / PACKAGE / "definitions" / "openai.json"),)),
            },
            env,
            out,
        )
        tops = {
            label: importtime_top(script, env, out)
            for label, script in (
                (f"`import {ONE}`", f"import {ONE}"),
                (
                    f"`import {PACKAGE}` + `tool_definitions('openai')`",
                    f"import {PACKAGE}\n{PACKAGE}.tool_definitions('openai')",
                ),
                (
                    "baseline B",
                    "from pydantic import BaseModel, ConfigDict, Field",
                ),
            )
        }
        size = (out / PACKAGE / "definitions" / "openai.json").stat().st_size

    a, b, one, second, p, v, floor = (m[k] for k in ("a", "b", "one", "second", "p", "v", "floor"))

    def row(label: str, got: dict[str, float], key: str = "ms", target: str = "") -> list[str]:
        """A measurement's wall and CPU time in the child (CPU: what waiting for a core on a
        shared machine leaves out), the whole process's wall time, both as fractions of B."""
        cpu = got["cpu_ms"] if key == "ms" else None
        shares = f"{got[key] / b['ms']:.3f}" + (f"; {cpu / b['cpu_ms']:.3f}" if cpu else "")
        return [
            label,
            f"{got[key]:.2f}",
            f"{cpu:.2f}" if cpu is not None else "",
            f"{got['wall_ms']:.1f}" if key == "ms" and "wall_ms" in got else "",
            shares if key == "ms" else "",
            target,
        ]

    def within(value: float, cpu: float, limit: float, cpu_limit: float) -> str:
        return ("met" if value <= limit else "**not met**") + (
            "; CPU met" if cpu <= cpu_limit else "; CPU **not met**"
        )

    beyond, beyond_cpu = p["ms"] - one["ms"], p["cpu_ms"] - one["cpu_ms"]
    rows = [
        row("`import pydantic` (baseline A)", a),
        row("`from pydantic import BaseModel, ConfigDict, Field` (baseline B)", b),
        row(
            f"`import {ONE}` (1 tool)",
            one,
            target="≤ 0.50 of B: " + within(one["ms"], one["cpu_ms"], b["ms"] / 2, b["cpu_ms"] / 2),
        ),
        row(
            f"`import {TWO}` after `{ONE}`, same process",
            {k: t for k, t in second.items() if k != "wall_ms"},  # a part of the process
            target="≤ 0.10 of B: "
            + within(second["ms"], second["cpu_ms"], b["ms"] / 10, b["cpu_ms"] / 10),
        ),
        row(
            f"`import {PACKAGE}` + `tool_definitions('openai')` ({args.tools} tools)",
            p,
            target=f"{beyond:.1f} ms ({beyond_cpu:.1f} CPU) beyond `import {ONE}`, ≤ 30: "
            + within(beyond, beyond_cpu, 30, 30),
        ),
        row("  of which `import`", p, "import_ms"),
        row("  of which `tool_definitions('openai')`", p, "definitions_ms"),
        row("floor: `json.loads` of definitions/openai.json alone (no pydantic)", floor),
        row(f"first `validate_arguments('{tool['name']}', ...)` after import", v, "first_ms"),
        row("second call", v, "second_ms"),
        row("`import` + first `validate_arguments` (a first call in all)", v),
    ]
    print(
        f"\n{args.tools} tools, median of {args.runs} fresh processes; openai.json is {size / 1e6:.2f} MB\n"
    )
    header = ["measurement", "in-process ms", "CPU ms", "process wall ms", "÷ B (ms; CPU)"]
    print(table([*header, "target"], rows))
    for label, (count, top) in tops.items():
        print(
            f"\n{label} loads {count} modules beyond start-up; the costliest by self time"
            " (`-X importtime`, one run):\n"
        )
        print(
            table(
                ["module", "self ms", "cumulative ms"],
                [[f"`{n}`", f"{s / 1000:.1f}", f"{c / 1000:.1f}"] for n, s, c in top],
            )
        )
    print(f"\nafter: {load()}")


if __name__ == "__main__":
    main()
