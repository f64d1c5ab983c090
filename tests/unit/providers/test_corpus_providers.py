"""The corpus test: every tool of the shared corpus (8,406 of them) imports, lowers, and yields for each
provider variant a definition that passes that provider's SDK checks, or a lint warning with the
fallback taken (or the refusal). Counts per variant are printed and pinned: a regression fails.

Fast on purpose (the suite must stay well under 15 minutes on 2 cores): no package is generated
or formatted. Records are normalised by the importer (`normalize_tool`, names made unique as
`toolgen import` does), written as a few big spec files, checked with `lint.run` and lowered
with `lower` in process; the exporters and checks run on the IR directly. Each tool is exported
alone, so Anthropic's per-request budget of strict tools (tested in test_providers.py) does not
hide what each tool can express.
"""

from __future__ import annotations

import json
import multiprocessing
import os
import time
from collections import Counter
from collections.abc import Iterator
from concurrent.futures import ProcessPoolExecutor
from typing import Any

import pytest

from tests.support import provider_checks as checks
from tests.support.generation import CORPUS, NO_CORPUS
from toolgen.diagnostics import Severity
from toolgen.importers.names import assign_unique_names
from toolgen.importers.normalize import UnsupportedSchema, normalize_tool
from toolgen.lower import lower
from toolgen.pipeline import check_specs
from toolgen.providers import PROVIDERS, export, variants
from toolgen.providers.base import FALLBACK

TOTAL = 8406
CHUNK = 1500  # tools per spec set
# variant -> (accepted at least, fallback with warning, refused at most); update when it improves.
# A fallback is a tool with a `provider-fallback` note; lossy notes (what the model is not told) count as accepted.
PINNED: dict[str, tuple[int, int, int]] = {
    "openai": (8406, 0, 0),
    "openai strict": (8228, 178, 0),
    "openai-responses strict": (8228, 178, 0),
    "openai-responses": (8406, 0, 0),
    "anthropic": (8406, 0, 0),
    "anthropic strict": (8222, 184, 0),
    "gemini": (8406, 0, 0),
    "gemini openapi": (8357, 4, 45),
    "mcp": (8406, 0, 0),
    "bedrock": (8406, 0, 0),
    "bedrock strict": (8222, 184, 0),
}

pytestmark = [pytest.mark.slow, pytest.mark.skipif(not CORPUS.is_dir(), reason=NO_CORPUS)]


def label(provider: str, option: dict[str, Any]) -> str:
    on = [k if v is True else f"{k}={v}" for k, v in option.items() if v is not False]
    return " ".join([provider, *on])


def records() -> Iterator[dict[str, Any]]:
    for path in sorted(CORPUS.glob("*.jsonl")):
        with path.open(encoding="utf-8") as lines:
            for line in lines:
                if line.strip():
                    yield json.loads(line)


@pytest.fixture(scope="module")
def corpus(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Any]:
    started = time.perf_counter()
    imported: list[tuple[dict[str, Any], list[str]]] = []
    unsupported: list[str] = []
    for record in records():
        try:
            imported.append(normalize_tool(record))
        except UnsupportedSchema as exc:
            unsupported.append(f"{record.get('name')}: {exc}")
    tools, diagnostics = [], []
    warnings: set[tuple[str, str]] = set()  # (tool, message) of every diagnostic
    root = tmp_path_factory.mktemp("corpus")
    for start in range(0, len(imported), CHUNK):
        chunk = assign_unique_names(imported[start : start + CHUNK])
        specs = root / f"set{start // CHUNK:02}"
        specs.mkdir()
        (specs / "tools.json").write_text(
            json.dumps({"tools": [tool for tool, _ in chunk]}), "utf-8"
        )
        found, checked = check_specs(specs)
        diagnostics += found
        for d in found:  # "/tools/<i>/..." -> the i-th tool of this set
            if d.pointer.startswith("/tools/"):
                warnings.add((chunk[int(d.pointer.split("/")[2])][0]["name"], d.message))
        tools += lower(checked, "corpus").tools
    return {
        "records": len(imported) + len(unsupported),
        "unsupported": unsupported,
        "tools": tools,
        "diagnostics": diagnostics,
        "warnings": warnings,
        "seconds": time.perf_counter() - started,
    }


def test_every_corpus_tool_imports_and_lowers(corpus: dict[str, Any]) -> None:
    assert corpus["records"] == TOTAL
    assert corpus["unsupported"] == []
    errors = [d.text() for d in corpus["diagnostics"] if d.severity is Severity.ERROR]
    assert errors == [], "\n".join(errors[:20])
    assert len(corpus["tools"]) == TOTAL


def _export_and_check(
    tools: list[Any],
) -> tuple[dict[str, Counter[str]], list[str], set[tuple[str, str]]]:
    """Counts per variant, check failures, and the (tool, note) pairs of every fallback taken."""
    counts: dict[str, Counter[str]] = {}
    failures: list[str] = []
    noted: set[tuple[str, str]] = set()
    for provider in PROVIDERS:
        for option in variants(provider):
            name = label(provider, option)
            count = counts.setdefault(name, Counter())
            for tool in tools:
                result = export(provider, [tool], **option)
                for definition in result.definitions:
                    problems = checks.check(provider, definition)
                    if problems:
                        failures.append(f"{name}: {tool.name}: {problems[:3]}")
                if not result.definitions:
                    count["refused" if result.notes else "refused without a note"] += 1
                else:  # notes of other kinds (lossy, root merged) say what a definition leaves to the runtime
                    count[
                        "fallback" if any(n.kind == FALLBACK for n in result.notes) else "accepted"
                    ] += 1
                noted.update((tool.name, note.text()) for note in result.notes)
    return counts, failures, noted


def _in_parallel(
    tools: list[Any],
) -> tuple[dict[str, Counter[str]], list[str], set[tuple[str, str]]]:
    """Both cores: half the tools each. The SDKs are imported (and their validators built) here
    first, by checking one tool, so that the forked workers share them instead of each importing
    them again (about 3 s of CPU each)."""
    if len(tools) < 100 or not hasattr(os, "fork"):
        return _export_and_check(tools)
    _export_and_check(tools[:1])
    halves = [tools[0::2], tools[1::2]]
    with ProcessPoolExecutor(2, mp_context=multiprocessing.get_context("fork")) as pool:
        parts = list(pool.map(_export_and_check, halves))
    counts: dict[str, Counter[str]] = {}
    for part, _, _ in parts:
        for name, count in part.items():
            counts.setdefault(name, Counter()).update(count)
    return counts, [f for _, fs, _ in parts for f in fs], set().union(*(n for _, _, n in parts))


def test_every_corpus_tool_has_a_definition_each_provider_accepts(corpus: dict[str, Any]) -> None:
    started = time.perf_counter()
    counts, failures, noted = _in_parallel(corpus["tools"])
    seconds = time.perf_counter() - started
    print(
        f"\ncorpus: {TOTAL} tools; import+lint+lower {corpus['seconds']:.1f}s, export+checks {seconds:.1f}s"
    )
    print(f"{'variant':28} {'accepted':>9} {'fallback':>9} {'refused':>8}")
    for name, count in counts.items():
        print(f"{name:28} {count['accepted']:9} {count['fallback']:9} {count['refused']:8}")
    assert failures == [], "\n".join(failures[:30])
    unwarned = sorted(noted - corpus["warnings"])  # a fallback lint did not warn about
    assert unwarned == [], unwarned[:10]
    for name, count in counts.items():
        assert count["refused without a note"] == 0, name
        assert sum(count.values()) == TOTAL
        accepted, _, refused = PINNED[name]
        assert count["accepted"] >= accepted, (
            f"{name}: fewer tools accepted as they are ({count['accepted']} < {accepted})"
        )
        assert count["refused"] <= refused, (
            f"{name}: more tools refused ({count['refused']} > {refused})"
        )
