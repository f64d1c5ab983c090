"""Import cost of a generated 1000-tool package, against pydantic's own, in the same run.

Generates N synthetic tools into a temporary folder, compiles bytecode (as a wheel
install would; this machine sets PYTHONDONTWRITEBYTECODE=1, which the measured
processes do not inherit), then times in fresh processes, median of --runs (interleaved):

  baseline A   `import pydantic`
  baseline B   `from pydantic import BaseModel, ConfigDict, Field` (what every generated module needs)
  package      `import <pkg>; <pkg>.tool_definitions("openai")`
  first call   `<pkg>.validate_arguments(name, arguments)` right after the import (imports
               that tool's module and builds its models), then the second call

Times are taken inside the child with perf_counter (interpreter start-up excluded), and
the child's whole wall time is reported too. `-X importtime` names the costliest
imports of the package beyond pydantic.

    python benchmarks/import_time.py [--tools 1000] [--runs 10]
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

PACKAGE = "bench_tools"
CHILD = """
import json, sys, time
t0 = time.perf_counter()
{body}
print(json.dumps(result))
"""
BASELINE_A = "import pydantic\nresult = {'ms': (time.perf_counter() - t0) * 1000}"
BASELINE_B = "from pydantic import BaseModel, ConfigDict, Field\nresult = {'ms': (time.perf_counter() - t0) * 1000}"
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
result = {{'ms': (t2 - t1) * 1000, 'second_ms': (t3 - t2) * 1000}}
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


def importtime_top(env: dict[str, str], cwd: Path, count: int = 10) -> list[tuple[str, int, int]]:
    """Modules the package import adds to pydantic's own (baseline B): (module, self us, cumulative us)."""
    base = "from pydantic import BaseModel, ConfigDict, Field"
    before = _importtime(base, env, cwd)
    after = _importtime(f"{base}\nimport {PACKAGE}\n{PACKAGE}.tool_definitions('openai')", env, cwd)
    added = [(name, s, c) for name, (s, c) in after.items() if name not in before]
    return sorted(added, key=lambda r: -r[1])[:count]


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
        env = bench_env(base / "pycache", TOOLGEN_CACHE_DIR=str(base / "cache"))
        out = base / "out"
        run(
            [
                PYTHON,
                "-m",
                "toolgen",
                "generate",
                "--specs",
                str(base / "specs"),
                "--out",
                str(out),
                "--package",
                PACKAGE,
            ],
            env,
            cwd=base,
        )
        run([PYTHON, "-m", "compileall", "-q", str(out / PACKAGE)], env)
        # Warm the bytecode of pydantic & co. (under PYTHONPYCACHEPREFIX) and the OS file cache.
        for _ in range(2):
            child(PACKAGE_BODY, env, out, str(args.tools))
        tool = tools[len(tools) // 2]
        m = medians(
            args.runs,
            {
                "a": (BASELINE_A, ()),
                "b": (BASELINE_B, ()),
                "p": (PACKAGE_BODY, (str(args.tools),)),
                "v": (VALIDATE_BODY, (tool["name"], json.dumps(example_arguments(tool)))),
                "floor": (FLOOR_BODY, (str(out / PACKAGE / "definitions" / "openai.json"),)),
            },
            env,
            out,
        )
        a, b, p, v, floor = m["a"], m["b"], m["p"], m["v"], m["floor"]
        top = importtime_top(env, out)
        size = sum(f.stat().st_size for f in (out / PACKAGE / "definitions").glob("openai.json"))

    rows = [
        ["`import pydantic` (baseline A)", f"{a['ms']:.1f}", f"{a['wall_ms']:.1f}", "", ""],
        [
            "`from pydantic import BaseModel, ConfigDict, Field` (baseline B)",
            f"{b['ms']:.1f}",
            f"{b['wall_ms']:.1f}",
            "",
            "",
        ],
        [
            f"`import {PACKAGE}` + `tool_definitions('openai')`",
            f"{p['ms']:.1f}",
            f"{p['wall_ms']:.1f}",
            f"{p['ms'] - a['ms']:.1f} ({p['ms'] / a['ms']:.2f}×)",
            f"{p['ms'] - b['ms']:.1f} ({p['ms'] / b['ms']:.2f}×)",
        ],
        ["  of which `import`", f"{p['import_ms']:.1f}", "", "", ""],
        ["  of which `tool_definitions('openai')`", f"{p['definitions_ms']:.1f}", "", "", ""],
        [
            "floor: `json.loads` of definitions/openai.json alone (no pydantic)",
            f"{floor['ms']:.1f}",
            f"{floor['wall_ms']:.1f}",
            "",
            "",
        ],
        [
            f"first `validate_arguments('{tool['name']}', ...)` after import",
            f"{v['ms']:.2f}",
            "",
            "",
            "",
        ],
        ["second call", f"{v['second_ms']:.3f}", "", "", ""],
    ]
    print(
        f"\n{args.tools} tools, median of {args.runs} fresh processes; openai.json is {size / 1e6:.2f} MB\n"
    )
    print(
        table(
            [
                "measurement",
                "in-process ms",
                "process wall ms",
                "beyond baseline A",
                "beyond baseline B",
            ],
            rows,
        )
    )
    print(
        "\nmodules the package import adds to baseline B, by self time (`-X importtime`, one run):\n"
    )
    print(
        table(
            ["module", "self ms", "cumulative ms"],
            [[f"`{n.strip()}`", f"{s / 1000:.1f}", f"{c / 1000:.1f}"] for n, s, c in top],
        )
    )
    print(f"\nafter: {load()}")


if __name__ == "__main__":
    main()
