"""pattern-invalid: every `pattern` is ECMA-262 that toolgen reads exactly.

JSON Schema's `pattern` and `patternProperties` keys are ECMA-262 regular expressions, read
in unicode mode (runtime/ecma.py). A pattern that is not one (it does not compile, or it is
another engine's syntax: `[[:alpha:]]`, `\\Z`, `(?P<name>...)`) would be read by each engine
its own way, and one ECMA-262 reads but the runtime cannot translate exactly (a Unicode
property other than a general category) could not be enforced: each is refused here, at
the pattern, saying why and what to write instead, in every schema of the tool (parameters,
returns, injected values, definitions).
"""

from __future__ import annotations

from collections.abc import Iterator

from toolgen.check.context import Context
from toolgen.diagnostics import Diagnostic, Severity
from toolgen.schema.patterns import ecma, refusal
from toolgen.schema.pointer import child

ID = "pattern-invalid"
SUMMARY = (
    "Every `pattern` and `patternProperties` key is an ECMA-262 regular expression (unicode "
    "mode) that toolgen reads exactly; one that is not (`[[:alpha:]]`, `\\Z`, an unclosed "
    "group) is refused at the pattern, with what to write instead."
)
SEVERITY = Severity.ERROR


def check(context: Context) -> Iterator[Diagnostic]:
    for tool in context.tools:
        for pointer, node in tool.subschemas:
            if "pattern" not in node and "patternProperties" not in node:
                continue  # most nodes
            pattern = node.get("pattern")
            if isinstance(pattern, str) and ecma(pattern) is None:
                why, instead = refusal(pattern)
                yield tool.doc.diagnostic(
                    f"{pointer}/pattern", ID, f"the pattern {pattern!r}: {why}", hint=instead
                )
            keys = node.get("patternProperties")
            for key in keys if isinstance(keys, dict) else ():
                if ecma(key) is None:
                    why, instead = refusal(key)
                    yield tool.doc.diagnostic(
                        child(f"{pointer}/patternProperties", key),
                        ID,
                        f"the patternProperties key {key!r}: {why}",
                        hint=instead,
                        key=True,
                    )
