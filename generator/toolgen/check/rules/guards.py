"""guard-invalid: a `guards` declaration the registry can honour.

`guards: {input: [...], output: [...]}` names the host's guards of a tool's calls
(runtime/calls/guards.py): the host registers each under its name, and a registry not given
every name a spec declares refuses to be made. So a name must be one a host can write and
read back in an error: a letter or `_` first, then letters, digits, `_`, `-` or `.`; a name
listed twice in one stage would run the same guard twice; and a `guards` that names no guard
at all declares nothing. Each is an error, located at the value.
"""

from __future__ import annotations

import re
from collections.abc import Iterator

from toolgen.check.context import Context
from toolgen.diagnostics import Diagnostic, Severity
from toolgen.spec.model import Guards

ID = "guard-invalid"
SUMMARY = (
    "`guards` names at least one guard, each a name a host can register (a letter or `_`, "
    "then letters, digits, `_`, `-`, `.`), at most once per stage."
)
SEVERITY = Severity.ERROR

NAME = re.compile(r"[A-Za-z_][A-Za-z0-9_.-]{0,99}")


def check(context: Context) -> Iterator[Diagnostic]:
    for tool in context.tools:
        data = tool.source.data if isinstance(tool.source.data, dict) else {}
        if "guards" not in data:
            continue
        guards: Guards = tool.spec.guards
        if not guards.input and not guards.output:
            yield tool.doc.diagnostic(
                tool.at("/guards"),
                ID,
                f"{tool.spec.name!r} declares `guards` but names no guard",
                hint="list guard names under `input` or `output`, or remove `guards`",
            )
            continue
        for stage in ("input", "output"):
            seen: set[str] = set()
            for i, name in enumerate(getattr(guards, stage)):
                at = tool.at(f"/guards/{stage}/{i}")
                if not NAME.fullmatch(name):
                    yield tool.doc.diagnostic(
                        at,
                        ID,
                        f"{name!r} is not a guard name a host can register",
                        hint="start with a letter or `_`; then letters, digits, `_`, `-`, `.`",
                    )
                elif name in seen:
                    yield tool.doc.diagnostic(
                        at,
                        ID,
                        f"the {stage} guard {name!r} is listed twice: it would run twice",
                        hint="list each guard once per stage",
                    )
                seen.add(name)
