"""Tool metadata, results, and the registry that dispatches calls to implementations.

A Registry is a value: merging or removing tools returns a new one.
"""

from __future__ import annotations

import inspect
from collections.abc import Iterable, Iterator, Mapping
from dataclasses import dataclass, field
from typing import Any

from pydantic import BaseModel, ValidationError

from .errors import ToolArgumentsError, ToolError, UnknownToolError
from .suggest import nearest
from .validation import validate


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


@dataclass(frozen=True)
class ToolFailure:
    kind: str  # "invalid_arguments", a declared error kind, "invalid_result" or "internal"
    message: str
    retryable: bool = False


@dataclass(frozen=True)
class ToolResult:
    """The outcome of one call: ok with a value, or failed with a message a model can act on."""

    tool: str
    value: BaseModel | None = None
    failure: ToolFailure | None = None
    exception: BaseException | None = field(default=None, repr=False, compare=False)  # for the host's logs

    @property
    def ok(self) -> bool:
        return self.failure is None

    def to_dict(self) -> dict[str, Any]:
        if self.failure is not None:
            return {"ok": False, "error": {"kind": self.failure.kind, "message": self.failure.message}}
        assert self.value is not None
        return {"ok": True, "result": self.value.model_dump(mode="json", by_alias=True)}

    def text(self) -> str:
        """What a model should read back."""
        if self.failure is not None:
            return self.failure.message
        assert self.value is not None
        return self.value.model_dump_json(by_alias=True)


class Registry(Mapping[str, Any]):
    """Implementations by canonical tool name; lookups also accept provider-safe names."""

    def __init__(self, implementations: Iterable[Any] = ()) -> None:
        tools: dict[str, Any] = {}
        for impl in implementations:
            info = _info(impl)
            if info.name in tools:
                raise ValueError(f"tool {info.name!r} is registered twice")
            tools[info.name] = impl
        self._tools = dict(sorted(tools.items()))
        self._aliases = {_info(i).provider_name: n for n, i in self._tools.items() if _info(i).provider_name}

    # Mapping protocol: registry[name] -> implementation
    def __getitem__(self, name: str) -> Any:
        return self._tools[self.resolve(name)]

    def __iter__(self) -> Iterator[str]:
        return iter(self._tools)

    def __len__(self) -> int:
        return len(self._tools)

    def __contains__(self, name: object) -> bool:
        return isinstance(name, str) and (name in self._tools or name in self._aliases)

    def info(self, name: str) -> ToolInfo:
        return _info(self[name])

    def resolve(self, name: str) -> str:
        """The canonical name for a canonical or provider-safe name, or UnknownToolError."""
        if name in self._tools:
            return name
        if name in self._aliases:
            return self._aliases[name]
        raise UnknownToolError(name, nearest(name, [*self._tools, *self._aliases]), len(self._tools))

    def merge(self, other: Registry) -> Registry:
        return Registry([*self._tools.values(), *other._tools.values()])

    def without(self, *names: str) -> Registry:
        drop = {self.resolve(n) for n in names}
        return Registry(i for n, i in self._tools.items() if n not in drop)

    def categories(self) -> frozenset[str]:
        return frozenset(c for i in self._tools.values() if (c := _info(i).category))

    def only_categories(self, *enabled: str) -> Registry:
        return Registry(i for i in self._tools.values() if _info(i).category in enabled)

    # Dispatch
    def call(self, name: str, arguments: Any, *, injected: Mapping[str, Any] | None = None) -> ToolResult:
        """Validate and run one call. Async implementations are run to completion here."""
        prepared = self._prepare(name, arguments, injected)
        if isinstance(prepared, ToolResult):
            return prepared
        impl, info, args, extra = prepared
        try:
            outcome = impl.run(args, *extra)
            if inspect.isawaitable(outcome):
                import asyncio  # only here: importing it costs every generated package ~15 ms

                outcome = asyncio.run(_await(outcome))
        except Exception as exc:  # noqa: BLE001 - failures become results
            return _failure(info, exc)
        return _finish(info, outcome)

    async def acall(self, name: str, arguments: Any, *, injected: Mapping[str, Any] | None = None) -> ToolResult:
        prepared = self._prepare(name, arguments, injected)
        if isinstance(prepared, ToolResult):
            return prepared
        impl, info, args, extra = prepared
        try:
            outcome = impl.run(args, *extra)
            if inspect.isawaitable(outcome):
                outcome = await outcome
        except Exception as exc:  # noqa: BLE001
            return _failure(info, exc)
        return _finish(info, outcome)

    def respond(self, provider: str, calls: Any, *, injected: Mapping[str, Any] | None = None) -> Any:
        """Run a turn's tool calls given in a provider's own shape; answer in that shape.

        `calls`: OpenAI `message.tool_calls`, Responses `output`, Anthropic `content`,
        Gemini parts, an MCP `tools/call` request or Bedrock Converse content (or the
        whole response holding them). See _runtime/adapters.py for the shapes.
        """
        from .adapters import respond

        return respond(self, provider, calls, injected)

    async def arespond(self, provider: str, calls: Any, *, injected: Mapping[str, Any] | None = None) -> Any:
        """`respond`, with the turn's calls run concurrently."""
        from .adapters import arespond

        return await arespond(self, provider, calls, injected)

    def _prepare(self, name: str, arguments: Any, injected: Mapping[str, Any] | None) -> Any:
        try:
            canonical = self.resolve(name)
        except UnknownToolError as exc:
            return ToolResult(name, failure=ToolFailure("unknown_tool", str(exc)), exception=exc)
        impl = self._tools[canonical]
        info = _info(impl)
        try:
            args = validate(info.arguments, info.name, arguments, info.secrets)
        except ToolArgumentsError as exc:
            return ToolResult(canonical, failure=ToolFailure("invalid_arguments", str(exc)), exception=exc)
        extra: tuple[Any, ...] = ()
        if info.injected is not None:
            try:
                extra = (info.injected.model_validate(dict(injected or {})),)
            except ValidationError as exc:  # the host's mistake: never echo injected values
                missing = sorted({str(e["loc"][0]) for e in exc.errors() if e["loc"]})
                message = f"the host did not supply valid injected values for: {', '.join(missing)}"
                return ToolResult(canonical, failure=ToolFailure("internal", message))
        return impl, info, args, extra


async def _await(awaitable: Any) -> Any:
    return await awaitable


def _info(impl: Any) -> ToolInfo:
    info = getattr(impl, "info", None)
    if not isinstance(info, ToolInfo):
        raise TypeError(f"{type(impl).__name__} is not an implementation of a generated tool interface")
    return info


def _finish(info: ToolInfo, outcome: Any) -> ToolResult:
    if isinstance(outcome, info.result):
        return ToolResult(info.name, value=outcome)
    try:
        return ToolResult(info.name, value=info.result.model_validate(outcome))
    except ValidationError as exc:
        return ToolResult(info.name, failure=ToolFailure("invalid_result", "the tool produced an invalid result"), exception=exc)


def _failure(info: ToolInfo, exc: Exception) -> ToolResult:
    if isinstance(exc, ToolError) and exc.kind in info.errors:
        return ToolResult(info.name, failure=ToolFailure(exc.kind, str(exc)), exception=exc)
    # Undeclared: the model gets no internals; the host gets the exception.
    return ToolResult(info.name, failure=ToolFailure("internal", f"tool '{info.name}' failed unexpectedly"), exception=exc)
