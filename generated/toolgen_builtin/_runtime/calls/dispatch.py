# Part of toolgen's runtime, copied verbatim into generated packages (edit toolgen, not a copy).
"""The dispatch of a call: run under what its spec declares, told to the hooks.

`Dispatcher` is the part of a `Registry` (registry.py) that carries a call out, once it is
prepared (prepare.py), in this order: input guards (guards.py), approval (control.py), the
result cache and rate limit (policies.py), the run itself within its deadline (execution.py),
retries, then output guards; hooks
(hooks.py) see each call. The policies are one generator of steps (`_policed`) that `call`
and `acall` carry out each in its own way. A tool that declares none of these, in a registry
without hooks or a concurrency limit, takes the fast path (fast.py: validate, run, check the
result, no step of the general path), in `call` for a sync `run` without a deadline and in
`acall` for an async one (its deadline kept in the caller's task): the path of most calls.
Whatever that path meets but a result (refused arguments, a failure to retry) goes on along
the general path. Resuming a suspended call is resuming.py's.
"""

from __future__ import annotations

import contextlib
import inspect
from collections.abc import AsyncIterator, Mapping
from dataclasses import replace
from time import perf_counter
from typing import Any

from pydantic import ValidationError

from ..errors import ToolArgumentsError, ToolCallError
from ..results import control
from ..results.control import Suspension
from ..results.outcome import failure, timed_out
from ..results.result import ToolFailure, ToolInfo, ToolResult, ok
from ..validation import deprecation
from ..validation.validate import validate
from . import execution, policies, records, streaming
from .fast import Plan, finished
from .guards import Check
from .hooks import CallEvent, Hooks
from .prepare import Prepared
from .resuming import Resumer
from .running import RUN, Within
from .streaming import OnEvent


class Dispatcher(Resumer):
    """Carries out the calls of the registry whose settings and tables it is given."""

    _hooks: Hooks | None
    _quiet: bool  # no hooks, no concurrency limit: a plain tool's call is only its run
    _plain: frozenset[str]  # the tools whose calls need none of the policies
    _fast: dict[str, Plan]  # the plans of `call`, by canonical and provider-safe name (fast.py)
    _afast: dict[str, Plan]  # the plans of `acall`: tools whose `run` is async

    def call(
        self,
        name: str,
        arguments: Any,
        *,
        injected: Mapping[str, Any] | None = None,
        on_event: OnEvent | None = None,
    ) -> ToolResult:
        """Validate and run one call. Async implementations are run to completion here (on a
        fresh loop in a worker thread when this thread's loop is running). `on_event` gets
        each event of a streaming tool as it comes (in the thread that drains the stream)."""
        plan = self._fast.get(name) if type(name) is str else None
        if plan is not None and injected is None and on_event is None:  # most calls (fast.py)
            started = perf_counter()
            try:
                args = validate(plan.model, plan.name, arguments)
            except ToolArgumentsError as exc:
                return self._observed(self._rejected(plan.name, arguments, None, exc), started)
            try:
                outcome = plan.run(args)
                kind = type(outcome)
                if kind is dict and plan.bare:  # finished()'s first branch, inline: most calls
                    try:
                        return ok(plan.name, plan.check(outcome), perf_counter() - started)
                    except ValidationError:
                        pass  # finished() says why
                elif kind is not plan.result and inspect.isawaitable(outcome):
                    outcome = execution.awaited(outcome)
            except control.Suspend as asked:
                return self._asked(plan.info, args, (), asked)
            # As in running.py: a tool's sys.exit() or KeyboardInterrupt is its own failure.
            except (Exception, SystemExit, KeyboardInterrupt) as exc:  # noqa: BLE001
                first = failure(plan.info, exc, args, (), perf_counter() - started)
                if first.failure is not None and first.failure.retryable:
                    return self._drive(_made(plan, args), started, first=first)
                return first
            return finished(plan, outcome, started, args)
        if on_event is not None:
            with streaming.listening(on_event):
                return self.call(name, arguments, injected=injected)
        started = perf_counter()
        prepared = self._prepare(name, arguments, injected)
        if type(prepared) is Prepared and self._quiet:
            impl, info, args, extra, notes = prepared
            # A call with notes (a repaired one) is not plain: its result must carry them.
            if not notes and info.name in self._plain:
                first = self._run(impl, info, args, extra, started)
                if first.failure is None or not first.failure.retryable:
                    return first  # no policy to apply: the path of most calls
                return self._drive(prepared, started, first=first)
        return self._observed(prepared, started)

    async def acall(
        self,
        name: str,
        arguments: Any,
        *,
        injected: Mapping[str, Any] | None = None,
        on_event: OnEvent | None = None,
    ) -> ToolResult:
        """Validate and run one call; a sync implementation runs in a worker thread, so the
        event loop is never blocked; an async one is awaited in the caller's task (within its
        deadline, if it has one). `on_event`: as for `call`."""
        plan = self._afast.get(name) if type(name) is str else None
        if plan is not None and injected is None and on_event is None:  # an async run (fast.py)
            started = perf_counter()
            try:
                args = validate(plan.model, plan.name, arguments)
            except ToolArgumentsError as exc:
                refused = self._rejected(plan.name, arguments, None, exc)
                return await self._aobserved(refused, started)
            try:
                if plan.timeout is None:
                    outcome = await plan.run(args)
                else:
                    outcome = await execution.bounded(plan.run(args), plan.timeout)
                kind = type(outcome)
                if kind is not dict and kind is not plan.result and inspect.isawaitable(outcome):
                    bound = plan.timeout
                    outcome = await (
                        outcome if bound is None else execution.bounded(outcome, bound)
                    )
            except execution.Timeout as exc:
                first = timed_out(plan.info, exc.seconds, exc, perf_counter() - started)
            except control.Suspend as asked:
                return self._asked(plan.info, args, (), asked)
            # As in running.py: a tool's sys.exit() or KeyboardInterrupt is its own failure.
            except (Exception, SystemExit, KeyboardInterrupt) as exc:  # noqa: BLE001
                first = failure(plan.info, exc, args, (), perf_counter() - started)
            else:
                return finished(plan, outcome, started, args)
            if first.failure is not None and first.failure.retryable:
                return await self._adrive(_made(plan, args), started, first=first)
            return first
        if on_event is not None:
            with streaming.listening(on_event):
                return await self.acall(name, arguments, injected=injected)
        started = perf_counter()
        return await self._aobserved(self._prepare(name, arguments, injected), started)

    async def astream(
        self, name: str, arguments: Any, *, injected: Mapping[str, Any] | None = None
    ) -> AsyncIterator[Any]:
        """The events of one call as they come (Progress, Chunk, Partial, content blocks),
        then `Final(result)`: the only event of a tool that does not stream. Leaving the loop
        early cancels the call, and the tool's stream is closed (its cleanup runs)."""
        import asyncio

        loop = asyncio.get_running_loop()
        events: asyncio.Queue[Any] = asyncio.Queue()

        def on_event(event: Any) -> None:  # from the loop, or from a worker thread
            loop.call_soon_threadsafe(events.put_nowait, event)

        call = asyncio.ensure_future(
            self.acall(name, arguments, injected=injected, on_event=on_event)
        )
        async with contextlib.aclosing(streaming.relayed(call, events)) as relayed:
            async for event in relayed:
                yield event
        result = call.result()
        cut = result.failure is not None and result.failure.kind == "timeout"
        yield streaming.Final(result, was_interrupted=cut)

    def invoke(
        self, name: str, arguments: Any, *, injected: Mapping[str, Any] | None = None
    ) -> Any:
        """`call` for a host that prefers exceptions: the result's value, or UnknownToolError,
        ToolArgumentsError, or ToolCallError (a declared kind, a timeout, an invalid result,
        an internal failure, a suspended call) with the implementation's exception as its
        cause."""
        return _value(self.call(name, arguments, injected=injected))

    async def ainvoke(
        self, name: str, arguments: Any, *, injected: Mapping[str, Any] | None = None
    ) -> Any:
        """`invoke`, awaited (`acall`)."""
        return _value(await self.acall(name, arguments, injected=injected))

    def call_split(
        self, name: str, arguments: Any, *, injected: Mapping[str, Any] | None = None
    ) -> list[ToolResult] | None:
        """The results of a glued call's parts (`split_call`), run in order with `call`, each
        carrying the `split` repair; None when the call is not one glued from several."""
        parts = self._parts(name, arguments, injected)
        if parts is None:
            return None
        return [self._observed(prepared, started) for prepared, started in parts]

    async def acall_split(
        self, name: str, arguments: Any, *, injected: Mapping[str, Any] | None = None
    ) -> list[ToolResult] | None:
        """`call_split`, awaited (each part as `acall` runs it, one after the other)."""
        parts = self._parts(name, arguments, injected)
        if parts is None:
            return None
        return [await self._aobserved(prepared, started) for prepared, started in parts]

    def _observed(
        self, prepared: Prepared | ToolResult, started: float, approved: bool = False
    ) -> ToolResult:
        """One call under its policies, told to the hooks."""
        if isinstance(prepared, ToolResult):
            return self._told(None, prepared)
        event = self._hooks.start(prepared.info.name, prepared.args) if self._hooks else None
        try:
            result = self._drive(prepared, started, approved=approved)
        except BaseException:  # interrupted: the hooks hear of it, then it goes on
            self._told(event, _cancelled(prepared.info))
            raise
        return self._told(event, _noted(prepared.info, result, prepared.notes))

    async def _aobserved(
        self, prepared: Prepared | ToolResult, started: float, approved: bool = False
    ) -> ToolResult:
        if isinstance(prepared, ToolResult):
            return self._told(None, prepared)
        event = self._hooks.start(prepared.info.name, prepared.args) if self._hooks else None
        try:
            result = await self._adrive(prepared, started, approved=approved)
        except BaseException:  # cancelled (a turn given up): the hooks hear of it, then it goes on
            self._told(event, _cancelled(prepared.info))
            raise
        return self._told(event, _noted(prepared.info, result, prepared.notes))

    def _told(self, event: CallEvent | None, result: ToolResult) -> ToolResult:
        """`result`, once the hooks have heard of it (`event`: its call's start, if any)."""
        if self._hooks is not None:
            self._hooks.finish(event, result)
        return result

    def _drive(
        self,
        prepared: Prepared,
        started: float,
        first: ToolResult | None = None,
        approved: bool = False,
    ) -> ToolResult:
        """The steps of `_policed`, carried out in this thread."""
        impl, info, args, extra, _ = prepared
        steps = self._policed(info, args, extra, first, approved, started)
        try:
            step = next(steps)
            while True:
                if step is RUN:
                    with self._policies.thread_slot():
                        step = steps.send(self._run(impl, info, args, extra, started))
                elif type(step) is policies.Ask or type(step) is Check:
                    step = steps.send(step.run())
                elif type(step) is Within:
                    with self._policies.thread_slot():
                        step = steps.send(self._run(impl, info, args, extra, started, step))
                elif isinstance(step, Suspension):
                    assert self.approve is not None
                    used = records.consumed(self._records, step.id, step.expires_at)
                    decision = self.approve(step) if used is True else used or control.USED
                    if inspect.isawaitable(decision):
                        decision = execution.awaited(decision)
                    step = steps.send(decision)
                else:
                    self.clock.sleep(step)
                    step = next(steps)
        except StopIteration as done:
            result: ToolResult = done.value
            return result

    async def _adrive(
        self,
        prepared: Prepared,
        started: float,
        first: ToolResult | None = None,
        approved: bool = False,
    ) -> ToolResult:
        """The steps of `_policed`, carried out in this task."""
        impl, info, args, extra, _ = prepared
        steps = self._policed(info, args, extra, first, approved, started)
        try:
            step = next(steps)
            while True:
                if step is RUN:
                    async with self._policies.task_slot():
                        step = steps.send(await self._arun(impl, info, args, extra, started))
                elif type(step) is policies.Ask or type(step) is Check:
                    step = steps.send(await step.arun())
                elif type(step) is Within:
                    async with self._policies.task_slot():
                        ran = await self._arun(impl, info, args, extra, started, step)
                        step = steps.send(ran)
                elif isinstance(step, Suspension):
                    assert self.approve is not None
                    used = await records.aconsumed(self._records, step.id, step.expires_at)
                    decision = self.approve(step) if used is True else used or control.USED
                    if inspect.isawaitable(decision):
                        decision = await decision
                    step = steps.send(decision)
                else:
                    await self.clock.asleep(step)
                    step = next(steps)
        except StopIteration as done:
            result: ToolResult = done.value
            return result


def _value(result: ToolResult) -> Any:
    """The value of an ok result; else the exception `invoke` raises for it."""
    if result.failure is None:
        return result.value
    if (
        result.failure.kind in ("unknown_tool", "invalid_arguments")
        and result.exception is not None
    ):
        raise result.exception
    failure = result.failure
    raise ToolCallError(
        result.tool, failure.kind, failure.message, failure.retryable, result.attempts
    ) from result.exception


def _made(plan: Plan, args: Any) -> Prepared:
    """The prepared call of a plan's tool, for the general path (a failure to retry)."""
    return Prepared(plan.impl, plan.info, args, (), ())


def _noted(info: ToolInfo, result: ToolResult, notes: tuple[Any, ...] = ()) -> ToolResult:
    """The result, with the warnings for the host: the tool is deprecated, its call's arguments
    used an old name or a deprecated parameter, or were repaired (`notes`: the warnings, and
    the Repair records of a repaired call)."""
    if info.stability != "deprecated" and not notes:
        return result
    warnings = tuple(n for n in notes if isinstance(n, str))
    if info.stability == "deprecated":
        warnings = (deprecation.tool_warning(info), *warnings)
    made = tuple(n for n in notes if not isinstance(n, str))  # the Repair records
    if made:
        return replace(
            result, warnings=(*result.warnings, *warnings), repairs=(*result.repairs, *made)
        )
    return replace(result, warnings=(*result.warnings, *warnings))


def _cancelled(info: ToolInfo) -> ToolResult:
    """What hooks are told of a call stopped from outside (a cancelled task, an interrupt)."""
    return ToolResult(info.name, failure=ToolFailure("cancelled", "the call was cancelled"))
