"""BEHAVIOR: the OAuth scopes a tool's `auth: {scopes}` asks of its callers. A caller's token
must hold every one (docs/serving.md, "Authorization"): a scope added refuses the callers
whose tokens hold only the old ones (403, and the tool leaves their `tools/list`); a scope
removed lets callers with fewer scopes in, which breaks no one but widens who may call."""

from __future__ import annotations

from collections.abc import Iterator

from toolgen.breaking.behaviour import Issue
from toolgen.spec.model import ToolSpec


def scopes(before: ToolSpec, after: ToolSpec) -> Iterator[Issue]:
    old, new = set(before.scopes), set(after.scopes)
    if added := new - old:
        yield Issue(
            "TOOL_NO_NEW_SCOPE",
            "auth",
            f"scope(s) {_listed(added)} now needed: callers whose tokens hold only "
            f"{_listed(old) or 'no scope'} are refused (403) and no longer see it",
        )
    if removed := old - new:
        yield Issue(
            "TOOL_SCOPE_REMOVED",
            "auth",
            f"scope(s) {_listed(removed)} no longer needed: callers without them may now call it",
        )


def _listed(names: set[str]) -> str:
    return ", ".join(sorted(names))
