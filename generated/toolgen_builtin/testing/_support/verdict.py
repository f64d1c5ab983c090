# Part of toolgen's runtime, copied verbatim into generated packages (edit toolgen, not a copy).
"""The judge of one tool's calls: runs a call as `Registry.call` does (within its deadline,
its stream drained, its Suspend caught) and judges the raw outcome against the contract: a
result `returns` accepts, or a declared error kind. A broken promise is a ContractViolation.
"""

from __future__ import annotations

import contextvars
import inspect
import json
import threading
import time
from collections.abc import Callable, Mapping, Sequence
from typing import Any

from hypothesis import strategies as st
from hypothesis.strategies import SearchStrategy
from pydantic import ValidationError

from ._link import (
    Node,
    Registry,
    StreamError,
    Suspend,
    _finish,
    raised_as,
    redact,
    running,
    tool_error_kind,
)
from .outcomes import (
    NotJson,
    Outcome,
    awaited,
    closed,
    completed,
    event_problem,
    mask,
    output_problems,
    plain,
    raised,
    schema_errors,
    secrets_in,
    short,
)
from .terms import (
    ContractViolation,
    Override,
    RegistrySource,
    Seed,
    ToolContract,
    from_state,
    holds,
    registry_of,
)

# How long past its deadline a call is waited for before it counts as hung (its daemon thread
# is then left to finish alone): long enough to say how long a slow call took.
TIMEOUT_MARGIN_S = 1.0
SUSPENDED = "(suspended: asks the user)"  # the outcome of a run that raised Suspend


class Judge:
    """Runs calls of one tool like Registry.call does, and judges each raw outcome against the contract."""

    def __init__(
        self,
        source: RegistrySource,
        contract: ToolContract,
        injected: Mapping[str, Any] | None,
        check: str,
        *,
        overrides: Mapping[str, Override] | None = None,
        seed: Seed | None = None,
    ) -> None:
        self.source, self.contract, self.check = source, contract, check
        self.info = info = contract.info
        self.tool = info.name
        self.injected = dict(injected or {})
        self.overrides = dict(overrides or {})
        self.seed = seed
        # Overrides drawn from a registry's state: the arguments are drawn once it is made.
        self.stateful = any(from_state(o) for o in self.overrides.values())
        self.registry = registry_of(source)
        holds(self.registry, info)
        if info.injected is not None:
            try:
                info.injected.model_validate(self.injected)
            except ValidationError as exc:  # never echo injected values: they may be secrets
                names = sorted({str(e["loc"][0]) for e in exc.errors() if e["loc"]})
                raise ValueError(
                    f"tool {info.name!r} needs injected values for: {', '.join(names)}; pass "
                    "injected=... (in a ContractTests subclass, override injected(tool))"
                ) from None
        self.schema_errors = schema_errors(contract.returns)
        self.hidden: set[str] = set()  # secret values met, in the forms text may show them
        self.prepare(self.registry)  # the shared registry, or the one the examples run on

    def prepare(self, registry: Registry) -> Registry:
        """`registry`, seeded (once: the kit seeds each registry it makes, when it makes it)."""
        if self.seed is not None:
            self.seed(registry)
        return registry

    def fresh(self) -> Registry:
        """The registry for one example: the same one, or a new one, seeded, when the source is a
        factory."""
        return self.prepare(self.source()) if callable(self.source) else self.registry

    def arguments(self, registry: Registry | None) -> SearchStrategy[dict[str, Any]]:
        """The contract's argument strategy with the overrides; those drawn from a registry's
        state read `registry`, the example's (None: there are none)."""
        resolved: dict[str, SearchStrategy[Any]] = {}
        for name, override in self.overrides.items():
            if not from_state(override):
                assert isinstance(override, SearchStrategy)
                resolved[name] = override
                continue
            assert registry is not None and callable(override)
            made = override(registry)
            if not isinstance(made, SearchStrategy):
                raise TypeError(
                    f"the override of {name!r} for {self.tool!r} is called with the example's "
                    f"registry and must return a hypothesis strategy, not {type(made).__name__}"
                )
            resolved[name] = made
        return self.contract.arguments(**resolved)

    def given(self, **extra: Callable[[SearchStrategy[Any]], SearchStrategy[Any]]) -> Any:
        """The strategies to run a check's body under: the arguments (and `extra`, each made
        from the argument strategy) drawn up front, or, with overrides drawn from a registry's
        state, `st.data()` to draw them from once the example's registry is made."""
        if self.stateful:
            return {"data": st.data()}
        strategy = self.arguments(None)
        return {"arguments": strategy, **{name: make(strategy) for name, make in extra.items()}}

    def draw(
        self,
        drawn: Mapping[str, Any],
        registry: Registry,
        name: str = "arguments",
        make: Callable[[SearchStrategy[Any]], SearchStrategy[Any]] | None = None,
    ) -> Any:
        """One drawn value of a check's body (`drawn`: its keyword arguments, see `given`)."""
        if "data" not in drawn:
            return drawn[name]
        strategy: SearchStrategy[Any] = self.arguments(registry)
        return drawn["data"].draw(strategy if make is None else make(strategy), label=name)

    def run(self, registry: Registry, arguments: Any, before: Sequence[Any] = ()) -> Outcome:
        """Call the tool; its outcome if the contract allows it, else ContractViolation."""
        calls = [*before, arguments]
        impl, info, args, extra, _ = self.prepared(registry, arguments, calls)
        # The deadline the registry keeps: the tool's own, else the registry's default.
        deadline = getattr(info, "timeout_s", None)
        if deadline is None:
            deadline = getattr(registry, "timeout_s", None)
        events: list[Any] = []  # a streaming tool's, in order

        def run(*given: Any) -> Any:
            """`run`, and a streaming tool's stream drained into its result (as the registry)."""
            if "streaming" in getattr(info, "flags", ()):
                return running(impl.run, given, events.append)
            return impl.run(*given)

        if deadline is not None:
            outcome, error = self.timed(run, (args, *extra), deadline, calls)
            if error is not None:
                return self.raised(error, calls)
            self.events(events, calls)
            return Outcome(result=self.result(outcome, calls))
        try:
            outcome = run(args, *extra)
            if inspect.isawaitable(outcome):
                import asyncio

                outcome = asyncio.run(awaited(outcome))
        except Exception as exc:  # noqa: BLE001 - judged: a declared ToolError, or a violation
            return self.raised(exc, calls)
        except Suspend:  # asks the user: the registry answers `suspended`, a valid outcome
            return Outcome(error=SUSPENDED)
        self.events(events, calls)
        return Outcome(result=self.result(outcome, calls))

    def prepared(self, registry: Registry, arguments: Any, calls: list[Any]) -> Any:
        """The call as the registry prepares it (impl, info, args, extra, notes), else a violation."""
        # The registry's own validation.
        prepared = registry._prepare(self.tool, arguments, self.injected)
        if not isinstance(prepared, tuple):
            problem = prepared.failure.kind if prepared.failure else "internal"
            if problem == "invalid_arguments":
                source = (
                    "the example"
                    if self.check == "examples"
                    else "the contract's argument strategy"
                )
                raise self.violation(
                    "refused_arguments",
                    f"the tool's validator refuses arguments from {source}: "
                    "a bug in the spec, the generated strategies or your overrides, not in the "
                    "implementation",
                    str(prepared.exception).splitlines(),
                    calls,
                )
            raise self.violation(
                "setup",
                f"the registry could not prepare the call ({problem})",
                [prepared.failure.message if prepared.failure else ""],
                calls,
            )
        return prepared

    def cut(self, registry: Registry, arguments: Any) -> None:
        """Start a streaming tool's stream, take its first item, and close it, as the registry
        does when the call is cut short: closing must not fail (a generator that yields again
        in its `finally`, or whose cleanup raises, leaves the host's call broken)."""
        impl, _, args, extra, _ = self.prepared(registry, arguments, [arguments])
        try:
            stream = impl.run(args, *extra)
        except Exception:  # noqa: BLE001 - refusing at once is test_results' business
            return
        problem = closed(stream)
        if problem is not None:
            raise self.violation(
                "close_failed",
                "its stream fails when closed after its first item (its call cut short)",
                [problem],
                [arguments],
            )

    def events(self, events: list[Any], calls: list[Any]) -> None:
        """A streaming tool's events, each well formed (ContractViolation `invalid_event`)."""
        for i, event in enumerate(events):
            problem = event_problem(event, getattr(self.info, "content", frozenset()))
            if problem is not None:
                raise self.violation(
                    "invalid_event", f"event {i} of its stream is not well formed", [problem], calls
                )

    def raised(self, exc: BaseException, calls: list[Any]) -> Outcome:
        """The outcome of a call that raised `exc`: a declared error kind, a question for the
        user (Suspend), else a violation."""
        if raised_as(exc, Suspend):
            return Outcome(error=SUSPENDED)
        if raised_as(exc, StreamError):
            raise self.violation("invalid_stream", str(exc), raised(exc), calls)
        kind = tool_error_kind(exc)  # a ToolError of this package's runtime or another's
        if kind is not None and kind in self.info.errors:
            return Outcome(error=kind)
        if kind is not None:
            declared = ", ".join(sorted(self.info.errors)) or "none"
            raise self.violation(
                "undeclared_error",
                f"raised ToolError of undeclared kind {kind!r} (declared: {declared})",
                raised(exc),
                calls,
            ) from self.cause(exc)
        raise self.violation(
            "unexpected_exception",
            f"raised {type(exc).__name__}, not a ToolError of a declared kind",
            raised(exc),
            calls,
        ) from self.cause(exc)

    def timed(
        self, run: Callable[..., Any], args: tuple[Any, ...], deadline: float, calls: list[Any]
    ) -> tuple[Any, BaseException | None]:
        """`run(*args)` in a daemon thread, waited for TIMEOUT_MARGIN_S past `deadline`:
        (its outcome, None) or (None, its exception) if it took no longer than `deadline`, else
        a `timeout` violation (the registry would have answered `timeout` instead)."""
        limit = deadline + TIMEOUT_MARGIN_S
        done: dict[str, Any] = {}
        context = contextvars.copy_context()  # the caller's context variables go along

        def work() -> None:
            start = time.monotonic()
            try:
                done["outcome"] = context.run(completed, run, args, limit)
            except BaseException as exc:  # noqa: BLE001 - handed to the caller below
                done["error"] = exc
            done["elapsed"] = time.monotonic() - start

        thread = threading.Thread(target=work, name=f"contract-{self.tool}", daemon=True)
        thread.start()
        thread.join(limit)
        elapsed = done.get("elapsed")
        if elapsed is None or elapsed > deadline:
            whose = (
                f"the spec declares timeout_s {deadline:g}"
                if getattr(self.info, "timeout_s", None) is not None
                else f"the registry's timeout_s is {deadline:g} (the spec declares none)"
            )
            took = (
                f"gave no answer within {limit:g} s (given up)"
                if elapsed is None or elapsed >= limit
                else f"took {elapsed:.3g} s"
            )
            raise self.violation(
                "timeout",
                f"{took}; {whose}",
                [
                    (
                        "past the deadline the registry answers `timeout`, and the host never "
                        "sees what the call gave"
                    ),
                    "make the call faster, or declare a longer `timeout_s` in the spec",
                ],
                calls,
            )
        error: BaseException | None = done.get("error")
        if error is not None and not isinstance(error, Exception) and not raised_as(error, Suspend):
            raise error  # KeyboardInterrupt, SystemExit: not the contract's business
        return done.get("outcome"), error

    def result(self, outcome: Any, calls: list[Any]) -> Any:
        """The result as the host sends it, once the raw outcome has passed as it is."""
        value = outcome
        if type(outcome).__name__ == "Output":  # the result with guidance and content
            value = outcome.value
            problems = output_problems(outcome, getattr(self.info, "content", frozenset()))
            if problems:
                raise self.violation(
                    "invalid_content",
                    "returned guidance or content its spec does not allow",
                    problems,
                    calls,
                )
        try:
            raw = plain(value, self.info.result, "$")
        except NotJson as exc:
            raise self.violation(
                "invalid_result", "returned something that is not a JSON result", [str(exc)], calls
            ) from None
        found = self.schema_errors(raw)
        if found:
            raise self.violation(
                "invalid_result",
                "returned a result the spec's `returns` schema refuses",
                found,
                calls,
            )
        finished = _finish(self.info, outcome)
        if finished.value is None:
            detail = str(finished.exception).splitlines() if finished.exception else []
            raise self.violation(
                "model_mismatch",
                "returned a result the schema accepts but the generated "
                "result model refuses (a bug in toolgen's models; please report it)",
                detail,
                calls,
            )
        sent = finished.value.model_dump(mode="json", by_alias=True)
        found = self.schema_errors(sent)
        if found:
            raise self.violation(
                "model_mismatch",
                "the generated result model turns a valid result into one "
                "the schema refuses (a bug in toolgen's models; please report it)",
                [
                    f"returned: {short(json.dumps(raw))}",
                    f"sent: {short(json.dumps(sent))}",
                    *found,
                ],
                calls,
            )
        return sent

    def violation(
        self, problem: str, summary: str, details: Sequence[str], calls: Sequence[Any]
    ) -> ContractViolation:
        """The violation, its text free of secrets: x-secret arguments are masked in the
        reproduction lines, and they and every injected value are redacted from the rest."""
        root = Node(self.info.arguments)
        for call in calls:
            secrets_in(call, root, self.hidden, 0)
        secrets_in(list(self.injected.values()), None, self.hidden, 0)
        return ContractViolation(
            self.tool,
            self.check,
            problem,
            self.redact(summary),
            [self.redact(line) for line in details],
            calls,
            injected=self.info.injected is not None,
            seeded=self.seed is not None,
            shown=[mask(call, root, 0) for call in calls],
        )

    def redact(self, text: str) -> str:
        return redact(text, self.hidden)

    def cause(self, exc: BaseException) -> BaseException | None:
        """The implementation's exception, to chain (its traceback helps), with secret values
        redacted from its arguments; None when its text would still show one."""
        if any(isinstance(a, str) and self.redact(a) != a for a in exc.args):
            exc.args = tuple(self.redact(a) if isinstance(a, str) else a for a in exc.args)
        try:
            text = f"{exc}"
        except Exception:  # noqa: BLE001 - a broken __str__: show nothing of it
            return None
        return exc if self.redact(text) == text else None
