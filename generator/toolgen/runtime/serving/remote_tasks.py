# Part of toolgen's runtime, copied verbatim into generated packages (edit toolgen, not a copy).
"""A call started as an MCP task from the typed client (remote.py): `start` sends `tools/call`
as a task and gives a handle to follow it (`status`, `result`, `outcome`, `cancel`), each a
request of its own, answered by any server that shares the task's store. Both eras:

- 2025-11-25: `tools/call` with `task`; `tasks/get`, `tasks/result` (waits on the server),
  `tasks/cancel`.
- 2026-07-28, the extension `io.modelcontextprotocol/tasks`: the request opts in (the
  extension among its client capabilities: only the task's requests, so a plain call stays
  plain) and is answered with the task (`resultType: "task"`); `tasks/get` is polled at the
  task's `pollIntervalMs` until it ends, with its `result`; a task waiting `input_required`
  is answered through `tasks/update` with the connection's `approve`/`answer` (without
  them, the outcome is the failure `suspended`, and the task waits on).

The SDK has the handshake's task types but sends neither era's task-augmented call (it would
check the answer as a `CallToolResult`), nor the extension's methods: those go through its
dispatcher as stamped by its session (the era's envelope), the handshake's `tasks/*`
requests through its session.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from typing import Any

import mcp_types as types
from mcp_types.version import MODERN_PROTOCOL_VERSIONS

from ..errors import ToolCallError
from ..results.result import ToolFailure, ToolResult
from . import failures, reading

Value = Callable[[ToolResult, type[Any]], Any]  # remote.py's: a result's value, or raised
EXTENSION = "io.modelcontextprotocol/tasks"
_CAPABILITIES = "io.modelcontextprotocol/clientCapabilities"


class TaskHandle:
    """A call running as a task on the server: `task_id`, `tool` (`remote`: the connection,
    remote.py's Remote)."""

    def __init__(self, remote: Any, tool: str, task: types.Task, value: Value) -> None:
        self.remote, self.tool, self.task_id = remote, tool, task.task_id
        self.started, self._value = task, value
        self.modern = not handshake(remote)

    def on(self, remote: Any) -> TaskHandle:
        """The same task, followed through another connection (`tools.remote` of another
        `connect`: any server sharing the task's store answers for it)."""
        return TaskHandle(remote, self.tool, self.started, self._value)

    async def status(self) -> types.Task:
        """The task as the server has it now (`status`: working, input_required, completed,
        failed, cancelled; `status_message`)."""
        if self.modern:
            return _task(await self._get())
        request = types.GetTaskRequest(params=types.GetTaskRequestParams(task_id=self.task_id))
        found = await self._sent(request, types.GetTaskResult)
        return types.Task.model_validate(found.model_dump())

    async def outcome(self) -> ToolResult:
        """The whole result once the task has ended (a failure too, never raised), as
        `remote.call` gives it."""
        info = self.remote.info(self.tool)
        try:
            if self.modern:
                return await self._polled()
            params = types.GetTaskPayloadRequestParams(task_id=self.task_id)
            request = types.GetTaskPayloadRequest(params=params)
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
        """Cancel the task (the call stops where it runs); the task as it is then."""
        if self.modern:
            try:
                await sent(self.remote, "tasks/cancel", {"taskId": self.task_id})
            except Exception as error:
                raise _raised(self.tool, error, self.remote) from None
            return await self.status()
        params = types.CancelTaskRequestParams(task_id=self.task_id)
        found = await self._sent(types.CancelTaskRequest(params=params), types.CancelTaskResult)
        return types.Task.model_validate(found.model_dump())

    async def _get(self) -> dict[str, Any]:
        try:
            return await sent(self.remote, "tasks/get", {"taskId": self.task_id})
        except Exception as error:
            raise _raised(self.tool, error, self.remote) from None

    async def _polled(self) -> ToolResult:
        """2026-07-28: `tasks/get` until the task ends, its questions answered on the way."""
        info = self.remote.info(self.tool)
        answered: set[str] = set()
        while True:
            found = await sent(self.remote, "tasks/get", {"taskId": self.task_id})
            status = found.get("status")
            if status == "completed":
                answer = types.CallToolResult.model_validate(found.get("result") or {})
                return reading.read(info, answer, self.remote.limits)
            if status in ("failed", "cancelled"):
                error = found.get("error") or {}
                message = error.get("message") or found.get("statusMessage") or str(status)
                kind = "cancelled" if status == "cancelled" else "internal"
                return ToolResult(info.name, failure=ToolFailure(kind, str(message), False))
            asked = {k: v for k, v in (found.get("inputRequests") or {}).items()}
            if status == "input_required" and not answered.issuperset(asked):
                if self.remote.elicit is None:
                    message = f"{found.get('statusMessage') or 'the task needs the user'}; "
                    message += "connect with approve= or answer= to answer it"
                    return ToolResult(info.name, failure=ToolFailure("suspended", message, False))
                replies = {}
                for key, request in asked.items():
                    if key not in answered:
                        params = types.ElicitRequestFormParams.model_validate(request["params"])
                        reply = await self.remote.elicit(None, params)
                        replies[key] = reply.model_dump(by_alias=True, exclude_none=True)
                answered.update(replies)
                await sent(
                    self.remote, "tasks/update", {"taskId": self.task_id, "inputResponses": replies}
                )
                continue
            await asyncio.sleep((found.get("pollIntervalMs") or 500) / 1000)

    async def _sent(self, request: Any, answer: type[Any]) -> Any:
        try:
            return await self.remote.client.session.send_request(request, answer)
        except Exception as error:
            raise _raised(self.tool, error, self.remote) from None


async def start(
    remote: Any, name: str, arguments: Any, ttl_ms: int | None, value: Value
) -> TaskHandle:
    """`tools/call` of `name` with `arguments` (validated) as a task; its handle."""
    info = remote.info(name)
    params: dict[str, Any] = {"name": info.name, "arguments": arguments}
    try:
        if handshake(remote):
            params["task"] = {} if ttl_ms is None else {"ttl": ttl_ms}
            dispatcher: Any = remote.client.session._dispatcher  # noqa: SLF001 - see the docstring
            raw = await dispatcher.send_raw_request("tools/call", params, {})
            task = types.CreateTaskResult.model_validate(raw).task
        else:
            raw = await sent(remote, "tools/call", params)
            if raw.get("resultType") != "task":
                message = f"tool {info.name!r}: the server answered the call without a task"
                raise ToolCallError(info.name, "invalid_result", message, False, 1)
            task = _task(raw)
    except ToolCallError:
        raise
    except Exception as error:
        raise _raised(info.name, error, remote) from None
    return TaskHandle(remote, info.name, task, value)


async def sent(remote: Any, method: str, params: dict[str, Any]) -> dict[str, Any]:
    """A request of the tasks extension (2026-07-28): the session's envelope, with the
    extension among this request's client capabilities; `Mcp-Name` the task it is about."""
    session: Any = remote.client.session
    data: dict[str, Any] = {"method": method, "params": dict(params)}
    options: dict[str, Any] = {}
    session._stamp(data, options)  # noqa: SLF001 - see the module's docstring
    meta = data["params"].setdefault("_meta", {})
    capabilities = dict(meta.get(_CAPABILITIES) or {})
    capabilities["extensions"] = {**(capabilities.get("extensions") or {}), EXTENSION: {}}
    meta[_CAPABILITIES] = capabilities
    if "taskId" in params:
        options.setdefault("headers", {})["Mcp-Name"] = params["taskId"]
    timeout = session._session_read_timeout_seconds  # noqa: SLF001
    if timeout is not None:
        options["timeout"] = timeout
    answer: dict[str, Any] = await session._dispatcher.send_raw_request(  # noqa: SLF001
        method, data["params"], options
    )
    return answer


class SyncTaskHandle:
    """A TaskHandle for code that is not async (`connect_sync`): each method run to its end
    on the connection's loop."""

    def __init__(self, portal: Any, handle: TaskHandle) -> None:
        self.portal, self.handle = portal, handle
        self.task_id, self.tool, self.started = handle.task_id, handle.tool, handle.started

    def status(self) -> types.Task:
        task: types.Task = self.portal.call(self.handle.status)
        return task

    def outcome(self) -> ToolResult:
        result: ToolResult = self.portal.call(self.handle.outcome)
        return result

    def result(self) -> Any:
        return self.portal.call(self.handle.result)

    def cancel(self) -> types.Task:
        task: types.Task = self.portal.call(self.handle.cancel)
        return task


def handshake(remote: Any) -> bool:
    """Whether the connection speaks a handshake revision (2025-11-25's tasks)."""
    return remote.client.protocol_version not in MODERN_PROTOCOL_VERSIONS


def _task(found: dict[str, Any]) -> types.Task:
    """A 2026-07-28 task (`ttlMs`, `pollIntervalMs`) as the SDK's Task."""
    return types.Task(
        task_id=found["taskId"],
        status=found["status"],
        status_message=found.get("statusMessage"),
        created_at=found["createdAt"],
        last_updated_at=found["lastUpdatedAt"],
        ttl=found.get("ttlMs"),
        poll_interval=found.get("pollIntervalMs"),
    )


def _raised(tool: str, error: Exception, remote: Any) -> ToolCallError:
    """What the SDK raised (an unknown or expired task: the server's message) as the
    client's error."""
    failure = failures.failure(error, remote.watch)
    return ToolCallError(tool, failure.kind, failure.message, failure.retryable, 1)
