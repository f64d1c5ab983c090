"""schema-unenforceable: a schema the generated package could not enforce exactly is refused.

Where a generated class cannot express a schema (schema/exactness.py), the package enforces
it with the runtime's exact check. That check is compiled here, at generation time, so that
what it refuses to compile (`$schema` of another draft, a reference it cannot follow) is a
located error now, never an import error of the generated package. A pattern it cannot
translate is left to pattern-invalid, which says why and what to write instead.
"""

from __future__ import annotations

import re
from collections.abc import Iterator

from toolgen.check.context import Context
from toolgen.diagnostics import Diagnostic, Severity
from toolgen.runtime.validation.exact.checker import Checker
from toolgen.runtime.validation.exact.node import Unsupported

ID = "schema-unenforceable"
SUMMARY = (
    "Every schema is enforced exactly: one the runtime's exact check cannot compile (another "
    "draft's `$schema`, a reference it cannot follow) is refused (a pattern: `pattern-invalid`)."
)
SEVERITY = Severity.ERROR

_MALFORMED = re.compile(r"must be |is not a JSON type")
_WHERE = re.compile(r",? at #(?P<pointer>[^ ]*)$")


def check(context: Context) -> Iterator[Diagnostic]:
    for tool in context.tools:
        for key in ("parameters", "returns"):  # not injected values: their classes alone check them
            pointer = tool.at(f"/{key}")
            schema = tool.schemas.get(pointer)
            if schema is None:
                continue
            if key == "parameters":
                schema = tool.closed_parameters  # as published and lowered
                if tool.exact_parameters:
                    continue
            elif tool.exact_returns:
                continue
            problem = _compiles(schema)
            if problem is None or _MALFORMED.search(problem):
                continue  # a keyword's value of the wrong kind: the meta-schema rule says so
            if problem.startswith("the pattern "):
                continue  # one with no exact reading: pattern-invalid says so, and why
            found = _WHERE.search(problem)
            where = pointer + (found["pointer"] if found else "")
            message = _WHERE.sub("", problem)
            yield tool.doc.diagnostic(
                where,
                ID,
                f"cannot be enforced exactly: {message}",
                hint="write it so that JSON Schema 2020-12 says it exactly",
            )


def _compiles(schema: object) -> str | None:
    try:
        Checker(schema)
    except Unsupported as exc:
        return str(exc)
    except RecursionError:
        return "the schema is nested too deeply"
    return None
