"""`--from mcp-server`: the tools a running MCP server lists, read with the official MCP SDK.

A command is launched as a stdio server (split as a shell would, run with this process's
environment and folder); an `http(s)://` URL is reached over streamable HTTP. Every page of
`tools/list` is read (cursors followed) under one deadline, and each tool goes on as a
`tools/list` item of the `mcp` format, so normalisation, notes and refusals are exactly
those of `--from mcp`. Whatever stops the listing is one line: the SDK's exception groups
are unwrapped to their cause, with the server's last line on stderr when it wrote one.
"""

from __future__ import annotations

import logging
import math
import os
import re
import shlex
import tempfile
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, TextIO
from urllib.parse import urlsplit, urlunsplit

from toolgen import __version__
from toolgen.importers.common import SourceError, show

if TYPE_CHECKING:
    from mcp import Client

DEFAULT_TIMEOUT = 30.0
URL = re.compile(r"https?://", re.IGNORECASE)


@dataclass
class Listing:
    source: str  # the command, or the URL without credentials: what headers and messages show
    server: str  # the server's name and version, as it introduced itself
    tools: list[dict[str, Any]]  # `tools/list` items, as the server sent them


def list_tools(target: str, timeout: float = DEFAULT_TIMEOUT) -> Listing:
    """Every tool `target` (a command or a URL) lists, within `timeout` seconds."""
    try:
        import anyio
        import mcp
    except ImportError:
        raise SourceError(
            "--from mcp-server needs the MCP SDK: pip install 'toolgen[mcp]'"
        ) from None
    source = shown(target)
    if not logging.getLogger(
        "mcp"
    ).handlers:  # the SDK logs what it cannot parse, traceback and all:
        logging.getLogger("mcp").addHandler(logging.NullHandler())  # the error line says it instead
    with tempfile.TemporaryFile("w+", encoding="utf-8", errors="replace") as errlog:
        server, session = _server(mcp, target, errlog), _Session(source, timeout)
        try:
            listing = anyio.run(session.run, server)
        except Exception as exc:  # noqa: BLE001 - the SDK raises transport, protocol and validation errors alike
            raise SourceError(
                _one_line(_explain(source, _cause(exc)) + session.context(errlog))
            ) from None
        if session.timed_out:
            raise SourceError(
                _one_line(
                    f"{source}: no list of tools within {timeout:g} s (--timeout sets the limit)"
                    + session.context(errlog)
                )
            )
    return listing


def shown(target: str) -> str:
    """The target as headers and messages show it: a URL loses its credentials and query."""
    if not URL.match(target):
        return target
    parts = urlsplit(target)
    return urlunsplit((parts.scheme, parts.netloc.rpartition("@")[2], parts.path, "", ""))


def _server(mcp: Any, target: str, errlog: TextIO) -> Any:
    """What `mcp.Client` connects to: the URL, or the command's stdio transport (stderr kept in `errlog`)."""
    if URL.match(target):
        return target
    try:
        argv = shlex.split(target)
    except ValueError as exc:
        raise SourceError(f"cannot read the command {target!r}: {exc}") from None
    if not argv:
        raise SourceError("--from mcp-server needs a command to run or a URL")
    from mcp.client.stdio import stdio_client

    parameters = mcp.StdioServerParameters(command=argv[0], args=argv[1:], env=dict(os.environ))
    return stdio_client(parameters, errlog=errlog)


class _Session:
    """One connection: connect, list every page, remember what the server said that was not MCP."""

    def __init__(self, source: str, timeout: float) -> None:
        self.source, self.timeout = source, timeout
        self.timed_out = False
        self.stray: str | None = (
            None  # the first thing on the server's stdout that was not JSON-RPC
        )

    async def run(self, server: Any) -> Listing:
        import anyio
        from mcp import Client, Implementation

        client = Client(
            server,
            client_info=Implementation(name="toolgen", version=__version__),
            cache=None,
            message_handler=self._watch,
        )
        tools: list[dict[str, Any]] = []
        name = ""
        with anyio.CancelScope(deadline=anyio.current_time() + self.timeout) as scope:
            async with client:
                info = client.server_info
                name = " ".join(part for part in (info.name, info.version) if part) if info else ""
                tools = await self._pages(client)
                scope.deadline = math.inf  # the SDK bounds its own shutdown of the server
        self.timed_out = scope.cancelled_caught
        return Listing(self.source, name, tools)

    async def _pages(self, client: Client) -> list[dict[str, Any]]:
        tools: list[dict[str, Any]] = []
        cursor: str | None = None
        seen: set[str] = set()
        while True:
            page = await client.list_tools(cursor=cursor)
            tools += [
                tool.model_dump(mode="json", by_alias=True, exclude_unset=True)
                for tool in page.tools
            ]
            cursor = page.next_cursor
            if cursor is None:
                return tools
            if cursor in seen:
                raise SourceError(
                    f"{self.source}: its tools/list pages never end (the cursor {cursor!r} came twice)"
                )
            seen.add(cursor)

    async def _watch(self, message: Any) -> None:
        """The SDK hands over what it could not read as a message: keep the first, for the error."""
        if isinstance(message, Exception) and self.stray is None:
            errors = getattr(message, "errors", None)  # pydantic's ValidationError holds the line
            found = (errors() or [{}])[0].get("input") if callable(errors) else None
            self.stray = show(found, 60) if isinstance(found, str) else type(message).__name__

    def context(self, errlog: TextIO) -> str:
        """What the server wrote that explains a failure: stray stdout, the last line on stderr."""
        parts = [f"it wrote {self.stray} on stdout, which is not JSON-RPC"] if self.stray else []
        errlog.seek(0)
        last = next(
            (line.strip() for line in reversed(errlog.read()[-4000:].splitlines()) if line.strip()),
            "",
        )
        if last:
            parts.append(f"its stderr ends with: {last[:200]}")
        return "".join(f"; {part}" for part in parts)


def _cause(exc: BaseException) -> BaseException:
    """The first exception inside the SDK's (nested) exception groups."""
    while isinstance(exc, BaseExceptionGroup) and exc.exceptions:
        exc = exc.exceptions[0]
    return exc


def _explain(source: str, exc: BaseException) -> str:
    from mcp import MCPError
    from pydantic import ValidationError

    if isinstance(exc, SourceError):
        return str(exc)
    if isinstance(exc, MCPError):
        return f"{source} did not answer as an MCP server: {exc.error.message} (MCP error {exc.error.code})"
    if isinstance(exc, ValidationError):
        first = exc.errors()[0]
        where = ".".join(str(part) for part in first["loc"])
        return f"{source}: its answer is not valid MCP: {where}: {first['msg']}"
    if isinstance(exc, OSError) and not URL.match(source):
        return f"cannot start {source!r}: {exc.strerror or exc}"
    return f"cannot list the tools of {source}: {type(exc).__name__}: {exc}"


def _one_line(text: str) -> str:
    return " ".join(text.split())
