"""Which keywords of the spec a target's definition no longer has: one lint note per target.

Exporters move a keyword their target cannot take into the description (`restrict`) or
rewrite it; this compares the keywords of the spec's schema with those of the emitted one,
so every keyword dropped, whichever step dropped it, is named in a `provider-lossy`
warning. Rewrites that say the same are not losses: `oneOf` as `anyOf`, `const` as an
`enum`, `allOf` merged, `$ref`s inlined. Neither are annotations nor what toolgen itself
added (`additionalProperties: false` of closing, which Gemini's OpenAPI form cannot say),
nor root combinators (providers/root.py notes those).
"""

from __future__ import annotations

from typing import Any

from toolgen.providers.base import LOSSY, Note, ToolLike
from toolgen.providers.memo import MEMO_LIMIT, memoised_by_identity
from toolgen.providers.patterns import readable_public
from toolgen.providers.root import DESCRIBED, FLATTENED
from toolgen.schema.walk import nodes, walk

SAME = {"oneOf": "anyOf", "const": "enum"}  # rewritten as the other, meaning the same
# The keywords of 2020-12 that say what a value must be (applicators, validation, format).
# Annotations (`default`, `examples`, `title`, ...) move into the description whole and
# constrain nothing; unknown keywords are unknown-keyword's business; `$ref` and `allOf` are
# inlined and merged, not lost.
ASSERTIONS = frozenset(
    """type enum const multipleOf maximum exclusiveMaximum minimum exclusiveMinimum maxLength
    minLength pattern format maxItems minItems uniqueItems maxContains minContains maxProperties minProperties
    required dependentRequired prefixItems items contains properties patternProperties additionalProperties
    propertyNames anyOf oneOf not if then else dependentSchemas unevaluatedItems unevaluatedProperties
    contentSchema""".split()
)

_ASSERTIONS_BUT_EXTRA = ASSERTIONS - {"additionalProperties"}


def _keywords(schema: Any, skip_root: bool) -> dict[str, str]:
    """keyword -> pointer of its first use."""
    found: dict[str, str] = {}
    for path, node in walk(schema):
        for key, value in node.items():
            if key not in ASSERTIONS or key == "additionalProperties" and value is False:
                continue
            if skip_root and path == "" and key in (*FLATTENED, *DESCRIBED):
                continue
            found.setdefault(key, path)
    return found


@memoised_by_identity
def _asserted(parameters: dict[str, Any]) -> dict[str, Any]:
    """The keywords of the spec's schema: the same for every variant of every target, so
    computed once per `parameters` (it was a third of the exports' time, done per variant)."""
    return _keywords(readable_public(parameters), skip_root=True)


@memoised_by_identity
def _emitted(schema: Any) -> frozenset[str]:
    """The keywords of an emitted schema (only which, not where): variants emit the same
    memoised lowering (`portable`, the strict forms) again and again, so each is walked once."""
    every = nodes(schema)
    keys: set[str] = set()
    for node in every:
        keys.update(node)
    found = _ASSERTIONS_BUT_EXTRA.intersection(keys)
    if "additionalProperties" in keys and any(
        node.get("additionalProperties", False) is not False  # `false` is toolgen's closing
        for node in every
    ):
        found |= {"additionalProperties"}
    return found


def notes(tool: ToolLike, target: str, emitted: Any, found: list[Note]) -> None:
    """A note naming the keywords of `tool.parameters` that `emitted` does not have."""
    lost = _lost(tool.parameters, emitted)
    if lost is not None:
        found.append(Note(tool.name, target, LOSSY, *lost))


# emitted schema's id -> (it, the parameters it was compared with, what `_lost` found)
_LOST: dict[int, tuple[Any, Any, tuple[str, str] | None]] = {}


def _lost(parameters: Any, emitted: Any) -> tuple[str, str] | None:
    """(the note's message, its pointer) when `emitted` lacks keywords of `parameters`, else
    None. Variants emit the same memoised lowering of the same parameters again and again
    (the portable form four times a tool): compared once per pair, kept as `memo.py` keeps."""
    hit = _LOST.get(id(emitted))
    if hit is not None and hit[0] is emitted and hit[1] is parameters:
        return hit[2]
    before = _asserted(parameters)
    after = _emitted(emitted)
    lost = [key for key in before if key not in after and not (key in SAME and SAME[key] in after)]
    said = (
        (
            f"does not take {', '.join(f'`{k}`' for k in lost)}: written "
            "into the descriptions (the runtime still enforces them)",
            before[lost[0]],
        )
        if lost
        else None
    )
    if len(_LOST) >= MEMO_LIMIT:
        _LOST.clear()
    _LOST[id(emitted)] = (emitted, parameters, said)
    return said
