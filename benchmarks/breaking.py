"""Time `toolgen breaking` on two versions of 1,000 synthetic tools.

The previous version is `synthetic.py`'s 1,000 tools; the current one changes every tenth
tool (a bound narrowed, an optional parameter added, a parameter removed, an enum value
added to a result, a new required parameter: one change each, in turn) and adds 10 tools.
Both versions are committed to a temporary git repository. Measured, median of the repeats:

  in process, directories   both sides loaded from folders, compared, the report rendered
  in process, git           the previous side read from the commit before (`git ls-tree`, `git cat-file`)
  CLI, git                  `python -m toolgen breaking --against HEAD~1`, a fresh process

    python benchmarks/breaking.py [--tools 1000] [--repeats 5]
"""

from __future__ import annotations

import argparse
import copy
import os
import statistics
import subprocess
import sys
import tempfile
import time
from datetime import date
from pathlib import Path
from typing import Any

import yaml

sys.path.insert(0, str(Path(__file__).resolve().parent))

from _util import PYTHON, ROOT, machine  # noqa: E402
from synthetic import make_tool, make_tools  # noqa: E402

sys.path.insert(0, str(ROOT / "generator"))

from toolgen.breaking import sources  # noqa: E402
from toolgen.breaking.engine import compare  # noqa: E402
from toolgen.breaking.report import render  # noqa: E402
from toolgen.breaking.settings import everything  # noqa: E402


def changed(tool: dict[str, Any], turn: int) -> dict[str, Any]:
    """The tool with one change (which one: `turn`)."""
    tool = copy.deepcopy(tool)
    properties = tool["parameters"]["properties"]
    first = next(iter(properties))
    if turn == 0:  # a bound narrowed (or added), else a description changed
        kind = properties[first].get("type")
        if kind == "string":
            properties[first]["maxLength"] = 5
        elif kind in ("integer", "number"):
            properties[first]["maximum"] = 3
        properties[first]["description"] = "Narrowed."
    elif turn == 1:
        properties["page_token"] = {"type": "string", "description": "Where to continue."}
    elif turn == 2:
        del properties[list(properties)[-1]]
        tool["parameters"]["required"] = [
            r for r in tool["parameters"]["required"] if r in properties
        ]
        if not tool["parameters"]["required"]:
            tool["parameters"]["required"] = [first]
    elif turn == 3:
        returns = tool["returns"]
        if returns.get("type") == "object":
            returns["properties"]["status"] = {"type": "string", "enum": ["ok", "partial"]}
        else:
            returns["items"] = {"type": ["string", "null"]}
    else:
        properties["tenant"] = {"type": "string", "description": "The tenant."}
        tool["parameters"]["required"].append("tenant")
    return tool


def write(folder: Path, tools: list[dict[str, Any]]) -> None:
    for tool in tools:
        target = folder / tool["category"] / f"{tool['name']}.yaml"
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_text(
            yaml.safe_dump(tool, sort_keys=False, allow_unicode=True, width=100), "utf-8"
        )


def git(repo: Path, *args: str) -> None:
    subprocess.run(
        ["git", "-c", "user.name=bench", "-c", "user.email=bench@example.com", *args],
        cwd=repo,
        check=True,
        capture_output=True,
    )


def versions(n: int) -> tuple[list[dict[str, Any]], list[dict[str, Any]]]:
    before = make_tools(n)
    after = [changed(tool, (i // 10) % 5) if i % 10 == 0 else tool for i, tool in enumerate(before)]
    import random

    rng = random.Random("toolgen-bench-breaking")
    after += [make_tool(rng, n + i) for i in range(10)]
    return before, after


def timed(function: Any, repeats: int) -> tuple[float, Any]:
    walls, result = [], None
    for _ in range(repeats):
        start = time.perf_counter()
        result = function()
        walls.append(time.perf_counter() - start)
    return statistics.median(walls), result


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tools", type=int, default=1000)
    parser.add_argument("--repeats", type=int, default=5)
    args = parser.parse_args()
    before, after = versions(args.tools)
    settings = everything()
    today = date(2026, 1, 1)
    with tempfile.TemporaryDirectory(prefix="toolgen-bench-breaking-") as tmp:
        work = Path(tmp)
        old, repo = work / "old", work / "repo"
        write(old, before)
        specs = repo / "specs"
        write(specs, before)
        git(repo, "init", "-q")
        git(repo, "add", "-A")
        git(repo, "commit", "-qm", "before")
        for path in specs.rglob("*.yaml"):
            path.unlink()
        write(specs, after)
        git(repo, "add", "-A")
        git(repo, "commit", "-qm", "after")

        def in_folders() -> str:
            current = sources.current(specs)
            report = compare(sources.directory(old, "old", None, current), current, settings, today)
            return render(report)

        def in_git() -> str:
            current = sources.current(specs)
            report = compare(
                sources.revision("HEAD~1", specs, None, current), current, settings, today
            )
            return render(report)

        def cli() -> str:
            env = {**os.environ, "PYTHONPATH": str(ROOT / "generator")}
            done = subprocess.run(
                [
                    PYTHON,
                    "-m",
                    "toolgen",
                    "breaking",
                    "--against",
                    "HEAD~1",
                    "--specs",
                    str(specs),
                    "--today",
                    "2026-01-01",
                ],
                cwd=repo,
                env=env,
                capture_output=True,
                text=True,
            )
            assert done.returncode == 1, done.stderr
            return done.stdout

        rows = [
            ("in process, directories", *timed(in_folders, args.repeats)),
            ("in process, git", *timed(in_git, args.repeats)),
            ("CLI, git", *timed(cli, args.repeats)),
        ]
    print(machine())
    print(
        f"{args.tools} tools, {sum(1 for i in range(args.tools) if i % 10 == 0)} changed, 10 added; "
        f"median of {args.repeats}"
    )
    print("| measurement | wall |")
    print("|---|---:|")
    for label, wall, _ in rows:
        print(f"| {label} | {wall:.2f} s |")
    print("summary:", rows[0][2].rsplit("\n", 1)[-1])


if __name__ == "__main__":
    main()
