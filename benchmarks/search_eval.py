"""Tool search, measured: toolgen's index (runtime/search/index.py) against a plain BM25, same run.

Catalogs: the built-in library (`schemas/`, through the pipeline: the index `generate`
writes) and, given the corpus, its largest catalogs: the GitHub MCP server (117 tools), the
70 LiveMCPBench servers together (527 tools; a tool's namespace is its server) and BFCL's 12
multi-turn API classes (162 tools; namespace: the class). A corpus tool is indexed by the
same `search.fields` the generator calls, from its name, description and schema (the corpus
has no spec examples). With `--bfcl DATA` (BFCL's data folder, at the commit the corpus was
taken from), also BFCL's `simple_python` and `multiple` questions against the 589 functions
they offer: queries people wrote, not derived from the descriptions.

Derived queries are never copied whole, and never contain the tool's own name words (every
word whose terms are all in the name is dropped):
- `sentence`: the first sentence of its description that no other tool of the catalog has
  (BFCL's multi-turn descriptions open with their API's boilerplate), name words removed;
- `keywords`: the first four words of that which are not stop words;
- `example`: a spec example's description, name words removed (built-in library only),
  asked of an index built without that example (its description is indexed text).
A derived query needs two words that are not stop words, one of them in at most a tenth of
the catalog's descriptions. Each tool falls in the `tune` or the `test` half by a hash of its
catalog and name (a question: of its id); so does each query no tool serves (the fixed list
below, vetted per catalog). THRESHOLD, WEIGHTS and the digits rule were chosen on `tune`
(`--tune` prints the threshold grid); the numbers to quote are `test`'s.

The baseline is Okapi BM25 (k1 = 1.2, b = 0.75) over name + description, lowercased and split
at whitespace, no stop words, no stemming, no threshold: it answers whenever any word matches.

Metrics: top-1 and top-5 (the tool a query came from is first / among the first five),
MRR over the first ten, the share of in-domain queries answered with nothing, and the share
of no-tool queries answered with nothing. Latency: each query asked 3 times, the fastest kept;
median and 95th percentile over the catalog's queries; and on 1,000 BFCL tools (the first
1,000 distinct names of its file), with the time to build that index.

Run: `python benchmarks/search_eval.py CORPUS [--bfcl DATA]` (CORPUS: the folder of the
corpus's .jsonl files), or `--builtin-only`; `--tune` for the threshold grid; `--split
all|tune|test`.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import math
import re
import statistics
import sys
import time
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "generator"))

from toolgen.runtime.search import analyzer as search  # noqa: E402
from toolgen.runtime.search.index import THRESHOLD, Entry, SearchIndex  # noqa: E402

# Asked of every catalog, but where the catalog is listed beside the query: one of its tools
# does what the query asks, or its near equivalent (vetted by reading each catalog's tools that
# share a word with the query). A tool that only shares the topic (restaurant.find for reserving
# a table, guitar_price.find for tuning a guitar) does not serve it: those pairs are asked.
NO_TOOL: dict[str, tuple[str, ...]] = {
    "book a flight to Lisbon for next Tuesday": (
        "bfcl-multi-turn",
        "bfcl-questions",
    ),  # book_flight, flight.book
    "translate this poem into French": ("bfcl-questions",),  # translate
    "order a large pepperoni pizza for delivery": ("bfcl-questions",),  # grocery_delivery.order
    "turn off the living room lights": ("bfcl-multi-turn",),  # setHeadlights (a car's)
    "set the thermostat to 21 degrees": ("bfcl-multi-turn",),  # adjustClimateControl
    "schedule a dentist appointment on Friday morning": (),
    "transfer 200 dollars to my savings account": (),
    "play some relaxing jazz music": ("bfcl-questions",),  # play_sound_wave, music.generate
    "phone my mother and wish her happy birthday": (),
    "reserve a table for two at an Italian restaurant": (),
    "water the tomato plants in the garden": (),
    "feed the cat while I am on holiday": (),
    "recommend a good novel to read this summer": (),
    "write a birthday poem for my sister": (),
    "renew my passport before it expires": (),
    "knit a warm wool scarf": (),
    "tune my guitar to drop D": (),
    "buy running shoes in size 42": ("bfcl-questions",),  # walmart.purchase
    "cancel my gym membership": (),
    "rent a car in Madrid for the weekend": ("bfcl-questions",),  # car.rental
    "wash the dishes after dinner": (),
    "walk the dog at noon": (),
    "lock the front door of the house": ("bfcl-multi-turn",),  # lockDoors (a car's)
    "start the washing machine on a cold cycle": (),
    "iron my white shirt": (),
    "mow the lawn this afternoon": (),
    "vacuum the living room carpet": (),
    "paint the bedroom walls blue": (),
    "fix the leaking kitchen tap": (),
    "change the baby's nappy": (),
    "bake a chocolate cake for the party": (),
    "pick up my dry cleaning": (),
    "get a haircut on Saturday": (),
    "adopt a puppy from the animal shelter": (),
    "sign me up for yoga classes": (),
    "return this sweater to the shop": (),
    "defrost the freezer": (),
    "make me a cup of tea": (),
    "repair the bicycle chain": (),
    "clean the bathroom mirror": (),
    "teach my parrot to talk": (),
    "sharpen the kitchen knives": (),
    "hang the new curtains": (),
    "book a massage for tomorrow": (),
    "file my tax return": (),
    "pay the electricity bill": (),
    "apply for a mortgage": (),
    "order new glasses from the optician": (),
    "vote in the local election": (),
    "donate blood next week": (),
    "babysit the kids tonight": (),
    "clean the gutters before winter": (),
    "wrap a birthday present": (),
    "polish my leather boots": (),
}
QUERY_KINDS = ("sentence", "keywords", "example", "question", "no-tool")


@dataclass(frozen=True)
class Tool:
    name: str
    description: str
    namespace: str | None
    parameters: dict[str, Any]
    examples: tuple[dict[str, Any], ...] = ()
    entry: Entry | None = None  # the generated entry (the built-in library)


@dataclass(frozen=True)
class Query:
    text: str
    gold: str | None  # None: no tool serves it
    kind: str
    split: str
    without: tuple[str, int] | None = None  # (tool, example) left out of the index it is asked of


@dataclass
class Catalog:
    name: str
    tools: list[Tool]
    queries: list[Query] = field(default_factory=list)


# -- catalogs ---------------------------------------------------------------------------------


def builtin() -> Catalog:
    """The built-in library, lowered by the pipeline; its entries are those render writes."""
    from toolgen.lower import lower
    from toolgen.pipeline import check_specs
    from toolgen.render.search_index import index_document

    diagnostics, checked = check_specs(ROOT / "schemas", exports=False)
    assert not any(d.is_error for d in diagnostics), [d.text() for d in diagnostics if d.is_error]
    ir = lower(checked, "toolgen_builtin")
    entries = {e["name"]: e for e in index_document(ir.tools)["tools"]}
    tools = []
    for tool in ir.tools:
        e = entries[tool.name]
        entry = Entry(tool.name, tuple(e["fields"]), e["description"], e["inputSchema"])
        tools.append(
            Tool(tool.name, tool.description, tool.namespace, tool.parameters, tool.examples, entry)
        )
    return Catalog("builtin", tools)


def _records(
    corpus: Path, file: str, keep: Callable[[dict[str, Any]], bool]
) -> list[dict[str, Any]]:
    path = corpus / file
    return [r for r in map(json.loads, path.read_text("utf-8").splitlines()) if keep(r)]


def _named(records: Iterable[tuple[str, str | None, dict[str, Any]]]) -> list[Tool]:
    """Tools from (name, namespace, record); a name two records share gets its namespace as a
    prefix (what MCP gateways do), a name seen again within one namespace is dropped."""
    rows = list(records)
    seen: dict[str, int] = {}
    for name, _, _ in rows:
        seen[name] = seen.get(name, 0) + 1
    tools: dict[str, Tool] = {}
    for name, namespace, record in rows:
        unique = f"{namespace}__{name}" if seen[name] > 1 and namespace else name
        if unique in tools:
            continue
        schema = record.get("inputSchema") or record.get("parameters") or {}
        tools[unique] = Tool(unique, record.get("description") or "", namespace, schema)
    return sorted(tools.values(), key=lambda t: t.name)


def corpus_catalogs(corpus: Path) -> list[Catalog]:
    github = _records(corpus, "github-mcp.jsonl", lambda r: r.get("category") == "toolsnap_head")
    live = _records(corpus, "livemcpbench.jsonl", lambda r: True)
    multi = _records(
        corpus,
        "bfcl.jsonl",
        lambda r: str(r.get("category", "")).startswith("multi_turn_func_doc:"),
    )
    return [
        Catalog("github-mcp", _named((r["name"], None, r) for r in github)),
        Catalog("livemcpbench", _named((r["name"], r.get("server"), r) for r in live)),
        Catalog(
            "bfcl-multi-turn", _named((r["name"], r["category"].split(":", 1)[1], r) for r in multi)
        ),
    ]


def questions_catalog(data: Path) -> Catalog:
    """BFCL's `simple_python` and `multiple` questions (600, one user turn each) against every
    function those files offer (the first definition of each of 589 names): queries people
    wrote, with the function that answers each (the file's own for simple_python, the ground
    truth for multiple)."""
    tools: dict[str, Tool] = {}
    asked: list[tuple[str, str, str]] = []  # (id, question, function)
    answers = {}
    for line in (
        (data / "possible_answer" / "BFCL_v4_multiple.json").read_text("utf-8").splitlines()
    ):
        record = json.loads(line)
        answers[record["id"]] = next(iter(record["ground_truth"][0]))
    for file in ("BFCL_v4_simple_python.json", "BFCL_v4_multiple.json"):
        for line in (data / file).read_text("utf-8").splitlines():
            record = json.loads(line)
            for function in record["function"]:
                name = function["name"]
                if name not in tools:
                    tools[name] = Tool(
                        name,
                        function.get("description") or "",
                        None,
                        function.get("parameters") or {},
                    )
            gold = answers.get(record["id"], record["function"][0]["name"])
            asked.append((record["id"], record["question"][0][-1]["content"], gold))
    catalog = Catalog("bfcl-questions", sorted(tools.values(), key=lambda t: t.name))
    catalog.queries = [
        Query(text, gold, "question", split_of(catalog.name, id_)) for id_, text, gold in asked
    ]
    return catalog


def latency_catalog(corpus: Path) -> Catalog:
    """1,000 BFCL tools: the first of each name, in the file's order."""
    first: dict[str, dict[str, Any]] = {}
    for record in _records(corpus, "bfcl.jsonl", lambda r: True):
        first.setdefault(record["name"], record)
        if len(first) == 1000:
            break
    return Catalog("bfcl-1000", _named((name, None, r) for name, r in first.items()))


def entry(tool: Tool, examples: Sequence[dict[str, Any]] | None = None) -> Entry:
    """A tool's entry: the generated one, or made by the generator's own `search.fields`;
    `examples` replaces the tool's examples (leave-one-out)."""
    if tool.entry is not None and examples is None:
        return tool.entry
    made = search.fields(
        tool.name,
        tool.description,
        tool.namespace,
        None,
        tool.parameters,
        tool.examples if examples is None else examples,
    )
    base = tool.entry
    return Entry(
        tool.name,
        made,
        base.description if base else tool.description,
        base.schema if base else tool.parameters,
    )


# -- queries ----------------------------------------------------------------------------------

_SENTENCE = re.compile(r"(?<=[.!?])\s+|\n")


def split_of(*key: str) -> str:
    digest = hashlib.sha256("\0".join(key).encode()).digest()
    return "tune" if digest[0] % 2 == 0 else "test"


def without_name(text: str, name: str) -> str:
    """`text` without the words all of whose terms are terms of `name`."""
    own = set(search.tokens(name))
    kept = [w for w in text.split() if not ((terms := search.tokens(w)) and set(terms) <= own)]
    return " ".join(kept)


def content_words(text: str) -> list[str]:
    words = [re.sub(r"^\W+|\W+$", "", w) for w in text.split()]
    return [w for w in words if len(w) > 1 and w.lower() not in search.STOP_WORDS]


def sentences(description: str) -> list[str]:
    return [s.strip() for s in _SENTENCE.split(description.strip()) if s.strip()]


def own_sentence(tool: Tool, shared: set[str]) -> str:
    """The first sentence of the tool's description that no other tool of its catalog has
    (BFCL's multi-turn tools open with their API's boilerplate), at most 30 words."""
    own = [s for s in sentences(tool.description) if s not in shared]
    return " ".join(own[0].split()[:30]) if own else ""


def _word(w: str) -> str:
    return re.sub(r"^\W+|\W+$", "", w).lower()


def derive(catalog: Catalog) -> None:
    """The catalog's queries. A query must say something that could single its tool out: one
    of its words (lowercased, punctuation stripped) is in at most a tenth of the catalog's
    descriptions (at least two); "in a GitHub repository", which is all that is left of
    list_branches' first sentence without its name words, says nothing of branches."""
    queries: list[Query] = []
    seen: set[tuple[str, str]] = set()
    counts: dict[str, int] = {}
    for tool in catalog.tools:
        for w in {_word(w) for w in f"{tool.name} {tool.description}".split()}:
            counts[w] = counts.get(w, 0) + 1
    rare = max(2, len(catalog.tools) // 10)
    occurrences: dict[str, int] = {}
    for tool in catalog.tools:
        for s in set(sentences(tool.description)):
            occurrences[s] = occurrences.get(s, 0) + 1
    shared = {s for s, n in occurrences.items() if n > 1}

    def add(text: str, tool: Tool, kind: str, without: tuple[str, int] | None = None) -> None:
        words = content_words(text)
        if (
            len(words) < 2
            or (text, tool.name) in seen
            or min(counts.get(_word(w), 0) for w in words) > rare
        ):
            return
        seen.add((text, tool.name))
        queries.append(Query(text, tool.name, kind, split_of(catalog.name, tool.name), without))

    for tool in catalog.tools if catalog.name != "bfcl-questions" else ():
        sentence = without_name(own_sentence(tool, shared), tool.name)
        add(sentence, tool, "sentence")
        add(" ".join(content_words(sentence)[:4]), tool, "keywords")
        for i, example in enumerate(tool.examples):
            if isinstance(example.get("description"), str):
                add(
                    without_name(example["description"], tool.name), tool, "example", (tool.name, i)
                )
    for text, served in NO_TOOL.items():
        if catalog.name not in served:
            queries.append(Query(text, None, "no-tool", split_of(text)))
    catalog.queries = [q for q in catalog.queries if q.kind == "question"] + queries


# -- the two systems --------------------------------------------------------------------------


class Okapi:
    """Okapi BM25 over name + description: lowercase, whitespace tokens, no threshold."""

    def __init__(self, tools: Sequence[Tool], k1: float = 1.2, b: float = 0.75) -> None:
        self.names = [t.name for t in tools]
        docs = [f"{t.name} {t.description}".lower().split() for t in tools]
        self.k1, self.b = k1, b
        count = len(docs)
        average = sum(map(len, docs)) / count if count else 1.0
        self.postings: dict[str, list[tuple[int, float]]] = {}
        for i, doc in enumerate(docs):
            norm = k1 * (1 - b + b * len(doc) / average)
            counts: dict[str, int] = {}
            for term in doc:
                counts[term] = counts.get(term, 0) + 1
            for term, tf in counts.items():
                self.postings.setdefault(term, []).append((i, tf * (k1 + 1) / (tf + norm)))
        self.idf = {
            t: math.log(1 + (count - len(p) + 0.5) / (len(p) + 0.5))
            for t, p in self.postings.items()
        }

    def search(self, query: str, limit: int = 10) -> list[str]:
        scores: dict[int, float] = {}
        for term in sorted(set(query.lower().split())):
            idf = self.idf.get(term)
            if idf is None:
                continue
            for i, weight in self.postings[term]:
                scores[i] = scores.get(i, 0.0) + idf * weight
        ranked = sorted((-s, self.names[i]) for i, s in scores.items() if s > 0)
        return [name for _, name in ranked[:limit]]

    def answer(self, query: Query) -> list[str]:
        return self.search(query.text)


class Toolgen:
    """toolgen's index; a query with `without` is asked of an index that lacks that example."""

    def __init__(self, catalog: Catalog, threshold: float) -> None:
        self.catalog, self.threshold = catalog, threshold
        self.entries = {t.name: entry(t) for t in catalog.tools}
        self.index = SearchIndex(self.entries.values())
        self.left_out: dict[tuple[str, int], SearchIndex] = {}

    def index_for(self, query: Query) -> SearchIndex:
        if query.without is None:
            return self.index
        if query.without not in self.left_out:
            name, i = query.without
            tool = next(t for t in self.catalog.tools if t.name == name)
            others = [e for j, e in enumerate(tool.examples) if j != i]
            entries = {**self.entries, name: entry(tool, others)}
            self.left_out[query.without] = SearchIndex(entries.values())
        return self.left_out[query.without]

    def search(self, query: Query, limit: int = 10) -> list[str]:
        return [h.name for h in self.index_for(query).search(query.text, limit, self.threshold)]


# -- measuring --------------------------------------------------------------------------------


@dataclass
class Score:
    queries: int = 0
    top1: float = 0.0
    top5: float = 0.0
    mrr: float = 0.0
    empty: float = 0.0  # in-domain queries answered with nothing
    no_tool: int = 0
    rejected: float = 0.0  # no-tool queries answered with nothing
    times: list[float] = field(default_factory=list)


def measure(
    answer: Callable[[Query], list[str]], queries: Sequence[Query], timed: bool = True
) -> Score:
    score = Score()
    for query in queries:
        if timed:
            best = math.inf
            for _ in range(3):
                started = time.perf_counter()
                found = answer(query)
                best = min(best, time.perf_counter() - started)
            score.times.append(best)
        else:
            found = answer(query)
        if query.gold is None:
            score.no_tool += 1
            score.rejected += not found
            continue
        score.queries += 1
        score.top1 += bool(found) and found[0] == query.gold
        score.top5 += query.gold in found[:5]
        score.mrr += 1 / (found.index(query.gold) + 1) if query.gold in found else 0.0
        score.empty += not found
    if score.queries:
        score.top1, score.top5 = score.top1 / score.queries, score.top5 / score.queries
        score.mrr, score.empty = score.mrr / score.queries, score.empty / score.queries
    if score.no_tool:
        score.rejected /= score.no_tool
    return score


def chosen(queries: Sequence[Query], split: str) -> list[Query]:
    return [q for q in queries if split == "all" or q.split == split]


def percentile(values: Sequence[float], share: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(share * len(ordered)))] if ordered else 0.0


def micro(seconds: float) -> str:
    return f"{seconds * 1e6:.0f} µs" if seconds < 1e-3 else f"{seconds * 1e3:.2f} ms"


def table(catalogs: Sequence[Catalog], threshold: float, split: str) -> str:
    header = [
        "catalog",
        "tools",
        "system",
        "queries",
        "top-1",
        "top-5",
        "MRR",
        "in-domain answered empty",
        "no-tool queries answered empty",
        "p50",
        "p95",
    ]
    rows = []
    for catalog in catalogs:
        queries = chosen(catalog.queries, split)
        okapi = Okapi(catalog.tools)
        systems: list[tuple[str, Callable[[Query], list[str]]]] = [
            ("toolgen", Toolgen(catalog, threshold).search),
            ("BM25 baseline", okapi.answer),
        ]
        for name, answer in systems:
            s = measure(answer, queries)
            rows.append(
                [
                    catalog.name,
                    str(len(catalog.tools)),
                    name,
                    str(s.queries),
                    f"{s.top1:.3f}",
                    f"{s.top5:.3f}",
                    f"{s.mrr:.3f}",
                    f"{s.empty:.3f}",
                    f"{s.rejected:.3f} (of {s.no_tool})",
                    micro(statistics.median(s.times)),
                    micro(percentile(s.times, 0.95)),
                ]
            )
    lines = [
        "| " + " | ".join(header) + " |",
        "|" + "|".join("---" if i < 3 else "---:" for i in range(len(header))) + "|",
    ]
    return "\n".join(lines + ["| " + " | ".join(r) + " |" for r in rows])


def by_kind(catalogs: Sequence[Catalog], threshold: float, split: str) -> str:
    """top-5 per query kind, both systems, over all catalogs together."""
    lines = [
        "| query kind | queries | toolgen top-5 | baseline top-5 | toolgen top-1 | baseline top-1 |",
        "|---|---:|---:|---:|---:|---:|",
    ]
    for kind in QUERY_KINDS[:-1]:
        totals = [0, 0.0, 0.0, 0.0, 0.0]
        for catalog in catalogs:
            queries = [q for q in chosen(catalog.queries, split) if q.kind == kind]
            if not queries:
                continue
            ours = measure(Toolgen(catalog, threshold).search, queries, timed=False)
            theirs = measure(Okapi(catalog.tools).answer, queries, timed=False)
            totals[0] += ours.queries
            totals[1] += ours.top5 * ours.queries
            totals[2] += theirs.top5 * theirs.queries
            totals[3] += ours.top1 * ours.queries
            totals[4] += theirs.top1 * theirs.queries
        if not totals[0]:
            continue
        n = totals[0]
        lines.append(
            f"| {kind} | {int(totals[0])} | {totals[1] / n:.3f} | {totals[2] / n:.3f} | "
            f"{totals[3] / n:.3f} | {totals[4] / n:.3f} |"
        )
    return "\n".join(lines)


def tune(catalogs: Sequence[Catalog]) -> float:
    """The threshold that maximises, on the tune half, the mean over catalogs of
    (2 x top-5 + share of no-tool queries answered empty) / 3; the smallest such. Recall
    counts twice: a model shown tools that do not serve its query reads their descriptions
    and calls none, but a model told that nothing serves it gives up on a tool that exists."""
    best, best_value = 0.0, -1.0
    print(
        "| threshold | "
        + " | ".join(f"{c.name} top-5 / rejected" for c in catalogs)
        + " | objective |"
    )
    print("|---:|" + "---:|" * (len(catalogs) + 1))
    for step in range(51):
        threshold = step / 100
        values, cells = [], []
        for catalog in catalogs:
            s = measure(
                Toolgen(catalog, threshold).search, chosen(catalog.queries, "tune"), timed=False
            )
            values.append((2 * s.top5 + s.rejected) / 3)
            cells.append(f"{s.top5:.3f} / {s.rejected:.3f}")
        value = statistics.mean(values)
        if step % 5 == 0 or value > best_value:
            print(f"| {threshold:.2f} | " + " | ".join(cells) + f" | {value:.4f} |")
        if value > best_value + 1e-12:
            best, best_value = threshold, value
    print(f"\nchosen on the tune half: THRESHOLD = {best:.2f} (objective {best_value:.4f})")
    return best


def latency(catalog: Catalog, threshold: float) -> str:
    started = time.perf_counter()
    entries = [entry(t) for t in catalog.tools]
    text = json.dumps([[e.name, list(e.fields)] for e in entries])
    made = time.perf_counter() - started
    started = time.perf_counter()
    loaded = [Entry(name, tuple(f), "", {}) for name, f in json.loads(text)]
    index = SearchIndex(loaded)
    built = time.perf_counter() - started
    started = time.perf_counter()
    okapi = Okapi(catalog.tools)
    baseline_built = time.perf_counter() - started
    ours = measure(lambda q: [h.name for h in index.search(q.text, 10, threshold)], catalog.queries)
    theirs = measure(okapi.answer, catalog.queries)
    rows = [
        f"| toolgen | {len(catalog.queries)} | {micro(statistics.median(ours.times))} | "
        f"{micro(percentile(ours.times, 0.95))} | {micro(max(ours.times))} | {built * 1e3:.0f} ms "
        f"(terms made: {made * 1e3:.0f} ms, at generation) |",
        f"| BM25 baseline | {len(catalog.queries)} | {micro(statistics.median(theirs.times))} | "
        f"{micro(percentile(theirs.times, 0.95))} | {micro(max(theirs.times))} | {baseline_built * 1e3:.0f} ms |",
    ]
    head = [
        "| system | queries | p50 | p95 | max | index built (loaded terms -> postings) |",
        "|---|---:|---:|---:|---:|---|",
    ]
    return "\n".join(head + rows)


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("corpus", nargs="?", type=Path, help="the corpus folder (its .jsonl files)")
    parser.add_argument("--builtin-only", action="store_true", help="only the built-in library")
    parser.add_argument(
        "--bfcl",
        type=Path,
        metavar="DATA",
        help="BFCL's data folder (berkeley-function-call-leaderboard/bfcl_eval/data): its "
        "simple_python and multiple questions become a catalog of real queries",
    )
    parser.add_argument(
        "--tune", action="store_true", help="print the threshold grid on the tune half"
    )
    parser.add_argument("--threshold", type=float, default=THRESHOLD)
    parser.add_argument("--split", choices=["test", "tune", "all"], default="test")
    args = parser.parse_args(argv)
    catalogs = [builtin()]
    if not args.builtin_only:
        if args.corpus is None or not (args.corpus / "bfcl.jsonl").is_file():
            where = args.corpus or "(none given)"
            print(
                f"no corpus at {where}: give the corpus folder (holding bfcl.jsonl, github-mcp.jsonl, "
                "livemcpbench.jsonl), or --builtin-only",
                file=sys.stderr,
            )
            return 2
        catalogs += corpus_catalogs(args.corpus)
    if args.bfcl is not None:
        catalogs.append(questions_catalog(args.bfcl))
    for catalog in catalogs:
        derive(catalog)
    print(
        f"# Tool search: toolgen's index vs Okapi BM25 (threshold {args.threshold:.2f}, split {args.split})\n"
    )
    for catalog in catalogs:
        counts = {
            k: sum(q.kind == k for q in chosen(catalog.queries, args.split)) for k in QUERY_KINDS
        }
        print(
            f"- {catalog.name}: {len(catalog.tools)} tools; queries: "
            + ", ".join(f"{k} {n}" for k, n in counts.items() if n)
        )
    print()
    if args.tune:
        tune(catalogs)
        print()
    print(table(catalogs, args.threshold, args.split))
    print()
    print(by_kind(catalogs, args.threshold, args.split))
    if not args.builtin_only:
        slow = latency_catalog(args.corpus)
        derive(slow)
        print(f"\nLatency on {len(slow.tools)} BFCL tools (all their queries, both halves):\n")
        print(latency(slow, args.threshold))
    return 0


if __name__ == "__main__":
    sys.exit(main())
