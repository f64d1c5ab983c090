# Part of toolgen's runtime, copied verbatim into generated packages (edit toolgen, not a copy).
"""One prepared call under its declared policies, and its runs.

`Runner` is the part of a `Registry` (registry.py) between a prepared call (prepare.py) and
its result: `_policed` is the declared policies around one call (approval, result cache, rate
limit, retries) as a generator of steps, which dispatch.py carries out in a thread (`call`) or
a task (`acall`); `_run` and `_arun` run the tool once within its deadline (execution.py),
draining a streaming tool's events (streaming.py), and turn what it did into a result.
"""

from __future__ import annotations

import functools
import inspect
import time
from collections.abc import Callable, Generator
from dataclasses import replace
from time import perf_counter
from typing import Any

from ..results import control
from ..results.control import Suspension
from ..results.outcome import failure, finish, hidden_values, rate_limited, timed_out
from ..results.result import ToolFailure, ToolInfo, ToolResult
from ..secrets import hide_values, redact, secret_values
from ..store.base import StoreUnavailable
from ..validation.validate import as_sent
from . import context, execution, policies, streaming
from .prepare import Preparer

Approver = Callable[[Suspension], Any]  # -> True, False, a reason (str: rejected), or awaitable


class Runner(Preparer):
    """Runs the calls of the registry whose settings it is given (registry.py sets them)."""

    timeout_s: float | None
    clock: Any
    approve: Approver | None
    record_ttl_s: float
    _key: bytes
    _policies: policies.Policies
    _guarding: dict[str, Any]  # each guarded tool's input and output guards (guards.py)
    _wants: dict[str, str]  # the parameter each tool that asks for its RunContext takes

    def _policed(
        self,
        info: ToolInfo,
        args: Any,
        extra: tuple[Any, ...],
        first: ToolResult | None,
        approved: bool,
        started: float,
    ) -> Generator[Any, Any, ToolResult]:
        """The declared policies around one call (approval, cache, rate limit, retries), as
        steps that `call` and `acall` carry out each in its own way: `RUN` (run the tool once
        and send back its result), a Suspension (ask `approve`, send back its decision), an
        Ask (one operation of a shared store, policies.py) or a number of seconds to wait. A
        store that does not answer ends the call as `unavailable`, never run. `first`: the result of a run already made (a tool without
        policies whose failure may be retried)."""
        guarding = self._guarding.get(info.name) if self._guarding else None
        run: Any = RUN
        if guarding is not None:  # input guards first: a refused call asks and takes nothing
            from . import guards

            budget = guards.Budget(self._timeout(info))
            seen = context.made(info.name, budget.timeout, extra, self._values(info.name, extra))
            notes: list[Any] = []
            if guarding[0]:
                stopped = yield from guards.inputs(info, guarding[0], args, seen, budget, notes)
                if stopped is not None:
                    return stopped
            left = budget.left()
            if left is not None and left <= 0:  # the input guards took the whole deadline
                late = timed_out(info, budget.timeout or 0.0, execution.Timeout(0.0))
                return guards.noted(late, notes)
            run = run if left is None else Within(left)
        if first is None and not approved and "requires_approval" in info.flags:
            request = self._suspension(info, args, control.APPROVAL, None, None)
            if self.approve is None:
                return _waiting(request)
            decision = yield request
            if isinstance(decision, StoreUnavailable):
                return policies.unavailable(info.name, decision)
            if decision is not True:
                reason = decision if isinstance(decision, str) and decision else None
                message = control.rejected_message(info.name, reason)
                return ToolResult(info.name, failure=ToolFailure("rejected", message))
        key = ""
        if first is None and getattr(info, "cache", None) is not None:
            key = policies.cache_key(as_sent(args), [as_sent(e) for e in extra])
            hit = self._policies.cached(info, key, self.clock.monotonic())
            if type(hit) is policies.Ask:
                hit = yield hit
            if isinstance(hit, StoreUnavailable):
                return policies.unavailable(info.name, hit)
            if hit is not None:
                kept: ToolResult = replace(hit, duration_s=perf_counter() - started)
                if guarding is not None and guarding[1]:  # guarded again for this call
                    kept = yield from guards.outputs(
                        info, guarding[1], args, seen, kept, budget, notes
                    )
                    return guards.noted(kept, notes)
                return kept
        limit = None if first is not None else getattr(info, "rate_limit", None)
        while limit is not None:
            delay = self._policies.reserve(info.name, limit, self.clock.monotonic())
            if type(delay) is policies.Ask:
                delay = yield delay
            if isinstance(delay, StoreUnavailable):
                return policies.unavailable(info.name, delay)
            if not delay > 0:
                break
            if not limit[2]:
                return rate_limited(info, limit[0], limit[1], delay)
            yield delay
        ran = perf_counter()
        result = first if first is not None else (yield from self._slotted(info, run))
        retry = getattr(info, "retry", _ONCE)
        tries = 1
        while tries < retry[0] and _retried(result):
            yield execution.backoff(retry, tries)
            ran = perf_counter()
            result, tries = (yield from self._slotted(info, run)), tries + 1
        if tries > 1:
            result = replace(result, attempts=tries)
        if guarding is not None and guarding[1] and result.ok:  # before the cache keeps it
            budget.spent += perf_counter() - ran
            result = yield from guards.outputs(info, guarding[1], args, seen, result, budget, notes)
        if key and result.ok:
            keeping = self._policies.keep(info, key, result, self.clock.monotonic())
            if keeping is not None:
                yield keeping  # a result the store could not keep is still this call's
        return result if guarding is None else guards.noted(result, notes)

    def _slotted(self, info: ToolInfo, run: Any = None) -> Generator[Any, Any, ToolResult]:
        """`run` (`RUN`, or `Within` the rest of a guarded call's deadline), holding one of the fleet's concurrency slots when a shared store keeps them
        (asked for until one is free); in-process slots are held by dispatch.py."""
        run = RUN if run is None else run
        if self._policies.fleet_slots is None:
            result: ToolResult = yield run
            return result
        while (token := (yield self._policies.acquire())) is None:
            yield policies.SLOT_POLL_S
        if isinstance(token, StoreUnavailable):
            return policies.unavailable(info.name, token)
        try:
            result = yield run
        except GeneratorExit:  # the call was given up while it ran
            self._policies.let_go(token)
            raise
        yield self._policies.release(token)
        return result

    def _suspension(
        self, info: ToolInfo, args: Any, reason: str, question: str | None, state: Any
    ) -> Suspension:
        """A new record of this call, its x-secret values shown as `<secret>` (and sealed)."""
        arguments = as_sent(args)
        hidden = secret_values(args)
        shown = hide_values(arguments, hidden) if hidden else arguments
        prompt = question if question is not None else control.approval_prompt(info.name, shown)
        ttl_s = getattr(info, "approval_expires_s", None) if reason == control.APPROVAL else None
        expires_at = self._wall() + (self.record_ttl_s if ttl_s is None else ttl_s)
        return control.record(
            info.name, arguments, shown, reason, prompt, state, self._key, expires_at
        )

    def _wall(self) -> float:
        """Now, in seconds since the epoch: the clock's `time()` where it has one."""
        wall = getattr(self.clock, "time", None)
        return float(wall()) if wall is not None else time.time()

    def _asked(
        self, info: ToolInfo, args: Any, extra: tuple[Any, ...], asked: control.Suspend
    ) -> ToolResult:
        """The result of a run that raised Suspend: its question, without secret values."""
        question = redact(str(asked.question), hidden_values(args, extra))
        return _waiting(self._suspension(info, args, control.QUESTION, question, asked.state))

    def _run(
        self,
        impl: Any,
        info: ToolInfo,
        args: Any,
        extra: tuple[Any, ...],
        started: float,
        within: Any = None,
    ) -> ToolResult:
        timeout = info.timeout_s
        if timeout is None:
            timeout = self.timeout_s
        if within is not None:  # the rest of a guarded call's deadline
            timeout = within.seconds
        function = impl.run if not self._wants else self._function(impl, info, timeout, extra)
        try:
            if info.flags and "streaming" in info.flags:  # drained under the deadline
                run = (function, (args, *extra), streaming.LISTENER.get())
                if timeout is None:
                    outcome = streaming.running(*run)
                    if inspect.isawaitable(outcome):
                        outcome = execution.awaited(outcome)
                else:
                    outcome = execution.within(streaming.running, run, timeout)
            elif timeout is None:
                outcome = function(args, *extra) if extra else function(args)
                # What a sync run returns (a dict, the Result model) is told apart at once.
                kind = type(outcome)
                if kind is not dict and kind is not info.result and inspect.isawaitable(outcome):
                    outcome = execution.awaited(outcome)
            else:
                outcome = execution.within(function, (args, *extra), timeout)
        except execution.Timeout as exc:
            return timed_out(info, exc.seconds, exc, perf_counter() - started)
        except control.Suspend as asked:
            return self._asked(info, args, extra, asked)
        # A tool's sys.exit() or KeyboardInterrupt is its own failure, as on a loop (_arun).
        except (Exception, SystemExit, KeyboardInterrupt) as exc:  # noqa: BLE001
            return failure(info, exc, args, extra, perf_counter() - started)
        return finish(info, outcome, perf_counter() - started, args, extra)

    async def _arun(
        self,
        impl: Any,
        info: ToolInfo,
        args: Any,
        extra: tuple[Any, ...],
        started: float,
        within: Any = None,
    ) -> ToolResult:
        timeout = info.timeout_s
        if timeout is None:
            timeout = self.timeout_s
        if within is not None:  # the rest of a guarded call's deadline
            timeout = within.seconds
        function = impl.run if not self._wants else self._function(impl, info, timeout, extra)
        try:
            if info.flags and "streaming" in info.flags:  # drained under the deadline
                run = (function, (args, *extra), streaming.LISTENER.get())
                outcome = await execution.run_async(streaming.running, run, timeout)
            else:
                outcome = await execution.run_async(function, (args, *extra), timeout)
        except execution.Timeout as exc:
            return timed_out(info, exc.seconds, exc, perf_counter() - started)
        except control.Suspend as asked:
            return self._asked(info, args, extra, asked)
        # A tool's sys.exit() or KeyboardInterrupt is its own failure: on a loop, escaping the
        # task would stop the whole loop (a server with every call it serves).
        except (Exception, SystemExit, KeyboardInterrupt) as exc:  # noqa: BLE001
            return failure(info, exc, args, extra, perf_counter() - started)
        return finish(info, outcome, perf_counter() - started, args, extra)

    def _timeout(self, info: ToolInfo) -> float | None:
        """The deadline of a call of this tool: its spec's, else the registry's."""
        return info.timeout_s if info.timeout_s is not None else self.timeout_s

    def _values(self, tool: str, extra: tuple[Any, ...]) -> Any:
        """The injected values a RunContext shows, when the tool declares none of its own:
        what the registry's `inject` supplies."""
        return None if extra or self.inject is None else self.inject(tool)

    def _function(
        self, impl: Any, info: ToolInfo, timeout: float | None, extra: tuple[Any, ...]
    ) -> Any:
        """What one run calls: `run`, given the call's RunContext by the parameter it asks for
        it by when it asks (context.py)."""
        wanted = self._wants.get(info.name)
        if wanted is None:
            return impl.run
        made = context.made(info.name, timeout, extra, self._values(info.name, extra))
        return functools.partial(impl.run, **{wanted: made})


class Within:
    """A step of `_policed`: run the tool once within `seconds` (the rest of a guarded call's
    deadline, its guards' time taken off), and send back its result."""

    __slots__ = ("seconds",)

    def __init__(self, seconds: float) -> None:
        self.seconds = seconds


_ONCE = (1, 0.0, None)


RUN = object()  # a step of Registry._policed: run the tool once and send back its result


def _retried(result: ToolResult) -> bool:
    return result.failure is not None and result.failure.retryable


def _waiting(suspension: Suspension) -> ToolResult:
    message = control.waiting_message(suspension)
    failed = ToolFailure("suspended", message)
    return ToolResult(suspension.tool, failure=failed, suspended=suspension)
