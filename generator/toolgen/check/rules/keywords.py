"""unknown-keyword: a keyword JSON Schema does not know is most likely a typo (`desciption`)."""

from __future__ import annotations

from collections.abc import Iterator

from toolgen.check.context import Context, suggestion, warn
from toolgen.diagnostics import Diagnostic, Severity
from toolgen.schema.keywords import TOOLGEN_KEYWORDS

ID = "unknown-keyword"
SUMMARY = "Schema keywords are Draft 2020-12 keywords, `x-` extensions, or toolgen's own."
SEVERITY = Severity.WARNING

KEYWORDS = frozenset(
    """$schema $id $ref $defs $anchor $dynamicRef $dynamicAnchor $vocabulary $comment definitions
    type enum const multipleOf maximum exclusiveMaximum minimum exclusiveMinimum maxLength minLength pattern
    maxItems minItems uniqueItems maxContains minContains maxProperties minProperties required
    dependentRequired properties patternProperties additionalProperties propertyNames items prefixItems
    contains unevaluatedItems unevaluatedProperties allOf anyOf oneOf not if then else dependentSchemas
    format contentEncoding contentMediaType contentSchema title description default deprecated readOnly
    writeOnly examples""".split()
)
# Tolerated for interop: OpenAPI's singular `example`, and what providers add.
TOLERATED = frozenset({"example", "nullable", "propertyOrdering"})


def check(context: Context) -> Iterator[Diagnostic]:
    for tool in context.tools:
        for pointer, node in tool.subschemas:
            for key in node:
                if key in KEYWORDS or key in TOLERATED or key in TOOLGEN_KEYWORDS:
                    continue
                if key.startswith(
                    "x-"
                ):  # an extension of one's own, unless it is close to toolgen's
                    hint = suggestion(key, TOOLGEN_KEYWORDS)
                    if hint:
                        yield warn(
                            tool.doc,
                            f"{pointer}/{key}",
                            ID,
                            f"unknown toolgen keyword {key!r} is ignored",
                            hint,
                            key=True,
                        )
                    continue
                hint = suggestion(key, KEYWORDS) or "prefix extensions with 'x-'"
                yield warn(
                    tool.doc,
                    f"{pointer}/{key}",
                    ID,
                    f"unknown schema keyword {key!r} is ignored",
                    hint,
                    key=True,
                )
