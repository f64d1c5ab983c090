# Part of toolgen's runtime, copied verbatim into generated packages (edit toolgen, not a copy).
"""The registry: the tools a host offers, as a value (the dispatch of their calls is in
dispatch.py, a base of `Registry`).

A Registry is a value: merging or removing tools returns a new one (with the same settings,
rate limits and caches). Implementations are recognised by what the registry reads of them
(`info` and `run`), not by class, so the registries of two generated packages merge (`a + b`):
each tool is validated by its own package's runtime (`info.validate_arguments`).
Provider-shaped turns are answered by `adapters.respond`, which calls the registry (this
module does not import it).

This module owns what a registry holds and derives from its tools: the tools by canonical
name, their infos, provider-safe aliases, the search pair, categories, derived registries and
the provider definitions. How a call runs (prepare.py, running.py, dispatch.py) reads the
tables `_set_tools` fills.
"""

from __future__ import annotations

import copy
import os
from collections.abc import Iterable, Iterator, Mapping
from typing import Any

from .. import kinds
from ..errors import UnknownCategoryError, UnknownToolError, tool_name
from ..results.control import SuspensionError
from ..results.outcome import tool_error_kind
from ..results.result import Output, ToolFailure, ToolInfo, ToolResult, package_of
from ..store.named import open_store
from ..validation.suggest import nearest
from . import context, execution, fast, policies, renaming
from .dispatch import Dispatcher
from .fast import needs_policy, warns
from .hooks import Hooks
from .prepare import Injector
from .records import RecordStore, StoreRecords
from .running import Approver

__all__ = [
    "Output",
    "Registry",
    "SuspensionError",
    "ToolFailure",
    "ToolInfo",
    "ToolResult",
    "tool_error_kind",
]

SECRET = "TOOLGEN_SECRET"  # the environment's key for suspended calls (see `secret` below)
MIN_SECRET = 16  # bytes
DAY = 24 * 3600.0  # how long a suspended call's record may be resumed, unless told


class Registry(Dispatcher, Mapping[str, Any]):
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
    - `secret`: the key that signs suspended calls (bytes or text, at least 16 bytes, not
      blank: else a ValueError), so that another process with the same key can resume them;
      default: $TOOLGEN_SECRET when set (what the worker processes of one server share; set
      but empty or short is the same ValueError), else a random key, good in this process.
    - `record_ttl_s`: how long a suspended call's record may be resumed (default 24 hours);
      after that `resume` refuses it, saying when it expired.
    - `store`: where the policies' state is kept (rate-limit windows, caches, concurrency
      leases, used records): a URL (`memory://`, this process, the default; or
      `redis://HOST:PORT/DB`, shared by every process using it: the `redis` extra) or a store
      object (store/base.py); None reads $TOOLGEN_STORE. Only tools declaring a policy (and
      every call, under `max_concurrency` with a shared store) touch it.
    - `records`: the store that lets each record be resumed once (records.py); default, the
      claims of `store`. Registries derived from this one share it.
    - `inject`: supplies injected values per call (`inject(tool_name)` -> a mapping); the
      values a call passes in `injected=` win over it.
    - `hooks`: objects told of each call (hooks.py); `tracing.OpenTelemetryHook` makes spans.
    - `guards`: the host's guards by name (guards.py): a function of a `GuardCall`, applied
      where a tool's spec names it (`guards: {input: [...], output: [...]}`), or a
      `Guard(check, stage, category=...)`, applied there and to every tool (of the category)
      too. A name a tool's spec declares that is not given is a GuardError here, not at a call.
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
        record_ttl_s: float = DAY,
        records: RecordStore | None = None,
        store: Any = None,
        inject: Injector | None = None,
        hooks: Iterable[Any] = (),
        examples_in_errors: bool = True,
        guards: Mapping[str, Any] | None = None,
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
        if not (isinstance(record_ttl_s, (int, float)) and record_ttl_s > 0):
            raise ValueError(f"record_ttl_s must be more than 0, not {record_ttl_s!r}")
        self.record_ttl_s = float(record_ttl_s)
        self._key = _key(secret)
        self._hooks = Hooks(hooks) if hooks else None
        # Rate limits, caches and concurrency slots: shared with derived registries.
        state = open_store(store) if store is None or isinstance(store, str) else store
        self._policies = policies.Policies(max_concurrency, state)
        # Which suspended-call records were used: shared with derived registries.
        self._records = StoreRecords(state) if records is None else records
        self._quiet = self._hooks is None and max_concurrency is None
        self._given_guards = dict(guards or {})
        self._set_tools(implementations)

    @property
    def store(self) -> Any:
        """The state store of this registry's policies (store/base.py)."""
        return self._policies.store

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
            name: i if type(i) is ToolInfo and not warns(i) else None
            for name, i in self._infos.items()
        }
        # Each guarded tool's input and output guards (guards.py: only loaded when there are).
        self._guarding: dict[str, Any] = {}
        if self._given_guards or any(any(getattr(i, "guards", ())) for i in infos):
            from . import guards

            self._guarding = guards.table(self._infos, self._given_guards)
        # The parameter by which each tool that asks for its RunContext takes it (context.py).
        self._wants = {n: p for n, impl in self._tools.items() if (p := context.wants(impl.run))}
        # The tools whose calls need none of the policies: run directly when `_quiet`.
        self._plain = frozenset(
            i.name for i in infos if not needs_policy(i) and i.name not in self._guarding
        )
        # What the fast path reads of each tool that takes it, looked up once (fast.py).
        slow = {*self._pair, *self._guarding, *self._wants}
        direct = {n: i for n, i in self._direct.items() if n not in slow}
        plans = fast.plans(direct, self._tools, self.timeout_s) if self._quiet else ({}, {})
        aliases = {a: n for a, n in self._aliases.items() if a not in self._tools}  # as resolve()
        self._fast, self._afast = (fast.by_alias(p, aliases) for p in plans)

    def _search_pair(self, tools: dict[str, Any]) -> dict[str, Any]:
        """`search_tools` and `call_tool` (search/tools.py), which a model not shown the deferred
        tools finds and calls them with; a call of `call_tool` is prepared as the call it names."""
        from ..search.definitions import CALL_TOOL, PAIR  # only registries with deferred tools
        from ..search.tools import pair

        if taken := sorted(set(PAIR) & set(tools)):
            raise ValueError(f"tool {taken[0]!r} takes the name of the tool-search pair")
        made = pair(_info(impl) for impl in tools.values())
        self._pair, self._forwards = frozenset(PAIR), frozenset({CALL_TOOL["name"]})
        return {impl.info.name: impl for impl in made}

    def wants_context(self) -> bool:
        """Whether a tool or a guard of this registry reads its call's RunContext (context.py):
        what adapters and the server tell of a call only then."""
        return bool(self._wants or self._guarding)

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

        A name that is not a string is unknown too (a model may send one)."""
        if type(name) is str and name in self._tools:
            return name
        tool_name(name, len(self._tools))
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

    def renamed(self, names: Mapping[str, str]) -> Registry:
        """These tools (canonical or provider-safe name -> new name) under new names, for one
        host or server: definitions, calls, approvals and suspended calls, tool search and the
        MCP server use them, and the old names are unknown. A new name no provider accepts,
        or one another tool has, is a RenameError (a ValueError); an unknown old name, an
        UnknownToolError. The search pair (`search_tools`, `call_tool`) keeps its names."""
        wanted = {self.resolve(old): new for old, new in names.items()}
        return self._with(renaming.renamed(self._tools, wanted, self._pair))

    def prefixed(self, prefix: str) -> Registry:
        """Every tool renamed `prefix` + its name (its provider-safe name, when its own is not
        one: `files.stat` becomes `fs_files_stat`); the search pair keeps its names."""
        return self.renamed(
            {
                n: f"{prefix}{i.provider_name or n}"
                for n, i in self._infos.items()
                if n not in self._pair
            }
        )

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

    def definitions(self, provider: str = kinds.OPENAI, **options: Any) -> list[dict[str, Any]]:
        """The provider's definitions of exactly this registry's tools, in its order: each from
        its own generated package's precomputed `tool_definitions(provider, **options)` (a
        renamed tool's under its new name: renaming.py). A tool
        that provider variant refuses has none (`toolgen lint` says why). With deferred tools,
        what tool search needs comes too: a namespace holding a tool (with this registry's
        tools of it), then the provider's search tool or the `search_tools`/`call_tool` pair."""
        import importlib

        own, new = renaming.specs({n: i for n, i in self._tools.items() if n not in self._pair})
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
            package, names = package_of(info), {info.name, info.provider_name}
            for definition in by_package[package]:
                if definition.get("type") != "namespace":
                    if kinds.definition_name(definition) in names:
                        out.append(renaming.shown(definition, package, new))
                elif definition["name"] not in placed:
                    inner = [
                        renaming.shown(d, package, new)
                        for d in definition["tools"]
                        if d.get("name") in wanted
                    ]
                    if any(d.get("name") in names for d in definition["tools"]):
                        placed.add(definition["name"])
                        out.append({**definition, "tools": inner})
        if self._pair:  # the search tools, once (each package with deferred tools has them)
            seen: set[tuple[Any, ...]] = set()
            for definitions in by_package.values():
                for definition in definitions:
                    key = (definition.get("type"), kinds.definition_name(definition))
                    if _search_entry(definition, self._pair) and key not in seen:
                        seen.add(key)
                        out.append(definition)
        return out


def _key(secret: bytes | str | None) -> bytes:
    """The key that signs suspended calls: `secret`, else $TOOLGEN_SECRET, else a random one.
    A blank or short one is a ValueError: it would let anyone forge a record."""
    named = "secret"
    if secret is None:
        if SECRET not in os.environ:
            return os.urandom(32)
        secret, named = os.environ[SECRET], f"${SECRET}"
    if not isinstance(secret, (str, bytes, bytearray)):
        raise TypeError(f"secret must be bytes or text, not {type(secret).__name__}")
    key = secret.encode() if isinstance(secret, str) else bytes(secret)
    if not key.strip() or len(key) < MIN_SECRET:
        raise ValueError(
            f"{named} signs suspended calls: it must be at least {MIN_SECRET} bytes and not "
            f"blank, not {len(key)} bytes{' of whitespace' if key and not key.strip() else ''}"
        )
    return key


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


def _search_entry(definition: Mapping[str, Any], pair: frozenset[str]) -> bool:
    """A definition that is there for tool search, not a tool of the spec: a provider's search
    tool (OpenAI's `tool_search`, Anthropic's `tool_search_tool_*`), or one of the pair."""
    kind = str(definition.get("type", ""))
    return (
        kind == "tool_search"
        or kind.startswith("tool_search_tool")
        or kinds.definition_name(definition) in pair
    )
