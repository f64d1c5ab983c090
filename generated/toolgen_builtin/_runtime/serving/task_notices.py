# Part of toolgen's runtime, copied verbatim into generated packages (edit toolgen, not a copy).
"""Task status notifications: the client that created a task is told each change of its
status (or status message) until it ends, where the transport has a channel to it after
the `tools/call` that created it has been answered: stdio, and HTTP with `--stateful` (a
stateless HTTP server holds no stream to the client once it has answered; the client polls
`tasks/get`, and any server sharing the store answers it).

The watch follows the task's record in the store (`Board.changes`: told by the store as each
change is put, tasks_watch.py), so a change made by any process (a worker, another server
cancelling it) reaches the client through the server it created the task on. On 2025-11-25 the notification is `notifications/tasks/status`, the
Task as `tasks/get` gives it (mcp_types' TaskStatusNotification).

On 2026-07-28 (the tasks extension) a client asks for them: `subscriptions/listen` with
`notifications.taskIds` (the request opted in to the extension, else -32021), on any server
sharing the store, whichever created the tasks. The stream is acknowledged with the task ids
honoured, then carries `notifications/tasks` (the DetailedTask, as `tasks/get` gives it):
each task's state at once, then each change, and ends (its result) once every task ended.
Either way only the tasks of the caller (their creator's subject, where the server
authenticates) are followed.
"""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable
from contextlib import aclosing
from typing import Any

import mcp_types as types
from mcp.server.context import ServerRequestContext
from pydantic import BaseModel

from . import tasks_modern as modern
from .calling import caller_of, named
from .taskwork import Board, TaskMissing

SUBSCRIPTION = "io.modelcontextprotocol/subscriptionId"  # `_meta` key of a listen stream's frames

_WATCHING: set[asyncio.Task[None]] = set()  # held until they end (the loop keeps weak refs)


class _Notice(BaseModel):
    """A notification as the session sends one (its method and params, dumped as they are)."""

    method: str
    params: dict[str, Any]


def watch(
    ctx: ServerRequestContext[Any],
    board: Board,
    record: dict[str, Any],
    method: str,
    shape: Callable[[dict[str, Any]], dict[str, Any]],
) -> bool:
    """Tell the request's client of each change of `record`'s task as `method` with
    `shape(record)`, when its connection outlives the request. Whether it will."""
    session = ctx.session
    if not session.can_send_request:  # stateless HTTP: no stream once the call is answered
        return False

    async def send(params: dict[str, Any]) -> None:
        notice: Any = _Notice(method=method, params=params)
        await session.send_notification(notice)

    task = asyncio.get_running_loop().create_task(_follow(board, record, send, shape))
    _WATCHING.add(task)
    task.add_done_callback(_WATCHING.discard)
    return True


def listener(board: Board) -> Any:
    """The `subscriptions/listen` handler of 2026-07-28's task notifications (see above)."""

    async def listen(
        ctx: ServerRequestContext[Any], params: types.SubscriptionsListenRequestParams
    ) -> types.SubscriptionsListenResult:
        asked = (params.notifications.model_extra or {}).get("taskIds") or []
        ids = [task_id for task_id in asked if isinstance(task_id, str)]
        if ids and not modern.opted_in(ctx):
            raise modern.missing("task status notifications are of the tasks extension")
        meta = {SUBSCRIPTION: ctx.request_id}
        records = []
        for task_id in ids:
            try:
                records.append(await board.get(task_id, named(caller_of(ctx))))
            except TaskMissing:
                continue  # never honoured: nothing will come of it

        async def send(method: str, payload: dict[str, Any]) -> None:
            notice: Any = _Notice(method=method, params={**payload, "_meta": meta})
            await ctx.session.send_notification(notice, related_request_id=ctx.request_id)

        honoured = {"taskIds": [r["taskId"] for r in records]} if records else {}
        await send("notifications/subscriptions/acknowledged", {"notifications": honoured})

        async def notify(payload: dict[str, Any]) -> None:
            await send("notifications/tasks", payload)

        await asyncio.gather(*(_follow(board, r, notify, modern.detailed, True) for r in records))
        return types.SubscriptionsListenResult(_meta=meta)

    return listen


async def _follow(
    board: Board,
    record: dict[str, Any],
    send: Callable[[dict[str, Any]], Awaitable[None]],
    shape: Callable[[dict[str, Any]], dict[str, Any]],
    first: bool = False,
) -> None:
    """Each change of the task since `record` (`first`: and `record`) sent, until it ends."""
    seen = None if first else _state(record)
    try:
        async with aclosing(board.changes(record["taskId"])) as changes:
            async for now in changes:
                if _state(now) != seen:
                    seen = _state(now)
                    await send(shape(now))
    except Exception:  # noqa: BLE001 - the store is down (the client polls), or the client is gone
        return


def _state(record: dict[str, Any]) -> tuple[Any, ...]:
    return record["status"], record.get("statusMessage"), record.get("questions")
