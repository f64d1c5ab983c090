"""Generated strategies against hypothesis-jsonschema, on the same schemas, in the same run.

    python benchmarks/strategies.py [--examples 50] [--corpus 200]

For every tool of the built-in library, of the strategy sampler (tests/golden/cases/strategies)
and of a corpus sample: draw `--examples` arguments with toolgen's generated
`arguments_json()` and with hypothesis-jsonschema's `from_schema(parameters)`, and report
the time per draw (strategy construction included), how many draws the generated
package's validator accepts, and the tools each cannot draw for at all.

hypothesis-jsonschema is optional (pip install hypothesis-jsonschema==0.23.1): its latest
release breaks with hypothesis 6.170.10 and later on any object that allows extra keys,
so the comparison needs hypothesis<=6.170.9. Without it, only
toolgen's numbers are printed.
"""

from __future__ import annotations

import argparse
import importlib
import sys
import tempfile
import time
import warnings
from pathlib import Path
from typing import Any

from hypothesis import HealthCheck, Phase, given, settings

sys.path.insert(0, str(Path(__file__).resolve().parent))
from _util import ROOT, machine, table  # noqa: E402

sys.path.insert(0, str(ROOT))  # the test helpers: tests.support


def drawn(strategy: Any, examples: int) -> tuple[list[Any], str | None]:
    """Up to `examples` values drawn by hypothesis as a test would; the error, if drawing failed."""
    values: list[Any] = []

    @settings(
        max_examples=examples,
        phases=[Phase.generate],
        database=None,
        deadline=None,
        suppress_health_check=list(HealthCheck),
    )
    @given(strategy)
    def draw(value: Any) -> None:
        values.append(value)

    try:
        draw()
    except Exception as exc:  # noqa: BLE001 - a strategy that cannot draw is a result here
        return values, f"{type(exc).__name__}: {str(exc).splitlines()[0][:80] if str(exc) else ''}"
    return values, None


def measure(package: Any, examples: int, baseline: Any) -> dict[str, dict[str, Any]]:
    """Per generator: seconds and draws over the tools both can draw for, valid draws, failures."""
    stats = {
        name: {"seconds": 0.0, "draws": 0, "all_seconds": 0.0, "total": 0, "valid": 0, "failed": []}
        for name in ("toolgen", "baseline")
    }
    for tool in package.TOOL_NAMES:
        module = importlib.import_module(
            f"{package.__name__}.testing.tools.{package._index.MODULES[tool]}"
        )
        makers = {"toolgen": module.arguments_json}
        if baseline is not None:
            makers["baseline"] = lambda: baseline(module.PARAMETERS)
        runs = {}
        for label, make in makers.items():
            start = time.perf_counter()
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")
                values, error = drawn(make(), examples)
            runs[label] = (time.perf_counter() - start, values, error)
        both = all(error is None for _, _, error in runs.values())
        for label, (seconds, values, error) in runs.items():
            if both:  # speed only where both could draw
                stats[label]["seconds"] += seconds
                stats[label]["draws"] += len(values)
            stats[label]["total"] += len(values)
            stats[label]["all_seconds"] += seconds
            for value in values:
                try:
                    package.validate_arguments(tool, value)
                    stats[label]["valid"] += 1
                except ValueError:
                    pass
            if error:
                stats[label]["failed"].append(f"{tool}: {error}")
    return stats


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--examples", type=int, default=50)
    parser.add_argument("--corpus", type=int, default=200, help="corpus tools to include (0: none)")
    args = parser.parse_args()
    try:
        from hypothesis_jsonschema import from_schema
    except ImportError:
        from_schema = None

    from tests.support.generation import generate, imported

    print(machine())
    import hypothesis

    print(
        f"hypothesis {hypothesis.__version__}; hypothesis-jsonschema: "
        f"{'installed' if from_schema else 'not installed (toolgen only)'}\n"
    )
    sets: list[tuple[str, Path]] = [
        ("built-in library", ROOT / "schemas"),
        ("strategy sampler", ROOT / "tests" / "golden" / "cases" / "strategies" / "specs"),
    ]
    work = Path(tempfile.mkdtemp(prefix="bench-strategies-"))
    if args.corpus:
        from tests.support import corpus_sample

        share = {
            source: max(1, n * args.corpus // 600) for source, n in corpus_sample.SHARE.items()
        }
        sample = corpus_sample.lint_clean(work / "lint", corpus_sample.sample(share))
        sets.append(
            (
                f"corpus sample ({len(sample)} tools)",
                corpus_sample.write(work / "corpus", [t for _, t in sample]),
            )
        )
    rows = []
    failures: list[str] = []
    for i, (label, specs) in enumerate(sets):
        out = work / f"out{i}"
        generate(specs, out, f"bench_{i}")
        with imported(out, f"bench_{i}") as package:
            stats = measure(package, args.examples, from_schema)
        ours, theirs = stats["toolgen"], stats["baseline"]
        per_ours = ours["seconds"] / max(ours["draws"], 1) * 1e3
        row = [
            label,
            len(package.TOOL_NAMES),
            f"{ours['all_seconds'] / max(ours['total'], 1) * 1e3:.2f}",
            f"{ours['valid']}/{ours['total']}",
            len(ours["failed"]),
        ]
        if from_schema is not None:
            per_theirs = theirs["seconds"] / max(theirs["draws"], 1) * 1e3
            ratio = f"{per_theirs / per_ours:.1f}x" if theirs["draws"] and ours["draws"] else "-"
            row += [
                f"{per_theirs:.2f}" if theirs["draws"] else "-",
                f"{theirs['valid']}/{theirs['total']}",
                len(theirs["failed"]),
                ratio,
            ]
            failures += [f"hypothesis-jsonschema, {label}: {f}" for f in theirs["failed"][:5]]
        failures += [f"toolgen, {label}: {f}" for f in ours["failed"]]
        rows.append([str(cell) for cell in row])
    # ms/draw: per draw, strategy construction included (the ratio: over the tools both can
    # draw for); valid: the
    # draws the generated package's validator accepts; cannot draw: tools whose strategy raised.
    head = ["tools", "n", "toolgen ms/draw", "toolgen valid draws", "toolgen cannot draw"]
    if from_schema is not None:
        head += [
            "h-jsonschema ms/draw",
            "h-jsonschema valid draws",
            "h-jsonschema cannot draw",
            "toolgen faster by",
        ]
    print(table(head, rows))
    for line in failures:
        print(f"- {line}")


if __name__ == "__main__":
    main()
