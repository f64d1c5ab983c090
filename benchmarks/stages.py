"""Where the time of one cold build goes: each pipeline stage timed in process, no profiler.

    python benchmarks/stages.py [--tools 1000] [--profile OUT.prof]

Stages: load, check (with the spec-format envelope timed apart), lower, the provider
exports, render, format. No cache is read or written (TOOLGEN_NO_CACHE=1), so the stage
times add up to the build. Each stage's wall time and CPU time (of this process: on a
shared machine the CPU time is the steadier figure). Also prints the peak memory of the
process. With --profile, a second build is profiled for `python -m pstats`.

Then `pipeline.build` itself, as it reports its stages (progress), once in one process
(TOOLGEN_JOBS=1) and once as a large build runs, with work on forked children
(toolgen/parallel.py): the tool modules and the warnings from the end of `lower`, the token
estimates from the end of `export`. This process's CPU per stage, and each child's (read
in the child as it answers). On an idle machine with two cores the build takes about its
critical path: the longest of this process's CPU and, for each child, this process's CPU
up to the child's start plus the child's own (the waits for the children are in the
`format` row).
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

    clock = [(time.perf_counter(), time.process_time())]

    def lap() -> list[str]:  # wall and CPU seconds since the previous lap
        clock.append((time.perf_counter(), time.process_time()))
        (wall0, cpu0), (wall1, cpu1) = clock[-2], clock[-1]
        return [f"{wall1 - wall0:.3f}", f"{cpu1 - cpu0:.3f}"]

    from toolgen import check
    from toolgen.check import envelope
    from toolgen.config import BuildOptions
    from toolgen.format import format_files
    from toolgen.load.specs import load_specs
    from toolgen.lower import lower
    from toolgen.pipeline import build
    from toolgen.providers import export_all
    from toolgen.render import render_package

    rows: list[list[str]] = [["import the stages", *lap()]]
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
        lap()
        first = len(clock) - 1
        spec_set = load_specs(specs)
        rows.append(["load (YAML -> data + source map)", *lap()])
        diagnostics, tools = check.run(spec_set)
        rows.append(["check, all rules", *lap()])
        rows.append(["  of which the spec-format envelope (jsonschema)", f"{spent[0]:.3f}", ""])
        envelope.check_document = original
        ir = lower(tools, options.package)
        rows.append(["lower", *lap()])
        exports = export_all(ir.tools)
        rows.append(["provider exports (every variant of every provider)", *lap()])
        rendered = render_package(ir, options, exports=exports)
        rows.append(["render", *lap()])
        files = format_files(rendered)
        rows.append([f"format ({sum(p.endswith('.py') for p in files)} Python files)", *lap()])
        (wall0, cpu0), (wall1, cpu1) = clock[first], clock[-1]
        rows.append(["total, load..format", f"{wall1 - wall0:.3f}", f"{cpu1 - cpu0:.3f}"])
        both = [_pipeline(specs, options, jobs) for jobs in ("1", "")]
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
    print(table(["stage", "wall s", "CPU s"], rows))
    (alone, _), (shared, children) = both
    spent = ", ".join(f"{cpu:.3f} s (from the end of `{after}`)" for after, cpu in children)
    print(f"\n`pipeline.build`, CPU s of this process per stage; the children: {spent}\n")
    stages = list(shared)
    critical = max(
        [sum(shared.values())]
        + [
            sum(shared[s] for s in stages[: stages.index(after) + 1]) + cpu
            for after, cpu in children
            if after in shared
        ]
    )
    print(
        table(
            ["stage", "one process", "with the children"],
            [[stage, f"{alone[stage]:.3f}", f"{shared.get(stage, 0.0):.3f}"] for stage in alone]
            + [["total", f"{sum(alone.values()):.3f}", f"{sum(shared.values()):.3f}"]]
            + [
                [
                    "critical path: this process, or a child and what came before it",
                    "",
                    f"{critical:.3f}",
                ]
            ],
        )
    )


def _pipeline(
    specs: Path, options: object, jobs: str
) -> tuple[dict[str, float], list[tuple[str, float]]]:
    """One `pipeline.build` (TOOLGEN_JOBS=`jobs`): this process's CPU seconds per stage it
    reports, and for each child it forked, the stage it started in and its CPU seconds."""
    from contextlib import contextmanager

    from toolgen import parallel
    from toolgen.pipeline import build

    # Cold, as a fresh process is: every bounded memo of the build (toolgen/memo.py) emptied,
    # held by a module directly or through its bound lookup (the identity memos miss anyway).
    # An older commit measured may have no such memos.
    try:
        from toolgen.memo import Bounded
    except ImportError:
        Bounded = None  # noqa: N806
    for module in list(sys.modules.values()) if Bounded is not None else ():
        if not getattr(module, "__name__", "").startswith("toolgen."):
            continue
        for value in list(vars(module).values()):
            held = getattr(value, "__self__", value)
            if isinstance(held, Bounded):
                held.clear()
    os.environ["TOOLGEN_JOBS"] = jobs
    spent: dict[str, float] = {}
    marks: list[tuple[str, float]] = []
    children: list[tuple[str, float]] = []
    in_child = parallel.in_child

    @contextmanager
    def timed_child(work):  # type: ignore[no-untyped-def]
        """The child answers its own CPU time beside the work's answer (a forked child's
        count starts at zero)."""
        started = marks[-1][0] if marks else ""
        with in_child(lambda: (work(), time.process_time())) as pending:
            result = pending.result

            def answer():  # type: ignore[no-untyped-def]
                got = result()
                if got is None:
                    return None
                children.append((started, got[1]))
                return got[0]

            pending.result = answer  # type: ignore[method-assign]
            yield pending

    def progress(stage: str) -> None:
        marks.append((stage, time.process_time()))

    parallel.in_child = timed_child  # type: ignore[assignment]
    try:
        build(specs, options, progress=progress)  # type: ignore[arg-type]
    finally:
        parallel.in_child = in_child  # type: ignore[assignment]
    marks.append(("end", time.process_time()))
    for (stage, start), (_, end) in zip(marks, marks[1:], strict=False):
        spent[stage] = spent.get(stage, 0.0) + end - start
    os.environ.pop("TOOLGEN_JOBS")
    return spent, children


if __name__ == "__main__":
    main()
