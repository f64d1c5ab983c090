# Part of toolgen's runtime, copied verbatim into generated packages (edit toolgen, not a copy).
"""A call started as an MCP task (2025-11-25) from the typed client (remote.py): `start` sends
`tools/call` with `task` and gives a handle to follow it (`status`, `result`, `outcome`,
`cancel`), each a request of its own, answered by any server that shares the task's store.

The SDK has the task types but does not send a task-augmented call (it would check the
answer as a `CallToolResult`); the call goes through its dispatcher as sent, the `tasks/*`
requests through its session. Tasks are of the handshake revisions: on a connection that
speaks 2026-07-28 `start` is refused (connect with `protocol="legacy"`).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import mcp_types as types
from mcp_types.version import MODERN_PROTOCOL_VERSIONS

from ..errors import ToolCallError
from ..results.result import ToolResult
from . import failures, reading

Value = Callable[[ToolResult, type[Any]], Any]  # remote.py's: a result's value, or raised


class TaskHandle:
    """A call running as a task on the server: `task_id`, `tool` (`remote`: the connection,
    remote.py's Remote)."""

    def __init__(self, remote: Any, tool: str, task: types.Task, value: Value) -> None:
        self.remote, self.tool, self.task_id = remote, tool, task.task_id
        self.started, self._value = task, value

    async def status(self) -> types.Task:
        """The task as the server has it now (`status`: working, completed, failed,
        cancelled; `status_message`)."""
        request = types.GetTaskRequest(params=types.GetTaskRequestParams(task_id=self.task_id))
        found = await self._sent(request, types.GetTaskResult)
        return types.Task.model_validate(found.model_dump())

    async def outcome(self) -> ToolResult:
        """The whole result once the task has ended (a failure too, never raised), as
        `remote.call` gives it."""
        params = types.GetTaskPayloadRequestParams(task_id=self.task_id)
        request = types.GetTaskPayloadRequest(params=params)
        info = self.remote.info(self.tool)
        try:
            answer = await self.remote.client.session.send_request(request, types.CallToolResult)
            return reading.read(info, answer, self.remote.limits)
        except Exception as error:  # the SDK's, the transport's: a failure with its kind
            failure = failures.failure(error, self.remote.watch)
            return ToolResult(info.name, failure=failure, exception=error)

    async def result(self) -> Any:
        """The Result model once the task has ended, as the tool's method gives it; a
        failure raises ToolCallError with its kind."""
        return self._value(await self.outcome(), self.remote.info(self.tool).result)

    async def cancel(self) -> types.Task:
        """Cancel the task (the call stops where it runs); the task as it ended."""
        params = types.CancelTaskRequestParams(task_id=self.task_id)
        found = await self._sent(types.CancelTaskRequest(params=params), types.CancelTaskResult)
        return types.Task.model_validate(found.model_dump())

    async def _sent(self, request: Any, answer: type[Any]) -> Any:
        try:
            return await self.remote.client.session.send_request(request, answer)
        except Exception as error:
            raise _raised(self.tool, error, self.remote) from None


async def start(remote: Any, name: str, sent: Any, ttl_ms: int | None, value: Value) -> TaskHandle:
    """`tools/call` of `name` with `sent` (validated arguments) as a task; its handle."""
    info = remote.info(name)
    if not handshake(remote):
        message = (
            f"tool {info.name!r}: tasks are of MCP's handshake revisions, and this connection "
            f"speaks {remote.client.protocol_version}: connect with protocol='legacy'"
        )
        raise ToolCallError(info.name, "unavailable", message, False, 0)
    params = {
        "name": info.name,
        "arguments": sent,
        "task": {} if ttl_ms is None else {"ttl": ttl_ms},
    }
    dispatcher: Any = remote.client.session._dispatcher  # noqa: SLF001 - see the docstring
    try:
        raw = await dispatcher.send_raw_request("tools/call", params, {})
        created = types.CreateTaskResult.model_validate(raw)
    except Exception as error:
        raise _raised(info.name, error, remote) from None
    return TaskHandle(remote, info.name, created.task, value)


def handshake(remote: Any) -> bool:
    """Whether the connection speaks a handshake revision (where tasks are)."""
    return remote.client.protocol_version not in MODERN_PROTOCOL_VERSIONS


def _raised(tool: str, error: Exception, remote: Any) -> ToolCallError:
    """What the SDK raised (an unknown or expired task: the server's message) as the
    client's error."""
    failure = failures.failure(error, remote.watch)
    return ToolCallError(tool, failure.kind, failure.message, failure.retryable, 1)
