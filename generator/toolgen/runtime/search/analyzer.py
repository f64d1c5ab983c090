# Part of toolgen's runtime, copied verbatim into generated packages (edit toolgen, not a copy).
"""Text -> terms: the one analyzer of the generator (indexing) and the runtime (queries).

`tokens` splits and lightly stems a text; `fields` turns one tool into its indexed fields
(as `FIELDS`): its name, namespace and category, description, parameters and examples.
Render writes each package's `definitions/search.json` with these, so the generator and
the runtime normalise text alike; `ANALYZER` is their version. Standard library only.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from functools import lru_cache
from typing import Any

__all__ = ["ANALYZER", "FIELDS", "STOP_WORDS", "fields", "stem", "tokens"]

# The version of `tokens`/`stem`/`fields`: an entry written by another version is indexed
# again from its ToolInfo. Bump it whenever what they return changes.
ANALYZER = 1
FIELDS = ("name", "namespace", "description", "parameters", "examples")
MOST_TOKENS = 300  # of the parameters and the examples fields (descriptions are whole)
MOST_VALUE = 120  # characters of one example string value that are indexed

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
