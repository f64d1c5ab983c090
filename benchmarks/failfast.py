"""The fail-fast twin (runtime/validation/failfast.py) of a class with recursion and nested
classes of another configuration: large refused input with and without it, and its cost on
valid input.

Each refused input (1,000,000 wrong values) is validated in a process of its own, with the
twin and without it (`failfast.twin` returning None, as it did for such a class before the
twin covered it): CPU seconds of the call, peak RSS over the process's before it, and what is
reported. Then valid input: the twin's pass and the class's, as a ratio to the class's alone
(medians over round-robin rounds of the thread's CPU clock; compare rows of one run).

Run: `python benchmarks/failfast.py [--rounds 5]`.
"""

from __future__ import annotations

import argparse
import json
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from tests.support.forest import Forest, branch_items, branch_keys, tree_items  # noqa: E402
from toolgen.runtime.errors import ToolArgumentsError  # noqa: E402
from toolgen.runtime.validation import failfast  # noqa: E402
from toolgen.runtime.validation.payload import Limits  # noqa: E402
from toolgen.runtime.validation.validate import validate  # noqa: E402

MILLION = 1_000_000
LIMITS = Limits(max_bytes=14_000_000)


REFUSED = {
    "3.0 MB, 1,000,000 empty strings as children of a node two levels deep": tree_items,
    "3.0 MB, 1,000,000 empty strings as nodes of a branch two levels deep": branch_items,
    "12.9 MB, 1,000,000 unknown keys in a branch": branch_keys,
}


def _tree(depth: int) -> dict[str, Any]:
    return {"id": depth, "children": [_tree(depth - 1) for _ in range(4)] if depth else []}


VALID = {
    "87,381 nodes, 4 children each": lambda: {"trees": [_tree(8)]},
    "20,000 branches of 4 nodes": lambda: {
        "branch": {
            "branches": [
                {"name": "b", "leaf": {"Size": 1}, "nodes": [{"id": i}] * 4} for i in range(20_000)
            ]
        }
    },
}


def refused(path: str, twin: bool) -> None:
    """One refused call (in a process of its own): CPU seconds, RSS growth, the report."""
    if not twin:
        failfast.twin = lambda model: None  # type: ignore[assignment]
    text = Path(path).read_text("utf-8")
    failfast.twin(Forest)  # compiled once per class: not measured
    before = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    started = time.process_time()
    try:
        validate(Forest, "forest", text, limits=LIMITS)
        report = "accepted"
    except ToolArgumentsError as exc:
        report = f"{len(exc.issues)} issues, total {exc.total}"
    cpu = time.process_time() - started
    grown = (resource.getrusage(resource.RUSAGE_SELF).ru_maxrss - before) / 1024
    print(f"{cpu:.2f} s, +{grown:.0f} MiB ({report})")


def valid(rounds: int) -> None:
    judge = failfast.twin(Forest)
    assert judge is not None
    for name, make in VALID.items():
        text = json.dumps(make())
        own: list[float] = []
        both: list[float] = []
        for _ in range(rounds):
            started = time.thread_time()
            Forest.model_validate_json(text)
            own.append(time.thread_time() - started)
            started = time.thread_time()
            judge.validate_json(text)
            Forest.model_validate_json(text)
            both.append(time.thread_time() - started)
        ratio = statistics.median(both) / statistics.median(own)
        print(
            f"| valid: {name}, {len(text) / 1e6:.1f} MB | twin and class {ratio:.2f}x the class |"
        )


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--refused", nargs=2, metavar=("PATH", "TWIN"), help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.refused:
        refused(args.refused[0], args.refused[1] == "twin")
        return
    print("| input | without the twin | with it |\n|---|---|---|")
    with tempfile.TemporaryDirectory() as folder:
        for number, (name, make) in enumerate(REFUSED.items()):
            path = Path(folder) / f"{number}.json"
            path.write_text(make(MILLION), "utf-8")
            cells = [
                subprocess.run(
                    [sys.executable, __file__, "--refused", str(path), mode],
                    check=True,
                    capture_output=True,
                    text=True,
                ).stdout.strip()
                for mode in ("none", "twin")
            ]
            print(f"| {name} | {cells[0]} | {cells[1]} |")
    valid(args.rounds)


if __name__ == "__main__":
    main()
