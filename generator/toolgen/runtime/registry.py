# Part of toolgen's runtime, copied verbatim into generated packages (edit toolgen, not a copy).
"""Tool metadata, results, and the registry that dispatches calls to implementations.

A Registry is a value: merging or removing tools returns a new one. Implementations are
recognised by what the registry reads of them (`info` and `run`), not by class, so the
registries of two generated packages merge (`a + b`): each tool is validated by its own
package's runtime (`info.validate_arguments`). Provider-shaped turns are answered by
`adapters.respond`, which calls the registry (this module does not import it).
"""

from __future__ import annotations

import inspect
from collections.abc import Generator, Iterable, Iterator, Mapping
from dataclasses import dataclass, field, replace
from typing import Any

from pydantic import BaseModel, ValidationError
from pydantic_core import to_json

from . import execution, policies
from .errors import (
    ToolArgumentsError,
    ToolCallError,
    ToolError,
    UnknownCategoryError,
    UnknownToolError,
    short,
    tool_name,
)
from .payload import LIMITS, Limits
from .secrets import redact, secret_values
from .suggest import nearest
from .validation import OnCoerce, as_sent, validate


@dataclass(frozen=True)
class ToolInfo:
    """What the spec says about one tool, as the generated module declares it."""

    name: str
    description: str
    arguments: type[BaseModel]
    result: type[BaseModel]
    injected: type[BaseModel] | None = None
    provider_name: str = ""
    category: str | None = None
    kind: str | None = None
    stability: str = "stable"
    timeout_s: float | None = None
    flags: frozenset[str] = frozenset()
    errors: frozenset[str] = frozenset()
    secrets: frozenset[str] = frozenset()
    retryable_errors: frozenset[str] = frozenset()  # the declared kinds marked `retryable: true`
    retry: tuple[int, float, float | None] = (1, 0.0, None)  # spec `retry`: attempts, backoff, cap
    rate_limit: tuple[int, float, bool] | None = None  # spec `rate_limit`: calls, per_s, wait
    cache: tuple[float, int] | None = None  # spec `cache`: ttl_s, max_entries

    def validate_arguments(
        self, arguments: Any, *, limits: Limits = LIMITS, on_coerce: OnCoerce | None = None
    ) -> BaseModel:
        """The typed arguments of a call (a dict or JSON text), or ToolArgumentsError."""
        return validate(
            self.arguments, self.name, arguments, self.secrets, limits=limits, on_coerce=on_coerce
        )


@dataclass(frozen=True)
class ToolFailure:
    """Why a call failed, for the model: `message` never holds a secret value (x-secret
    arguments and every injected value are redacted from a ToolError's text)."""

    # "unknown_tool", "invalid_arguments", a declared error kind, "timeout", "invalid_result"
    # or "internal"
    kind: str
    message: str
    # Calling again as it was may succeed: a declared kind marked `retryable: true`; a timeout
    # of a tool flagged `idempotent` or `retryable`; an internal failure of one flagged
    # `retryable`. With a spec `retry`, the registry itself calls again (ToolResult.attempts).
    retryable: bool = False


@dataclass(frozen=True)
class ToolResult:
    """The outcome of one call: ok with a value, or failed with a message a model can act on."""

    tool: str
    value: BaseModel | None = None
    failure: ToolFailure | None = None
    # For the host's logs.
    exception: BaseException | None = field(default=None, repr=False, compare=False)
    attempts: int = 1  # calls of `run` made for it (more than one after retries)

    @property
    def ok(self) -> bool:
        return self.failure is None

    def to_dict(self) -> dict[str, Any]:
        if self.failure is not None:
            return {
                "ok": False,
                "error": {"kind": self.failure.kind, "message": self.failure.message},
            }
        return {"ok": True, "result": self.data()}

    def data(self) -> Any:
        """The result as JSON data, as `returns` describes it: optional keys not set stay absent."""
        assert self.value is not None
        return as_sent(self.value)

    def text(self) -> str:
        """What a model should read back."""
        if self.failure is not None:
            return self.failure.message
        return to_json(self.data()).decode()


class Registry(Mapping[str, Any]):
    """Implementations by canonical tool name; lookups also accept provider-safe names.

    `timeout_s`: the deadline of a call to a tool whose spec declares none (a tool's own
    `timeout_s` wins); None, no deadline. See execution.py for how a deadline is kept."""

    def __init__(
        self,
        implementations: Iterable[Any] = (),
        *,
        timeout_s: float | None = None,
        clock: Any = None,
    ) -> None:
        if timeout_s is not None and not timeout_s > 0:
            raise ValueError(f"timeout_s must be more than 0, not {timeout_s!r}")
        self.timeout_s = timeout_s
        self.clock = execution.Clock() if clock is None else clock
        self._policies = (
            policies.Policies()
        )  # rate limits and caches, shared with derived registries
        tools: dict[str, Any] = {}
        for impl in implementations:
            info = _info(impl)
            if info.name in tools:
                raise ValueError(f"tool {info.name!r} is registered twice")
            tools[info.name] = impl
        self._tools = dict(sorted(tools.items()))
        self._aliases = {
            _info(i).provider_name: n for n, i in self._tools.items() if _info(i).provider_name
        }

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
        tool_name(name)
        if name in self._tools:
            return name
        if name in self._aliases:
            return self._aliases[name]
        raise UnknownToolError(
            name, nearest(name, [*self._tools, *self._aliases]), len(self._tools)
        )

    def merge(self, other: Mapping[str, Any]) -> Registry:
        """The tools of both; `other` may be the registry of another generated package."""
        return self._with([*self._tools.values(), *other.values()])

    def _with(self, implementations: Iterable[Any]) -> Registry:
        """A registry of other tools with this one's settings."""
        derived = Registry(implementations, timeout_s=self.timeout_s, clock=self.clock)
        derived._policies = self._policies
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
        that provider variant refuses has none (`toolgen lint` says why)."""
        import importlib

        by_package: dict[str, list[Any]] = {}
        for info in map(_info, self._tools.values()):
            package = info.arguments.__module__.rpartition(".tools.")[0]
            if package not in by_package:
                by_package[package] = importlib.import_module(package).tool_definitions(
                    provider, **options
                )
        out = []
        for info in map(_info, self._tools.values()):
            package = info.arguments.__module__.rpartition(".tools.")[0]
            names = {info.name, info.provider_name}
            out += [d for d in by_package[package] if _definition_name(d) in names]
        return out

    # Dispatch
    def call(
        self, name: str, arguments: Any, *, injected: Mapping[str, Any] | None = None
    ) -> ToolResult:
        """Validate and run one call. Async implementations are run to completion here (on a
        fresh loop in a worker thread when this thread's loop is running)."""
        prepared = self._prepare(name, arguments, injected)
        if isinstance(prepared, ToolResult):
            return prepared
        impl, info, args, extra = prepared
        first = None
        if getattr(info, "rate_limit", None) is None and getattr(info, "cache", None) is None:
            first = self._run(impl, info, args, extra)
            if first.failure is None or not first.failure.retryable:
                return first  # no policy to apply: the path of most calls
        steps = self._policed(info, args, extra, first)
        try:
            step = next(steps)
            while True:
                if step is _RUN:
                    step = steps.send(self._run(impl, info, args, extra))
                else:
                    self.clock.sleep(step)
                    step = next(steps)
        except StopIteration as done:
            result: ToolResult = done.value
            return result

    def _policed(
        self, info: ToolInfo, args: Any, extra: tuple[Any, ...], first: ToolResult | None
    ) -> Generator[Any, ToolResult, ToolResult]:
        """The declared policies around one call (cache, rate limit, retries), as steps that
        `call` and `acall` carry out each in its own way: `_RUN` (run the tool once and send
        back its result) or a number of seconds to wait. `first`: the result of a run already
        made (a tool without cache or rate limit whose failure may be retried)."""
        cache, key, hit = (None, "", None) if first is not None else self._cached(info, args, extra)
        if hit is not None:
            return hit
        limit = None if first is not None else self._limit(info)
        while limit is not None and (delay := limit.reserve(self.clock.monotonic())) > 0:
            if not limit.wait:
                return _rate_limited(info, limit, delay)
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

    def invoke(
        self, name: str, arguments: Any, *, injected: Mapping[str, Any] | None = None
    ) -> Any:
        """`call` for a host that prefers exceptions: the result's value, or UnknownToolError,
        ToolArgumentsError, or ToolCallError (a declared kind, a timeout, an invalid result,
        an internal failure) with the implementation's exception as its cause."""
        return _value(self.call(name, arguments, injected=injected))

    async def ainvoke(
        self, name: str, arguments: Any, *, injected: Mapping[str, Any] | None = None
    ) -> Any:
        """`invoke`, awaited (`acall`)."""
        return _value(await self.acall(name, arguments, injected=injected))

    def _run(self, impl: Any, info: ToolInfo, args: Any, extra: tuple[Any, ...]) -> ToolResult:
        timeout = info.timeout_s if info.timeout_s is not None else self.timeout_s
        try:
            if timeout is None:
                outcome = impl.run(args, *extra)
                # What a sync run returns (a dict, the Result model) is told apart at once.
                kind = type(outcome)
                if kind is not dict and kind is not info.result and inspect.isawaitable(outcome):
                    outcome = execution.awaited(outcome)
            else:
                outcome = execution.within(impl.run, (args, *extra), timeout)
        except execution.Timeout as exc:
            return _timed_out(info, exc)
        except Exception as exc:  # noqa: BLE001 - failures become results
            return _failure(info, exc, args, extra)
        return _finish(info, outcome)

    async def acall(
        self, name: str, arguments: Any, *, injected: Mapping[str, Any] | None = None
    ) -> ToolResult:
        """Validate and run one call; a sync implementation runs in a worker thread, so the
        event loop is never blocked."""
        prepared = self._prepare(name, arguments, injected)
        if isinstance(prepared, ToolResult):
            return prepared
        impl, info, args, extra = prepared
        steps = self._policed(info, args, extra, None)
        try:
            step = next(steps)
            while True:
                if step is _RUN:
                    step = steps.send(await self._arun(impl, info, args, extra))
                else:
                    await self.clock.asleep(step)
                    step = next(steps)
        except StopIteration as done:
            result: ToolResult = done.value
            return result

    async def _arun(
        self, impl: Any, info: ToolInfo, args: Any, extra: tuple[Any, ...]
    ) -> ToolResult:
        try:
            timeout = info.timeout_s if info.timeout_s is not None else self.timeout_s
            outcome = await execution.run_async(impl.run, (args, *extra), timeout)
        except execution.Timeout as exc:
            return _timed_out(info, exc)
        except Exception as exc:  # noqa: BLE001
            return _failure(info, exc, args, extra)
        return _finish(info, outcome)

    def _prepare(self, name: str, arguments: Any, injected: Mapping[str, Any] | None) -> Any:
        # The host's mistakes raise TypeError (a non-string name: in resolve); no model can fix them.
        if injected is not None and not isinstance(injected, Mapping):
            raise TypeError(f"injected values are a mapping, not {type(injected).__name__}")
        try:
            canonical = self.resolve(name)
        except UnknownToolError as exc:
            return ToolResult(
                short(name), failure=ToolFailure("unknown_tool", str(exc)), exception=exc
            )
        impl = self._tools[canonical]
        info = _info(impl)
        try:
            args = info.validate_arguments(arguments)  # by the tool's own runtime
        except Exception as exc:  # noqa: BLE001 - the ToolArgumentsError of the tool's own runtime
            if not _raised_as(exc, ToolArgumentsError):
                raise
            return ToolResult(
                canonical, failure=ToolFailure("invalid_arguments", str(exc)), exception=exc
            )
        extra: tuple[Any, ...] = ()
        if info.injected is not None:
            try:
                extra = (info.injected.model_validate(dict(injected or {})),)
            except ValidationError as exc:  # the host's mistake: never echo injected values
                missing = sorted({str(e["loc"][0]) for e in exc.errors() if e["loc"]})
                message = f"the host did not supply valid injected values for: {', '.join(missing)}"
                return ToolResult(canonical, failure=ToolFailure("internal", message))
        return impl, info, args, extra


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


def _raised_as(exc: BaseException, cls: type[BaseException]) -> bool:
    """`exc` is a `cls` of this runtime, or of another generated package's copy of it."""
    return isinstance(exc, cls) or any(c.__name__ == cls.__name__ for c in type(exc).__mro__)


def tool_error_kind(exc: BaseException) -> str | None:
    """The kind of a ToolError raised by an implementation (of any generated package's runtime)."""
    kind = getattr(exc, "kind", None)
    return kind if isinstance(kind, str) and _raised_as(exc, ToolError) else None


def _finish(info: ToolInfo, outcome: Any) -> ToolResult:
    """The outcome as the result `returns` declares, checked as exactly as arguments are."""
    problem: Exception
    try:
        if type(outcome) is info.result or isinstance(outcome, info.result):
            value = outcome
        else:
            value = info.result.model_validate(outcome)
        check = getattr(info.result, "__exact__", None)
        if check is None or check.is_valid(as_sent(value)):
            return ToolResult(info.name, value=value)
        issues = check.issues(as_sent(value))
        problem = ValueError(
            "the result does not match the tool's returns:\n" + "\n".join(i.line() for i in issues)
        )
    except ValidationError as exc:
        problem = exc
    return ToolResult(
        info.name,
        failure=ToolFailure("invalid_result", "the tool produced an invalid result"),
        exception=problem,
    )


def _failure(
    info: ToolInfo, exc: Exception, args: Any = None, extra: tuple[Any, ...] = ()
) -> ToolResult:
    kind = tool_error_kind(exc)
    if kind is not None and kind in info.errors:
        # An implementation's text may quote what it was given: no secret reaches the model.
        hidden = secret_values(args)
        for injected in extra:
            hidden |= secret_values(injected, everything=True)
        message = redact(str(exc), hidden)
        retryable = kind in getattr(info, "retryable_errors", frozenset())
        return ToolResult(info.name, failure=ToolFailure(kind, message, retryable), exception=exc)
    # Undeclared: the model gets no internals; the host gets the exception.
    return ToolResult(
        info.name,
        failure=ToolFailure("internal", f"tool '{info.name}' failed unexpectedly", _flagged(info)),
        exception=exc,
    )


def _timed_out(info: ToolInfo, exc: execution.Timeout) -> ToolResult:
    """The deadline passed: whether calling again is safe is the tool's `idempotent` flag."""
    safe = "idempotent" in info.flags or _flagged(info)
    advice = (
        "it is idempotent: calling it again is safe"
        if safe
        else "it may have had effects before it was stopped: check before calling it again"
    )
    message = f"tool '{info.name}' did not finish within {exc.seconds:g} s; {advice}"
    return ToolResult(info.name, failure=ToolFailure("timeout", message, safe), exception=exc)


def _definition_name(definition: dict[str, Any]) -> Any:
    """The tool name of one provider definition (OpenAI Chat nests it under `function`,
    Bedrock under `toolSpec`; the others have it at the top)."""
    for holder in ("function", "toolSpec"):
        if isinstance(definition.get(holder), dict):
            return definition[holder].get("name")
    return definition.get("name")


_ONCE = (1, 0.0, None)
_RUN = object()  # a step of Registry._policed: run the tool once and send back its result


def _flagged(info: ToolInfo) -> bool:
    """The spec says the tool may be called again after a failure its `errors` do not declare
    (an unexpected exception, a timeout): flag `retryable`. A declared kind says for itself."""
    return "retryable" in info.flags


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


def _rate_limited(info: ToolInfo, limit: policies.RateLimit, delay: float) -> ToolResult:
    message = (
        f"tool '{info.name}' takes at most {limit.calls} call{'s' if limit.calls != 1 else ''} in "
        f"{limit.per_s:g} s; call it again in {delay:.2g} s"
    )
    return ToolResult(info.name, failure=ToolFailure("rate_limited", message, True))
