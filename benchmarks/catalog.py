"""Time `toolgen catalog` on synthetic tools against `toolgen generate` on the same specs, and
the catalog's index page in headless Chromium (loaded, then a search typed) against an empty
page of the same folder, all measured in the same run.

Build rows: fresh processes (`python -m toolgen ...`, bytecode compiled, as after a wheel
install), `generate` cold (empty output and build cache), `catalog` into an empty folder;
medians of the repeats, wall and CPU (user+sys, children included). Beyond generate: the
catalog's median minus generate's, in wall time and in CPU time (which a busy machine does
not inflate; generate's black workers run in parallel, so on an idle machine its wall time is
below its CPU time). Targets: the catalog at most 2 s beyond generate, the index loaded and
searched in under 1 s.

Page rows: Debian's Chromium through Playwright (skipped without either), one browser, a new
page per repeat, timed by the page's own clock (no round trip of the driver counted): from
navigation start to the end of the load event, then a word set in the search box until the
filtered list is painted.

    python benchmarks/catalog.py [--tools 1000] [--repeats 3] [--quick]
"""

from __future__ import annotations

import argparse
import importlib.util
import os
import shutil
import statistics
import sys
import tempfile
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

from _util import PYTHON, Timing, bench_env, load, machine, ratio, run, seconds, table  # noqa: E402
from synthetic import write_specs  # noqa: E402

CHROMIUM = "/usr/bin/chromium"
QUERY = "invoice"  # a noun of the synthetic tools: some match, most do not


def toolgen(args: list[str], env: dict[str, str], cwd: Path) -> tuple[float, float]:
    wall, cpu, _ = run([PYTHON, "-m", "toolgen", *args], env, cwd=cwd)
    return wall, cpu


def builds(work: Path, n: int, repeats: int) -> dict[str, Timing]:
    specs = work / "specs"
    write_specs(specs, n)
    env = bench_env(work / "pycache", TOOLGEN_CACHE_DIR=str(work / "cache"))
    toolgen(["lint", "--specs", str(specs)], env, work)  # bytecode compiled before timing
    found = {"generate, cold": Timing(), "catalog": Timing()}
    for _ in range(repeats):
        shutil.rmtree(work / "cache", ignore_errors=True)
        shutil.rmtree(work / "out", ignore_errors=True)
        generate = ["generate", "--specs", str(specs), "--out", str(work / "out")]
        found["generate, cold"].add(*toolgen([*generate, "--package", "bench"], env, work))
        shutil.rmtree(work / "site", ignore_errors=True)
        catalog = ["catalog", "--specs", str(specs), "--out", str(work / "site")]
        found["catalog"].add(*toolgen(catalog, env, work))
    return found


def browser_missing() -> str | None:
    if importlib.util.find_spec("playwright") is None:
        return "Playwright is not installed"
    return None if os.access(CHROMIUM, os.X_OK) else f"no Chromium at {CHROMIUM}"


# Timed by the page's own clock, so that no round trip of the driver is counted: the load
# from navigation start to the end of its load event, and a search from the query set to the
# frame that shows the filtered list painted (a task after the next animation frame).
LOADED = "performance.getEntriesByType('navigation')[0].loadEventEnd"
SEARCH = """async (query) => {
  const started = performance.now();
  const input = document.getElementById("search");
  input.value = query;
  input.dispatchEvent(new Event("input"));
  await new Promise((done) => requestAnimationFrame(() => setTimeout(done, 0)));
  return performance.now() - started;
}"""


def pages(site: Path, repeats: int) -> dict[str, list[float]]:
    """Seconds to load an empty page (the baseline), the index, and the index then searched."""
    from playwright.sync_api import sync_playwright

    empty = site / "empty.html"
    empty.write_text("<!DOCTYPE html><title>empty</title>\n", "utf-8")
    found: dict[str, list[float]] = {"empty page": [], "index": [], "index + search": []}
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(
            executable_path=CHROMIUM, headless=True, args=["--no-sandbox", "--disable-gpu"]
        )
        for i in range(repeats + 1):  # the first round warms the browser up, not counted
            page: Any = browser.new_page()
            page.goto(empty.as_uri())
            blank = page.evaluate(LOADED) / 1000
            page.close()
            page = browser.new_page()
            page.goto((site / "index.html").as_uri())
            loaded = page.evaluate(LOADED) / 1000
            searched = page.evaluate(SEARCH, QUERY) / 1000
            status = page.text_content("#search-status") or ""
            if "match" not in status:
                raise RuntimeError(f"the search did not run: {status!r}")
            page.close()
            if i:
                found["empty page"].append(blank)
                found["index"].append(loaded)
                found["index + search"].append(loaded + searched)
        browser.close()
    return found


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tools", type=int, default=1000)
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--quick", action="store_true", help="a smoke test: 10 tools, once")
    args = parser.parse_args()
    n, repeats = (10, 1) if args.quick else (args.tools, args.repeats)
    print(f"# toolgen catalog, {n} synthetic tools\n\n{machine()}; {load()}\n")
    with tempfile.TemporaryDirectory(prefix="toolgen-catalog-bench-") as folder:
        work = Path(folder)
        timed = builds(work, n, repeats)
        generate, catalog = timed["generate, cold"], timed["catalog"]
        rows = [
            [label, seconds(t.wall), seconds(t.cpu), ratio(t.wall, generate.wall)]
            for label, t in timed.items()
        ]
        beyond = catalog.wall - generate.wall
        rows.append(
            ["catalog beyond generate", seconds(beyond), seconds(catalog.cpu - generate.cpu), ""]
        )
        print(table([f"build (median of {repeats})", "wall s", "CPU s", "vs generate"], rows))
        site = work / "site"
        size = sum(p.stat().st_size for p in site.rglob("*") if p.is_file())
        index = (site / "index.html").stat().st_size
        print(
            f"\nsite: {size / 1e6:.1f} MB in {sum(1 for _ in site.rglob('*.html'))} pages;"
            f" index.html {index / 1e3:.0f} kB"
        )
        for what, extra in (("wall", beyond), ("CPU", catalog.cpu - generate.cpu)):
            verdict = "within" if extra <= 2.0 else "OVER"
            print(
                f"target: catalog at most 2 s beyond generate, {what}: {verdict} ({extra:+.2f} s)"
            )
        missing = browser_missing()
        if missing is not None:
            print(f"\npage: skipped ({missing})")
            return 0
        timings = pages(site, max(repeats, 3))
        base = statistics.median(timings["empty page"])
        print()
        print(
            table(
                [f"page (median of {len(timings['index'])})", "wall s", "vs empty page"],
                [
                    [k, seconds(statistics.median(v)), ratio(statistics.median(v), base)]
                    for k, v in timings.items()
                ],
            )
        )
        searched = statistics.median(timings["index + search"])
        verdict = "within" if searched < 1.0 else "OVER"
        print(f"target: index loaded and searched in under 1 s: {verdict} ({searched:.3f} s)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
