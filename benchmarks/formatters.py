"""black (what toolgen pins) against `ruff format` on toolgen's rendered tool modules from real specs.

Renders one tool module per corpus tool (a seeded sample of the shared corpus, normalised
as in breadth.py, tools that lint refuses left out), formats every module with black in
process and with one `ruff format` call over a folder, and counts byte-identical outputs.
Prints the first differences. ruff is not a toolgen dependency: pass the binary to compare.

    python benchmarks/formatters.py --ruff PATH [--sample 600] [--seed 2]
"""

from __future__ import annotations

import argparse
import collections
import difflib
import json
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from breadth import normalise, sample_corpus  # noqa: E402


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--ruff", required=True)
    parser.add_argument("--sample", type=int, default=600)
    parser.add_argument("--seed", type=int, default=2)
    parser.add_argument("--corpus", type=Path, default=Path("/work/shared/corpus"))
    args = parser.parse_args()
    os.environ["TOOLGEN_NO_CACHE"] = "1"
    import black

    from toolgen.pipeline import lint
    from toolgen.diagnostics import has_errors
    from toolgen.format import MODE
    from toolgen.lower import lower
    from toolgen.render import render_package
    from toolgen.load.specs import load_specs

    with tempfile.TemporaryDirectory(prefix="toolgen-formatters-") as tmp:
        base = Path(tmp)
        raw: dict[str, str] = {}
        for i, record in enumerate(sample_corpus(args.corpus, args.sample, args.seed)):
            specs = base / "specs" / str(i)
            specs.mkdir(parents=True)
            parameters = normalise(record.get("parameters", record.get("inputSchema")), collections.Counter())
            spec = {"name": record["name"], "description": record.get("description") or "-", "parameters": parameters}
            (specs / "tool.json").write_text(json.dumps(spec), "utf-8")
            diagnostics, tools = lint(load_specs(specs))
            if has_errors(diagnostics):
                continue
            for path, text in render_package(lower(tools, "p")).items():
                if path.startswith("p/tools/") and not path.endswith("__init__.py"):
                    raw[f"m{i}.py"] = text
        folder = base / "ruff"
        folder.mkdir()
        for name, text in raw.items():
            (folder / name).write_text(text, "utf-8")
        start = time.perf_counter()
        by_black = {name: black.format_str(text, mode=MODE) for name, text in raw.items()}
        black_s = time.perf_counter() - start
        start = time.perf_counter()
        subprocess.run([args.ruff, "format", "--isolated", "--line-length", "100", "--target-version", "py311",
                        "--quiet", str(folder)], check=True)
        ruff_s = time.perf_counter() - start
        different = [name for name in raw if (folder / name).read_text("utf-8") != by_black[name]]
        version = subprocess.run([args.ruff, "--version"], capture_output=True, text=True).stdout.strip()
        print(f"{len(raw)} modules: black {getattr(black, '__version__')} {black_s:.2f} s (in process, serial); "
              f"{version} {ruff_s:.3f} s (one call); {len(raw) - len(different)} byte-identical, "
              f"{len(different)} different")
        for name in different[:3]:
            print("".join(difflib.unified_diff(by_black[name].splitlines(True),
                                               (folder / name).read_text("utf-8").splitlines(True), "black", "ruff")))


if __name__ == "__main__":
    main()
