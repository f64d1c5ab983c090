# Part of toolgen's runtime, copied verbatim into generated packages (edit toolgen, not a copy).
"""Contract tests: does an implementation keep the promises of its tool's spec?

For arguments drawn from the spec (hypothesis strategies the generated `testing`
subpackage provides), every call must return a result that the spec's `returns` schema
accepts, or raise `ToolError` with a kind the spec declares, within the deadline the spec
(or the registry) declares. Tools flagged `idempotent` must give the same outcome for the
same arguments whatever ran in between, the spec's examples must run as they say, and the
declared policies must be safe (a cache or a retry only where calling again is). A failing
case is shrunk and reported with the `toolgen call` line that reproduces it.

Stateful tools: a `seed` prepares every registry the checks make (a note to find, a file
to read), and an override may be a function of that registry, drawing an argument from
what exists in it (`lambda registry: st.sampled_from(ids_in(registry))`).

Part of the test support, not of `_runtime`: it needs hypothesis (and jsonschema, imported
when a check starts), which a package's users need only for testing.
"""

from __future__ import annotations

import contextvars
import inspect
import json
import math
import shlex
import threading
import time
import traceback
import unittest
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from types import MappingProxyType
from typing import Any, ClassVar

from hypothesis import Phase, given
from hypothesis import settings as Settings
from hypothesis import strategies as st
from hypothesis.strategies import SearchStrategy
from pydantic import BaseModel, ValidationError

from ._link import (
    REDACTED,
    Node,
    Registry,
    StreamError,
    Suspend,
    ToolInfo,
    _finish,
    block_kind,
    json_equal,
    raised_as,
    redact,
    running,
    tool_error_kind,
)
from .judge import json_schema_validator

__all__ = [
    "ContractTests",
    "ContractViolation",
    "ToolContract",
    "check_contract",
    "check_examples",
    "check_idempotent",
    "check_policies",
    "check_results",
    "check_streams",
    "cli_line",
    "default_settings",
]

RegistrySource = Registry | Callable[[], Registry]  # a callable: a fresh registry for every example
# An argument's strategy, or a function of the example's registry (made and seeded) giving one.
Override = SearchStrategy[Any] | Callable[[Registry], SearchStrategy[Any]]
Seed = Callable[[Registry], object]  # prepares each registry the checks make (its result is unused)
MAX_OTHERS = 3  # calls between the two identical ones of the idempotence check
# How long past its deadline a call is waited for before it counts as hung (its daemon thread
# is then left to finish alone): long enough to say how long a slow call took.
TIMEOUT_MARGIN_S = 1.0
SUSPENDED = "(suspended: asks the user)"  # the outcome of a run that raised Suspend
_SHOWN_CHARS = 400  # a result or a schema error in a message
_SHOWN_ERRORS = 5  # schema errors listed for one result


@dataclass(frozen=True)
class ToolContract:
    """What a tool's spec promises, in testable form (the generated `testing` package builds one per tool)."""

    info: ToolInfo
    arguments: Callable[..., SearchStrategy[dict[str, Any]]]  # keyword overrides by wire name
    returns: Any = None  # the bundled JSON Schema of the result; None: any JSON value
    examples: tuple[
        Mapping[str, Any], ...
    ] = ()  # {"arguments", "result"?, "error"?, "description"?}


class ContractViolation(AssertionError):
    """An implementation broke its tool's contract (or the kit is wrong: `problem` says which).

    `arguments` is the (shrunk) call that went wrong, `calls` every call to make, in order,
    to reproduce it; `others` the calls between the two identical ones of an idempotence check.
    """

    def __init__(
        self,
        tool: str,
        check: str,
        problem: str,
        summary: str,
        details: Sequence[str],
        calls: Sequence[Any],
        *,
        injected: bool = False,
        seeded: bool = False,
        shown: Sequence[Any] | None = None,
    ) -> None:
        self.tool, self.check, self.problem = tool, check, problem
        self.summary, self.details = summary, tuple(details)
        self.calls = tuple(calls)
        self.arguments: Any = self.calls[-1] if self.calls else None
        self.others = self.calls[1:-1] if check == "idempotent" else ()
        lines = [f"{tool}: {summary}", *(f"  {line}" for line in details)]
        if self.calls:
            lines.append(
                "reproduce with:" if len(self.calls) == 1 else "reproduce with, in this order:"
            )
            shown_calls = self.calls if shown is None else shown
            lines += [f"  {cli_line(tool, call)}" for call in shown_calls]
            if shown is not None and list(shown) != list(self.calls):
                lines.append(f"  (x-secret values are shown as {REDACTED!r}: `.calls` holds them)")
            if seeded:
                lines.append(
                    "  (on a registry prepared by the seed: prepare it the same way first)"
                )
            if injected:
                lines.append("  (the tool also takes injected values, which the host supplies)")
        super().__init__("\n".join(lines))


def cli_line(tool: str, arguments: Any) -> str:
    """The shell command that makes this call: `toolgen call edit_file '{"path": "a"}'`."""
    return f"toolgen call {shlex.quote(tool)} {shlex.quote(json.dumps(arguments))}"


@dataclass(frozen=True)
class _Outcome:
    """One call's judged outcome: a JSON result, or a declared error kind."""

    result: Any = None
    error: str | None = None

    def same(self, other: _Outcome) -> bool:
        if self.error is not None or other.error is not None:
            return self.error == other.error
        return json_equal(self.result, other.result)

    def shown(self) -> str:
        if self.error is not None:
            return f"error {self.error!r}"
        return f"result {_short(json.dumps(self.result, sort_keys=True))}"


class _Judge:
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
        self.stateful = any(_from_state(o) for o in self.overrides.values())
        self.registry = _registry(source)
        _holds(self.registry, info)
        if info.injected is not None:
            try:
                info.injected.model_validate(self.injected)
            except ValidationError as exc:  # never echo injected values: they may be secrets
                names = sorted({str(e["loc"][0]) for e in exc.errors() if e["loc"]})
                raise ValueError(
                    f"tool {info.name!r} needs injected values for: {', '.join(names)}; pass "
                    "injected=... (in a ContractTests subclass, override injected(tool))"
                ) from None
        self.schema_errors = _schema_errors(contract.returns)
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
            if not _from_state(override):
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

    def run(self, registry: Registry, arguments: Any, before: Sequence[Any] = ()) -> _Outcome:
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
            return _Outcome(result=self.result(outcome, calls))
        try:
            outcome = run(args, *extra)
            if inspect.isawaitable(outcome):
                import asyncio

                outcome = asyncio.run(_await(outcome))
        except Exception as exc:  # noqa: BLE001 - judged: a declared ToolError, or a violation
            return self.raised(exc, calls)
        except Suspend:  # asks the user: the registry answers `suspended`, a valid outcome
            return _Outcome(error=SUSPENDED)
        self.events(events, calls)
        return _Outcome(result=self.result(outcome, calls))

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
        problem = _closed(stream)
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
            problem = _event_problem(event, getattr(self.info, "content", frozenset()))
            if problem is not None:
                raise self.violation(
                    "invalid_event", f"event {i} of its stream is not well formed", [problem], calls
                )

    def raised(self, exc: BaseException, calls: list[Any]) -> _Outcome:
        """The outcome of a call that raised `exc`: a declared error kind, a question for the
        user (Suspend), else a violation."""
        if raised_as(exc, Suspend):
            return _Outcome(error=SUSPENDED)
        if raised_as(exc, StreamError):
            raise self.violation("invalid_stream", str(exc), _raised(exc), calls)
        kind = tool_error_kind(exc)  # a ToolError of this package's runtime or another's
        if kind is not None and kind in self.info.errors:
            return _Outcome(error=kind)
        if kind is not None:
            declared = ", ".join(sorted(self.info.errors)) or "none"
            raise self.violation(
                "undeclared_error",
                f"raised ToolError of undeclared kind {kind!r} (declared: {declared})",
                _raised(exc),
                calls,
            ) from self.cause(exc)
        raise self.violation(
            "unexpected_exception",
            f"raised {type(exc).__name__}, not a ToolError of a declared kind",
            _raised(exc),
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
                done["outcome"] = context.run(_completed, run, args, limit)
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
            problems = _output_problems(outcome, getattr(self.info, "content", frozenset()))
            if problems:
                raise self.violation(
                    "invalid_content",
                    "returned guidance or content its spec does not allow",
                    problems,
                    calls,
                )
        try:
            raw = _plain(value, self.info.result, "$")
        except _NotJson as exc:
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
                    f"returned: {_short(json.dumps(raw))}",
                    f"sent: {_short(json.dumps(sent))}",
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
            _secrets(call, root, self.hidden, 0)
        _secrets(list(self.injected.values()), None, self.hidden, 0)
        return ContractViolation(
            self.tool,
            self.check,
            problem,
            self.redact(summary),
            [self.redact(line) for line in details],
            calls,
            injected=self.info.injected is not None,
            seeded=self.seed is not None,
            shown=[_mask(call, root, 0) for call in calls],
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


def _secret_node(node: Node | None) -> bool:
    """A position whose whole value is secret: marked, unknown (None: injected values), or a
    union or `Any` holding a secret (its structure cannot be followed)."""
    return node is None or node.secret or (node.kind in ("union", "any") and node.hides)


def _secrets(value: Any, node: Node | None, out: set[str], depth: int) -> None:
    """The secret values in raw arguments, walked along the model's structure, in the forms
    text shows them: as they are, JSON-escaped and repr-escaped (hypothesis prints reprs)."""
    if depth > 100:
        return
    if _secret_node(node) and not isinstance(value, (dict, list)):
        if value is not None and not isinstance(value, bool):
            text = value if isinstance(value, str) else json.dumps(value)
            out.update((text, json.dumps(text)[1:-1], repr(text)[1:-1]))
        return
    whole = _secret_node(node)
    if isinstance(value, dict):
        for key, item in value.items():
            child = None if whole or node is None else node.child(key)
            if whole or child is not None:
                _secrets(item, child, out, depth + 1)
    elif isinstance(value, list):
        for index, item in enumerate(value):
            child = None if whole or node is None else node.child(index)
            if whole or child is not None:
                _secrets(item, child, out, depth + 1)


def _mask(value: Any, node: Node | None, depth: int) -> Any:
    """Raw arguments with every secret position's value replaced by REDACTED."""
    if node is None or depth > 100:
        return value
    if _secret_node(node):
        return REDACTED
    if isinstance(value, dict):
        return {key: _mask(item, node.child(key), depth + 1) for key, item in value.items()}
    if isinstance(value, list):
        return [_mask(item, node.child(i), depth + 1) for i, item in enumerate(value)]
    return value


def _registry(source: RegistrySource) -> Registry:
    return source() if callable(source) else source


def _holds(registry: Registry, info: ToolInfo) -> None:
    """The registry is a generated package's and holds the contract's tool (TypeError, LookupError)."""
    if not callable(getattr(registry, "_prepare", None)):
        raise TypeError(f"not a Registry of a generated package ({type(registry).__module__})")
    if info.name not in registry:
        raise LookupError(f"the registry does not hold tool {info.name!r}")
    if registry.info(info.name) != info:
        raise TypeError(
            f"the registry's {info.name!r} implements another interface than the contract's "
            "(another generated package, or another version of it?)"
        )


def _from_state(override: Override) -> bool:
    """An override that is a function of the example's registry (not a strategy itself)."""
    return not isinstance(override, SearchStrategy) and callable(override)


async def _await(awaitable: Any) -> Any:
    return await awaitable


def _completed(function: Callable[..., Any], args: tuple[Any, ...], limit: float) -> Any:
    """In the kit's thread: `function(*args)`, and what it returns awaited (cancelled at `limit`
    seconds, so a hung coroutine's cleanup runs and its loop closes)."""
    outcome = function(*args)
    if not inspect.isawaitable(outcome):
        return outcome
    import asyncio

    async def bounded() -> Any:
        return await asyncio.wait_for(_await(outcome), limit)

    return asyncio.run(bounded())


def _closed(stream: Any) -> str | None:
    """Take a stream's first item, then close it: what went wrong in closing, else None (a
    result that is no stream, or a stream that fails before its first item, is not judged)."""
    import asyncio

    async def cut_async() -> None:
        try:
            await stream.__anext__()
        except BaseException:  # noqa: BLE001 - its first step's outcome is test_results' business
            return
        await stream.aclose()

    try:
        if inspect.isasyncgen(stream):
            asyncio.run(cut_async())
        elif inspect.isgenerator(stream):
            try:
                next(stream)
            except BaseException:  # noqa: BLE001 - as above
                return None
            stream.close()
    except Exception as exc:  # noqa: BLE001 - this is the finding
        return f"closing raised {type(exc).__name__}: {exc}"
    return None


def _event_problem(event: Any, content: frozenset[str]) -> str | None:
    """What is wrong with one event of a stream, else None."""
    kind = getattr(event, "kind", None)
    if kind == "progress":
        done, total = event.done, event.total
        if not _number(done) or done < 0:
            return f"Progress.done is {done!r}: a number, 0 or more"
        if total is not None and (not _number(total) or total < done):
            return f"Progress.total is {total!r}: None, or a number no less than done ({done!r})"
        if event.message is not None and not isinstance(event.message, str):
            return f"Progress.message is a {type(event.message).__name__}, not text"
    elif kind == "chunk":
        if not isinstance(event.text, str):
            return f"Chunk.text is a {type(event.text).__name__}, not text"
    elif kind == "partial":
        try:
            json.dumps(event.data, allow_nan=False)
        except (TypeError, ValueError) as exc:
            return f"Partial.data is not JSON: {exc}"
    elif kind not in content:
        return f"a {kind} content block, where the spec's `content` declares {sorted(content)}"
    return None


def _number(value: Any) -> bool:
    return isinstance(value, (int, float)) and not isinstance(value, bool) and math.isfinite(value)


def _output_problems(output: Any, content: frozenset[str]) -> list[str]:
    problems = []
    if output.metadata is not None and not isinstance(output.metadata, str):
        problems.append(f"metadata is a {type(output.metadata).__name__}, not text")
    for i, block in enumerate(output.content):
        kind = block_kind(block)
        if kind is None or kind not in content:
            shown = kind or type(block).__name__
            problems.append(
                f"content[{i}] is {shown}; the spec's `content` declares {sorted(content)}"
            )
    return problems


class _NotJson(Exception):
    pass


def _plain(value: Any, model: type[BaseModel] | None, path: str) -> Any:
    """`value` as JSON, exactly as the implementation made it: no coercion, models dumped strictly."""
    if isinstance(value, BaseModel):
        if model is not None and not isinstance(value, model):
            raise _NotJson(
                f"{path}: a {type(value).__name__}, not the tool's result model {model.__name__}"
            )
        # warnings="error": a wrong-typed value set by model_construct or assignment fails here.
        try:
            dumped = value.model_dump(mode="json", by_alias=True, warnings="error")
        except Exception as exc:  # noqa: BLE001 - pydantic's serialization errors
            raise _NotJson(
                f"{path}: the {type(value).__name__} holds a value that does not serialize as its "
                "field's type (a wrong type set by model_construct or assignment, or an object JSON "
                f"cannot carry): {_short(str(exc))}"
            ) from None
        if _non_finite(
            value.model_dump(warnings=False)
        ):  # the JSON dump turned it into null, silently
            raise _NotJson(
                f"{path}: the {type(value).__name__} holds an infinite or NaN number (sent as null)"
            )
        return dumped
    if value is None or isinstance(value, (bool, int, str)):
        return value
    if isinstance(value, float):
        if not math.isfinite(value):
            raise _NotJson(f"{path}: {value!r} is not a JSON number")
        return value
    if isinstance(value, list):
        return [_plain(item, None, f"{path}[{i}]") for i, item in enumerate(value)]
    if isinstance(value, dict):
        out: dict[str, Any] = {}
        for key, item in value.items():
            if not isinstance(key, str):
                raise _NotJson(f"{path}: the key {key!r} is not a string")
            out[key] = _plain(item, None, f"{path}.{key}")
        return out
    raise _NotJson(f"{path}: a {type(value).__name__} is not a JSON value")


def _non_finite(value: Any) -> bool:
    if isinstance(value, float):
        return not math.isfinite(value)
    if isinstance(value, dict):
        value = list(value.values())
    return isinstance(value, (list, tuple)) and any(_non_finite(item) for item in value)


def _schema_errors(schema: Any) -> Callable[[Any], list[str]]:
    """A check of values against `schema` (jsonschema, Draft 2020-12, the oracle): the problems, as lines."""
    if schema is None:
        return lambda value: []
    validator = json_schema_validator(schema)
    type(validator).check_schema(schema)

    def check(value: Any) -> list[str]:
        errors = sorted(
            validator.iter_errors(value), key=lambda e: [str(p) for p in e.absolute_path]
        )
        lines = [_short(f"at {e.json_path}: {e.message}") for e in errors[:_SHOWN_ERRORS]]
        if len(errors) > _SHOWN_ERRORS:
            lines.append(f"and {len(errors) - _SHOWN_ERRORS} more")
        return lines

    return check


def _raised(exc: BaseException) -> list[str]:
    lines = [_short(f"{type(exc).__name__}: {exc}")]
    frames = traceback.extract_tb(exc.__traceback__)
    if frames:
        last = frames[-1]
        lines.append(
            f"at {last.filename}:{last.lineno} in {last.name}: {(last.line or '').strip()}"
        )
    return lines


def _short(text: str) -> str:
    text = text.replace("\n", "\\n")
    return text if len(text) <= _SHOWN_CHARS else text[: _SHOWN_CHARS - 1] + "…"


def _hypothesis(
    body: Callable[..., None],
    judge: _Judge,
    strategies: dict[str, SearchStrategy[Any]],
    settings: Settings | None,
) -> None:
    """Run `body` under @given (it takes the drawn values as keywords named as `strategies`);
    the shrunk example's ContractViolation propagates."""
    names = list(strategies)

    def drawn(*args: Any, **kwargs: Any) -> None:  # hypothesis passes them by position
        body(**dict(zip(names, args, strict=False)), **kwargs)

    name = f"{judge.check}_{judge.tool}"
    drawn.__name__ = drawn.__qualname__ = "".join(c if c.isalnum() else "_" for c in name)
    # Hypothesis keys its example database by the function's source and signature: the
    # annotation tells the tools apart (and the packages), so one tool's failures are not
    # replayed against another.
    where = f"{judge.check} of {judge.info.name} in {judge.info.arguments.__module__}"
    setattr(  # noqa: B010 - mypy knows no __signature__ on a function
        drawn,
        "__signature__",
        inspect.Signature(
            [
                inspect.Parameter(k, inspect.Parameter.POSITIONAL_OR_KEYWORD, annotation=where)
                for k in strategies
            ]
        ),
    )
    test = given(**strategies)(drawn)
    try:
        (settings if settings is not None else default_settings())(test)()
    except ContractViolation as exc:
        # hypothesis notes the falsifying example (the drawn arguments' repr): redacted too.
        notes = getattr(exc, "__notes__", None)
        if isinstance(notes, list):
            notes[:] = [judge.redact(str(note)) for note in notes]
        raise


def default_settings() -> Settings:
    """The active profile's, without a deadline (the kit judges outcomes, not speed) nor the explain
    phase (it costs seconds per failure and points at the kit's own lines)."""
    return Settings(deadline=None, phases=[p for p in Settings().phases if p is not Phase.explain])


def check_results(
    registry: RegistrySource,
    contract: ToolContract,
    *,
    injected: Mapping[str, Any] | None = None,
    overrides: Mapping[str, Override] | None = None,
    seed: Seed | None = None,
    settings: Settings | None = None,
) -> None:
    """For drawn arguments, every call returns a result `returns` accepts or raises a declared
    ToolError, within the declared `timeout_s`.

    `overrides` replace the strategies of arguments by wire name; an override may be a function
    of the example's registry (made, then seeded) returning the strategy. `seed` prepares
    every registry the check makes: with a factory, the fresh one of each example."""
    judge = _Judge(registry, contract, injected, "results", overrides=overrides, seed=seed)

    def results(**drawn: Any) -> None:
        current = judge.fresh()
        judge.run(current, judge.draw(drawn, current))

    _hypothesis(results, judge, judge.given(), settings)


def _others(strategy: SearchStrategy[Any]) -> SearchStrategy[list[Any]]:
    return st.lists(strategy, max_size=MAX_OTHERS)


def check_idempotent(
    registry: RegistrySource,
    contract: ToolContract,
    *,
    injected: Mapping[str, Any] | None = None,
    overrides: Mapping[str, Override] | None = None,
    seed: Seed | None = None,
    settings: Settings | None = None,
) -> None:
    """Call a, some others, a again: both calls of a end alike (results JSON-equal, or errors of one kind)."""
    judge = _Judge(registry, contract, injected, "idempotent", overrides=overrides, seed=seed)

    def idempotent(**drawn: Any) -> None:
        current = judge.fresh()
        arguments = judge.draw(drawn, current)
        others = judge.draw(drawn, current, "others", _others)
        first = judge.run(current, arguments)
        for i, other in enumerate(others):
            judge.run(current, other, [arguments, *others[:i]])
        calls = [arguments, *others, arguments]
        second = judge.run(current, arguments, calls[:-1])
        if not first.same(second):
            raise judge.violation(
                "not_idempotent",
                "flagged idempotent, but the same call gave another outcome the second time",
                [f"first:  {first.shown()}", f"second: {second.shown()}"],
                calls,
            )

    _hypothesis(idempotent, judge, judge.given(others=_others), settings)


def check_examples(
    registry: RegistrySource,
    contract: ToolContract,
    *,
    injected: Mapping[str, Any] | None = None,
    seed: Seed | None = None,
) -> None:
    """Every example of the spec runs, in order, and ends as it says (its result, or its error kind)."""
    judge = _Judge(registry, contract, injected, "examples", seed=seed)
    failed: list[ContractViolation] = []
    # One registry for all (seeded once): examples run in order, as the spec lists them.
    current = judge.registry
    for number, example in enumerate(contract.examples, 1):
        arguments = example.get("arguments", {})
        label = f"example {number}" + (
            f" ({example['description']})" if example.get("description") else ""
        )
        try:
            outcome = judge.run(current, arguments)
            if "error" in example and outcome.error != example["error"]:
                raise judge.violation(
                    "example_mismatch",
                    f"{label} should fail with {example['error']!r}",
                    [f"got: {outcome.shown()}"],
                    [arguments],
                )
            if "result" in example and not outcome.same(_Outcome(result=example["result"])):
                raise judge.violation(
                    "example_mismatch",
                    f"{label} should give its result",
                    [
                        f"expected: {_Outcome(result=example['result']).shown()}",
                        f"got:      {outcome.shown()}",
                    ],
                    [arguments],
                )
        except ContractViolation as exc:
            failed.append(exc)
    if len(failed) == 1:
        raise failed[0]
    if failed:
        details = [
            line for exc in failed for line in (exc.summary, *(f"  {d}" for d in exc.details))
        ]
        raise judge.violation(
            failed[0].problem,
            f"{len(failed)} of {len(contract.examples)} examples fail",
            details,
            [call for exc in failed for call in exc.calls],
        )


def _attempts(info: ToolInfo) -> int:
    """The calls a declared `retry` allows in all (1: no retry; older packages declare none)."""
    retry = getattr(info, "retry", None)
    attempts = retry[0] if isinstance(retry, tuple) and retry else 1
    return attempts if isinstance(attempts, int) else 1


def declares_policies(info: ToolInfo) -> bool:
    """Whether the spec declares a policy `check_policies` judges (a cache, a retry)."""
    return getattr(info, "cache", None) is not None or _attempts(info) > 1


def check_policies(registry: RegistrySource, contract: ToolContract) -> None:
    """The declared policies are safe: a result is cached only for a tool flagged `idempotent`
    (a cached result answers a call without running the tool), and a `retry` is declared only
    where something says calling again is safe (the flag `idempotent` or `retryable`, or an
    error kind marked `retryable: true`). Read from the spec; nothing is called."""
    info = contract.info
    _holds(_registry(registry), info)
    flags = frozenset(getattr(info, "flags", ()))
    found: list[tuple[str, str, str]] = []  # (problem, what is wrong, what to change)
    cache = getattr(info, "cache", None)
    if cache is not None and "idempotent" not in flags:
        ttl_s, max_entries = tuple(cache)[:2]
        wrong = (
            f"is cached (ttl_s {ttl_s:g}, max_entries {max_entries}) but not flagged idempotent: "
            "a cached result answers calls that should have run the tool"
        )
        fix = (
            "in the spec, add `idempotent` to `flags` if calling it again with the same "
            "arguments changes nothing more; else remove `cache`"
        )
        found.append(("cache_not_idempotent", wrong, fix))
    attempts = _attempts(info)
    retryable = frozenset(getattr(info, "retryable_errors", ()))
    if attempts > 1 and not {"idempotent", "retryable"} & flags and not retryable:
        wrong = (
            f"declares retry with {attempts} attempts, but nothing says calling it again is "
            "safe: it is flagged neither `idempotent` nor `retryable`, and no error kind is "
            "`retryable: true`"
        )
        fix = (
            "in the spec, mark the error kinds a second call may pass with `retryable: true`, "
            "or flag the tool `retryable` (or `idempotent`) if calling it again is safe; else "
            "remove `retry`"
        )
        found.append(("retry_not_safe", wrong, fix))
    if not found:
        return
    if len(found) == 1:
        problem, summary, fix = found[0]
        raise ContractViolation(info.name, "policies", problem, summary, [fix], [])
    raise ContractViolation(
        info.name,
        "policies",
        found[0][0],
        f"declares {len(found)} policies its flags do not make safe",
        [line for _, summary, fix in found for line in (summary, f"  {fix}")],
        [],
    )


def check_streams(
    registry: RegistrySource,
    contract: ToolContract,
    *,
    injected: Mapping[str, Any] | None = None,
    overrides: Mapping[str, Override] | None = None,
    seed: Seed | None = None,
    settings: Settings | None = None,
) -> None:
    """For a tool flagged `streaming`: a stream cut short after its first item closes cleanly
    (ContractViolation `close_failed` otherwise)."""
    judge = _Judge(registry, contract, injected, "streams", overrides=overrides, seed=seed)

    def streams(**drawn: Any) -> None:
        current = judge.fresh()
        judge.cut(current, judge.draw(drawn, current))

    _hypothesis(streams, judge, judge.given(), settings)


def check_contract(
    registry: RegistrySource,
    contract: ToolContract,
    *,
    injected: Mapping[str, Any] | None = None,
    overrides: Mapping[str, Override] | None = None,
    seed: Seed | None = None,
    settings: Settings | None = None,
) -> None:
    """check_policies, check_results, check_idempotent (for tools flagged idempotent),
    check_examples and check_streams (for tools flagged streaming)."""
    check_policies(registry, contract)
    options: dict[str, Any] = {"injected": injected, "overrides": overrides, "seed": seed}
    check_results(registry, contract, settings=settings, **options)
    if "idempotent" in contract.info.flags:
        check_idempotent(registry, contract, settings=settings, **options)
    check_examples(registry, contract, injected=injected, seed=seed)
    if "streaming" in contract.info.flags:
        check_streams(registry, contract, settings=settings, **options)


class ContractTests:
    """A pytest test class: subclass it (the generated `testing` package sets `contracts`) and
    define a `registry` fixture (a Registry, or a callable making one for every example).

        class TestContracts(ContractTests):
            @pytest.fixture
            def registry(self, tmp_path): return my_registry(tmp_path)

    Tests are parametrized over the tool names; a tool the registry does not hold is skipped.
    Hooks, per tool: `injected` (values the host supplies), `overrides` (strategies of some
    arguments, or functions of the example's registry giving them) and `seed` (state each
    registry the tests make starts from).
    """

    contracts: ClassVar[Mapping[str, ToolContract]] = MappingProxyType({})
    max_examples: ClassVar[int | None] = None  # None: the active hypothesis profile's
    settings: ClassVar[Settings | None] = None  # None: default_settings()

    def injected(self, tool: str) -> Mapping[str, Any] | None:
        """Injected values for `tool`'s calls (override for tools that take them)."""
        return None

    def overrides(self, tool: str) -> Mapping[str, Override]:
        """Strategies replacing the drawn value of some arguments of `tool`, by wire name. A
        value may also be a function of the example's registry (made, then seeded) returning
        the strategy, to draw from what exists: `lambda registry: st.sampled_from(...)`."""
        return {}

    def seed(self, tool: str, registry: Registry) -> None:
        """Prepare a registry the tests of `tool` make, before anything is drawn or called: add
        the state its calls should find (`registry.invoke("create_note", {...})`, or through
        your implementation). Called for every example's fresh registry when the `registry`
        fixture is a factory, else once per test. Seed the same way every time: a failure is
        replayed on the state the seed makes."""

    def pytest_generate_tests(self, metafunc: Any) -> None:
        if "tool" in metafunc.fixturenames:
            metafunc.parametrize("tool", list(self.contracts))

    def test_policies(self, registry: RegistrySource, tool: str) -> None:
        contract = self._contract(registry, tool)
        if not declares_policies(contract.info):
            raise unittest.SkipTest(f"{tool} declares no cache or retry")
        check_policies(registry, contract)

    def test_results(self, registry: RegistrySource, tool: str) -> None:
        check_results(registry, self._contract(registry, tool), **self._hooks(tool))

    def test_idempotent(self, registry: RegistrySource, tool: str) -> None:
        contract = self._contract(registry, tool)
        if "idempotent" not in contract.info.flags:
            raise unittest.SkipTest(f"{tool} is not flagged idempotent")
        check_idempotent(registry, contract, **self._hooks(tool))

    def test_streams(self, registry: RegistrySource, tool: str) -> None:
        contract = self._contract(registry, tool)
        if "streaming" not in contract.info.flags:
            raise unittest.SkipTest(f"{tool} is not flagged streaming")
        check_streams(registry, contract, **self._hooks(tool))

    def test_examples(self, registry: RegistrySource, tool: str) -> None:
        contract = self._contract(registry, tool)
        if not contract.examples:
            raise unittest.SkipTest(f"{tool}'s spec has no examples")
        check_examples(registry, contract, injected=self.injected(tool), seed=self._seed(tool))

    def _hooks(self, tool: str) -> dict[str, Any]:
        """The keyword arguments of the drawing checks, from this class's hooks for `tool`."""
        return {
            "injected": self.injected(tool),
            "overrides": self.overrides(tool),
            "seed": self._seed(tool),
            "settings": self._settings(),
        }

    def _contract(self, registry: RegistrySource, tool: str) -> ToolContract:
        if tool not in _registry(registry):
            raise unittest.SkipTest(f"the registry does not hold {tool}")
        return self.contracts[tool]

    def _seed(self, tool: str) -> Seed | None:
        """The `seed` hook for `tool`, or None when the subclass does not override it."""
        if type(self).seed is ContractTests.seed:
            return None
        return lambda registry: self.seed(tool, registry)

    def _settings(self) -> Settings | None:
        if self.max_examples is None:
            return self.settings
        return Settings(
            self.settings if self.settings is not None else default_settings(),
            max_examples=self.max_examples,
        )
