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
outside (other arguments, another tool, a later expiry) is refused, and a record that is not
well formed is refused the same way. It holds the validated arguments, never injected values
(the host supplies those again when it resumes). Each record has a random `id` (the registry
lets it be resumed once: records.py) and an `expires_at` (seconds since the epoch, UTC).

Values at `x-secret` positions are never readable in a record: `arguments` and `prompt` show
`<secret>` in their place, and the real arguments travel in `sealed`, encrypted under a key
derived from the registry's secret (HMAC-SHA256 as a stream cipher, keyed per record by its
`id`, inside the record's signature: encrypt-then-MAC, with the standard library alone). So a
record stays the whole call, which any process holding the secret resumes, as before, while
the host, the client and the model it is shown to never read the secret value.

`Suspend` is a BaseException, like asyncio's CancelledError: an implementation's
`except Exception` does not swallow it, and the registry never turns it (or a cancellation,
KeyboardInterrupt or SystemExit) into a failure.
"""

from __future__ import annotations

import base64
import contextvars
import hashlib
import hmac
import json
import math
import os
import re
from dataclasses import asdict, dataclass
from datetime import UTC, datetime
from typing import Any

from ..errors import ToolgenError

FORMAT = 2  # of the record; a record of another format is refused
APPROVAL = "approval"
QUESTION = "question"
NOT_A_RECORD = "not a suspended call record of this runtime"
TAMPERED = (
    "the suspended call's signature does not match: it was changed after it was made, or "
    "made by a registry with another secret"
)
USED = "this suspended call record was already used: a record is resumed once"
_HEX = re.compile(r"[0-9a-f]{64}")


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


class SuspensionError(ToolgenError, ValueError):
    """A record that is not a Suspension this registry signed (changed, malformed, another
    secret), that expired, or that was already used."""


@dataclass(frozen=True)
class Suspension:
    """A call waiting for the host; `to_json()` is what to store, `Registry.resume` takes it."""

    tool: str
    arguments: Any  # the validated arguments, as JSON
    reason: str  # "approval" (the user approves or rejects) or "question" (the user answers)
    prompt: str  # what to show the user
    state: Any = None  # the tool's own (Suspend.state)
    id: str = ""  # random: the registry lets a record be resumed once
    expires_at: float = 0.0  # seconds since the epoch (UTC): refused from then on
    sealed: str = ""  # the real arguments, encrypted, when `arguments` hides secret values
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
            raise SuspensionError(NOT_A_RECORD)
        fields = {k: v for k, v in record.items() if k != "format"}
        try:
            found = cls(**fields)
        except TypeError:
            raise SuspensionError(NOT_A_RECORD) from None
        try:  # a field no record has (text that is no JSON, an odd type) is refused alike
            signed = _well_formed(found) and hmac.compare_digest(
                found.signature, _sign(found._body(), key)
            )
        except (TypeError, ValueError, RecursionError):
            signed = False
        if not signed:
            raise SuspensionError(TAMPERED)
        return found

    def expired(self, now: float) -> str | None:
        """Why the record is refused at `now` (seconds since the epoch), or None."""
        if now < self.expires_at:
            return None
        when = datetime.fromtimestamp(self.expires_at, UTC)
        return f"this suspended call record expired at {when.isoformat(timespec='seconds')}"

    def real_arguments(self, key: bytes) -> Any:
        """The arguments to run the call with: `sealed` opened, or `arguments` as they are."""
        if not self.sealed:
            return self.arguments
        try:
            opened = _stream(key, self.id, base64.urlsafe_b64decode(self.sealed))
            return json.loads(opened.decode())
        except (TypeError, ValueError):
            raise SuspensionError(TAMPERED) from None


def record(
    tool: str,
    arguments: Any,
    shown: Any,
    reason: str,
    prompt: str,
    state: Any,
    key: bytes,
    expires_at: float,
) -> Suspension:
    """A new signed record: `shown` is `arguments` with secret values hidden (the real ones are
    sealed when they differ)."""
    made = os.urandom(16).hex()
    sealed = ""
    if shown != arguments:
        text = json.dumps(arguments, ensure_ascii=False).encode()
        sealed = base64.urlsafe_b64encode(_stream(key, made, text)).decode()
    found = Suspension(tool, shown, reason, prompt, state, made, expires_at, sealed)
    return found.signed(key)


def _well_formed(found: Suspension) -> bool:
    stamp = found.expires_at
    return (
        isinstance(found.signature, str)
        and _HEX.fullmatch(found.signature) is not None
        and all(isinstance(v, str) for v in (found.tool, found.prompt, found.id, found.sealed))
        and found.reason in (APPROVAL, QUESTION)
        and type(stamp) in (int, float)
        and math.isfinite(stamp)
    )


def _stream(key: bytes, nonce: str, data: bytes) -> bytes:
    """`data` xor a keystream (HMAC-SHA256 in counter mode, under a key derived from `key`, a
    fresh one per record `nonce`): the same call seals and opens."""
    sealing = hmac.new(key, b"toolgen suspension sealing", hashlib.sha256).digest()
    out = bytearray()
    for block in range(0, len(data), 32):
        counter = f"{nonce}:{block // 32}".encode()
        pad = hmac.new(sealing, counter, hashlib.sha256).digest()
        out.extend(a ^ b for a, b in zip(data[block : block + 32], pad, strict=False))
    return bytes(out)


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
