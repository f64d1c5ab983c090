"""A deterministic sample of the shared corpus, normalised to spec format v1 (importers/normalize.py).

Every source contributes; which records is decided by a hash of their content, so the sample
is the same on every machine and does not shift when records are appended.
"""

from __future__ import annotations

import hashlib
import json
from pathlib import Path
from typing import Any

from tests.support.generation import (  # noqa: F401 (NO_CORPUS: the skip reason of users)
    CORPUS,
    NO_CORPUS,
    REPO,
    generate,
    once,
)
from toolgen.importers.names import assign_unique_names
from toolgen.importers.normalize import UnsupportedSchema, normalize_tool
from toolgen.pipeline import check_specs

# Records per source file (all of a file when it has fewer): about 600 in all.
SHARE = {
    "bfcl": 190,
    "seal-tools": 170,
    "livemcpbench": 100,
    "github-mcp": 60,
    "mcp-snapshots": 50,
    "tau-bench": 30,
}


def _key(line: str) -> str:
    return hashlib.sha256(line.encode("utf-8")).hexdigest()


def sample(share: dict[str, int] = SHARE) -> list[tuple[str, dict[str, Any]]]:
    """(source, normalised tool) pairs, uniquely named; records the importer refuses are left out."""
    out: list[tuple[str, dict[str, Any]]] = []
    for path in sorted(CORPUS.glob("*.jsonl")):
        lines = sorted(path.read_text("utf-8").splitlines(), key=_key)[: share.get(path.stem, 50)]
        for line in lines:
            try:
                tool, _ = normalize_tool(json.loads(line))
            except UnsupportedSchema:
                continue
            out.append((path.stem, tool))
    named = assign_unique_names([(tool, []) for _, tool in out])
    return [(source, tool) for (source, _), (tool, _) in zip(out, named, strict=True)]


def write(folder: Path, tools: list[dict[str, Any]]) -> Path:
    specs = folder / "specs"
    specs.mkdir(parents=True, exist_ok=True)
    (specs / "tools.json").write_text(json.dumps({"tools": tools}, ensure_ascii=True), "utf-8")
    return specs


def lint_clean(
    folder: Path, sample: list[tuple[str, dict[str, Any]]]
) -> list[tuple[str, dict[str, Any]]]:
    """The sampled tools lint accepts (the importer repairs nearly all; lint has the last word)."""
    diagnostics, _ = check_specs(write(folder, [tool for _, tool in sample]))
    bad = {
        int(d.pointer.split("/")[2])
        for d in diagnostics
        if d.is_error and d.pointer.startswith("/tools/")
    }
    return [pair for i, pair in enumerate(sample) if i not in bad]


PACKAGE = "corpus_sample_tools"


def generated() -> tuple[list[tuple[str, dict[str, Any]]], Path]:
    """The lint-clean sample and the folder of the package PACKAGE generated from it, made
    once per test session (generating 600 tools is most of a corpus test's time)."""

    def make(folder: Path) -> None:
        clean = lint_clean(folder / "lint", sample())
        generate(write(folder, [tool for _, tool in clean]), folder / "out", PACKAGE)
        (folder / "sample.json").write_text(json.dumps(clean, ensure_ascii=True), "utf-8")

    folder = once("corpus-sample", make)
    pairs = json.loads((folder / "sample.json").read_text("utf-8"))
    return [(source, tool) for source, tool in pairs], folder / "out"
