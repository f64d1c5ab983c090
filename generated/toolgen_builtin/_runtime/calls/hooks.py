# Part of toolgen's runtime, copied verbatim into generated packages (edit toolgen, not a copy).
"""Events of the calls a registry runs, for the host's logs, metrics and traces.

A hook is any object with some of the methods `before(event)`, `after(event)` and
`error(event)`: `before` once a call's arguments are valid and before the tool runs (approval,
cache, rate limit and retries included); then `after` with an ok result, or `error` with a
failed or suspended one. A call refused before it could start (an unknown tool, invalid
arguments) has only its `error` event, with `arguments` None. Hooks run in the caller's
thread, in the order given; what one raises reaches the caller (it is the host's own code).

A guarded call's result carries what each guard did (`result.guards`: GuardNote records,
with the host's reason for a refusal, a withheld result or a redaction; guards.py).

`arguments` are the validated arguments as JSON with every x-secret value replaced by
"<secret>"; injected values are never in an event. A registry without hooks does none of
this work.
"""

from __future__ import annotations

import itertools
import time
from collections.abc import Iterable
from dataclasses import dataclass, replace
from typing import Any

from ..results.outcome import redact_json
from ..results.result import ToolResult
from ..secrets import secret_values
from ..validation.validate import as_sent

_IDS = itertools.count(1)


@dataclass(frozen=True)
class CallEvent:
    """One call, as hooks see it."""

    tool: str
    call_id: int  # the same in a call's `before` and `after`/`error` events; unique per process
    arguments: Any  # validated, as JSON, x-secret values redacted; None for a refused call
    started: float  # time.time() when the registry took the call
    result: ToolResult | None = None  # in `after` and `error`

    @property
    def duration_s(self) -> float | None:
        return None if self.result is None else self.result.duration_s


class Hooks:
    """The hooks of one registry, told of each call."""

    def __init__(self, hooks: Iterable[Any]) -> None:
        self.hooks = tuple(hooks)
        for hook in self.hooks:
            if not any(callable(getattr(hook, m, None)) for m in ("before", "after", "error")):
                raise TypeError(
                    f"{type(hook).__name__} is not a hook: it has none of before, after, error"
                )
        self._before = [h.before for h in self.hooks if callable(getattr(h, "before", None))]
        self._after = [h.after for h in self.hooks if callable(getattr(h, "after", None))]
        self._error = [h.error for h in self.hooks if callable(getattr(h, "error", None))]

    def start(self, tool: str, args: Any) -> CallEvent:
        arguments = as_sent(args)
        hidden = secret_values(args)
        if hidden:
            arguments = redact_json(arguments, hidden)
        event = CallEvent(tool, next(_IDS), arguments, time.time())
        for hook in self._before:
            hook(event)
        return event

    def finish(self, event: CallEvent | None, result: ToolResult) -> None:
        if event is None:  # refused before it started
            event = CallEvent(result.tool, next(_IDS), None, time.time())
        event = replace(event, result=result)
        for hook in self._after if result.ok else self._error:
            hook(event)
