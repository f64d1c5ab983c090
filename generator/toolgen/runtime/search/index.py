# Part of toolgen's runtime, copied verbatim into generated packages (edit toolgen, not a copy).
"""The local index of a registry's tools: BM25F over each tool's fields, and its entries.

The index is generated: render writes each package's `definitions/search.json` with
analyzer.py's `fields`; a tool with no generated entry (another runtime's analyzer, a
hand-made ToolInfo) is indexed here from its ToolInfo (`entry_of`).

The scorer is BM25F: each field's term frequency, weighted (`WEIGHTS`) and normalised by the
field's length, summed before BM25's saturation; a term's rarity (idf) is counted over the
registry's tools. A tool is returned only when a query word hits its name, namespace or
description (not only its parameters or examples) and its score is at least `THRESHOLD` of
the most the query could score (every word found, saturated): docs/search.md says how the
numbers were chosen and measured.
"""

from __future__ import annotations

import json
import math
from collections import Counter
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from functools import lru_cache
from importlib import resources
from typing import Any

from ..results.result import ToolInfo, package_of
from .analyzer import ANALYZER, FIELDS, fields, tokens

__all__ = ["INDEX", "THRESHOLD", "Entry", "Hit", "SearchIndex", "entry_of", "package_entries"]

# -- the index file ---------------------------------------------------------------------------

INDEX = "definitions/search.json"  # in each generated package
FORMAT = 1  # of the file

# -- the scorer's settings (docs/search.md: how they were chosen) ------------------------------

WEIGHTS = (3.0, 1.0, 2.0, 0.5, 0.5)  # per field, as FIELDS
B = (0.3, 0.0, 0.75, 0.75, 0.75)  # length normalisation per field
K1 = 1.2
CORE = 3  # fields FIELDS[:CORE] must hold a query word for a tool to be returned
THRESHOLD = 0.2  # the least share of the query's most possible score a returned tool has

# -- the index --------------------------------------------------------------------------------


@dataclass(frozen=True)
class Entry:
    """One indexed tool: its fields' terms, and what search_tools says of it."""

    name: str
    fields: tuple[str, ...]
    description: str
    schema: dict[str, Any]


@dataclass(frozen=True)
class Hit:
    name: str
    score: float  # the share of the query's most possible score, 0..1


class SearchIndex:
    """BM25F over entries; `search` answers a query (a few microseconds per posting)."""

    def __init__(self, entries: Iterable[Entry]) -> None:
        self.entries = sorted(entries, key=lambda e: e.name)
        self.by_name = {e.name: e for e in self.entries}
        count = len(self.entries)
        counted = [[Counter(text.split()) for text in e.fields] for e in self.entries]
        lengths = [[sum(c.values()) for c in doc] for doc in counted]
        average = [
            (sum(doc[f] for doc in lengths) / count if count else 0.0) or 1.0
            for f in range(len(FIELDS))
        ]
        # term -> [(entry, its saturated weight, whether a core field holds it)]
        postings: dict[str, list[tuple[int, float, bool]]] = {}
        for i, doc in enumerate(counted):
            weighted: dict[str, float] = {}
            core: set[str] = set()
            for f, terms in enumerate(doc):
                norm = 1 - B[f] + B[f] * lengths[i][f] / average[f]
                for term, tf in terms.items():
                    weighted[term] = weighted.get(term, 0.0) + WEIGHTS[f] * tf / norm
                    if f < CORE:
                        core.add(term)
            for term in sorted(weighted):
                mass = weighted[term]
                postings.setdefault(term, []).append((i, mass / (K1 + mass), term in core))
        self.postings = postings
        self.idf = {t: _idf(count, len(p)) for t, p in postings.items()}
        self.unseen = _idf(count, 0)  # what a query word no tool has would weigh

    def search(self, query: str, limit: int = 5, threshold: float = THRESHOLD) -> list[Hit]:
        """The best `limit` tools for `query`, best first (then by name); [] when nothing
        serves it (see the module's docstring)."""
        terms = sorted(set(tokens(query)))
        # A number no tool has is a value of the call, not what the tool does: it does not
        # lower the share a tool scores.
        most = sum(self.idf.get(t, 0.0 if t.isdigit() else self.unseen) for t in terms)
        if not terms or most <= 0:
            return []
        scores: dict[int, float] = {}
        hit: set[int] = set()
        for term in terms:
            idf = self.idf.get(term)
            if idf is None:
                continue
            for i, weight, core in self.postings[term]:
                scores[i] = scores.get(i, 0.0) + idf * weight
                if core:
                    hit.add(i)
        least = threshold * most
        found = [(-s, self.entries[i].name) for i, s in scores.items() if i in hit and s >= least]
        found.sort()
        return [Hit(name, -s / most) for s, name in found[:limit]]


def _idf(count: int, df: int) -> float:
    return math.log(1 + (count - df + 0.5) / (df + 0.5))


@lru_cache(maxsize=64)
def package_entries(package: str) -> Mapping[str, Entry]:
    """The entries of a generated package's index (by tool name); {} when it has none or it
    was written by another analyzer."""
    if not package:
        return {}
    try:
        text = resources.files(package).joinpath(INDEX).read_text("utf-8")
    except (OSError, ImportError, TypeError, ValueError):
        return {}
    document = json.loads(text)
    if document.get("format") != FORMAT or document.get("analyzer") != ANALYZER:
        return {}
    return {
        tool["name"]: Entry(
            tool["name"], tuple(tool["fields"]), tool["description"], tool["inputSchema"]
        )
        for tool in document["tools"]
    }


def entry_of(info: ToolInfo) -> Entry:
    """A tool's entry: from its package's generated index, else made from its ToolInfo."""
    found = package_entries(package_of(info)).get(info.name)
    if found is not None:
        return found
    try:
        schema = info.arguments.model_json_schema()
    except Exception:  # noqa: BLE001 - a model pydantic cannot describe: indexed without it
        schema = {"type": "object"}
    made = fields(
        info.name,
        info.description,
        getattr(info, "namespace", None),
        info.category,
        schema,
        [{"arguments": a} for a in getattr(info, "examples", ())],
    )
    return Entry(info.name, made, info.description, schema)
