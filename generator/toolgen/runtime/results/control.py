# Part of toolgen's runtime, copied verbatim into generated packages (edit toolgen, not a copy).
"""Calls that wait for a person: approval before a tool runs, a question a tool asks.

- A tool flagged `requires_approval` does not run until the host approves the call: inline,
  through the registry's `approve` callable, or later: the call's result is `suspended`, and
  the host resumes the record once the user has decided (`Registry.resume`).
- An implementation that needs the user's answer raises `Suspend(question, state)`; the call's
  result is `suspended`, and `Registry.resume(record, answer=...)` runs the tool again with the
  same arguments, where `resumed()` gives it the answer and the state it saved.

A `Suspension` is JSON (`to_json`) that the host may store anywhere and resume in another
process: it is signed with HMAC-SHA256 under the registry's `secret`, so that a record changed
outside (other arguments, another tool) is refused. It holds the validated arguments, never
injected values (the host supplies those again when it resumes).

`Suspend` is a BaseException, like asyncio's CancelledError: an implementation's
`except Exception` does not swallow it, and the registry never turns it (or a cancellation,
KeyboardInterrupt or SystemExit) into a failure.
"""

from __future__ import annotations

import contextvars
import hashlib
import hmac
import json
from dataclasses import asdict, dataclass
from typing import Any

FORMAT = 1  # of the record; a record of another format is refused
APPROVAL = "approval"
QUESTION = "question"


class Suspend(BaseException):  # a signal, as StopIteration is, not an error
    """Raised by `run` to wait for the user: `question` is what to ask them, `state` JSON the
    tool gets back (with the answer) from `resumed()` when the host resumes the call."""

    def __init__(self, question: str, state: Any = None) -> None:
        super().__init__(question)
        self.question, self.state = question, state


@dataclass(frozen=True)
class Resumed:
    """What a resumed call's `run` gets from `resumed()`: the user's answer and its state."""

    answer: Any
    state: Any = None


_RESUMED: contextvars.ContextVar[Resumed | None] = contextvars.ContextVar(
    "toolgen_resumed", default=None
)


def resumed() -> Resumed | None:
    """In `run`: the answer to the question this call suspended on, or None (a first call)."""
    return _RESUMED.get()


def resuming(answer: Resumed | None) -> contextvars.Token[Resumed | None]:
    return _RESUMED.set(answer)


def done_resuming(token: contextvars.Token[Resumed | None]) -> None:
    _RESUMED.reset(token)


class SuspensionError(ValueError):
    """A record that is not a Suspension this registry signed (changed, or another secret)."""


@dataclass(frozen=True)
class Suspension:
    """A call waiting for the host; `to_json()` is what to store, `Registry.resume` takes it."""

    tool: str
    arguments: Any  # the validated arguments, as JSON
    reason: str  # "approval" (the user approves or rejects) or "question" (the user answers)
    prompt: str  # what to show the user
    state: Any = None  # the tool's own (Suspend.state)
    signature: str = ""

    def to_json(self) -> dict[str, Any]:
        return {"format": FORMAT, **asdict(self)}

    def signed(self, key: bytes) -> Suspension:
        return Suspension(**{**asdict(self), "signature": _sign(self._body(), key)})

    def _body(self) -> dict[str, Any]:
        body = self.to_json()
        del body["signature"]
        return body

    @classmethod
    def verified(cls, record: Suspension | dict[str, Any], key: bytes) -> Suspension:
        """The record, if this key signed it as it is (else SuspensionError)."""
        if isinstance(record, Suspension):
            record = record.to_json()
        if not isinstance(record, dict) or record.get("format") != FORMAT:
            raise SuspensionError("not a suspended call record of this runtime")
        fields = {k: v for k, v in record.items() if k != "format"}
        try:
            found = cls(**fields)
        except TypeError:
            raise SuspensionError("not a suspended call record of this runtime") from None
        if not isinstance(found.signature, str) or not hmac.compare_digest(
            found.signature, _sign(found._body(), key)
        ):
            raise SuspensionError(
                "the suspended call's signature does not match: it was changed after it was "
                "made, or made by a registry with another secret"
            )
        return found


def _sign(body: dict[str, Any], key: bytes) -> str:
    text = json.dumps(body, sort_keys=True, separators=(",", ":"), ensure_ascii=False)
    return hmac.new(key, text.encode(), hashlib.sha256).hexdigest()


def approval_prompt(tool: str, arguments: Any) -> str:
    return f"Allow tool '{tool}' to run with {json.dumps(arguments, ensure_ascii=False)}?"


def waiting_message(suspension: Suspension) -> str:
    """What the model reads while the call waits."""
    if suspension.reason == APPROVAL:
        return (
            f"tool '{suspension.tool}' needs the user's approval before it runs; its result "
            "will follow once they have decided"
        )
    return f"tool '{suspension.tool}' is waiting for the user's answer to: {suspension.prompt}"


def rejected_message(tool: str, reason: str | None) -> str:
    said = f": {reason}" if reason else ""
    return (
        f"the user did not approve this call of tool '{tool}'{said}; do not call it again as it was"
    )
