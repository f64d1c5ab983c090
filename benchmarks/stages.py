"""Where the time of one cold build goes: each pipeline stage timed in process, no profiler.

    python benchmarks/stages.py [--tools 1000] [--profile OUT.prof]

Stages: load, check (with the spec-format envelope timed apart), lower, the provider
exports, render, format. No cache is read or written (TOOLGEN_NO_CACHE=1), so the stage
times add up to the build. Also prints the
peak memory of the process. With --profile, a second build is profiled for `python -m pstats`.
"""

from __future__ import annotations

import argparse
import cProfile
import os
import resource
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
    args = parser.parse_args()
    os.environ["TOOLGEN_NO_CACHE"] = "1"

    start = time.perf_counter()
    from toolgen import check
    from toolgen.check import envelope
    from toolgen.config import BuildOptions
    from toolgen.format import format_files
    from toolgen.load.specs import load_specs
    from toolgen.lower import lower
    from toolgen.pipeline import build
    from toolgen.providers import export_all
    from toolgen.render import render_package

    rows: list[list[str]] = [["import the stages", f"{time.perf_counter() - start:.3f}"]]
    with tempfile.TemporaryDirectory(prefix="toolgen-stages-") as tmp:
        specs = Path(tmp) / "specs"
        write_specs(specs, args.tools)
        options = BuildOptions(package="bench")
        original = envelope.check_document
        spent = [0.0]

        def timed(doc):  # type: ignore[no-untyped-def]
            t = time.perf_counter()
            try:
                return original(doc)
            finally:
                spent[0] += time.perf_counter() - t

        envelope.check_document = timed
        t0 = time.perf_counter()
        spec_set = load_specs(specs)
        t1 = time.perf_counter()
        diagnostics, tools = check.run(spec_set)
        t2 = time.perf_counter()
        envelope.check_document = original
        ir = lower(tools, options.package)
        t3 = time.perf_counter()
        exports = export_all(ir.tools)
        t4 = time.perf_counter()
        rendered = render_package(ir, options, exports=exports)
        t5 = time.perf_counter()
        files = format_files(rendered)
        t6 = time.perf_counter()
        rows += [
            ["load (YAML -> data + source map)", f"{t1 - t0:.3f}"],
            ["check, all rules", f"{t2 - t1:.3f}"],
            ["  of which the spec-format envelope (jsonschema)", f"{spent[0]:.3f}"],
            ["lower", f"{t3 - t2:.3f}"],
            ["provider exports (every variant of every provider)", f"{t4 - t3:.3f}"],
            ["render", f"{t5 - t4:.3f}"],
            [f"format ({sum(p.endswith('.py') for p in files)} Python files)", f"{t6 - t5:.3f}"],
            ["total, load..format", f"{t6 - t0:.3f}"],
        ]
        if args.profile:
            profiler = cProfile.Profile()
            profiler.enable()
            build(specs, options)
            profiler.disable()
            profiler.dump_stats(args.profile)
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    print(f"machine: {machine()}; {load()}")
    print(
        f"\n{args.tools} tools, {len(diagnostics)} diagnostics, {len(files)} files; peak RSS {peak:.0f} MB\n"
    )
    print(table(["stage", "seconds"], rows))


if __name__ == "__main__":
    main()
