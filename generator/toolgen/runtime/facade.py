# Part of toolgen's runtime, copied verbatim into generated packages (edit toolgen, not a copy).
"""What a generated package's `__init__.py` does: its template only binds these to names.

`Facade` holds a package's tools by name (from its `_index.py`) and answers for them:
`tool_info`, `validate_arguments`, `tool_definitions`, `build_registry`, `respond`, the
agent frameworks' tools; and, as the package's `__getattr__` (PEP 562), the runtime's
public names, each imported the first time it is asked for. Importing a package so loads
this module, its index and its stamp: no pydantic, no registry, no validation. A tool's
module, and what it needs, loads with its first `tool_info`/`validate_arguments`; the
registry with `build_registry`; tracing, control, streaming, search, repair and serving
when a call or a name needs them.
"""

from __future__ import annotations

import importlib
import os

from . import EXPORTS as RUNTIME_EXPORTS
from . import kinds

TYPE_CHECKING = False  # typing.TYPE_CHECKING without importing typing (type checkers know the name)
if TYPE_CHECKING:
    from collections.abc import Callable, Mapping
    from typing import Any

    from pydantic import BaseModel

    from .calls.registry import Registry
    from .results.result import ToolInfo
    from .validation.coerce import Coercion
    from .validation.payload import Limits

__all__ = ["EXPORTS", "FUNCTIONS", "PACKAGE_ALL", "Facade"]

# The runtime names a package re-exports, by the module of `_runtime` that defines them.
EXPORTS: dict[str, str] = {
    **RUNTIME_EXPORTS,
    "Coercion": "validation.coerce",
    "Limits": "validation.payload",
}
# The methods of a package's Facade that its `__init__.py` binds to names of its own.
FUNCTIONS = (
    "tool_info",
    "validate_arguments",
    "tool_definitions",
    "build_registry",
    "respond",
    "arespond",
    "openai_agents_tools",
    "pydantic_ai_toolset",
    "langchain_tools",
)
# A package's `__all__`, which its template writes out as a literal list (what type checkers
# read a package's re-exports from): its constants, then its functions and the runtime's
# names but `validate` (a package validates with `validate_arguments`).
PACKAGE_ALL = [
    *("PROVIDERS", "SPEC_SHA256", "SPEC_VERSION", "TOOLGEN_VERSION", "TOOL_NAMES"),
    *sorted({*FUNCTIONS, *EXPORTS} - {"validate"}),
]


class Facade:
    """One generated package's tools, by canonical and provider-safe name.

    `namespace`: the package's module globals (where a re-exported name is kept once
    loaded); `modules`: canonical name -> tool module; `provider_names`: provider-safe name
    -> canonical name; `generated_with` and `holds`: (toolgen version, sha256 of the
    runtime's sources) that the package was generated with and that its `_runtime/_stamp.py`
    says the copy holds. ImportError when they differ: never run with another runtime.
    """

    def __init__(
        self,
        namespace: dict[str, Any],
        modules: Mapping[str, str],
        provider_names: Mapping[str, str],
        providers: tuple[str, ...],
        *,
        generated_with: tuple[str, str],
        holds: tuple[str, str],
    ) -> None:
        package: str = namespace["__name__"]
        if holds != generated_with:
            raise ImportError(
                f"{package}._runtime is not the runtime {package} was generated with (toolgen "
                f"{generated_with[0]}): it says toolgen {holds[0]}, sources {holds[1][:12]}, "
                f"not {generated_with[1][:12]}; generate the whole package again"
            )
        self.package = package
        self._namespace = namespace
        self._modules = modules
        self._provider_names = provider_names
        self._providers = providers
        # Each tool's ToolInfo once its module is imported whole (by canonical and
        # provider-safe name). Filled only after `import_module` returns: a thread never sees
        # a half-imported module, and importlib's per-module lock makes threads that import the
        # same tool at once wait for one import.
        self.infos: dict[str, ToolInfo] = {}
        # Each tool's `ToolInfo.plain_validator`, by the names `validate_arguments` was called with.
        self._plain: dict[str, Callable[[Any], BaseModel]] = {}

    def __reduce__(self) -> tuple[Any, tuple[str]]:
        """Pickled as the package's name: its functions pickle by reference, as functions do."""
        return (_facade_of, (self.package,))

    # -- the package's module attributes ------------------------------------------------

    def attribute(self, name: str) -> Any:
        """The package's `__getattr__`: a runtime name imported on first use, then kept."""
        module = EXPORTS.get(name)
        if module is None:
            raise AttributeError(f"module {self.package!r} has no attribute {name!r}")
        value = getattr(importlib.import_module(f"{self.package}._runtime.{module}"), name)
        self._namespace[name] = value
        return value

    def names(self) -> list[str]:
        """The package's `__dir__`: its globals and the names it loads on first use."""
        return sorted({*self._namespace, *EXPORTS})

    # -- tools by name ------------------------------------------------------------------

    def tool_info(self, name: str) -> ToolInfo:
        """Metadata and models of one tool, by canonical or provider-safe name (imports its module).

        UnknownToolError for a name no tool has (its message shows at most the name's start),
        and for a name that is not a string.
        """
        info = self.infos.get(name) if isinstance(name, str) else None
        if info is not None:
            return info
        from .errors import UnknownToolError, tool_name

        canonical = self._provider_names.get(tool_name(name, len(self._modules)), name)
        module = self._modules.get(canonical)
        if module is None:
            from .validation.suggest import nearest

            hint = nearest(name, [*self._modules, *self._provider_names])
            raise UnknownToolError(name, hint, len(self._modules))
        found: ToolInfo = importlib.import_module(f"{self.package}.tools.{module}").INFO
        self.infos[name] = found
        return found

    def validate_arguments(
        self,
        name: str,
        arguments: Any,
        *,
        limits: Limits | None = None,
        on_coerce: Callable[[Coercion], None] | None = None,
        on_warning: Callable[[str], None] | None = None,
    ) -> BaseModel:
        """The typed Arguments of a call (a dict or JSON text), or ToolArgumentsError.

        `limits` (default: `Limits()`) bounds the work on any input: size and depth of JSON
        text or of a dict, the issues listed. Repairs (null for an optional key, coercions
        the spec declared with `x-coerce`) go to `on_coerce`, else to the `logging` logger
        of `_runtime.validation`. Warnings (a renamed parameter sent by its old name, a
        deprecated one sent) go to `on_warning`, else to the logger of `_runtime.deprecation`.
        Safe to call from many threads, also before a tool's module is imported.
        """
        if limits is None and on_coerce is None and on_warning is None:  # the usual call
            try:
                plain = self._plain.get(name)
            except TypeError:  # (a name that is not a string: unknown, below)
                plain = None
            if plain is None:
                plain = self._plain[name] = self.tool_info(name).plain_validator()
            return plain(arguments)
        info = self.infos.get(name) if isinstance(name, str) else None
        if info is None:
            info = self.tool_info(name)
        if limits is None:
            return info.validate_arguments(arguments, on_coerce=on_coerce, on_warning=on_warning)
        return info.validate_arguments(
            arguments, limits=limits, on_coerce=on_coerce, on_warning=on_warning
        )

    def tool_definitions(
        self, provider: str = kinds.OPENAI, **options: Any
    ) -> list[dict[str, Any]]:
        """Every tool's definition for one provider, precomputed at generation time.

        Providers: openai (Chat Completions), openai-responses, anthropic, gemini, mcp, bedrock.
        Options: `strict` (openai: False by default; openai-responses: True; anthropic and
        bedrock: False) and `openapi` (gemini: True for the OpenAPI-subset `parameters`
        instead of `parametersJsonSchema`). A tool a strict mode cannot express comes
        non-strict; `toolgen lint` says which and why.
        """
        if provider not in self._providers:
            from .validation.suggest import nearest

            hint = nearest(provider, self._providers)
            raise ValueError(
                f"unknown provider {provider!r}" + (f"; did you mean {hint!r}?" if hint else "")
            )
        text = self._data(f"definitions/{provider}.json").decode("utf-8")
        allowed: dict[str, list[Any]] = _head(text)["options"]
        chosen: dict[str, Any] = {name: values[0] for name, values in allowed.items()}
        for name, value in options.items():
            if name not in allowed:
                raise ValueError(
                    f"provider {provider!r} has no option {name!r} (options: {', '.join(allowed) or 'none'})"
                )
            if not any(type(value) is type(v) and value == v for v in allowed[name]):
                raise ValueError(
                    f"option {name!r} of provider {provider!r} is one of {allowed[name]}, not {value!r}"
                )
            chosen[name] = value
        found = located(text, chosen)
        if found is not None:
            return found
        import json

        definitions: list[dict[str, Any]] = next(
            v["definitions"] for v in json.loads(text)["variants"] if v["options"] == chosen
        )
        return definitions

    def _data(self, relative: str) -> bytes:
        """A data file of the package: read beside its `__init__.py` (importlib.resources,
        which costs more to import than the read, only where the package is not in folders)."""
        here = self._namespace.get("__file__")
        if here:
            try:
                with open(os.path.join(os.path.dirname(here), relative), "rb") as handle:
                    return handle.read()
            except OSError:
                pass
        from importlib import resources

        return resources.files(self.package).joinpath(relative).read_bytes()

    # -- registries and turns -----------------------------------------------------------

    def build_registry(self, *implementations: Any, **settings: Any) -> Registry:
        """A registry of implementations (instances of the generated tool interfaces).

        Implementations of several generated packages may share one registry (or add
        registries: `a.build_registry(...) + b.build_registry(...)`). `settings` are the
        Registry's: timeout_s, max_concurrency, approve, secret, inject, hooks, clock, guards
        (by name: every guard the specs name must be given, else GuardError), and store
        (where rate limits, caches and used records are kept: "redis://HOST:PORT/DB" shares
        them among processes, the `redis` extra; default $TOOLGEN_STORE, else this process).
        """
        from .calls.registry import Registry

        return Registry(implementations, **settings)

    def respond(
        self,
        registry: Registry,
        provider: str,
        calls: Any,
        *,
        injected: Mapping[str, Any] | None = None,
    ) -> Any:
        """Run a turn's tool calls given in a provider's own shape; answer in that shape.

        `calls`: OpenAI `message.tool_calls`, Responses `output`, Anthropic `content`,
        Gemini parts, an MCP `tools/call` request or Bedrock Converse content (or the
        whole response holding them). See _runtime/providers/adapters.py for the shapes.
        """
        from .providers.adapters import respond

        return respond(registry, provider, calls, injected=injected)

    async def arespond(
        self,
        registry: Registry,
        provider: str,
        calls: Any,
        *,
        injected: Mapping[str, Any] | None = None,
    ) -> Any:
        """`respond`, with the turn's calls run concurrently."""
        from .providers.adapters import arespond

        return await arespond(registry, provider, calls, injected=injected)

    # Agent frameworks: each imported when asked for (the `openai-agents`, `pydantic-ai` and
    # `langchain` extras); every call goes through the registry, its messages and policies kept.

    def openai_agents_tools(
        self, registry: Registry, names: Any = None, **options: Any
    ) -> list[Any]:
        """The registry's tools as OpenAI Agents SDK `FunctionTool`s (strict where toolgen's are)."""
        from .serving import frameworks

        return frameworks.openai_agents_tools(registry, names, **options)

    def pydantic_ai_toolset(self, registry: Registry, names: Any = None, **options: Any) -> Any:
        """The registry's tools as a pydantic-ai toolset (invalid calls are retry prompts)."""
        from .serving import frameworks

        return frameworks.pydantic_ai_toolset(registry, names, **options)

    def langchain_tools(self, registry: Registry, names: Any = None, **options: Any) -> list[Any]:
        """The registry's tools as LangChain tools (failures are the ToolMessage's error text)."""
        from .serving import frameworks

        return frameworks.langchain_tools(registry, names, **options)


# A definitions document as render writes it (render's json_text): its first line holds every
# key but the variants; each variant starts on a line of its own, its definitions one a line.
_VARIANTS = ', "variants": ['


def _head(text: str) -> dict[str, Any]:
    """The keys of a definitions document but its variants: its first line, parsed alone."""
    import json

    line = text[: text.find("\n")]
    if line.endswith(_VARIANTS):
        try:
            head: dict[str, Any] = json.loads(line[: -len(_VARIANTS)] + "}")
            return head
        except ValueError:
            pass
    whole: dict[str, Any] = json.loads(text)
    return whole


def located(text: str, chosen: dict[str, Any]) -> list[dict[str, Any]] | None:
    """One variant's definitions, parsed alone: found by the line that starts it (no JSON
    string holds a line break), so the other variants are never parsed (half the work for
    openai's two). None where the document is not laid out so: then parse it whole."""
    import json

    start = '\n{"options": ' + json.dumps(chosen, ensure_ascii=False) + ', "definitions": [\n'
    at = text.find(start)
    if at < 0:
        return None
    try:
        found: list[dict[str, Any]] = json.JSONDecoder().raw_decode(text, at + len(start) - 2)[0]
    except ValueError:
        return None
    return found


def _facade_of(package: str) -> Facade:
    """The facade of an imported package (what a pickled one is read back as)."""
    found: Facade = importlib.import_module(package)._facade
    return found
