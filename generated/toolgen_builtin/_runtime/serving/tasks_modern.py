# Part of toolgen's runtime, copied verbatim into generated packages (edit toolgen, not a copy).
"""MCP tasks on 2026-07-28: the extension `io.modelcontextprotocol/tasks` (SEP-2663), over the
same records and workers as 2025-11-25's tasks (taskwork.py; tasks.py serves both).

A client opts in per request, naming the extension in its request's client capabilities
(`_meta["io.modelcontextprotocol/clientCapabilities"].extensions`); the server advertises it
in `server/discover`. A `tools/call` of an opted-in client is answered with a task handle
(`resultType: "task"`: the Task, `ttlMs`, `pollIntervalMs`) unless the tool's `task` is
`forbidden`; a client that did not opt in gets the result, and a `required` tool refuses it
with -32021 (Missing Required Client Capability, naming the extension). `tasks/get` answers
the task with what its status carries: `result` (completed: every tool result, a failure's
`isError` too), `error` (failed: the JSON-RPC error of a call that could give no result),
`inputRequests` (input_required: the call's question, as an elicitation); `tasks/update`
answers it, and the call resumes on a worker; `tasks/cancel` is acknowledged. Each needs the
opt-in too. `notifications/tasks` carries the same DetailedTask (notices.py).
"""

from __future__ import annotations

from typing import Any

import mcp_types as types
from mcp.server.context import ServerRequestContext
from mcp.shared.exceptions import MCPError
from pydantic import Field

EXTENSION = "io.modelcontextprotocol/tasks"
_CAPABILITIES = "io.modelcontextprotocol/clientCapabilities"  # the request's, in `_meta`


class UpdateTaskParams(types.RequestParams):
    """`tasks/update`: the client's answers to the task's outstanding input requests."""

    task_id: str
    input_responses: dict[str, Any] = Field(default_factory=dict)


def opted_in(ctx: ServerRequestContext[Any]) -> bool:
    """Whether the request declares the tasks extension among its client capabilities."""
    declared = getattr(ctx.session.client_capabilities, "extensions", None)
    if isinstance(declared, dict) and EXTENSION in declared:
        return True
    params = ctx.params if isinstance(ctx.params, dict) else {}
    meta = params.get("_meta") if isinstance(params.get("_meta"), dict) else {}
    capabilities = meta.get(_CAPABILITIES) if isinstance(meta, dict) else None
    extensions = capabilities.get("extensions") if isinstance(capabilities, dict) else None
    return isinstance(extensions, dict) and EXTENSION in extensions


def missing(why: str) -> MCPError:
    """-32021, naming the extension the client must declare."""
    data: dict[str, Any] = {"requiredCapabilities": {"extensions": {EXTENSION: {}}}}
    message = f"{why}: declare the client capability extension {EXTENSION!r} on the request"
    return MCPError(types.MISSING_REQUIRED_CLIENT_CAPABILITY, message, data=data)


def handle(record: dict[str, Any]) -> dict[str, Any]:
    """The CreateTaskResult of a task just created."""
    return {"resultType": "task", **_task(record)}


def detailed(record: dict[str, Any]) -> dict[str, Any]:
    """The task as `tasks/get` and `notifications/tasks` carry it (DetailedTask)."""
    task = _task(record)
    status, result = record["status"], record.get("result")
    if status in ("completed", "failed") and result is not None:
        task.update(status="completed", result=result)  # a tool's failure is a tool result
    elif status == "failed":
        message = record.get("statusMessage") or "the call ended without a result"
        task["error"] = {"code": types.INTERNAL_ERROR, "message": message}
    elif status == "input_required":
        task["inputRequests"] = dict(record.get("asked") or {})
    return task


def _task(record: dict[str, Any]) -> dict[str, Any]:
    task = {
        "taskId": record["taskId"],
        "status": record["status"],
        "createdAt": record["createdAt"],
        "lastUpdatedAt": record["lastUpdatedAt"],
        "ttlMs": record.get("ttl"),
        "pollIntervalMs": record.get("pollInterval"),
    }
    if record.get("statusMessage") is not None:
        task["statusMessage"] = record["statusMessage"]
    return task


__all__ = ["EXTENSION", "UpdateTaskParams", "detailed", "handle", "missing", "opted_in"]
