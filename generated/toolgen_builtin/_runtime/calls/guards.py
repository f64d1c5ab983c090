# Part of toolgen's runtime, copied verbatim into generated packages (edit toolgen, not a copy).
"""Guards: the host's checks of a call before its tool runs, and of its result after.

A guard is a function of one `GuardCall` (sync or async). An **input guard** sees the
validated arguments and the call's `RunContext` (context.py) and returns None to let the call
run, or `Refuse(message, reason)`: the call fails as `refused` with the message (for the
model), and the tool never runs. An **output guard** sees the ok result too and returns None,
`Withhold(message, reason)` (the call fails as `withheld`: the tool ran, its result is not
shown) or `Redact(note, value=..., content=...)` (the result shown with those parts
replaced, and `note` told to the model in the result's guidance). `reason` is for the host:
it is in the result's `guards` records (hooks, traces) and logged, never sent to the model.

Where a guard applies: a tool's spec names it (`guards: {input: [...], output: [...]}`), and
the registry is given it by name (`Registry(..., guards={"name": check})`); a name a spec
declares that the registry was not given is a `GuardError` when the registry is made, never
at a call. A `Guard(check, stage, category=...)` given by name applies, besides, to every
tool (of that category).

Order, for a call of a guarded tool (dispatch.py, running.py): input guards, approval, the
result cache, the rate limit, the run (and retries), output guards, then the cache keeps the
result. So a refused call asks no one, takes no rate-limit slot and is not cached; a withheld
result is not cached; a cached result is guarded again when it answers a call. The call's
deadline (`timeout_s`) covers its guards and its run together: a slow guard is a `timeout`.
A guard that raises fails closed: the call is `internal` (input) or `withheld` (output).
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Generator, Iterable, Mapping, Sequence
from dataclasses import dataclass, replace
from time import perf_counter
from typing import TYPE_CHECKING, Any

from ..errors import ToolgenError
from ..results.outcome import timed_out
from ..results.result import ToolFailure, ToolInfo, ToolResult
from . import execution
from .context import RunContext

if TYPE_CHECKING:
    from pydantic import BaseModel

LOG = logging.getLogger(__name__)

INPUT, OUTPUT = "input", "output"
STAGES = (INPUT, OUTPUT)
KEEP: Any = object()  # Redact's value when only content (or nothing but the note) changes


class GuardError(ToolgenError, ValueError):
    """A registry cannot be made as asked: a spec names a guard it was not given, or a guard
    given is not one."""


@dataclass(frozen=True)
class GuardCall:
    """What a guard sees: the tool, the stage, the validated arguments, the call's context, and
    at the output stage the ok result (`value` is its value)."""

    tool: str
    stage: str  # "input" or "output"
    arguments: Any  # the tool's Arguments model, validated
    context: RunContext
    result: ToolResult | None = None

    @property
    def value(self) -> Any:
        """The result's value (the tool's Result model); None at the input stage."""
        return None if self.result is None else self.result.value


@dataclass(frozen=True)
class Refuse:
    """An input guard's no: `message` tells the model why and what to do instead; `reason`
    (default: the message) is the host's."""

    message: str
    reason: str | None = None


@dataclass(frozen=True)
class Withhold:
    """An output guard's no: the result is not shown; `message` tells the model why."""

    message: str
    reason: str | None = None


@dataclass(frozen=True)
class Redact:
    """An output guard's partial no: the result shown with `value` (the whole redacted value:
    a dict or the Result model, checked against the tool's result class) and `content` (the
    blocks kept) in place of the tool's, and `note` told to the model."""

    note: str
    value: Any = KEEP
    content: Sequence[Any] | None = None
    reason: str | None = None


@dataclass(frozen=True)
class GuardNote:
    """One guard's part in a call, for the host (`ToolResult.guards`): `action` is "passed",
    "refused", "withheld", "redacted", "timeout" or "failed" (it raised)."""

    guard: str
    stage: str
    action: str
    reason: str | None = None


class Guard:
    """A guard given to a registry by name that also applies beyond the specs that name it:
    at `stage` ("input" or "output") of every tool, or of the tools of `category`."""

    def __init__(
        self, check: Callable[[GuardCall], Any], stage: str, *, category: str | None = None
    ):
        if stage not in STAGES:
            raise GuardError(f"a guard's stage is 'input' or 'output', not {stage!r}")
        if not callable(check):
            raise GuardError(f"a guard is a function of one GuardCall, not {type(check).__name__}")
        self.check, self.stage, self.category = check, stage, category

    def applies(self, info: ToolInfo) -> bool:
        return self.category is None or info.category == self.category


Checks = tuple[tuple[str, Callable[[GuardCall], Any]], ...]  # (name, check), in order


def table(
    infos: Mapping[str, ToolInfo], given: Mapping[str, Any]
) -> dict[str, tuple[Checks, Checks]]:
    """Each guarded tool's input and output guards, in order: those its spec names, then the
    `Guard`s given whose scope takes it. A name a spec declares that is not given: GuardError."""
    for name, guard in given.items():
        if not (isinstance(guard, Guard) or callable(guard)):
            raise GuardError(f"guard {name!r} is {type(guard).__name__}, not a function or Guard")
    out: dict[str, tuple[Checks, Checks]] = {}
    for tool, info in infos.items():
        declared = getattr(info, "guards", ((), ()))
        stages: list[Checks] = []
        for stage, names in zip(STAGES, declared, strict=True):
            checks = [(n, _check(tool, stage, n, given)) for n in names]
            checks += [
                (n, g.check)
                for n, g in given.items()
                if isinstance(g, Guard) and g.stage == stage and g.applies(info) and n not in names
            ]
            stages.append(tuple(checks))
        if stages[0] or stages[1]:
            out[tool] = (stages[0], stages[1])
    return out


def _check(tool: str, stage: str, name: str, given: Mapping[str, Any]) -> Callable[..., Any]:
    guard = given.get(name)
    if guard is None:
        known = f" (given: {', '.join(sorted(given))})" if given else ""
        raise GuardError(
            f"tool {tool!r} declares the {stage} guard {name!r} (its spec's `guards`), which "
            f"this registry was not given{known}: pass build_registry(..., guards="
            f"{{{name!r}: check}})"
        )
    return guard.check if isinstance(guard, Guard) else guard


class Check:
    """One guard run, as a step of `Registry._policed` (like policies.Ask): `run` in this
    thread, `arun` awaited; the guard's answer, or the Timeout or exception it ended with."""

    __slots__ = ("check", "call", "budget")

    def __init__(self, check: Callable[..., Any], call: GuardCall, budget: float | None):
        self.check, self.call, self.budget = check, call, budget

    def run(self) -> Any:
        try:
            if self.budget is None:
                answer = self.check(self.call)
                if _awaitable(answer):
                    answer = execution.awaited(answer)
                return answer
            if self.budget <= 0:
                raise execution.Timeout(0.0)
            return execution.within(self.check, (self.call,), self.budget)
        except (execution.Timeout, Exception) as exc:  # noqa: BLE001 - the guard's own failure
            return _Ended(exc)

    async def arun(self) -> Any:
        try:
            if self.budget is not None and self.budget <= 0:
                raise execution.Timeout(0.0)
            return await execution.run_async(self.check, (self.call,), self.budget)
        except (execution.Timeout, Exception) as exc:  # noqa: BLE001
            return _Ended(exc)


class _Ended:
    __slots__ = ("exc",)

    def __init__(self, exc: BaseException) -> None:
        self.exc = exc


def _awaitable(value: Any) -> bool:
    import inspect

    return inspect.isawaitable(value)


class Budget:
    """The call's deadline, shared by its guards and its run: `timeout` seconds of their time
    (waits between them, for approval or a rate limit, not counted)."""

    __slots__ = ("timeout", "spent")

    def __init__(self, timeout: float | None) -> None:
        self.timeout, self.spent = timeout, 0.0

    def left(self) -> float | None:
        return None if self.timeout is None else self.timeout - self.spent


def inputs(
    info: ToolInfo,
    checks: Checks,
    args: Any,
    context: RunContext,
    budget: Budget,
    notes: list[GuardNote],
) -> Generator[Any, Any, ToolResult | None]:
    """Run the input guards, as steps: None when every one lets the call run, else the result
    the call ends with (refused, a timeout, or internal)."""
    for name, check in checks:
        call = GuardCall(info.name, INPUT, args, context)
        answer = yield from _ran(name, check, call, budget, notes)
        if answer is None:
            continue
        if isinstance(answer, str):
            answer = Refuse(answer)
        if type(answer).__name__ == "Refuse" and isinstance(getattr(answer, "message", None), str):
            return _stopped(info, name, INPUT, "refused", answer, notes)
        return _ended(info, name, INPUT, answer, budget, notes)
    return None


def outputs(
    info: ToolInfo,
    checks: Checks,
    args: Any,
    context: RunContext,
    result: ToolResult,
    budget: Budget,
    notes: list[GuardNote],
) -> Generator[Any, Any, ToolResult]:
    """Run the output guards over an ok result, as steps: the result to answer with (as it
    was, redacted, or withheld)."""
    for name, check in checks:
        call = GuardCall(info.name, OUTPUT, args, context, result)
        answer = yield from _ran(name, check, call, budget, notes)
        if answer is None:
            continue
        if isinstance(answer, str):
            answer = Withhold(answer)
        kind = type(answer).__name__
        if kind in ("Withhold", "Refuse") and isinstance(getattr(answer, "message", None), str):
            return _stopped(info, name, OUTPUT, "withheld", answer, notes)
        if kind == "Redact" and isinstance(getattr(answer, "note", None), str):
            redacted = _redacted(info, result, answer)
            if isinstance(redacted, str):  # the redaction does not fit: fail closed
                return _stopped(info, name, OUTPUT, "withheld", Withhold(WITHHELD, redacted), notes)
            reason = answer.reason or answer.note
            notes.append(GuardNote(name, OUTPUT, "redacted", reason))
            LOG.info("guard %r redacted the result of %r: %s", name, info.name, reason)
            result = redacted
            continue
        return _ended(info, name, OUTPUT, answer, budget, notes)
    return result


def _ran(
    name: str, check: Callable[..., Any], call: GuardCall, budget: Budget, notes: list[GuardNote]
) -> Generator[Any, Any, Any]:
    """One guard run, as a step, its time taken from the budget: its answer, or None when it
    let the call pass (noted)."""
    started = perf_counter()
    answer = yield Check(check, call, budget.left())
    budget.spent += perf_counter() - started
    if answer is None or answer is True:
        notes.append(GuardNote(name, call.stage, "passed"))
        return None
    return answer


WITHHELD = "it could not be checked before it was shown"


def _stopped(
    info: ToolInfo, guard: str, stage: str, action: str, answer: Any, notes: list[GuardNote]
) -> ToolResult:
    """The failure a guard's no makes: `refused` (before the run) or `withheld` (after)."""
    reason = answer.reason or answer.message
    notes.append(GuardNote(guard, stage, action, reason))
    LOG.warning("guard %r %s the call of %r: %s", guard, action, info.name, reason)
    if action == "refused":
        message = f"the call of tool '{info.name}' was refused before it ran: {answer.message}"
    else:
        message = f"tool '{info.name}' ran, but its result was withheld: {answer.message}"
    return ToolResult(info.name, failure=ToolFailure(action, message), guards=tuple(notes))


def _ended(
    info: ToolInfo, guard: str, stage: str, answer: Any, budget: Budget, notes: list[GuardNote]
) -> ToolResult:
    """A guard that ran out of time, raised, or answered what its stage cannot mean."""
    exc = answer.exc if isinstance(answer, _Ended) else None
    if isinstance(exc, execution.Timeout):
        notes.append(GuardNote(guard, stage, "timeout", f"no answer within {budget.timeout:g} s"))
        seconds = budget.timeout if budget.timeout is not None else exc.seconds
        return replace(timed_out(info, seconds, exc, budget.spent), guards=tuple(notes))
    if exc is None:
        exc = GuardError(f"guard {guard!r} answered {type(answer).__name__} at the {stage} stage")
    notes.append(GuardNote(guard, stage, "failed", f"{type(exc).__name__}: {exc}"))
    LOG.error("guard %r failed on a call of %r", guard, info.name, exc_info=exc)
    if stage == INPUT:
        message = f"tool '{info.name}' was not run: a check of its call failed"
        failed = ToolFailure("internal", message)
    else:
        failed = ToolFailure("withheld", f"tool '{info.name}' ran, but its result {WITHHELD}")
    return ToolResult(info.name, failure=failed, exception=exc, guards=tuple(notes))


def _redacted(info: ToolInfo, result: ToolResult, redact: Any) -> ToolResult | str:
    """The result with a Redact's parts in place, its note in the guidance; or why not."""
    value: BaseModel | None = result.value
    if redact.value is not KEEP:
        try:
            value = (
                redact.value
                if isinstance(redact.value, info.result)
                else info.result.model_validate(redact.value)
            )
        except Exception as exc:  # noqa: BLE001 - the host's redaction, checked like a result
            return f"the redacted value does not match the tool's result: {exc}"
    content = result.content if redact.content is None else tuple(redact.content)
    line = f"Part of this result was redacted: {redact.note}"
    metadata = line if result.metadata is None else f"{result.metadata}\n{line}"
    return replace(result, value=value, content=content, metadata=metadata)


def noted(result: ToolResult, notes: Iterable[GuardNote]) -> ToolResult:
    """`result` with the guards' records (those its guards made, in order)."""
    notes = tuple(notes)
    return replace(result, guards=notes) if notes and result.guards != notes else result
