# Part of toolgen's runtime, copied verbatim into generated packages (edit toolgen, not a copy).
"""Tool search: a local index of a registry's tools, and the `search_tools`/`call_tool` pair.

A tool whose spec says `defer: true` is not shown to the model up front; where a provider
cannot search itself (Chat Completions, Gemini, Bedrock Converse, MCP), the model is shown
`search_tools` and `call_tool` instead, which this module answers:

- `search_tools(query, limit=5)`: the tools that match, best first, each with its name,
  description and the JSON Schema of its arguments (its MCP `inputSchema`: the spec's own
  schema, whole, the same whatever provider the model came through). An empty list means no
  tool does that: a query none of whose words hits a tool's name or description, or one that
  matches too little of itself, gets nothing rather than the least bad tool.
- `call_tool(name, arguments)`: that tool, called through the registry (its validation,
  policies and messages; an unknown name gets the registry's message with suggestions).

A registry holding a deferred tool adds the pair itself (`pair`, Registry._set_tools), over
an index of every one of its tools (deferred or not), and prepares a call of `call_tool` as
the call of the tool it names. The index is generated: render writes each package's
`definitions/search.json` with `fields` below, so that the generator and this runtime
normalise text with the one `tokens` function; a tool with no generated entry (another
runtime's analyzer, a hand-made ToolInfo) is indexed here from its ToolInfo.

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
import re
from collections import Counter
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, replace
from functools import lru_cache
from importlib import resources
from typing import Annotated, Any

from pydantic import Field, RootModel

from .. import identity, kinds
from ..errors import ToolArgumentsError, ToolError
from ..models import ArgumentsModel, ResultModel
from ..results.result import Output, ToolInfo, package_of
from ..types import Integer
from ..validation.validate import validate

__all__ = [
    "CALL_TOOL",
    "INDEX",
    "SEARCH_TOOLS",
    "THRESHOLD",
    "CallTool",
    "Entry",
    "Hit",
    "SearchIndex",
    "SearchTools",
    "fields",
    "pair",
    "stem",
    "tokens",
]

# -- the pair, as every provider is shown it (the exporters read these) -------------------------

SEARCH_TOOLS: dict[str, Any] = {
    "name": "search_tools",
    "description": (
        "Find tools that are available but not listed. Describe in a few words what you want "
        "to do (e.g. 'resize an image', 'list open pull requests'). Returns the best matching "
        "tools, each with its name, description and the JSON Schema of its arguments; call one "
        "with call_tool. An empty list means no tool does that."
    ),
    "parameters": {
        "type": "object",
        "properties": {
            "query": {
                "type": "string",
                "minLength": 1,
                "maxLength": 500,
                "description": "What the tool should do, in a few words.",
            },
            "limit": {
                "type": "integer",
                "minimum": 1,
                "maximum": 20,
                "default": 5,
                "description": "At most this many tools are returned.",
            },
        },
        "required": ["query"],
        "additionalProperties": False,
    },
}
CALL_TOOL: dict[str, Any] = {
    "name": "call_tool",
    "description": (
        "Call a tool that search_tools found: its name, and its arguments as the JSON Schema "
        "search_tools gave for it describes them. Returns what that tool returns; a call it "
        "cannot take returns what to fix."
    ),
    "parameters": {
        "type": "object",
        "properties": {
            "name": {
                "type": "string",
                "minLength": 1,
                "description": "The tool's name, as search_tools gave it.",
            },
            "arguments": {
                "type": "object",
                "description": "The tool's arguments ({} when it takes none).",
            },
        },
        "required": ["name", "arguments"],
        "additionalProperties": False,
    },
}
PAIR = (SEARCH_TOOLS["name"], CALL_TOOL["name"])

# -- the index file ---------------------------------------------------------------------------

INDEX = "definitions/search.json"  # in each generated package
FORMAT = 1  # of the file
# The version of `tokens`/`stem`/`fields`: an entry written by another version is indexed
# again from its ToolInfo. Bump it whenever what they return changes.
ANALYZER = 1
FIELDS = ("name", "namespace", "description", "parameters", "examples")

# -- the scorer's settings (docs/search.md: how they were chosen) ------------------------------

WEIGHTS = (3.0, 1.0, 2.0, 0.5, 0.5)  # per field, as FIELDS
B = (0.3, 0.0, 0.75, 0.75, 0.75)  # length normalisation per field
K1 = 1.2
CORE = 3  # fields FIELDS[:CORE] must hold a query word for a tool to be returned
THRESHOLD = 0.2  # the least share of the query's most possible score a returned tool has
MOST_TOKENS = 300  # of the parameters and the examples fields (descriptions are whole)
MOST_VALUE = 120  # characters of one example string value that are indexed

# -- text -> terms: the one analyzer of the generator (indexing) and the runtime (queries) ----

STOP_WORDS = frozenset(
    """a about above after again against all also am an and any are as at be because been
    before being below between both but by can could did do does doing down during each eg
    either else etc few for from further had has have having he her here hers him his how i
    ie if in into is it its itself just let lets may me might more most must my myself no nor
    not of off on once only onto or other our ours out over own per please same shall she
    should so some such than that the their theirs them then there these they this those
    through to too under until up upon us very via want wants was we were what when where
    whether which while who whom whose why will with within without would you your yours""".split()
)
_CJK = "\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uac00-\ud7af\uf900-\ufaff"
# A CJK character alone (those scripts do not space their words), a run of other letters, or
# of digits. `_` is a separator: snake_case splits here.
_WORD = re.compile(rf"[{_CJK}]|[^\W\d_{_CJK}]+|\d+")
_CAMEL = re.compile(r"[A-Z]+(?=[A-Z][a-z])|[A-Z]?[a-z]+|[A-Z]+")
_VOWEL = re.compile(r"[aeiouy]")
# Words whose `-ed` is no suffix.
_ED = frozenset("bed embed exceed feed need proceed red seed shed speed succeed".split())


def tokens(text: str) -> list[str]:
    """The terms of a text, in order: words split at case changes (camelCase, HTTPServer),
    separators (snake_case, dots, dashes) and digits, lowercased, without stop words and
    one-letter words, lightly stemmed (`stem`). A CJK character is a term of its own."""
    out: list[str] = []
    for run in _WORD.findall(text):
        parts = _CAMEL.findall(run) if run.isascii() and run.isalpha() else (run,)
        for part in parts:
            word = part.lower()
            if word in STOP_WORDS or (len(word) == 1 and word.isascii()):
                continue
            out.append(stem(word) if word.isascii() and word.isalpha() else word)
    return out


@lru_cache(maxsize=1 << 16)
def stem(word: str) -> str:
    """A light stem of a lowercase English word: plurals, -ing and -ed go, and a final e, so
    that file/files, write/writing/writes and create/created/creates meet. Exact terms: a
    word never matches another that only shares its start (file is not filter)."""
    if len(word) <= 3:
        return word
    if word.endswith("ies") and len(word) > 4:
        word = word[:-3] + "y"
    elif word.endswith(("sses", "ches", "shes", "xes", "zzes")):
        word = word[:-2]
    elif word.endswith("s") and not word.endswith(("ss", "us", "is")):
        word = word[:-1]
    if word.endswith("ied") and len(word) > 4:
        word = word[:-3] + "y"
    elif word.endswith("ing") and len(word) >= 6 and _VOWEL.search(word[:-3]):
        word = _undoubled(word[:-3])
    elif word.endswith("ed") and len(word) >= 5 and word not in _ED and word[-3] != "e":
        word = _undoubled(word[:-2])
    if word.endswith("e") and len(word) > 3:
        word = word[:-1]
    return word


def _undoubled(word: str) -> str:
    """stopp -> stop, runn -> run; but add, fill, pass stay."""
    if len(word) >= 4 and word[-1] == word[-2] and word[-1] not in "aeiouylsz":
        return word[:-1]
    return word


# -- a tool -> its indexed fields --------------------------------------------------------------


def fields(
    name: str,
    description: str | None,
    namespace: str | None = None,
    category: str | None = None,
    parameters: Mapping[str, Any] | None = None,
    examples: Iterable[Mapping[str, Any]] = (),
) -> tuple[str, ...]:
    """The indexed terms of one tool, field by field (as FIELDS), each a space-separated
    string: its name, its namespace and category, its description, its parameters (names,
    descriptions and string enum values at the root and one level down) and its examples
    (descriptions and string argument values; `{"arguments": ..., "description": ...}`)."""
    groups = dict.fromkeys(g for g in (namespace, category) if g)
    return (
        " ".join(tokens(name)),
        " ".join(tokens(" ".join(groups))),
        " ".join(tokens(description or "")),
        " ".join(tokens(parameter_text(parameters))[:MOST_TOKENS]),
        " ".join(tokens(example_text(examples))[:MOST_TOKENS]),
    )


def parameter_text(schema: Mapping[str, Any] | None) -> str:
    """The words of a `parameters` schema that say what a tool takes."""
    if not isinstance(schema, Mapping):
        return ""
    words: list[str] = []
    for name, child in _properties(schema, schema):
        words.append(name)
        words += _about(child, schema)
        for inner, grandchild in _properties(child, schema):
            words.append(inner)
            words += _about(grandchild, schema)
    return " ".join(words)


def _resolved(schema: Any, root: Mapping[str, Any]) -> Any:
    """A local `$ref` into the root's `$defs` followed (once)."""
    ref = schema.get("$ref") if isinstance(schema, Mapping) else None
    if isinstance(ref, str) and ref.startswith("#/$defs/"):
        found = root.get("$defs", {}).get(ref[len("#/$defs/") :])
        if isinstance(found, Mapping):
            return found
    return schema


def _properties(schema: Any, root: Mapping[str, Any]) -> list[tuple[str, Any]]:
    """(name, schema) of the properties an object schema declares: its own, its `items`'
    and those of its `allOf`/`anyOf`/`oneOf` branches."""
    schema = _resolved(schema, root)
    if not isinstance(schema, Mapping):
        return []
    out: list[tuple[str, Any]] = []
    holders = [schema, _resolved(schema.get("items"), root)]
    for key in ("allOf", "anyOf", "oneOf"):
        branches = schema.get(key)
        if isinstance(branches, list):
            holders += [_resolved(b, root) for b in branches]
    for holder in holders:
        if isinstance(holder, Mapping) and isinstance(holder.get("properties"), Mapping):
            out += [(str(k), v) for k, v in holder["properties"].items()]
    return out


def _about(schema: Any, root: Mapping[str, Any]) -> list[str]:
    schema = _resolved(schema, root)
    if not isinstance(schema, Mapping):
        return []
    words = [str(schema[k]) for k in ("title", "description") if isinstance(schema.get(k), str)]
    enum = schema.get("enum")
    if isinstance(enum, list):
        words += [v for v in enum[:20] if isinstance(v, str)]
    return words


def example_text(examples: Iterable[Mapping[str, Any]]) -> str:
    """The words of a tool's examples: each one's description and string argument values."""
    words: list[str] = []
    for example in examples:
        if isinstance(example.get("description"), str):
            words.append(example["description"])
        words += [v[:MOST_VALUE] for v in _strings(example.get("arguments"))]
    return " ".join(words)


def _strings(value: Any) -> list[str]:
    if isinstance(value, str):
        return [value]
    if isinstance(value, Mapping):
        return [s for v in value.values() for s in _strings(v)]
    if isinstance(value, list):
        return [s for v in value for s in _strings(v)]
    return []


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


# -- the pair as tools ------------------------------------------------------------------------


class SearchToolsArguments(ArgumentsModel):
    """Arguments of search_tools (SEARCH_TOOLS["parameters"])."""

    query: str = Field(min_length=1, max_length=500)
    limit: Annotated[int, Integer(ge=1, le=20)] = 5


class FoundTool(ResultModel):
    name: str
    description: str
    parameters: dict[str, Any]


class SearchToolsResult(ResultModel):
    tools: list[FoundTool]


class CallToolArguments(ArgumentsModel):
    """Arguments of call_tool (CALL_TOOL["parameters"])."""

    name: str = Field(min_length=1)
    arguments: dict[str, Any]


class CallToolResult(RootModel[Any]):
    """Whatever the called tool returns."""


NOTHING = (
    "No tool matches this query. Search again with other words for what the tool should do, "
    "or go on without one."
)
_ALL_CONTENT = frozenset(kinds.CONTENT)
# What a call fails with besides the kinds its tool declares (results.py's ToolFailure).
_RUNTIME_KINDS = frozenset(
    {
        "unknown_tool",
        "invalid_arguments",
        "timeout",
        "rate_limited",
        "rejected",
        "refused",
        "withheld",
        "suspended",
        "invalid_result",
        "internal",
        "cancelled",
    }
)

SEARCH_INFO = ToolInfo(
    name=SEARCH_TOOLS["name"],
    description=SEARCH_TOOLS["description"],
    arguments=SearchToolsArguments,
    result=SearchToolsResult,
    provider_name=SEARCH_TOOLS["name"],
    flags=frozenset({"idempotent"}),
)
CALL_INFO = ToolInfo(
    name=CALL_TOOL["name"],
    description=CALL_TOOL["description"],
    arguments=CallToolArguments,
    result=CallToolResult,
    provider_name=CALL_TOOL["name"],
    content=_ALL_CONTENT,
)


class SearchTools:
    """`search_tools`: the index's best matches, each with what it takes to call it. The
    index covers the registry's tools (not the pair), made when the first search comes."""

    toolgen_search_pair = True  # made anew by every registry with deferred tools

    def __init__(self, infos: Iterable[ToolInfo]) -> None:
        self.info = SEARCH_INFO
        self._infos = tuple(infos)
        self._index: SearchIndex | None = None
        # The tools an authenticated caller needs scopes to find (spec `auth: {scopes}`).
        self._scopes: dict[str, frozenset[str]] = {
            i.name: i.scopes for i in self._infos if getattr(i, "scopes", None)
        }

    @property
    def index(self) -> SearchIndex:
        if self._index is None:
            self._index = SearchIndex(entry_of(info) for info in self._infos)
        return self._index

    def run(self, arguments: SearchToolsArguments) -> Output[SearchToolsResult]:
        index = self.index
        found = []
        caller = identity.caller()  # a served call's: it finds only the tools it may call
        if caller is None or not self._scopes:
            hits = index.search(arguments.query, arguments.limit)
        else:
            hits = index.search(arguments.query, len(self._infos))
            allowed = [h for h in hits if not caller.missing(self._scopes.get(h.name, ()))]
            hits = allowed[: arguments.limit]
        for hit in hits:
            entry = index.by_name[hit.name]
            found.append(
                FoundTool(name=entry.name, description=entry.description, parameters=entry.schema)
            )
        return Output(SearchToolsResult(tools=found), metadata=None if found else NOTHING)


class CallTool:
    """`call_tool`: a call of another tool of the registry. The registry prepares the call it
    names in its place (`forward`), so its validation, policies, hooks, messages, result and
    suspension are that tool's own; `run` only answers what cannot be passed on."""

    toolgen_search_pair = True

    def __init__(self, infos: Iterable[ToolInfo]) -> None:
        infos = tuple(infos)
        self.info = replace(
            CALL_INFO,
            errors=_RUNTIME_KINDS.union(*(i.errors for i in infos)),
            retryable_errors=frozenset({"rate_limited"}).union(
                *(getattr(i, "retryable_errors", frozenset()) for i in infos)
            ),
        )

    def forward(self, arguments: Any) -> tuple[str, dict[str, Any]] | None:
        """(tool, arguments) of a valid call of call_tool; None for one it answers itself
        (invalid arguments, or a call of call_tool)."""
        try:
            valid = validate(CallToolArguments, CALL_TOOL["name"], arguments)
        except ToolArgumentsError:
            return None
        if valid.name == CALL_TOOL["name"]:
            return None
        return valid.name, valid.arguments

    def run(self, arguments: CallToolArguments) -> Output[Any]:
        raise ToolError(
            "invalid_arguments", "call_tool does not call itself: call the tool directly"
        )


def pair(infos: Iterable[ToolInfo]) -> tuple[SearchTools, CallTool]:
    """The pair over these tools: what a registry holding a deferred tool adds (registry.py)."""
    infos = tuple(infos)
    return SearchTools(infos), CallTool(infos)
