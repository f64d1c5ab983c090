# Part of toolgen's runtime, copied verbatim into generated packages (edit toolgen, not a copy).
"""Going on with a suspended call: `resume` and `aresume` of a `Registry`.

A suspended call (an approval asked, a question raised by the tool) is a signed record
(control.py) the host stores; `Resumer` checks the record (this registry's signature, not
expired, resumed as its reason wants), has the record store mark it used (records.py: each
record is resumed once), and runs the call again as dispatch.py runs any call, without asking
for approval again, the user's answer given to the tool. A shared record store that does not
answer makes the resume an `unavailable` result, the record left unused.
"""

from __future__ import annotations

from collections.abc import Mapping
from time import perf_counter
from typing import TYPE_CHECKING, Any

from ..results import control
from ..results.control import Suspension, SuspensionError
from ..results.result import ToolFailure, ToolResult
from ..store.base import StoreUnavailable
from . import policies, records
from .prepare import Prepared
from .records import RecordStore
from .running import Runner

_MISSING: Any = object()


class Resumer(Runner):
    """Resumes the suspended calls of the registry whose records store it is given."""

    _records: RecordStore  # which suspended-call records were used (shared when derived)

    if TYPE_CHECKING:  # the dispatcher's own (dispatch.py)

        def _observed(
            self, prepared: Prepared | ToolResult, started: float, approved: bool = False
        ) -> ToolResult: ...

        async def _aobserved(
            self, prepared: Prepared | ToolResult, started: float, approved: bool = False
        ) -> ToolResult: ...

    def resume(
        self,
        suspended: Suspension | dict[str, Any],
        *,
        approved: bool | None = None,
        reason: str | None = None,
        answer: Any = _MISSING,
        injected: Mapping[str, Any] | None = None,
    ) -> ToolResult:
        """Go on with a suspended call (`ToolResult.suspended`, or its `to_json()` as stored):
        an approval with `approved` (and the user's `reason` for a rejection, which the model
        reads), a question with the user's `answer`. Its injected values are passed again.
        SuspensionError for a record this registry's secret did not sign as it is, one that
        expired, or one already resumed (or rejected): each record is used once."""
        started = perf_counter()
        record = self._checked(suspended, approved, answer)
        used = records.consumed(self._records, record.id, record.expires_at)
        prepared, answered = self._resumed(record, used, approved, reason, answer, injected)
        token = control.resuming(answered)
        try:
            return self._observed(prepared, started, approved=True)
        finally:
            control.done_resuming(token)

    async def aresume(
        self,
        suspended: Suspension | dict[str, Any],
        *,
        approved: bool | None = None,
        reason: str | None = None,
        answer: Any = _MISSING,
        injected: Mapping[str, Any] | None = None,
    ) -> ToolResult:
        """`resume`, awaited (as `acall`)."""
        started = perf_counter()
        record = self._checked(suspended, approved, answer)
        used = await records.aconsumed(self._records, record.id, record.expires_at)
        prepared, answered = self._resumed(record, used, approved, reason, answer, injected)
        token = control.resuming(answered)
        try:
            return await self._aobserved(prepared, started, approved=True)
        finally:
            control.done_resuming(token)

    def _checked(
        self, suspended: Suspension | dict[str, Any], approved: bool | None, answer: Any
    ) -> Suspension:
        """The record, signed by this registry and not expired, resumed as its reason wants
        (SuspensionError, TypeError); not yet used."""
        record = Suspension.verified(suspended, self._key)
        expired = record.expired(self._wall())
        if expired is not None:
            raise SuspensionError(f"{expired}: call the tool again")
        if record.reason == control.APPROVAL:
            if not isinstance(approved, bool) or answer is not _MISSING:
                raise TypeError("resume an approval with approved=True or approved=False")
        elif answer is _MISSING or approved is not None:
            raise TypeError("resume a question with the user's answer=...")
        return record

    def _resumed(
        self,
        record: Suspension,
        used: Any,
        approved: bool | None,
        reason: str | None,
        answer: Any,
        injected: Mapping[str, Any] | None,
    ) -> tuple[Prepared | ToolResult, control.Resumed | None]:
        """(what to run, without asking for approval again: prepared as `_prepare` does, or a
        result; the answer `resumed()` gives it, or None), once the store marked the record
        used (`used`, its answer: anything but True refuses it)."""
        if isinstance(used, StoreUnavailable):  # not used: resumable once the store is back
            return policies.unavailable(record.tool, used), None
        if used is not True:
            raise SuspensionError(control.USED)
        arguments = record.real_arguments(self._key)
        prepared = self._prepare(record.tool, arguments, injected)
        if approved is False and not isinstance(prepared, ToolResult):
            message = control.rejected_message(record.tool, reason)
            return ToolResult(record.tool, failure=ToolFailure("rejected", message)), None
        if approved is True:
            return prepared, None
        return prepared, control.Resumed(answer, record.state)
