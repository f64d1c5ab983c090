"""Token estimates of provider definitions: each tool's, and the catalog's (what a request sends up
front); `catalog-tokens`, the lint warning of a catalog over budget; `toolgen tokens`' table.

No tokenizer is used: none ships with toolgen, none may be downloaded at run time, and every
provider's differs (Anthropic's and Google's are not public). The estimate reads the compact
JSON a provider is sent (`json.dumps(definition, separators=(",", ":"))`) as a byte-pair
tokenizer's pre-tokenizer does (the pattern of OpenAI's o200k_base, in Python's `re`): words
with at most one leading space or punctuation character, split where lower case turns to
upper case; digits in threes; runs of punctuation; whitespace. Each piece costs what pieces
of its kind and length cost on average in o200k_base, measured over the definitions of the
8,406 tools of the shared corpus for every provider (`_WORD`, `_CAPS`, `_PUNCT` below; the
words of JSON Schema and of the definitions' keys are one token each). docs/spec-format.md,
"Token estimates", gives the method's error; in short, against o200k_base: a catalog within
1%, 19 tools in 20 within 5%, more for text in other scripts.

Deterministic, and a catalog is the sum of its entries' estimates: adding a tool never lowers it.
"""

from __future__ import annotations

import json
import math
import re
from collections.abc import Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from itertools import chain
from typing import TYPE_CHECKING, Any

from toolgen.check.context import CheckedTool, warn
from toolgen.diagnostics import Diagnostic
from toolgen.memo import Bounded
from toolgen.naming import provider_name
from toolgen.runtime import kinds

if TYPE_CHECKING:
    from toolgen.providers import Exports
    from toolgen.providers.base import Tools

ID = "catalog-tokens"  # catalogued in check/catalogue.py (EXPORTS)
BUDGET = 10_000  # estimated tokens of definitions sent up front, per provider
SHOWN = 3  # the biggest tools a warning names

# [^\W\d_A-Z]: a letter but a capital A-Z (other scripts' letters count as lower case).
# Possessive quantifiers (`*+`, `++`, `?+`): giving back a character never lets a piece match
# (each part's characters cannot start what follows it), so the engine keeps no way back.
_PIECE = re.compile(
    r"(?:[^\w\r\n]|_)?+(?:[A-Z]*+[^\W\d_A-Z]++|[A-Z]++)|\d{1,3}| ?+(?:[^\w\s]|_)++[\r\n/]*+|\s++"
)
# Average o200k_base tokens of a piece by its length in characters (index), then a tail formula.
_WORD = (
    0,
    1.0,
    1.0,
    1.01,
    1.02,
    1.04,
    1.06,
    1.09,
    1.11,
    1.2,
    1.2,
    1.2,
    1.31,
    1.32,
    1.32,
    1.72,
)  # lower case
_CAPS = (0, 1.0, 1.08, 1.24, 1.29, 1.98, 2.24, 2.43, 2.85)  # all capitals
_PUNCT = (0, 1.0, 1.0, 1.01, 1.22, 2.25, 2.88, 3.36, 3.42, 4.0)  # `":"`, `"},"`, ...
_ONE_TOKEN = frozenset(
    """
type description properties required string object integer number boolean array items enum default name parameters
function input schema additional strict false true null format minimum maximum title const any one all of json spec
tool tools output min max length pattern ref defs inputschema annotations hint read only destructive idempotent open
world
""".split()
)
_WIDE = "\u2e80"  # from here on: CJK, kana, hangul (about 3 characters in 4 are a token each)


def _piece_cost(piece: str) -> float:
    first = piece[0]
    if first.isdigit() or piece.isspace():
        return 1.0
    word = piece if first.isalpha() else piece[1:]
    if word[:1].isalpha():
        if word.isascii():
            if word.isupper():
                return _CAPS[len(word)] if len(word) < len(_CAPS) else len(word) / 3
            if word.lower() in _ONE_TOKEN:
                return 1.0
            return _WORD[len(word)] if len(word) < len(_WORD) else 1 + (len(word) - 8) / 4
        wide = sum(ch >= _WIDE for ch in word)
        return 0.25 + 0.75 * wide + (len(word) - wide) / 4 if wide else 0.5 + len(word) / 4
    run = len(piece.lstrip(" "))
    return _PUNCT[run] if run < len(_PUNCT) else run / 2.2


# A text cut before each `"` that follows a letter or a digit: no piece spans such a cut (a
# word or a number ends there, and `"` starts the next piece), so the pieces of a text are
# those of its segments, in order. Definitions repeat their segments (`":{"type":"string`,
# a description in every provider's shape), so each distinct segment is split once.
# Possessive as `_PIECE`: a segment ends only before a `"` that follows a letter or a digit.
_SEGMENT = re.compile(r'"?[^"]*+(?:(?<![^\W_])"[^"]*+)*+')


# Each distinct piece's cost, and each distinct segment's pieces' costs, in order (a dict's
# own lookup rather than a cached function's call: every definition asks them).
_cost = Bounded(1 << 16, _piece_cost).__getitem__


def _pieces_costs(segment: str) -> tuple[float, ...]:
    return tuple(map(_cost, _PIECE.findall(segment)))


_costs = Bounded(1 << 16, _pieces_costs).__getitem__


def estimate(text: str) -> int:
    """Estimated tokens of a text: the exact sum of its pieces' costs, rounded (half to even).
    `math.fsum` rounds the exact sum once, whatever the order and the Python version:
    `sum` of floats adds in order and rounds at each step (and 3.12 changed how), which made
    an estimate at a half (164.5) round either way."""
    return round(math.fsum(chain.from_iterable(map(_costs, _SEGMENT.findall(text)))))


# Made once (`json.dumps` with options builds an encoder a call); definitions are trees.
_COMPACT = json.JSONEncoder(ensure_ascii=False, separators=(",", ":"), check_circular=False).encode


def compact(value: Any) -> str:
    """JSON as an API client sends it: no spaces, Unicode as is."""
    return _COMPACT(value)


def definition_tokens(definition: Any) -> int:
    return estimate(compact(definition))


# -- catalogs ----------------------------------------------------------------------------------------


@dataclass
class Catalog:
    """One provider variant's definitions, estimated."""

    provider: str
    options: dict[str, Any]
    tools: dict[str, int] = field(
        default_factory=dict
    )  # canonical name -> tokens of its definition
    up_front: list[str] = field(
        default_factory=list
    )  # the tools sent up front (not deferred), in order
    total: int = 0  # tokens of every entry sent up front: loaded tools, namespaces, search tools

    def biggest(self, count: int = SHOWN) -> list[tuple[str, int]]:
        """The tools sent up front that cost the most, most first (ties by name)."""
        return sorted(
            ((name, self.tools[name]) for name in self.up_front), key=lambda nt: (-nt[1], nt[0])
        )[:count]


def _deferred(definition: Mapping[str, Any]) -> bool:
    return definition.get("defer_loading") is True


def catalog(
    provider: str,
    options: Mapping[str, Any],
    definitions: Sequence[Mapping[str, Any]],
    names: Iterable[str],
) -> Catalog:
    """Estimate a provider's definitions of the tools named `names` (canonical names).

    Up front is what the model is shown before any tool search. A definition with
    `defer_loading: true` costs nothing there, but for OpenAI Responses, whose model still
    reads a deferred function's name and description (not inside a namespace); a Responses
    `namespace` costs its name and description and its loaded members; entries that are no
    tool of the specs (the search tools) count in the total."""
    canonical: dict[str, str] = {}
    for name in names:
        canonical.setdefault(name, name)
        canonical.setdefault(provider_name(name), name)
    out = Catalog(provider, dict(options))
    for entry in definitions:
        members = entry.get("tools") if entry.get("type") == "namespace" else None
        if isinstance(members, list):
            out.total += definition_tokens({**entry, "tools": []})
            out.total += sum(
                _record(out, canonical, m, False) for m in members if isinstance(m, dict)
            )
        else:
            out.total += _record(out, canonical, entry, provider == kinds.OPENAI_RESPONSES)
    return out


def _record(
    out: Catalog, canonical: Mapping[str, str], definition: Mapping[str, Any], named: bool
) -> int:
    """Note a definition's tokens under its tool; return what it costs up front (`named`: a
    deferred definition still shows its name and description)."""
    tokens = definition_tokens(definition)
    written = kinds.definition_name(definition)
    name = canonical.get(written) if written is not None else None
    if name is not None:
        out.tools[name] = tokens
    if _deferred(definition):
        return (
            definition_tokens(
                {k: definition[k] for k in ("name", "description") if k in definition}
            )
            if named
            else 0
        )
    if name is not None:
        out.up_front.append(name)
    return tokens


def of_exports(exports: Exports, names: Sequence[str]) -> list[Catalog]:
    """Each provider's default variant (the first), estimated."""
    return [
        catalog(provider, done[0][0], done[0][1].definitions, names)
        for provider, done in exports.items()
        if done
    ]


def estimate_catalogs(
    tools: Tools, providers: Sequence[str], examples_budget: int = 0
) -> list[Catalog]:
    """Export the tools to each provider's default variant and estimate it (`toolgen tokens`)."""
    from toolgen.providers import export, variants

    names = [t.name for t in tools]
    return [
        catalog(
            p,
            variants(p)[0],
            export(p, tools, examples_budget=examples_budget, **variants(p)[0]).definitions,
            names,
        )
        for p in providers
    ]


# -- catalog-tokens ----------------------------------------------------------------------------------


def warnings(exports: Exports, tools: Iterable[CheckedTool]) -> Iterator[Diagnostic]:
    """One warning for the spec set when a provider's catalog costs more than BUDGET up front,
    located at the biggest tool sent up front. Reads the exports lint and generate make anyway."""
    by_name = {t.name: t for t in tools}
    over = [c for c in of_exports(exports, list(by_name)) if c.total > BUDGET and c.up_front]
    if not over:
        return
    worst = max(over, key=lambda c: c.total)
    biggest = worst.biggest()
    totals = ", ".join(f"{c.provider} {c.total:,}" for c in over)
    listed = ", ".join(f"{name} ({tokens:,})" for name, tokens in biggest)
    tool = by_name[biggest[0][0]]
    yield warn(
        tool.doc,
        tool.at("/name"),
        ID,
        f"every request sends tool definitions of about {worst.total:,} tokens (estimated; over the budget "
        f"of {BUDGET:,} for {totals}); the biggest: {listed}",
        hint="mark rarely used tools `defer: true` (tool search loads them when needed), or shorten "
        "descriptions and schemas; `toolgen tokens` shows every tool's share",
    )


# -- toolgen tokens ----------------------------------------------------------------------------------


def table(catalogs: Sequence[Catalog], names: Sequence[str], deferred: Iterable[str] = ()) -> str:
    """A plain text table: a row per tool, a column per provider, the up-front total last."""
    later = set(deferred)
    header = ["tool", *(c.provider for c in catalogs)]
    rows = [
        [
            f"{name} (deferred)" if name in later else name,
            *(f"{c.tools[name]:,}" if name in c.tools else "-" for c in catalogs),
        ]
        for name in sorted(names)
    ]
    loaded = len(set(names) - later)
    footer = [f"up front ({loaded} of {len(names)} tools)", *(f"{c.total:,}" for c in catalogs)]
    every = [header, *rows, footer]
    widths = [max(len(row[i]) for row in every) for i in range(len(header))]
    lines = [
        "  ".join(
            cell.ljust(widths[0]) if i == 0 else cell.rjust(widths[i]) for i, cell in enumerate(row)
        )
        for row in every
    ]
    lines.insert(len(lines) - 1, "  ".join("-" * w for w in widths))
    lines.append(
        "estimated tokens of each provider's default variant, as `toolgen export` prints it; up front: "
        "what every request sends (deferred tools left out, the search tools they need in)"
    )
    return "\n".join(line.rstrip() for line in lines)


def as_json(
    catalogs: Sequence[Catalog], names: Sequence[str], deferred: Iterable[str] = ()
) -> dict[str, Any]:
    later = set(deferred)
    return {
        "estimate": "o200k_base-calibrated piece costs of the compact JSON (docs/spec-format.md)",
        "budget": BUDGET,
        "providers": {c.provider: {"options": c.options, "up_front": c.total} for c in catalogs},
        "tools": [
            {
                "name": name,
                "deferred": name in later,
                "tokens": {c.provider: c.tools.get(name) for c in catalogs},
            }
            for name in sorted(names)
        ],
    }
