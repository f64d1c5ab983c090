"""unsatisfiable: a `parameters` or `returns` schema that no value satisfies.

The finding is the strategy compiler's (render/strategies.py): where it proves that no value
is valid (`false`, `not: {}`, a `oneOf` with two branches that accept everything, a required
key that can hold nothing, ...) the generated strategies draw nothing, and this rule says why.
Such a tool can never be called (or never return), so it is a warning on the spec, reported
by lint and by the build alike.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator

from toolgen.check.context import CheckedTool, warn
from toolgen.check.rules.meta_schema import is_valid_schema
from toolgen.diagnostics import Diagnostic
from toolgen.lower import view
from toolgen.memo import Bounded
from toolgen.render.compiled import compiled, content
from toolgen.render.scalar_strategies import NOTHING

ID = "unsatisfiable"  # catalogued in check/catalogue.py (STRATEGIES)
_WHAT = {
    "parameters": ("no arguments satisfy `parameters`", "the tool can never be called"),
    "returns": ("no result satisfies `returns`", "every call fails as invalid_result"),
}


_VALID: Bounded[str, bool] = Bounded(20_000)  # a schema's JSON text -> whether it is valid


def _valid(schema: object, text: str | None) -> bool:
    """`is_valid_schema`, once per content (`text`: the schema's JSON text, if it has one)."""
    if text is None:
        return is_valid_schema(schema)
    found = _VALID.get(text)
    return _VALID.keep(text, is_valid_schema(schema)) if found is None else found


def warnings(tools: Iterable[CheckedTool]) -> Iterator[Diagnostic]:
    for tool in tools:
        seen = view(tool)
        for key, schema in (("parameters", seen.parameters), ("returns", seen.returns)):
            if schema is None:
                continue
            text = content(schema)
            if not _valid(schema, text):
                continue  # other rules report a broken schema
            found = compiled(schema, key, text)  # what the testing module is rendered from
            if found.node != NOTHING:
                continue
            pointer, why = found.impossible[0]
            what, effect = _WHAT[key]
            where = f" (at {pointer})" if pointer else ""
            yield warn(
                tool.doc,
                tool.at(f"/{key}") + pointer,
                ID,
                f"{what}{where}: {why}; {effect}",
                hint="loosen the schema so that some value is valid, or remove the tool",
            )
