"""unknown-keyword: a keyword no validator reads is an error, so a typo never loosens a contract.

`requried: [x]` would leave `x` optional and `nullable: true` (OpenAPI's) would leave null
refused while a model is told it may send it: a keyword JSON Schema does not define is
ignored by every validator, toolgen's included. So a schema holds only Draft 2020-12's
keywords, `x-` extensions, and the documented allow-list of annotations from other dialects
(`schema.keywords.ALLOWED_KEYWORDS`). An `x-` keyword one edit away from one of toolgen's own
(`x-secert`) is an error too: it would silently not do what it says.
"""

from __future__ import annotations

from collections.abc import Iterator

from toolgen.check.context import Context, suggestion
from toolgen.diagnostics import Diagnostic, Severity
from toolgen.schema.keywords import ALLOWED_KEYWORDS, KEYWORDS, TOOLGEN_KEYWORDS

ID = "unknown-keyword"
SUMMARY = (
    "Schema keywords are Draft 2020-12 keywords, `x-` extensions, toolgen's own, or an "
    "annotation of the allow-list (`example`, `propertyOrdering`): any other keyword would be "
    "ignored by every validator."
)
SEVERITY = Severity.ERROR


def check(context: Context) -> Iterator[Diagnostic]:
    for tool in context.tools:
        for pointer, node in tool.subschemas:
            if _LISTED.issuperset(node):
                continue  # most nodes: every key a listed one
            for key in node:
                if key not in _LISTED and not known(key):
                    message, hint = explain(key)
                    yield tool.doc.diagnostic(f"{pointer}/{key}", ID, message, hint=hint, key=True)


def known(key: str) -> bool:
    """A keyword a validator reads, an annotation of the allow-list, or an extension of one's
    own (an `x-` keyword that is not a near miss of toolgen's)."""
    if key in KEYWORDS or key in ALLOWED_KEYWORDS or key in TOOLGEN_KEYWORDS:
        return True
    return key.startswith("x-") and not suggestion(key, TOOLGEN_KEYWORDS)


_LISTED = KEYWORDS | ALLOWED_KEYWORDS | TOOLGEN_KEYWORDS  # `known` without a call, for most keys


def explain(key: str) -> tuple[str, str]:
    """The message and the hint for a keyword `known` refuses (import's notes say the same)."""
    if key.startswith("x-"):
        return f"unknown toolgen keyword {key!r} would be ignored", suggestion(
            key, TOOLGEN_KEYWORDS
        )
    if key == "nullable":
        return (
            "'nullable' is OpenAPI's, not JSON Schema's: every validator would ignore it",
            'allow null in the type instead: type: [string, "null"] (toolgen import rewrites it)',
        )
    hint = suggestion(key, KEYWORDS) or f"an extension of your own is named 'x-{key}'"
    return f"unknown schema keyword {key!r} would be ignored by every validator", hint
