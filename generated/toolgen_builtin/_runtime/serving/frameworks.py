# Part of toolgen's runtime, copied verbatim into generated packages (edit toolgen, not a copy).
"""A registry's tools as an agent framework's tools: the OpenAI Agents SDK, pydantic-ai, LangChain.

Each function wraps the tools of a Registry (all of them, or those `names` picks) so that the
framework's call of a tool is `Registry.acall` (or `call`): toolgen validates the arguments
and its message reaches the model, and the tool runs under what its spec declares (deadline,
retries, rate limit, cache, approval, injected values: `injected=` goes with every call; the
registry's hooks see every call). What the framework is given is toolgen's own definition of
each tool: its provider-safe name, its description and its parameters' JSON Schema. Deferred
tools (`defer: true`) are given as a framework gets them from any provider without native
search: left out, with the registry's `search_tools` and `call_tool` in their place.

- OpenAI Agents SDK, `openai_agents_tools`: `FunctionTool`s given the `openai` strict function
  definitions (the same bodies as Responses'); a failure's message is the tool's output.
- pydantic-ai, `pydantic_ai_toolset`: a toolset given the `openai` (Chat) definitions; an
  invalid call is `ModelRetry(message)` (a retry prompt), another failure `ToolFailed(message)`.
- LangChain, `langchain_tools`: `BaseTool`s given the `openai` (Chat) definitions; a failure is
  a `ToolException(message)` the tool handles: a ToolMessage with status "error".

Images and documents a tool returns reach the model as the framework's own content (never as
base64 text). Each framework is imported when its function is called, by name, never otherwise:
a package that does not use one needs neither it installed nor its types to type-check, so the
functions' types say `Any` where the docstrings name the framework's class.
"""

from __future__ import annotations

import functools
import importlib
import json
from collections.abc import Iterable, Mapping
from typing import TYPE_CHECKING, Any

from .. import kinds
from ..providers import answers
from ..results.content import Document, Image, ResourceLink, Text

if TYPE_CHECKING:
    from ..calls.registry import Registry
    from ..results.result import ToolResult

__all__ = ["langchain_tools", "openai_agents_tools", "pydantic_ai_toolset"]

# Failures the model fixes by changing its call (pydantic-ai: a retry prompt for them).
FIXABLE = frozenset({"invalid_arguments", "unknown_tool"})


def openai_agents_tools(
    registry: Registry,
    names: Iterable[str] | None = None,
    *,
    injected: Mapping[str, Any] | None = None,
) -> list[Any]:
    """`agents.FunctionTool`s for `Agent(tools=...)`: toolgen's strict OpenAI function
    definitions (a tool toolgen exported non-strict has `strict_json_schema=False`; deferred
    tools as the tool-search pair, as for every framework); each call runs `registry.acall`
    with the model's JSON text and returns what the model should read, a failure's message
    included."""
    agents = _framework("agents", "openai_agents_tools", "openai-agents")
    functions = [
        d["function"] for d in _picked(registry, names).definitions(kinds.OPENAI, strict=True)
    ]
    return [
        agents.FunctionTool(
            name=function["name"],
            description=function.get("description", ""),
            params_json_schema=function["parameters"],
            on_invoke_tool=_agents_invoker(registry, function["name"], injected),
            strict_json_schema=function.get("strict", True),
        )
        for function in functions
    ]


def pydantic_ai_toolset(
    registry: Registry,
    names: Iterable[str] | None = None,
    *,
    injected: Mapping[str, Any] | None = None,
    max_retries: int | None = None,
    id: str | None = None,
) -> Any:
    """A `pydantic_ai.AbstractToolset` for `Agent(toolsets=[...])`: toolgen's JSON Schema as
    written, and the arguments as the model sent them to `registry.acall`. An invalid call is
    a retry prompt with toolgen's message (`ModelRetry`, counted against `max_retries`: None,
    the agent's); another failure is `ToolFailed` with its message. A tool not flagged
    `parallel` is `sequential` (it runs alone, as `arespond` runs it). `id`: the toolset's."""
    toolset = _pydantic_ai_toolset_class()
    picked = _picked(registry, names)
    return toolset(picked, picked.definitions(kinds.OPENAI), injected, max_retries, id)


def langchain_tools(
    registry: Registry,
    names: Iterable[str] | None = None,
    *,
    injected: Mapping[str, Any] | None = None,
) -> list[Any]:
    """LangChain `BaseTool`s for `bind_tools` and agents: `args_schema` is toolgen's JSON
    Schema; `invoke` runs `registry.call`, `ainvoke` `registry.acall`. A failure is a
    `ToolException` the tool handles: its message is the ToolMessage's content (status
    "error"), so the model reads it."""
    tool = _langchain_tool_class()
    return [
        tool(
            name=definition["function"]["name"],
            description=definition["function"].get("description", ""),
            args_schema=definition["function"]["parameters"],
            handle_tool_error=True,
            registry=registry,
            injected=injected,
        )
        for definition in _picked(registry, names).definitions(kinds.OPENAI)
    ]


def _picked(registry: Registry, names: Iterable[str] | None) -> Registry:
    """The registry's tools that `names` (canonical or provider-safe) picks; all for None."""
    if names is None:
        return registry
    picked = {registry.resolve(name) for name in names}  # UnknownToolError for a wrong name
    return registry.without(*(name for name in registry if name not in picked))


def _text(piece: Any) -> str:
    """A piece of a result that is not an image or a document, as text (audio: left out)."""
    if isinstance(piece, Text):
        return piece.text
    shown: str = piece.shown()  # a link's reference, or what an audio block was
    return shown if isinstance(piece, ResourceLink) else f"{shown} (left out: not taken here)"


def _framework(module: str, function: str, distribution: str) -> Any:
    """A framework's module, imported by name (so that type checkers need not find it)."""
    try:
        return importlib.import_module(module)
    except ImportError as exc:
        raise ImportError(f"{function} needs {distribution}: pip install {distribution}") from exc


# -- OpenAI Agents SDK -----------------------------------------------------------------------------


def _agents_invoker(registry: Registry, name: str, injected: Mapping[str, Any] | None) -> Any:
    """`FunctionTool.on_invoke_tool`: given the SDK's tool context and the arguments' JSON text."""

    async def invoke(context: Any, arguments: str) -> Any:
        return _agents_output(await registry.acall(name, arguments, injected=injected))

    return invoke


def _agents_output(result: ToolResult) -> Any:
    """The text a model reads (a failure's message too); with images or documents, the parts
    of a Responses tool output as the SDK's structured outputs (`text`, `image`, `file`)."""
    output = answers.responses(answers.Call(None, result.tool, None), result)["output"]
    if isinstance(output, str):
        return output
    return [{**part, "type": part["type"].removeprefix("input_")} for part in output]


# -- pydantic-ai -----------------------------------------------------------------------------------


@functools.cache
def _pydantic_ai_toolset_class() -> Any:
    """The toolset class of `pydantic_ai_toolset`, made once pydantic-ai is imported."""
    pydantic_ai = _framework("pydantic_ai", "pydantic_ai_toolset", "pydantic-ai-slim")

    base = pydantic_ai.AbstractToolset[Any]  # imported by name: Any to type checkers

    class ToolgenToolset(base):  # type: ignore[misc, valid-type]  # a subclass of Any
        """The tools of a toolgen Registry, by provider-safe name; toolgen validates the calls."""

        def __init__(
            self,
            registry: Registry,
            definitions: list[dict[str, Any]],
            injected: Mapping[str, Any] | None,
            max_retries: int | None,
            id: str | None,
        ) -> None:
            self.registry = registry
            self.injected = injected
            self.max_retries = max_retries
            self._id = id
            self.tool_defs = [
                pydantic_ai.ToolDefinition(
                    name=d["function"]["name"],
                    description=d["function"].get("description"),
                    parameters_json_schema=d["function"]["parameters"],
                    sequential="parallel" not in registry.info(d["function"]["name"]).flags,
                )
                for d in definitions
            ]

        @property
        def id(self) -> str | None:
            return self._id

        async def get_tools(self, ctx: Any) -> dict[str, Any]:
            retries = ctx.max_retries if self.max_retries is None else self.max_retries
            return {
                d.name: pydantic_ai.ToolsetTool(
                    toolset=self, tool_def=d, max_retries=retries, args_validator=_AS_SENT
                )
                for d in self.tool_defs
            }

        async def call_tool(self, name: str, tool_args: Any, ctx: Any, tool: Any) -> Any:
            result = await self.registry.acall(name, tool_args, injected=self.injected)
            if result.failure is not None and result.failure.kind in FIXABLE:
                raise pydantic_ai.ModelRetry(result.text())
            if result.failure is not None:
                raise pydantic_ai.ToolFailed(result.text())
            if result.metadata is None and not result.content:
                return result.data()  # pydantic-ai writes it as JSON for the model
            parts: list[Any] = []  # text, and the images and documents the model should see
            for piece in answers.pieces(result):
                if isinstance(piece, (Image, Document)):
                    parts.append(pydantic_ai.BinaryContent(piece.data, media_type=piece.mime_type))
                else:
                    parts.append(_text(piece))
            return parts

    return ToolgenToolset


class _AsSent:
    """pydantic-ai's `args_validator` of toolgen's tools: JSON text of an object becomes the
    dict, anything else stays as the model sent it, for toolgen to validate (and to say what
    is wrong with broken JSON or an array in its own words)."""

    def validate_json(self, input: str | bytes | bytearray, **options: Any) -> Any:
        try:
            value = json.loads(input)
        except ValueError:
            return input
        return value if isinstance(value, dict) else input

    def validate_python(self, input: Any, **options: Any) -> Any:
        return input


_AS_SENT = _AsSent()


# -- LangChain -------------------------------------------------------------------------------------


@functools.cache
def _langchain_tool_class() -> Any:
    """The BaseTool subclass of `langchain_tools`, made once langchain-core is imported.

    Not a StructuredTool: StructuredTool passes the arguments to its function as keywords beside
    its own `config` and `run_manager`, so an argument of either name would be lost."""
    tools = _framework("langchain_core.tools", "langchain_tools", "langchain-core")

    base = tools.BaseTool  # imported by name: Any to type checkers

    class ToolgenTool(base):  # type: ignore[misc, valid-type]  # a subclass of Any
        """A tool of a toolgen Registry, called by its provider-safe name (`name`)."""

        registry: Any
        injected: Any = None

        def _run(self, *args: Any, **arguments: Any) -> Any:
            result = self.registry.call(self.name, arguments, injected=self.injected)
            return _langchain_output(result, tools.ToolException)

        async def _arun(self, *args: Any, **arguments: Any) -> Any:
            result = await self.registry.acall(self.name, arguments, injected=self.injected)
            return _langchain_output(result, tools.ToolException)

    return ToolgenTool


def _langchain_output(result: ToolResult, exception: type[Exception]) -> Any:
    """A ToolMessage's content: the text a model reads, or with images or documents a list of
    LangChain's standard content blocks; a failure raised as `exception`, with its message."""
    if result.failure is not None:
        raise exception(result.text())
    if not answers.has_media(result):
        return result.text()
    blocks: list[dict[str, Any]] = []
    for piece in answers.pieces(result):
        if isinstance(piece, (Image, Document)):
            kind = "image" if isinstance(piece, Image) else "file"
            blocks.append({"type": kind, "base64": piece.base64(), "mime_type": piece.mime_type})
        else:
            blocks.append({"type": "text", "text": _text(piece)})
    return blocks
