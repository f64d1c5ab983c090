# Part of toolgen's runtime, copied verbatim into generated packages (edit toolgen, not a copy).
"""MCP tasks (2025-11-25) served: a `tools/call` that carries `task` is answered at once with
the task (`CreateTaskResult`); `tasks/get`, `tasks/result`, `tasks/cancel` and `tasks/list`
follow it. The records and the runs are taskwork.py's: any server sharing the store answers
for any task, wherever it runs.

The SDK defines the types but dispatches none of it: the methods are registered on the
server, and a middleware answers a task-augmented `tools/call` (whose result is not a
`CallToolResult`, which the SDK would refuse) and adds `tasks` to the capabilities the
server declares on `initialize`. On 2026-07-28 tasks are an extension, served by the same
methods over the same records (tasks_modern.py has its shapes): a handler answers in the
era of the request. A task is its creator's: the authenticated subject that created it (none
without authentication) is the only one its methods answer for it, another told of no such
task, and `tasks/list` lists the caller's own.
"""

from __future__ import annotations

from typing import Any

import mcp_types as types
from mcp.server.context import CallNext, HandlerResult, ServerRequestContext
from mcp.server.lowlevel import Server
from mcp.shared.exceptions import MCPError
from mcp_types.version import MODERN_PROTOCOL_VERSIONS

from ..calls.registry import Registry
from . import scopes, task_notices
from . import tasks_modern as modern
from .calling import caller_of, named
from .taskwork import FINAL, Board, TaskMissing, public

RELATED = "io.modelcontextprotocol/related-task"  # `_meta` key naming a result's task
CAPABILITY = types.ServerTasksCapability(
    list=types.TasksListCapability(),
    cancel=types.TasksCancelCapability(),
    requests=types.ServerTasksRequestsCapability(
        tools=types.TasksToolsCapability(call=types.TasksCallCapability())
    ),
)


def serve_tasks(server: Server[Any], registry: Registry, board: Board | None = None) -> Board:
    """Serve `registry`'s calls as tasks on `server` (a Board of the registry unless given)."""
    board = Board(registry) if board is None else board

    async def get(ctx: ServerRequestContext[Any], params: types.GetTaskRequestParams) -> Any:
        era = _modern(ctx, "tasks/get")
        record = await _found(board.get(params.task_id, _owner(ctx)))
        return modern.detailed(record) if era else types.GetTaskResult(**public(record))

    async def update(ctx: ServerRequestContext[Any], params: modern.UpdateTaskParams) -> Any:
        if not _modern(ctx, "tasks/update"):
            raise MCPError(types.METHOD_NOT_FOUND, "tasks/update is of MCP 2026-07-28's tasks")
        await _found(board.get(params.task_id, _owner(ctx)))
        for key, given in params.input_responses.items():  # unknown or answered keys: ignored
            try:
                reply = types.ElicitResult.model_validate(given)
            except ValueError:
                raise MCPError(
                    types.INVALID_PARAMS, f"inputResponses[{key!r}]: not an elicitation result"
                ) from None
            await board.answer(params.task_id, key, reply)
        return {}

    async def result(
        ctx: ServerRequestContext[Any], params: types.GetTaskPayloadRequestParams
    ) -> dict[str, Any]:
        record = await _found(board.result(params.task_id, _owner(ctx)))
        answer: dict[str, Any] = dict(record.get("result") or {})
        answer["_meta"] = {**answer.get("_meta", {}), RELATED: {"taskId": params.task_id}}
        return answer

    async def cancel(ctx: ServerRequestContext[Any], params: types.CancelTaskRequestParams) -> Any:
        era = _modern(ctx, "tasks/cancel")
        try:
            record = await _found(board.cancel(params.task_id, _owner(ctx)))
        except ValueError as error:
            if era:
                return {}  # 2026-07-28: an acknowledgement, whatever the task's end
            raise MCPError(types.INVALID_PARAMS, f"cannot cancel: {error}") from None
        if era:
            return {}
        return types.CancelTaskResult(**public(record))

    async def listed(
        ctx: ServerRequestContext[Any], params: types.PaginatedRequestParams
    ) -> types.ListTasksResult:
        tasks = [types.Task(**public(record)) for record in await board.listed(_owner(ctx))]
        return types.ListTasksResult(tasks=tasks)

    server.add_request_handler("tasks/get", types.GetTaskRequestParams, get)
    server.add_request_handler("tasks/result", types.GetTaskPayloadRequestParams, result)
    server.add_request_handler("tasks/cancel", types.CancelTaskRequestParams, cancel)
    server.add_request_handler("tasks/update", modern.UpdateTaskParams, update)
    server.extensions[modern.EXTENSION] = {}  # advertised in server/discover
    listen = task_notices.listener(board)  # 2026-07-28's task status notifications
    server.add_request_handler(
        "subscriptions/listen", types.SubscriptionsListenRequestParams, listen
    )
    server.add_request_handler("tasks/list", types.PaginatedRequestParams, listed)
    server.middleware.append(_Tasked(registry, board))
    return board


class _Tasked:
    """A task-augmented `tools/call` answered with its task; `tasks` in the capabilities."""

    def __init__(self, registry: Registry, board: Board) -> None:
        self.registry, self.board = registry, board
        self.needs = scopes.needs_of(registry)

    async def __call__(self, ctx: ServerRequestContext[Any], call_next: CallNext) -> HandlerResult:
        if ctx.method == "initialize":
            answer = await call_next(ctx)
            if isinstance(answer, dict) and isinstance(answer.get("capabilities"), dict):
                tasks = CAPABILITY.model_dump(by_alias=True, exclude_none=True)
                answer = {**answer, "capabilities": {**answer["capabilities"], "tasks": tasks}}
            return answer
        params = ctx.params if isinstance(ctx.params, dict) else {}
        name = params.get("name")
        if ctx.method != "tools/call" or not isinstance(name, str):
            return await call_next(ctx)
        if name not in self.registry:
            return await call_next(ctx)  # the server's own error for a tool it does not have
        caller = caller_of(ctx)
        if caller is not None and caller.missing(self.needs(name, params.get("arguments") or {})):
            return await call_next(ctx)  # refused by the call's own handler, naming the scopes
        tool, arguments = self.registry.forwarded(name, params.get("arguments") or {})
        if tool not in self.registry:  # call_tool naming no tool: its own error, as a call
            return await call_next(ctx)
        support = self.registry.info(tool).task
        if ctx.protocol_version in MODERN_PROTOCOL_VERSIONS:
            return await self._modern(ctx, call_next, tool, arguments, support)
        asked = params.get("task")
        if not isinstance(asked, dict):
            if support == "required":  # MCP: -32601 for a call that must be a task
                message = (
                    f"tool {tool!r} runs only as a task: call it with `task` (its "
                    "taskSupport is required)"
                )
                raise MCPError(types.METHOD_NOT_FOUND, message)
            return await call_next(ctx)
        if support == "forbidden":
            message = f"tool {tool!r} does not run as a task (its taskSupport is forbidden)"
            raise MCPError(types.METHOD_NOT_FOUND, message)
        ttl = asked.get("ttl")
        ttl_ms = ttl if isinstance(ttl, int) else None
        record = await self.board.create(tool, arguments, ttl_ms, owner=_owner(ctx))
        task_notices.watch(ctx, self.board, record, "notifications/tasks/status", public)
        return {"task": public(record)}

    async def _modern(
        self,
        ctx: ServerRequestContext[Any],
        call_next: CallNext,
        tool: str,
        arguments: Any,
        support: str | None,
    ) -> HandlerResult:
        """2026-07-28: a task for a client that opted in (tasks_modern.py)."""
        params = ctx.params if isinstance(ctx.params, dict) else {}
        if not modern.opted_in(ctx):
            if support == "required":
                raise modern.missing(f"tool {tool!r} runs only as a task")
            return await call_next(ctx)
        if support == "forbidden" or "requestState" in params:  # an answer to a question
            return await call_next(ctx)
        record = await self.board.create(tool, arguments, None, asks=True, owner=_owner(ctx))
        return modern.handle(record)


def _modern(ctx: ServerRequestContext[Any], method: str) -> bool:
    """Whether the request is of 2026-07-28 (whose task methods need the opt-in)."""
    if ctx.protocol_version not in MODERN_PROTOCOL_VERSIONS:
        return False
    if not modern.opted_in(ctx):
        raise modern.missing(f"{method} is of the tasks extension")
    return True


def _owner(ctx: ServerRequestContext[Any]) -> str | None:
    """Whose tasks the request may see: its authenticated subject (None without one)."""
    return named(caller_of(ctx))


async def _found(pending: Any) -> dict[str, Any]:
    try:
        record: dict[str, Any] = await pending
    except TaskMissing as missing:
        raise MCPError(types.INVALID_PARAMS, str(missing)) from None
    return record


__all__ = ["CAPABILITY", "FINAL", "RELATED", "serve_tasks"]
