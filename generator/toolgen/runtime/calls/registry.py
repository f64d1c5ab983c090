# Part of toolgen's runtime, copied verbatim into generated packages (edit toolgen, not a copy).
"""The registry: the tools a host offers, and the dispatch of calls to their implementations.

A Registry is a value: merging or removing tools returns a new one (with the same settings,
rate limits and caches). Implementations are recognised by what the registry reads of them
(`info` and `run`), not by class, so the registries of two generated packages merge (`a + b`):
each tool is validated by its own package's runtime (`info.validate_arguments`).
Provider-shaped turns are answered by `adapters.respond`, which calls the registry (this
module does not import it).

A call runs under what its spec declares, in this order: approval (control.py), the result
cache and rate limit (policies.py), the run itself within its deadline (execution.py), and
retries; hooks (hooks.py) see each call. A tool that declares none of these, in a registry
without hooks or a concurrency limit, is run directly: the path of most calls.
"""

from __future__ import annotations

import contextlib
import copy
import inspect
import os
from collections.abc import AsyncIterator, Callable, Generator, Iterable, Iterator, Mapping
from dataclasses import replace
from time import perf_counter
from typing import Any

from pydantic import ValidationError

from ..errors import (
    ToolArgumentsError,
    ToolCallError,
    UnknownCategoryError,
    UnknownToolError,
    short,
    tool_name,
)
from ..results import control
from ..results.control import Suspension, SuspensionError
from ..results.result import (
    Output,
    ToolFailure,
    ToolInfo,
    ToolResult,
    failure,
    finish,
    hidden_values,
    package_of,
    raised_as,
    rate_limited,
    timed_out,
    tool_error_kind,
)
from ..secrets import redact
from ..validation import deprecation, payload, repair
from ..validation.repair import Repair
from ..validation.suggest import nearest
from ..validation.validate import as_sent, closest_example, validate
from . import execution, policies, streaming
from .hooks import CallEvent, Hooks
from .streaming import OnEvent

__all__ = [
    "Output",
    "Registry",
    "SuspensionError",
    "ToolFailure",
    "ToolInfo",
    "ToolResult",
    "tool_error_kind",
]

Approver = Callable[[Suspension], Any]  # -> True, False, a reason (str: rejected), or awaitable
Injector = Callable[[str], Mapping[str, Any]]  # tool name -> injected values for this call
_MISSING: Any = object()


SECRET = "TOOLGEN_SECRET"  # the environment's key for suspended calls (see `secret` below)


class Registry(Mapping[str, Any]):
    """Implementations by canonical tool name; lookups also accept provider-safe names.

    Settings, kept by every registry derived from this one (`+`, `add`, `without`, ...):
    - `timeout_s`: the deadline of a call to a tool whose spec declares none (a tool's own
      `timeout_s` wins); None, no deadline. See execution.py for how a deadline is kept.
    - `clock`: time and waits for rate limits, caches and retry backoff (tests pass a fake).
    - `max_concurrency`: at most this many tools running at once: among the threads that use
      `call`, and among the tasks of each event loop that use `acall`.
    - `approve`: decides the calls of tools flagged `requires_approval` as they come (it gets
      the Suspension; returns True, False or a reason to reject; may be async under `acall`).
      Without it, such a call's result is `suspended`, for `resume` once the user decided.
    - `secret`: the key that signs suspended calls (bytes or text), so that another process
      with the same key can resume them; default: $TOOLGEN_SECRET when set (what the worker
      processes of one server share), else a random key, good in this process only.
    - `inject`: supplies injected values per call (`inject(tool_name)` -> a mapping); the
      values a call passes in `injected=` win over it.
    - `hooks`: objects told of each call (hooks.py); `tracing.OpenTelemetryHook` makes spans.
    - `examples_in_errors`: a refused call's message (`invalid_arguments`) ends with the spec's
      example of a valid call closest to what was sent, as one line of JSON (`A valid call
      looks like: {...}`; validation.closest_example: never one holding an `x-secret`
      value). False leaves the message as validation wrote it. Tools without examples are
      unaffected either way.

    Argument text a tool's spec lets be repaired (`x-repair`: a Markdown fence, trailing
    prose, Python literals, single quotes, a truncated end; repair.py) is repaired only once
    it failed to parse; the call then runs with the JSON value the text holds, and its result
    lists the repairs (`ToolResult.repairs`, and one line of `warnings`). Text that cannot be
    repaired is refused with the message it would have had without `x-repair`. Glued calls
    (`get_weatherget_time`, two JSON values: `split`) are found by `split_call` and run by
    `call_split`/`acall_split` (what `adapters.respond` does for a name no tool has).
    """

    def __init__(
        self,
        implementations: Iterable[Any] = (),
        *,
        timeout_s: float | None = None,
        clock: Any = None,
        max_concurrency: int | None = None,
        approve: Approver | None = None,
        secret: bytes | str | None = None,
        inject: Injector | None = None,
        hooks: Iterable[Any] = (),
        examples_in_errors: bool = True,
    ) -> None:
        if timeout_s is not None and not timeout_s > 0:
            raise ValueError(f"timeout_s must be more than 0, not {timeout_s!r}")
        if max_concurrency is not None and not (
            isinstance(max_concurrency, int) and max_concurrency >= 1
        ):
            raise ValueError(f"max_concurrency must be 1 or more, not {max_concurrency!r}")
        self.timeout_s = timeout_s
        self.clock = execution.Clock() if clock is None else clock
        self.approve = approve
        self.inject = inject
        self.examples_in_errors = examples_in_errors
        if secret is None:
            secret = os.environ.get(SECRET) or os.urandom(32)
        self._key = secret.encode() if isinstance(secret, str) else bytes(secret)
        self._hooks = Hooks(hooks) if hooks else None
        # Rate limits, caches and concurrency slots: shared with derived registries.
        self._policies = policies.Policies(max_concurrency)
        self._quiet = self._hooks is None and max_concurrency is None
        self._set_tools(implementations)

    def _set_tools(self, implementations: Iterable[Any]) -> None:
        tools: dict[str, Any] = {}
        for impl in implementations:
            if getattr(impl, "toolgen_search_pair", False):
                continue  # the search pair: made anew below, over the tools this registry holds
            info = _info(impl)
            if info.name in tools:
                raise ValueError(f"tool {info.name!r} is registered twice")
            tools[info.name] = impl
        self._pair: frozenset[str] = frozenset()  # the search pair's names, when it is here
        self._forwards: frozenset[str] = frozenset()  # call_tool's, when it is here
        if any(getattr(_info(impl), "defer", False) for impl in tools.values()):
            tools.update(self._search_pair(tools))
        self._tools = dict(sorted(tools.items()))
        self._infos = {name: _info(impl) for name, impl in self._tools.items()}
        infos = list(self._infos.values())
        self._aliases = {i.provider_name: i.name for i in infos if i.provider_name}
        # Each tool's info when its arguments are one `validate` call (this runtime's, declaring
        # no renamed or deprecated parameters, whose warnings a call's result carries), else None.
        self._direct = {
            name: i if type(i) is ToolInfo and not _warns(i) else None
            for name, i in self._infos.items()
        }
        # The tools whose calls need none of the policies: run directly when `_quiet`.
        self._plain = frozenset(i.name for i in infos if not _needs_policy(i))

    def _search_pair(self, tools: dict[str, Any]) -> dict[str, Any]:
        """`search_tools` and `call_tool` (search.py), which a model not shown the deferred tools
        finds and calls them with; a call of `call_tool` is prepared as the call it names."""
        from ..search import index as search  # only registries with deferred tools need it

        if taken := sorted(set(search.PAIR) & set(tools)):
            raise ValueError(f"tool {taken[0]!r} takes the name of the tool-search pair")
        made = search.pair(_info(impl) for impl in tools.values())
        self._pair, self._forwards = frozenset(search.PAIR), frozenset({search.CALL_TOOL["name"]})
        return {impl.info.name: impl for impl in made}

    def forwarded(self, name: str, arguments: Any) -> tuple[str, Any]:
        """The call a call of `name` is run as: for a valid call of `call_tool` (the search
        pair's), the tool it names and that tool's arguments; else the call as it is. For hosts
        that need the name of the tool that runs (its injected values, a suspended call)."""
        if type(name) is str and name in self._forwards:
            target = self._tools[name].forward(arguments)
            if target is not None:
                return target  # type: ignore[no-any-return]
        return name, arguments

    # Mapping protocol: registry[name] -> implementation
    def __getitem__(self, name: str) -> Any:
        return self._tools[self.resolve(name)]

    def __iter__(self) -> Iterator[str]:
        return iter(self._tools)

    def __len__(self) -> int:
        return len(self._tools)

    def __contains__(self, name: object) -> bool:
        return isinstance(name, str) and (name in self._tools or name in self._aliases)

    def get(self, name: str, default: Any = None) -> Any:
        """The implementation of a tool (a canonical or provider-safe name), else `default`."""
        try:
            return self[name]
        except UnknownToolError:
            return default

    def info(self, name: str) -> ToolInfo:
        return _info(self[name])

    def resolve(self, name: str) -> str:
        """The canonical name for a canonical or provider-safe name, or UnknownToolError.

        TypeError when `name` is not a string: the host's mistake, not the model's."""
        if type(name) is str and name in self._tools:
            return name
        tool_name(name)
        if name in self._aliases:
            return self._aliases[name]
        raise UnknownToolError(
            name, nearest(name, [*self._tools, *self._aliases]), len(self._tools)
        )

    def merge(self, other: Mapping[str, Any]) -> Registry:
        """The tools of both; `other` may be the registry of another generated package."""
        return self._with([*self._tools.values(), *other.values()])

    def _with(self, implementations: Iterable[Any]) -> Registry:
        """A registry of other tools with this one's settings, policies and hooks."""
        derived = copy.copy(self)
        derived._set_tools(implementations)
        return derived

    def __add__(self, other: object) -> Registry:
        if not isinstance(other, Mapping):
            return NotImplemented
        return self.merge(other)

    def add(self, *implementations: Any, replace: bool = False) -> Registry:
        """These tools too. A tool already here is a ValueError, unless `replace`: then the new
        implementation takes its place."""
        added = {_info(i).name: i for i in implementations}
        if not replace and (twice := sorted(set(added) & set(self._tools))):
            raise ValueError(
                f"already registered: {', '.join(twice)} (add(..., replace=True) replaces)"
            )
        return self._with([*(i for n, i in self._tools.items() if n not in added), *added.values()])

    def without(self, *names: str) -> Registry:
        """These tools left out (UnknownToolError for a name no tool has)."""
        drop = {self.resolve(n) for n in names}
        return self._with(i for n, i in self._tools.items() if n not in drop)

    remove = without

    def copy(self) -> Registry:
        return self._with(self._tools.values())

    def categories(self) -> frozenset[str]:
        return frozenset(c for i in self._tools.values() if (c := _info(i).category))

    def only_categories(self, *enabled: str) -> Registry:
        """The tools of these categories (ValueError, with the nearest, for one no tool has)."""
        self._known_categories(enabled)
        return self._with(i for i in self._tools.values() if _info(i).category in enabled)

    def without_categories(self, *disabled: str) -> Registry:
        """The tools of every other category (and those of none)."""
        self._known_categories(disabled)
        return self._with(i for i in self._tools.values() if _info(i).category not in disabled)

    def _known_categories(self, names: Iterable[str]) -> None:
        known = sorted(self.categories())
        for name in names:
            if name not in known:
                raise UnknownCategoryError(name, known, nearest(name, known))

    def definitions(self, provider: str = "openai", **options: Any) -> list[dict[str, Any]]:
        """The provider's definitions of exactly this registry's tools, in its order: each from
        its own generated package's precomputed `tool_definitions(provider, **options)`. A tool
        that provider variant refuses has none (`toolgen lint` says why). With deferred tools,
        what tool search needs comes too: a namespace holding a tool (with this registry's
        tools of it), then the provider's search tool or the `search_tools`/`call_tool` pair."""
        import importlib

        own = [i for n, i in self._infos.items() if n not in self._pair]
        by_package: dict[str, list[Any]] = {}
        for info in own:
            package = package_of(info)
            if package not in by_package:
                by_package[package] = importlib.import_module(package).tool_definitions(
                    provider, **options
                )
        wanted = {n for i in own for n in (i.name, i.provider_name)}
        out: list[dict[str, Any]] = []
        placed: set[str] = set()
        for info in own:
            names = {info.name, info.provider_name}
            for definition in by_package[package_of(info)]:
                if definition.get("type") != "namespace":
                    if definition_name(definition) in names:
                        out.append(definition)
                elif definition["name"] not in placed:
                    inner = [d for d in definition["tools"] if d.get("name") in wanted]
                    if any(d.get("name") in names for d in inner):
                        placed.add(definition["name"])
                        out.append({**definition, "tools": inner})
        if self._pair:  # the search tools, once (each package with deferred tools has them)
            seen: set[tuple[Any, ...]] = set()
            for definitions in by_package.values():
                for definition in definitions:
                    key = (definition.get("type"), definition_name(definition))
                    if _search_entry(definition, self._pair) and key not in seen:
                        seen.add(key)
                        out.append(definition)
        return out

    # Dispatch
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
        if on_event is not None:
            with streaming.listening(on_event):
                return self.call(name, arguments, injected=injected)
        started = perf_counter()
        prepared = self._prepare(name, arguments, injected)
        if type(prepared) is tuple and self._quiet and prepared[1].name in self._plain:
            impl, info, args, extra, _ = prepared
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
        event loop is never blocked. `on_event`: as for `call`."""
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
        SuspensionError for a record this registry's secret did not sign as it is."""
        started = perf_counter()
        prepared, answered = self._resumed(suspended, approved, reason, answer, injected)
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
        prepared, answered = self._resumed(suspended, approved, reason, answer, injected)
        token = control.resuming(answered)
        try:
            return await self._aobserved(prepared, started, approved=True)
        finally:
            control.done_resuming(token)

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

    def _resumed(
        self,
        suspended: Suspension | dict[str, Any],
        approved: bool | None,
        reason: str | None,
        answer: Any,
        injected: Mapping[str, Any] | None,
    ) -> tuple[Any, control.Resumed | None]:
        """(what to run, without asking for approval again: prepared as `_prepare` does, or a
        result; the answer `resumed()` gives it, or None)."""
        record = Suspension.verified(suspended, self._key)
        if record.reason == control.APPROVAL:
            if not isinstance(approved, bool) or answer is not _MISSING:
                raise TypeError("resume an approval with approved=True or approved=False")
        elif answer is _MISSING or approved is not None:
            raise TypeError("resume a question with the user's answer=...")
        prepared = self._prepare(record.tool, record.arguments, injected)
        if approved is False and not isinstance(prepared, ToolResult):
            message = control.rejected_message(record.tool, reason)
            return ToolResult(record.tool, failure=ToolFailure("rejected", message)), None
        if approved is True:
            return prepared, None
        return prepared, control.Resumed(answer, record.state)

    def _observed(self, prepared: Any, started: float, approved: bool = False) -> ToolResult:
        """One call under its policies, told to the hooks."""
        if isinstance(prepared, ToolResult):
            return self._told(None, prepared)
        event = self._hooks.start(prepared[1].name, prepared[2]) if self._hooks else None
        try:
            result = self._drive(prepared, started, approved=approved)
        except BaseException:  # interrupted: the hooks hear of it, then it goes on
            self._told(event, _cancelled(prepared[1]))
            raise
        return self._told(event, _noted(prepared[1], result, prepared[4]))

    async def _aobserved(self, prepared: Any, started: float, approved: bool = False) -> ToolResult:
        if isinstance(prepared, ToolResult):
            return self._told(None, prepared)
        event = self._hooks.start(prepared[1].name, prepared[2]) if self._hooks else None
        try:
            result = await self._adrive(prepared, started, approved=approved)
        except BaseException:  # cancelled (a turn given up): the hooks hear of it, then it goes on
            self._told(event, _cancelled(prepared[1]))
            raise
        return self._told(event, _noted(prepared[1], result, prepared[4]))

    def _told(self, event: CallEvent | None, result: ToolResult) -> ToolResult:
        """`result`, once the hooks have heard of it (`event`: its call's start, if any)."""
        if self._hooks is not None:
            self._hooks.finish(event, result)
        return result

    def _drive(
        self, prepared: Any, started: float, first: ToolResult | None = None, approved: bool = False
    ) -> ToolResult:
        """The steps of `_policed`, carried out in this thread."""
        impl, info, args, extra, _ = prepared
        steps = self._policed(info, args, extra, first, approved, started)
        try:
            step = next(steps)
            while True:
                if step is _RUN:
                    with self._policies.thread_slot():
                        step = steps.send(self._run(impl, info, args, extra, started))
                elif isinstance(step, Suspension):
                    assert self.approve is not None
                    decision = self.approve(step)
                    if inspect.isawaitable(decision):
                        decision = execution.awaited(decision)
                    step = steps.send(decision)
                else:
                    self.clock.sleep(step)
                    step = next(steps)
        except StopIteration as done:
            result: ToolResult = done.value
            return result

    async def _adrive(self, prepared: Any, started: float, approved: bool = False) -> ToolResult:
        """The steps of `_policed`, carried out in this task."""
        impl, info, args, extra, _ = prepared
        steps = self._policed(info, args, extra, None, approved, started)
        try:
            step = next(steps)
            while True:
                if step is _RUN:
                    async with self._policies.task_slot():
                        step = steps.send(await self._arun(impl, info, args, extra, started))
                elif isinstance(step, Suspension):
                    assert self.approve is not None
                    decision = self.approve(step)
                    if inspect.isawaitable(decision):
                        decision = await decision
                    step = steps.send(decision)
                else:
                    await self.clock.asleep(step)
                    step = next(steps)
        except StopIteration as done:
            result: ToolResult = done.value
            return result

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
        steps that `call` and `acall` carry out each in its own way: `_RUN` (run the tool once
        and send back its result), a Suspension (ask `approve`, send back its decision) or a
        number of seconds to wait. `first`: the result of a run already made (a tool without
        policies whose failure may be retried)."""
        if first is None and not approved and "requires_approval" in info.flags:
            request = self._suspension(info, args, control.APPROVAL, None, None)
            if self.approve is None:
                return _waiting(request)
            decision = yield request
            if decision is not True:
                reason = decision if isinstance(decision, str) and decision else None
                message = control.rejected_message(info.name, reason)
                return ToolResult(info.name, failure=ToolFailure("rejected", message))
        cache, key, hit = (None, "", None) if first is not None else self._cached(info, args, extra)
        if hit is not None:
            return replace(hit, duration_s=perf_counter() - started)
        limit = None if first is not None else self._limit(info)
        while limit is not None and (delay := limit.reserve(self.clock.monotonic())) > 0:
            if not limit.wait:
                return rate_limited(info, limit.calls, limit.per_s, delay)
            yield delay
        result = first if first is not None else (yield _RUN)
        retry = getattr(info, "retry", _ONCE)
        tries = 1
        while tries < retry[0] and _retried(result):
            yield execution.backoff(retry, tries)
            result, tries = (yield _RUN), tries + 1
        if tries > 1:
            result = replace(result, attempts=tries)
        if cache is not None and result.ok:
            cache.put(key, result, self.clock.monotonic())
        return result

    def _suspension(
        self, info: ToolInfo, args: Any, reason: str, question: str | None, state: Any
    ) -> Suspension:
        arguments = as_sent(args)
        prompt = question if question is not None else control.approval_prompt(info.name, arguments)
        return Suspension(info.name, arguments, reason, prompt, state).signed(self._key)

    def _asked(
        self, info: ToolInfo, args: Any, extra: tuple[Any, ...], asked: control.Suspend
    ) -> ToolResult:
        """The result of a run that raised Suspend: its question, without secret values."""
        question = redact(str(asked.question), hidden_values(args, extra))
        return _waiting(self._suspension(info, args, control.QUESTION, question, asked.state))

    def _cached(
        self, info: ToolInfo, args: Any, extra: tuple[Any, ...]
    ) -> tuple[policies.Cache | None, str, ToolResult | None]:
        """(the tool's cache, this call's key, a result kept for it), or Nones."""
        declared = getattr(info, "cache", None)
        if declared is None:
            return None, "", None
        cache = self._policies.cache(info.name, declared)
        key = policies.cache_key(as_sent(args), [as_sent(e) for e in extra])
        hit: ToolResult | None = cache.get(key, self.clock.monotonic())
        return cache, key, hit

    def _limit(self, info: ToolInfo) -> policies.RateLimit | None:
        declared = getattr(info, "rate_limit", None)
        return None if declared is None else self._policies.limit(info.name, declared)

    def _run(
        self, impl: Any, info: ToolInfo, args: Any, extra: tuple[Any, ...], started: float
    ) -> ToolResult:
        timeout = info.timeout_s if info.timeout_s is not None else self.timeout_s
        try:
            if "streaming" in info.flags:  # drained under the deadline, events on the way
                run = (impl.run, (args, *extra), streaming.LISTENER.get())
                if timeout is None:
                    outcome = streaming.running(*run)
                    if inspect.isawaitable(outcome):
                        outcome = execution.awaited(outcome)
                else:
                    outcome = execution.within(streaming.running, run, timeout)
            elif timeout is None:
                outcome = impl.run(args, *extra) if extra else impl.run(args)
                # What a sync run returns (a dict, the Result model) is told apart at once.
                kind = type(outcome)
                if kind is not dict and kind is not info.result and inspect.isawaitable(outcome):
                    outcome = execution.awaited(outcome)
            else:
                outcome = execution.within(impl.run, (args, *extra), timeout)
        except execution.Timeout as exc:
            return timed_out(info, exc.seconds, exc, perf_counter() - started)
        except control.Suspend as asked:
            return self._asked(info, args, extra, asked)
        except Exception as exc:  # noqa: BLE001 - failures become results
            return failure(info, exc, args, extra, perf_counter() - started)
        return finish(info, outcome, perf_counter() - started, args, extra)

    async def _arun(
        self, impl: Any, info: ToolInfo, args: Any, extra: tuple[Any, ...], started: float
    ) -> ToolResult:
        timeout = info.timeout_s if info.timeout_s is not None else self.timeout_s
        try:
            if "streaming" in info.flags:  # drained under the deadline, events on the way
                run = (impl.run, (args, *extra), streaming.LISTENER.get())
                outcome = await execution.run_async(streaming.running, run, timeout)
            else:
                outcome = await execution.run_async(impl.run, (args, *extra), timeout)
        except execution.Timeout as exc:
            return timed_out(info, exc.seconds, exc, perf_counter() - started)
        except control.Suspend as asked:
            return self._asked(info, args, extra, asked)
        except Exception as exc:  # noqa: BLE001
            return failure(info, exc, args, extra, perf_counter() - started)
        return finish(info, outcome, perf_counter() - started, args, extra)

    def _prepare(self, name: str, arguments: Any, injected: Mapping[str, Any] | None) -> Any:
        # The host's mistakes raise TypeError (a non-string name: in resolve); no model can fix them.
        if injected is not None and not isinstance(injected, Mapping):
            raise TypeError(f"injected values are a mapping, not {type(injected).__name__}")
        if type(name) is str and name in self._tools:
            canonical = name  # most calls: a canonical name, no lookup beyond this
        else:
            try:
                canonical = self.resolve(name)
            except UnknownToolError as exc:
                return ToolResult(
                    short(name), failure=ToolFailure("unknown_tool", str(exc)), exception=exc
                )
        if canonical in self._forwards:  # call_tool: the call it names, prepared in its place
            target, inner = self.forwarded(canonical, arguments)
            if target != canonical:
                return self._prepare(target, inner, injected)
        impl = self._tools[canonical]
        info = self._direct[canonical]
        notes: tuple[str, ...] = ()
        try:
            if info is not None:  # most tools: one call less on every call
                args = validate(info.arguments, canonical, arguments, info.secrets)
            else:  # warnings to collect, or another generated package's tool (its own runtime)
                info = self._infos[canonical]
                args, notes = _validated(info, arguments)
        except Exception as exc:  # noqa: BLE001 - the ToolArgumentsError of the tool's own runtime
            if not raised_as(exc, ToolArgumentsError):
                raise
            info = self._infos[canonical]
            if getattr(info, "repair", None) and _not_json(exc, arguments):
                repaired = self._repaired(canonical, info, arguments, injected)
                if repaired is not None:
                    return repaired
            return self._refused(canonical, info, arguments, exc)
        extra: tuple[Any, ...] = ()
        if info.injected is not None:
            values = dict(self.inject(canonical)) if self.inject is not None else {}
            values.update(injected or {})
            try:
                extra = (info.injected.model_validate(values),)
            except ValidationError as exc:  # the host's mistake: never echo injected values
                missing = sorted({str(e["loc"][0]) for e in exc.errors() if e["loc"]})
                message = f"the host did not supply valid injected values for: {', '.join(missing)}"
                return ToolResult(canonical, failure=ToolFailure("internal", message))
        return impl, info, args, extra, notes

    def _repaired(
        self, name: str, info: ToolInfo, text: str | bytes | bytearray, injected: Any
    ) -> Any:
        """The call prepared with its text repaired as the spec allows (repair.py) and its
        repairs noted; None when the text cannot be repaired or its value is not valid."""
        found = repair.repair(text, info.repair)
        # Arguments are an object: any other value (`null` read as no arguments, a string read
        # as text again) would be read as something the text does not say.
        if found is None or not found[1] or type(found[0]) is not dict:
            return None
        value, made = found
        prepared = self._prepare(name, value, injected)
        if isinstance(prepared, ToolResult) and prepared.failure is not None:
            if prepared.failure.kind == "invalid_arguments":
                return None
        return _with_repairs(name, prepared, made)

    def _refused(self, name: str, info: ToolInfo, arguments: Any, exc: BaseException) -> ToolResult:
        """The failure of a call whose arguments were refused: the error's message, ending with
        the closest example of a valid call (`examples_in_errors`) when the spec has one."""
        examples = getattr(info, "examples", ()) if self.examples_in_errors else ()
        with_example = getattr(exc, "with_example", None)
        if examples and with_example is not None:
            try:
                secrets: frozenset[str] = getattr(info, "secrets", frozenset())
                line = closest_example(info.arguments, examples, arguments, secrets)
            except Exception:  # noqa: BLE001 - a bug in explaining must not become the host's crash
                line = None
            if line is not None:
                exc = with_example(line)
        return ToolResult(name, failure=ToolFailure("invalid_arguments", str(exc)), exception=exc)

    # Glued calls: `get_weatherget_time` with `{"city": "Paris"}{"tz": "UTC"}`.
    def split_call(self, name: str, arguments: Any) -> list[tuple[str, str]] | None:
        """A call glued from several, as its parts: (canonical tool name, that call's JSON
        text), in order. Only for a name no tool has that is one exact concatenation of tool
        names (canonical or provider-safe; any other way to cut it is ambiguous: None), with
        argument text that is exactly as many JSON values back to back, and only when every
        part's tool allows it (`x-repair` with `split`); else None. For hosts that dispatch
        calls themselves; `call_split` runs them."""
        if type(name) is not str or name in self:
            return None
        if not isinstance(arguments, (str, bytes, bytearray)):
            return None
        if payload.check(arguments, payload.LIMITS) is not None:
            return None
        parts = repair.split(name, arguments, [*self._tools, *self._aliases])
        if parts is None:
            return None
        found = [(self.resolve(part), text) for part, text in parts]
        if any("split" not in getattr(self._infos[p], "repair", ()) for p, _ in found):
            return None
        return found

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

    def _parts(
        self, name: str, arguments: Any, injected: Mapping[str, Any] | None
    ) -> Iterator[tuple[Any, float]] | None:
        """Each part of a glued call prepared (when its turn comes), with the time it started."""
        parts = self.split_call(name, arguments)
        if parts is None:
            return None
        names = [part for part, _ in parts]

        def prepared() -> Iterator[tuple[Any, float]]:
            for i, (part, text) in enumerate(parts):
                started = perf_counter()
                made = (Repair("split", repair.split_message(name, names, i)),)
                yield _with_repairs(part, self._prepare(part, text, injected), made), started

        return prepared()


class _Repaired(tuple[Any, ...]):
    """A call prepared (as `_prepare` returns it) with repaired arguments; its notes hold the
    repairs. Not a plain tuple: `call` never takes its fast path (which adds nothing to a
    result), so `_noted` adds them to the result."""

    __slots__ = ()


def _not_json(exc: BaseException, arguments: Any) -> bool:
    """The arguments were text refused as not JSON (one `json` issue), not for their values."""
    issues: list[Any] = getattr(exc, "issues", [])
    return (
        isinstance(arguments, (str, bytes, bytearray))
        and len(issues) == 1
        and getattr(issues[0], "code", None) == "json"
    )


def _with_repairs(tool: str, prepared: Any, made: tuple[Repair, ...]) -> Any:
    """A prepared call (or the result it already has) with these repairs told: logged, and
    noted for its result (`repairs`, and one line of `warnings`)."""
    repair.tell(tool, made)
    line = repair.warning(tool, made)
    if isinstance(prepared, ToolResult):
        return replace(
            prepared, warnings=(*prepared.warnings, line), repairs=(*prepared.repairs, *made)
        )
    impl, info, args, extra, notes = prepared
    return _Repaired((impl, info, args, extra, (*notes, line, *made)))


# What the registry reads of an implementation's `info`. Checked by name, not by class: the
# ToolInfo of another generated package (its own copy of this runtime) is just as good.
NEEDED = ("name", "provider_name", "category", "errors", "injected", "result", "validate_arguments")


def _info(impl: Any) -> ToolInfo:
    """The tool an implementation implements: its `info`, a ToolInfo of any generated package."""
    info = getattr(impl, "info", None)
    if isinstance(info, ToolInfo):
        return info
    if (
        info is None
        or not all(hasattr(info, a) for a in NEEDED)
        or not callable(getattr(impl, "run", None))
    ):
        raise TypeError(
            f"{type(impl).__name__} is not an implementation of a generated tool interface"
        )
    found: ToolInfo = info  # another package's ToolInfo: the same attributes
    return found


def definition_name(definition: Any) -> str | None:
    """The tool name of one provider definition (OpenAI Chat nests it under `function`,
    Bedrock under `toolSpec`; the others have it at the top); None where it has none."""
    if not isinstance(definition, Mapping):
        return None
    for holder in ("function", "toolSpec"):
        if isinstance(definition.get(holder), Mapping):
            definition = definition[holder]
            break
    name = definition.get("name")
    return name if isinstance(name, str) else None


def _search_entry(definition: Mapping[str, Any], pair: frozenset[str]) -> bool:
    """A definition that is there for tool search, not a tool of the spec: a provider's search
    tool (OpenAI's `tool_search`, Anthropic's `tool_search_tool_*`), or one of the pair."""
    kind = str(definition.get("type", ""))
    return (
        kind == "tool_search"
        or kind.startswith("tool_search_tool")
        or definition_name(definition) in pair
    )


_ONCE = (1, 0.0, None)
_RUN = object()  # a step of Registry._policed: run the tool once and send back its result


def _retried(result: ToolResult) -> bool:
    return result.failure is not None and result.failure.retryable


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


def _needs_policy(info: ToolInfo) -> bool:
    """Whether a call of this tool needs more than a run: a declared policy, or a warning."""
    return bool(
        getattr(info, "rate_limit", None) is not None
        or getattr(info, "cache", None) is not None
        or "requires_approval" in info.flags
        or "streaming" in info.flags
        or info.stability == "deprecated"
        or _warns(info)
    )


def _warns(info: ToolInfo) -> bool:
    """Whether a call's arguments may carry warnings: renamed or deprecated parameters."""
    return bool(getattr(info, "renames", ()) or getattr(info, "deprecated_parameters", ()))


def _validated(info: ToolInfo, arguments: Any) -> tuple[Any, tuple[str, ...]]:
    """The arguments of a tool that is not one `validate` call, and the warnings they carry."""
    if not hasattr(info, "renames"):  # a runtime older than renames: no warnings to collect
        return info.validate_arguments(arguments), ()
    notes: list[str] = []
    args = info.validate_arguments(arguments, on_warning=notes.append)
    return args, tuple(notes)


def _noted(info: ToolInfo, result: ToolResult, notes: tuple[Any, ...] = ()) -> ToolResult:
    """The result, with the warnings for the host: the tool is deprecated, its call's arguments
    used an old name or a deprecated parameter, or were repaired (`notes`: the warnings, and
    the Repair records of a repaired call)."""
    if info.stability != "deprecated" and not notes:
        return result
    warnings = tuple(n for n in notes if isinstance(n, str))
    if info.stability == "deprecated":
        warnings = (deprecation.tool_warning(info), *warnings)
    made = tuple(n for n in notes if isinstance(n, Repair))
    if made:
        return replace(
            result, warnings=(*result.warnings, *warnings), repairs=(*result.repairs, *made)
        )
    return replace(result, warnings=(*result.warnings, *warnings))


def _waiting(suspension: Suspension) -> ToolResult:
    message = control.waiting_message(suspension)
    failed = ToolFailure("suspended", message)
    return ToolResult(suspension.tool, failure=failed, suspended=suspension)


def _cancelled(info: ToolInfo) -> ToolResult:
    """What hooks are told of a call stopped from outside (a cancelled task, an interrupt)."""
    return ToolResult(info.name, failure=ToolFailure("cancelled", "the call was cancelled"))
