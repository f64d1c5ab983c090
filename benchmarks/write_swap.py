"""What writing a generation costs, by how it is made durable and how it is swapped in.

Two spec sets of 1,000 synthetic tools (seeds 1 and 2: every tool file differs) are built once;
the output is then regenerated from one to the other with `toolgen.write.write`, in process,
under each variant (median of the repeats, alternating directions):

  journal, os.sync()        the swap by renames under a journal (where there is no exchange);
                            the staged tree flushed by one os.sync(): the baseline
  journal, fsync per file   the same, each staged file and folder fsynced instead
  exchange, os.sync()       one exchange per entry (what toolgen does where it can), no journal;
                            flushed by os.sync(), as before toolgen's own flush became syncfs
  exchange, fsync per file
  exchange, syncfs          one syncfs() of the output's file system (Linux): what toolgen does
  exchange, no flush        what the exchange needs for readers alone (not crash-safe)

Also printed: the swap step alone (from the end of the flush to the staged tree in place) and
the window a reader can see between two steps: with the journal, the package folder missing
(between moving the old one aside and the new one in); with the exchange, the new package
beside the old pyproject.toml (between the two exchanges).

    python benchmarks/write_swap.py [--tools 1000] [--repeats 5]
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from _util import ROOT, machine  # noqa: E402
from synthetic import write_specs  # noqa: E402

sys.path.insert(0, str(ROOT / "generator"))

from toolgen import write  # noqa: E402
from toolgen.config import BuildOptions  # noqa: E402
from toolgen.exchange import Unsupported  # noqa: E402
from toolgen.pipeline import build  # noqa: E402

PACKAGE = "synth"


def fsync_each(stage: Path) -> None:
    for folder, _, names in os.walk(stage):
        for name in [*names, "."]:
            fd = os.open(os.path.join(folder, name), os.O_RDONLY)
            try:
                os.fsync(fd)
            finally:
                os.close(fd)


def no_exchange(a: Path, b: Path) -> None:
    raise Unsupported(38, "exchange disabled by the benchmark", str(a))


FLUSHES: dict[str, Callable[[Path], None]] = {
    "os.sync()": lambda stage: os.sync(),
    "fsync per file": fsync_each,
    "syncfs": write._sync,
    "no flush": lambda stage: None,
}
VARIANTS = [
    ("journal", "os.sync()"),
    ("journal", "fsync per file"),
    ("exchange", "os.sync()"),
    ("exchange", "fsync per file"),
    ("exchange", "syncfs"),
    ("exchange", "no flush"),
]


class Probe:
    """Timestamps of the flush's end and of each swap step, through the functions write.py calls."""

    def __init__(self) -> None:
        self.flushed = 0.0
        self.steps: list[float] = []

    def flush(self, inner: Callable[[Path], None]) -> Callable[[Path], None]:
        def call(stage: Path) -> None:
            inner(stage)
            self.flushed = time.perf_counter()

        return call

    def step(self, inner: Callable[..., None]) -> Callable[..., None]:
        def call(*args: object) -> None:
            inner(*args)
            self.steps.append(time.perf_counter())

        return call


def measure(
    out: Path, maps: list[dict[str, str]], swap: str, flush: str, repeats: int
) -> dict[str, float]:
    options = BuildOptions(package=PACKAGE)
    totals, swaps, windows = [], [], []
    real_exchange, real_rename = write.exchange, os.rename
    for turn in range(repeats * 2):  # both directions, so each repeat writes a changed tree
        probe = Probe()
        write._sync = probe.flush(FLUSHES[flush])  # type: ignore[assignment]
        write.exchange = probe.step(real_exchange if swap == "exchange" else no_exchange)  # type: ignore[assignment]
        os.rename = probe.step(real_rename)  # type: ignore[assignment]
        try:
            started = time.perf_counter()
            write.write(out, maps[turn % 2], options)
            ended = time.perf_counter()
        finally:
            write._sync, write.exchange, os.rename = (  # type: ignore[assignment]
                FLUSHES["os.sync()"],
                real_exchange,
                real_rename,
            )
        totals.append(ended - started)
        swaps.append(probe.steps[-1] - probe.flushed)
        # journal: 4 renames (pyproject aside, in; package aside, in): the package is missing
        # between the 3rd and the 4th. exchange: 2 steps, the pair mixed between them.
        windows.append(probe.steps[-1] - probe.steps[-2])
    return {
        "total": statistics.median(totals),
        "swap": statistics.median(swaps),
        "window": statistics.median(windows),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tools", type=int, default=1000)
    parser.add_argument("--repeats", type=int, default=5)
    args = parser.parse_args()
    print(machine())
    with tempfile.TemporaryDirectory(prefix="toolgen-swap-") as tmp:
        root = Path(tmp)
        maps = []
        for seed in (1, 2):
            specs = root / f"specs-{seed}"
            write_specs(specs, args.tools, seed)
            # Two versions, so that pyproject.toml changes too: both entries are swapped (the
            # worst case; a regeneration of one version swaps the package alone).
            result = build(specs, BuildOptions(package=PACKAGE, version=f"0.{seed}.0"))
            assert result.ok, "synthetic specs must build"
            maps.append(result.files)
        out = root / "out"
        out.mkdir()
        write.write(out, maps[1], BuildOptions(package=PACKAGE))
        files = sum(1 for p in (out / PACKAGE).rglob("*") if p.is_file())
        planned = write.plan(out, maps[0], BuildOptions(package=PACKAGE))
        print(
            f"{args.tools} tools: {files} files in the package; a regeneration writes "
            f"{len(planned.changed) + len(planned.missing)} and removes {len(planned.orphans)}; "
            f"median of {args.repeats * 2} regenerations\n"
        )
        rows = [
            (swap, flush, measure(out, maps, swap, flush, args.repeats)) for swap, flush in VARIANTS
        ]
        base = rows[0][2]
        print(
            f"{'variant':<28} {'write':>9} {'ratio':>7} {'swap step':>10} {'ratio':>7} {'window':>9}"
        )
        for swap, flush, row in rows:
            print(
                f"{swap + ', ' + flush:<28} {row['total'] * 1e3:>7.1f}ms "
                f"{row['total'] / base['total']:>6.2f}x {row['swap'] * 1e6:>8.0f}µs "
                f"{row['swap'] / base['swap']:>6.2f}x {row['window'] * 1e6:>7.1f}µs"
            )


if __name__ == "__main__":
    main()
