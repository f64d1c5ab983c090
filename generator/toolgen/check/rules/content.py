"""content-left-out: a declared `content` kind that some providers take in no tool result.

The runtime renders each content block the way its provider takes it (runtime/providers/answers.py);
where a provider has no place for a kind in a tool result (audio, in most), the model reads a
line saying what was left out. The spec is still kept (the host gets every block on
`ToolResult.content`), so this is a warning naming the providers that leave it out.
"""

from __future__ import annotations

from collections.abc import Iterator

from toolgen.check.context import Context
from toolgen.diagnostics import Diagnostic, Severity
from toolgen.runtime import kinds
from toolgen.runtime.providers.answers import TAKES

ID = "content-left-out"
SUMMARY = (
    "Every declared `content` kind reaches the model through every provider (audio reaches only OpenAI "
    "Chat and MCP; the others read that it was left out)."
)
SEVERITY = Severity.WARNING


def check(context: Context) -> Iterator[Diagnostic]:
    for tool in context.tools:
        for i, kind in enumerate(tool.spec.content):
            if kind not in kinds.MEDIA:
                continue
            missing = [provider for provider, takes in TAKES.items() if kind not in takes]
            if not missing:
                continue
            yield tool.doc.diagnostic(
                tool.at(f"/content/{i}"),
                ID,
                f"{kind} content reaches no model through {', '.join(missing)}: their tool "
                "results take none, so the model reads that it was left out",
                hint="return what the model needs from it as text too (a transcript, a "
                "summary), or offer the tool only where it is shown",
                severity=SEVERITY,
            )
