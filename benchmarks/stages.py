"""Where the time of one build goes: each pipeline stage timed in process, no profiler.

    python benchmarks/stages.py [--tools 1000] [--profile OUT.prof] [--ruff PATH]

Stages: load, lint (with meta_schema, the JSON Schema meta-validation, timed apart),
lower, render, and black on every rendered module, serial, no cache, once with
`black.format_str` (what toolgen runs: two passes unless the input is already stable) and
once with a single pass. With --ruff, also `ruff format` (pinned by the caller) over the
same rendered modules in one call, and how many of its outputs are byte-identical to
black's. With --profile, a second run of load..render is profiled and written for `python -m pstats`.
"""

from __future__ import annotations

import argparse
import cProfile
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from _util import load, machine, table  # noqa: E402
from synthetic import write_specs  # noqa: E402


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tools", type=int, default=1000)
    parser.add_argument("--profile", type=Path)
    parser.add_argument("--ruff", help="path of a ruff binary to compare with black")
    args = parser.parse_args()
    os.environ["TOOLGEN_NO_CACHE"] = "1"

    start = time.perf_counter()
    import black

    from toolgen.pipeline import lint
    from toolgen.diagnostics import Diagnostic
    from toolgen.format import MODE
    from toolgen.check import meta_schema
    from toolgen.lower import lower
    from toolgen.render import render_package
    from toolgen.load.specs import load_specs

    rows: list[list[str]] = [["import toolgen's stages + black", f"{time.perf_counter() - start:.3f}"]]
    with tempfile.TemporaryDirectory(prefix="toolgen-stages-") as tmp:
        specs = Path(tmp) / "specs"
        write_specs(specs, args.tools)
        original = meta_schema.check
        spent = [0.0]

        def timed_check(context: lint.Context) -> list[Diagnostic]:
            t = time.perf_counter()
            found = list(original(context))
            spent[0] += time.perf_counter() - t
            return found

        meta_schema.check = timed_check
        t0 = time.perf_counter()
        spec_set = load_specs(specs)
        t1 = time.perf_counter()
        diagnostics, tools = lint(spec_set)
        t2 = time.perf_counter()
        ir = lower(tools, "bench")
        t3 = time.perf_counter()
        files = render_package(ir)
        t4 = time.perf_counter()
        meta_schema.check = original
        if args.profile:  # a second, profiled run of load..render (the timings above are not profiled)
            profiler = cProfile.Profile()
            profiler.enable()
            render_package(lower(lint(load_specs(specs))[1], "bench"))
            profiler.disable()
            profiler.dump_stats(args.profile)
        modules = {path: text for path, text in files.items() if path.endswith(".py")}
        t5 = time.perf_counter()
        formatted = {path: black.format_str(text, mode=MODE) for path, text in modules.items()}
        t6 = time.perf_counter()
        for text in modules.values():
            black._format_str_once(text, mode=MODE)  # one pass: what an already-stable input costs
        t7 = time.perf_counter()
        stable = sum(text == formatted[path] for path, text in modules.items())
        rows += [
            ["load (YAML -> data + source map)", f"{t1 - t0:.3f}"],
            ["lint, all rules", f"{t2 - t1:.3f}"],
            ["  of which meta_schema (Draft 2020-12 meta-validation, jsonschema)", f"{spent[0]:.3f}"],
            ["lower", f"{t3 - t2:.3f}"],
            ["render", f"{t4 - t3:.3f}"],
            [f"black.format_str on {len(modules)} modules (serial)", f"{t6 - t5:.3f}"],
            ["black, one pass only (serial)", f"{t7 - t6:.3f}"],
        ]
        if args.ruff:
            raw = Path(tmp) / "ruff"
            for path, text in modules.items():
                (raw / path).parent.mkdir(parents=True, exist_ok=True)
                (raw / path).write_text(text, "utf-8")
            t8 = time.perf_counter()
            subprocess.run([args.ruff, "format", "--isolated", "--line-length", "100", "--target-version", "py311",
                            "--quiet", str(raw)], check=True)
            t9 = time.perf_counter()
            same = sum((raw / path).read_text("utf-8") == text for path, text in formatted.items())
            version = subprocess.run([args.ruff, "--version"], capture_output=True, text=True).stdout.strip()
            rows.append([f"{version} format, one call over the same modules "
                         f"({same}/{len(modules)} byte-identical to black)", f"{t9 - t8:.3f}"])
    print(f"machine: {machine()}; {load()}")
    print(f"\n{args.tools} tools, {len(diagnostics)} diagnostics; {stable}/{len(modules)} rendered modules "
          "were already black-stable\n")
    print(table(["stage", "seconds"], rows))


if __name__ == "__main__":
    main()
