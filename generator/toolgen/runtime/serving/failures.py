# Part of toolgen's runtime, copied verbatim into generated packages (edit toolgen, not a copy).
"""What went wrong talking to an MCP server, as the failure kinds a caller handles (remote.py).

The SDK and its transports raise their own exceptions (`MCPError` with a JSON-RPC code, a
`RuntimeError` for a result its output schema refuses, httpx's and anyio's errors for a lost
connection; a 401 is "Server returned an error response"), and anyio's task groups wrap what leaves `connect()` in exception groups. Here
each becomes a `ToolFailure` with a kind: `timeout`, `unauthorized` (with the server's
reason), `unavailable`, `invalid_result`, `invalid_arguments` (refused by the server), or
`internal`; and a group is unwrapped to the one exception that ended the connection.
"""

from __future__ import annotations

import json
from collections.abc import AsyncIterator
from typing import Any

import httpx2
from pydantic import ValidationError

from ..errors import ToolArgumentsError, ToolCallError, short
from ..results.result import ToolFailure, ToolInfo

# JSON-RPC codes of the SDK (mcp_types): a request that timed out, a closed connection,
# arguments the server refused.
REQUEST_TIMEOUT, CONNECTION_CLOSED, INVALID_PARAMS = -32001, -32000, -32602
MAX_REASON_CHARS = 300  # of a 401's or 403's body, in the message


class ArgumentsRefused(ToolArgumentsError, ToolCallError):
    """Arguments refused before sending: a ToolArgumentsError (its issues and message) that
    is also a ToolCallError of kind `invalid_arguments`, so one `except` catches every
    failure of a call."""

    @classmethod
    def of(cls, error: ToolArgumentsError) -> ArgumentsRefused:
        refused = cls.__new__(cls)
        refused.__dict__.update(vars(error))
        refused.args = error.args
        refused.kind, refused.message = "invalid_arguments", str(error)
        refused.retryable, refused.attempts = False, 0
        return refused


class Watch:
    """What the HTTP client saw that the SDK does not say: the last 401 or 403, with the
    server's reason (the SDK says only "Server returned an error response"), and a tool's
    result cut off at `max_bytes` (an httpx response hook; the body of the answer to
    `tools/call`, its events included, is counted as it is read, never held whole past the
    limit)."""

    def __init__(self, max_bytes: int | None = None) -> None:
        self.max_bytes = max_bytes
        self.reason: str | None = None
        self.oversize: str | None = None

    async def __call__(self, response: Any) -> None:
        if response.status_code in (401, 403):
            await response.aread()
            self.reason = f"{response.status_code}: {_reason(response)}"
        elif self.max_bytes is not None and _calls_a_tool(response.request):
            response.stream = _Capped(response.stream, self, self.max_bytes)


def _calls_a_tool(request: Any) -> bool:
    """A `tools/call` request (the answers of others, a listing, are not a tool's result)."""
    try:
        sent = json.loads(request.content)
    except (ValueError, AttributeError, RuntimeError):
        return False
    return isinstance(sent, dict) and sent.get("method") == "tools/call"


def _reason(response: Any) -> str:
    text = response.text
    try:
        found = json.loads(text)
    except ValueError:
        found = None
    for key in ("error_description", "error", "message"):
        if isinstance(found, dict) and isinstance(found.get(key), str):
            text = found[key]
            break
    return short(" ".join(text.split()) or response.reason_phrase, MAX_REASON_CHARS)


class _Capped(httpx2.AsyncByteStream):
    """A response's body, counted as it is read; past `limit`, an error the SDK reports as a
    broken response, and `watch.oversize` says why."""

    def __init__(self, stream: Any, watch: Watch, limit: int) -> None:
        self.stream, self.watch, self.limit = stream, watch, limit

    async def __aiter__(self) -> AsyncIterator[bytes]:
        read = 0
        async for chunk in self.stream:
            read += len(chunk)
            if read > self.limit:
                self.watch.oversize = f"larger than the limit of {self.limit} bytes"
                raise httpx2.StreamError(f"the response is larger than {self.limit} bytes")
            yield chunk

    async def aclose(self) -> None:
        await self.stream.aclose()


def failure(error: BaseException, watch: Watch | None = None) -> ToolFailure:
    """The failure `error` (raised while calling, or connecting) means for the caller."""
    code = getattr(error, "code", None)
    message = str(error) or type(error).__name__
    if watch is not None and watch.reason is not None:
        reason, watch.reason = watch.reason, None  # the next request may be let in
        return ToolFailure("unauthorized", f"the server refused the request: {reason}")
    if watch is not None and watch.oversize is not None:
        size, watch.oversize = watch.oversize, None
        return ToolFailure("invalid_result", f"the server's result was refused: {size}")
    if code == REQUEST_TIMEOUT or isinstance(error, TimeoutError):
        return ToolFailure("timeout", f"no answer in time: {message}", retryable=True)
    if code == CONNECTION_CLOSED or _lost(error):
        return ToolFailure("unavailable", f"the connection to the server was lost: {message}")
    if code == INVALID_PARAMS:
        return ToolFailure("invalid_arguments", f"the server refused the arguments: {message}")
    if isinstance(error, (RuntimeError, RecursionError, ValidationError)) and code is None:
        # The SDK checks `structuredContent` against the tool's `outputSchema`, and an
        # answer against MCP's types (a content block of a type MCP does not define).
        return ToolFailure("invalid_result", f"the server's result was refused: {message}")
    return ToolFailure("internal", f"the server answered an error: {short(message, 500)}")


def _lost(error: BaseException) -> bool:
    """A transport's error: the connection refused, closed or broken (anyio, httpx, OS)."""
    if isinstance(error, (OSError, EOFError)):
        return True
    names = {c.__name__ for c in type(error).__mro__}
    module = type(error).__module__.split(".")[0]
    transport = {"ClosedResourceError", "BrokenResourceError", "EndOfStream", "TransportError"}
    return bool(names & transport) or module in ("httpx", "httpx2", "httpcore")


def leaf(error: BaseException, own: list[BaseException] | None = None) -> BaseException:
    """The exception that ended a connection, out of the groups anyio wraps it in: one of
    `own` (the caller's, raised inside `async with`) if there, else the first that is not a
    cancellation."""
    found: list[BaseException] = []
    pending = [error]
    while pending:
        current = pending.pop(0)
        if isinstance(current, BaseExceptionGroup):
            pending[:0] = list(current.exceptions)
        else:
            found.append(current)
    for candidate in found:
        if any(candidate is mine for mine in own or ()):
            return candidate
    for candidate in found:
        if type(candidate).__name__ not in ("CancelledError", "Cancelled"):
            return candidate
    return found[0] if found else error


def connecting(error: BaseException, watch: Watch, own: list[BaseException]) -> BaseException:
    """What leaving `connect()` raises for `error`: the caller's own exception (or a
    ToolCallError) as it was raised, out of any group; the SDK's or a transport's (the
    server could not be reached, a 401, the connection lost) as ToolCallError with its kind."""
    found = leaf(error, own)
    mine = any(found is exception for exception in own)
    if mine or isinstance(found, ToolCallError) or not isinstance(found, Exception):
        return found
    failed = failure(found, watch)
    raised = ToolCallError("", failed.kind, failed.message, failed.retryable, 0)
    raised.args = (f"{failed.kind}: {failed.message}",)  # no tool was called
    raised.__cause__ = found
    return raised


def positional(info: ToolInfo, given: Any) -> str:
    """The TypeError's message for arguments passed as something that is no mapping."""
    names = [f.alias or n for n, f in info.arguments.model_fields.items()]
    shown = ", ".join(f"{n}=..." for n in names) or "none"
    return (
        f"{info.name} takes its arguments as keywords ({shown}), or as one "
        f"{info.arguments.__name__} or mapping, not a {type(given).__name__}"
    )
