# Part of toolgen's runtime, copied verbatim into generated packages (edit toolgen, not a copy).
"""Long calls as tasks: each task's record in the registry's state store, its run on Docket
(docs/decisions/0013-a-task-engine-for-long-calls.md; tasks.py serves them over MCP).

A task is created with its record (tool, arguments, status `working`) and its id put on
Docket's queue; Docket carries nothing but the id. A worker takes the id, reads the record
and runs the call through the registry's `acall`, under every declared policy as a direct
call; a streaming tool's events become the task's status message; the result, as MCP has it,
is the final record. Every process that shares the store reads every task.

Where the queue is: with a shared store (Redis), Docket's queue is in the same Redis and
`python -m <package> worker` processes run the tasks (`work`); with the in-process store, a
Docket in memory and a worker on the serving process's own loop.

A worker that dies mid-call (even SIGKILL) stops renewing its lease; after `redelivery_s`
Docket gives the task to another worker, saying it is a redelivery: an `idempotent` tool's
call is run again, any other's task ends `failed` with `LOST` (the call may have had
effects: it is never run twice). Cancelling a task ends its record `cancelled` and cancels
the running call (the implementation is cancelled, or told, as for any cancelled `acall`).

The record is JSON: MCP's Task fields (`taskId`, `status`, `statusMessage`, `createdAt`,
`lastUpdatedAt`, `ttl`, `pollInterval`) and the call's (`tool`, `arguments`, `result`). A
task's id ends with when it expires (milliseconds since the epoch), so that a task asked
for after its record is gone is told apart from one that never was.

Every write after a task's creation is a compare-and-set (`_update`): the record read, changed,
and written only if its `version` is still the one read (else read and changed again), and
only while the task has not ended; a change of status names the status it leaves (a late
progress event never takes a task out of `input_required`). A task belongs to the subject
that created it (`owner`: the authenticated principal; None without authentication): read
for another, it is missing, as one that never was.

A task whose client can answer it (`asks`: 2026-07-28's extension) does not fail when its
call suspends (approval, a question): it waits `input_required`, the signed suspended call
and the question (an elicitation, under a key new for each question) in its record, until
`answer` records the client's reply and queues the task again; a worker then resumes the
call from the record, as a direct call resumes (each record resumed once).
"""

from __future__ import annotations

import asyncio
import json
import time
import uuid
from collections.abc import AsyncGenerator, Callable, Mapping
from contextlib import aclosing
from datetime import UTC, datetime, timedelta
from typing import Any

import mcp_types as types

from ..calls.registry import Registry
from ..results import control
from .calling import elicitation, refused, rendered, resume_with
from .tasks_watch import Notices, Progress, changes

FINAL = ("completed", "failed", "cancelled")
INDEX = "tasks"  # the store's listing of every live task
FUNCTION = "toolgen_task"  # the one task function Docket knows: it runs a task by its id
DEFAULT_TTL_MS = 3_600_000  # how long a task is kept when its request asks for no ttl
MAX_TTL_MS = 86_400_000  # the longest a request may ask for (the host may set less or more)
POLL_MS = 500  # the poll interval a task suggests
REDELIVERY_S = 30.0  # how long a silent worker keeps its task before another gets it
LOST = (
    "the worker running this call was lost before the call ended (the process stopped); "
    "the call may have had effects: check them before calling it again"
)
_PUBLIC = ("taskId", "status", "statusMessage", "createdAt", "lastUpdatedAt", "ttl", "pollInterval")


class TaskMissing(LookupError):
    """No such task: `expired` when its record outlived its ttl and is gone."""

    def __init__(self, task_id: str, expired: bool) -> None:
        self.expired = expired
        if expired:
            super().__init__(
                f"task {task_id!r} expired: its status and result were kept for its ttl, "
                "which has passed (ask for a longer `task.ttl` when creating it)"
            )
        else:
            super().__init__(f"no task {task_id!r} (it was never created here)")


class _Anyone:  # whoever asks: the process itself (a worker, a watch the server set up)
    pass


ANYONE = _Anyone()
Owner = str | None | _Anyone  # who may see a task: its creator's subject, or ANYONE


def public(record: Mapping[str, Any]) -> dict[str, Any]:
    """The MCP Task of a record (the call's own fields left out)."""
    return {key: record[key] for key in _PUBLIC if record.get(key) is not None}


class Board:
    """The tasks of one registry: created, read, cancelled, listed, run. The queue is opened
    on the loop of its first use (a server's, or a worker's)."""

    def __init__(
        self,
        registry: Registry,
        *,
        max_ttl_ms: int = MAX_TTL_MS,
        redelivery_s: float = REDELIVERY_S,
        run_here: bool | None = None,
    ) -> None:
        self.registry, self.store = registry, registry.store
        self.max_ttl_ms, self.redelivery_s = max_ttl_ms, redelivery_s
        self.shared = bool(getattr(self.store, "shared", False))
        # Whether this process runs the tasks it queues (not when workers share the store).
        self.run_here = not self.shared if run_here is None else run_here
        self._queue: tuple[asyncio.AbstractEventLoop, Any] | None = None
        self._worker: asyncio.Task[None] | None = None
        self._notices: tuple[asyncio.AbstractEventLoop, Notices] | None = None

    # -- records ------------------------------------------------------------------------------

    async def create(
        self,
        tool: str,
        arguments: Any,
        ttl_ms: int | None,
        asks: bool = False,
        owner: str | None = None,
    ) -> dict[str, Any]:
        """A task of the call, queued. `asks`: its client answers questions; `owner`: the
        subject that creates it (see above)."""
        ttl = min(ttl_ms if ttl_ms and ttl_ms > 0 else DEFAULT_TTL_MS, self.max_ttl_ms)
        now = time.time()
        expires_ms = int(now * 1000) + ttl
        record = {
            "taskId": f"{uuid.uuid4().hex}.{expires_ms}",
            "status": "working",
            "statusMessage": None if self.run_here else "queued for a worker",
            "createdAt": _iso(now),
            "lastUpdatedAt": _iso(now),
            "ttl": ttl,
            "pollInterval": POLL_MS,
            "tool": tool,
            "arguments": arguments,
            "asks": asks,
            "owner": owner,
            "version": 0,
        }
        await self._put(record)
        docket = await self.queue()
        await docket.add(FUNCTION, key=record["taskId"])(record["taskId"])
        return record

    async def get(self, task_id: str, owner: Owner = ANYONE) -> dict[str, Any]:
        """The task's record; TaskMissing when there is none, or it is another's than `owner`'s
        (told as one that never was)."""
        found = await self.store.aget_task(_key(task_id))
        if found is None:
            raise TaskMissing(task_id, _expired(task_id))
        record: dict[str, Any] = json.loads(found)
        if not isinstance(owner, _Anyone) and record.get("owner") != owner:
            raise TaskMissing(task_id, _expired(task_id))
        return record

    def changes(self, task_id: str, owner: Owner = ANYONE) -> AsyncGenerator[dict[str, Any], None]:
        """The task's record now, then each time it changes, until it ends (nothing when it is
        missing; the end when it expires meanwhile): tasks_watch.py."""

        async def read() -> dict[str, Any] | None:
            try:
                return await self.get(task_id, owner)
            except TaskMissing:
                return None

        loop = asyncio.get_running_loop()
        if self._notices is None or self._notices[0] is not loop:
            self._notices = (loop, Notices(self.store))
        return changes(self._notices[1], _key(task_id), read, _ended)

    async def result(self, task_id: str, owner: Owner = ANYONE) -> dict[str, Any]:
        """The final record, once the task has ended (read in the store, so any process
        answers it)."""
        async with aclosing(self.changes(task_id, owner)) as changed:
            async for record in changed:
                if _ended(record):
                    return record
        raise TaskMissing(task_id, _expired(task_id))

    async def cancel(self, task_id: str, owner: Owner = ANYONE) -> dict[str, Any]:
        """The record cancelled; the call stopped wherever it runs. A task that already ended
        raises ValueError (MCP refuses to cancel it)."""
        record = await self.get(task_id, owner)
        if record["status"] in FINAL:
            raise ValueError(f"task {task_id!r} already ended ({record['status']})")
        ended = await self._end(task_id, "cancelled", "cancelled by the client", None)
        docket = await self.queue()
        await docket.cancel((ended or record).get("run") or task_id)
        return ended if ended is not None else await self.get(task_id)

    async def answer(self, task_id: str, key: str, reply: types.ElicitResult) -> bool:
        """The client's reply to the question under `key` of an `input_required` task: the
        task `working` again and queued, to resume its call. False (nothing done) when the
        task asks no such question now (answered already, ended, never asked)."""

        def answered(record: dict[str, Any]) -> dict[str, Any] | None:
            if record["status"] != "input_required" or key not in (record.get("asked") or {}):
                return None
            answered = {**record, "status": "working", "statusMessage": "answered: resuming"}
            answered.update(asked=None, answer=reply.model_dump(mode="json"))
            return {**answered, "run": f"{task_id}:{key}"}

        resumed = await self._update(task_id, answered)
        if resumed is None:
            return False
        docket = await self.queue()
        await docket.add(FUNCTION, key=resumed["run"])(task_id)
        return True

    async def listed(self, owner: Owner = ANYONE) -> list[dict[str, Any]]:
        records = [json.loads(found) for found in await self.store.alist_tasks(INDEX)]
        if isinstance(owner, _Anyone):
            return records
        return [record for record in records if record.get("owner") == owner]

    async def _put(
        self, record: dict[str, Any], final: bool = False, expect: int | None = None
    ) -> bool:
        expires_ms = int(record["taskId"].rpartition(".")[2])
        text = json.dumps(record, ensure_ascii=False, separators=(",", ":"))
        key, expires_at = _key(record["taskId"]), expires_ms / 1000
        versions = {"version": int(record.get("version") or 0), "expect": expect}
        ok: bool = await self.store.aput_task(INDEX, key, text, final, expires_at, **versions)
        return ok

    async def _update(
        self,
        task_id: str,
        change: Callable[[dict[str, Any]], dict[str, Any] | None],
        final: bool = False,
    ) -> dict[str, Any] | None:
        """The record as `change` makes it of the record now (None: left as it is), written
        if no other write came since it was read (else read and changed again). None when
        left, missing, or ended already (the first end wins)."""
        while True:
            try:
                record = await self.get(task_id)
            except TaskMissing:
                return None
            if record["status"] in FINAL:
                return None
            changed = change(record)
            if changed is None:
                return None
            version = int(record.get("version") or 0)
            changed.update(version=version + 1, lastUpdatedAt=_iso(time.time()))
            if await self._put(changed, final, expect=version):
                return changed

    async def _end(
        self, task_id: str, status: str, message: str | None, result: Any
    ) -> dict[str, Any] | None:
        """The record ended as told; None when it had already ended (the first end wins)."""
        ended = {"status": status, "statusMessage": message, "result": result}
        return await self._update(task_id, lambda record: {**record, **ended}, final=True)

    async def _working(self, task_id: str, **fields: Any) -> dict[str, Any] | None:
        """The record with `fields`, while it is `working` (else None: left as it is)."""
        return await self._update(
            task_id, lambda record: {**record, **fields} if record["status"] == "working" else None
        )

    # -- runs ---------------------------------------------------------------------------------

    async def run(self, task_id: str, redelivered: bool) -> None:
        """Run one task (a worker took its id from the queue)."""
        try:
            record = await self.get(task_id)
        except TaskMissing:
            return  # expired before a worker was free: nothing to run
        if record["status"] != "working":
            return  # ended before it started, or waiting for an answer: nothing to run
        tool = record["tool"]
        if redelivered and "idempotent" not in self.registry.info(tool).flags:
            lost = refused(f"tool {tool!r}: {LOST}", "unavailable")
            await self._end(task_id, "failed", LOST, _wire(lost))
            return
        started = await self._working(task_id, statusMessage="running")
        if started is None:
            return  # ended meanwhile
        loop = asyncio.get_running_loop()
        progress = Progress(lambda message: self._working(task_id, statusMessage=message), loop)
        try:
            result = await self._called(started, progress.event)
        except control.SuspensionError as error:  # a resumed record refused (used, expired)
            answer = refused(f"tool {tool!r}: the suspended call cannot resume: {error}")
            await self._end(task_id, "failed", str(error), _wire(answer))
            return
        except asyncio.CancelledError:
            cancelled = refused(f"tool {tool!r}: the task was cancelled", "cancelled")
            await self._end(task_id, "cancelled", "cancelled by the client", _wire(cancelled))
            raise
        if result is None:
            return  # ended before its call resumed
        if result.suspended is not None and record.get("asks"):
            await self._asking(task_id, result.suspended)
            return
        if result.suspended is not None:
            answer = refused(f"tool {tool!r} needs the user, whom a task cannot ask")
            await self._end(task_id, "failed", "needs the user", _wire(answer))
            return
        status = "failed" if result.failure is not None else "completed"
        message = result.failure.message if result.failure is not None else None
        await self._end(task_id, status, message, _wire(rendered(result, False)))

    async def _called(self, record: dict[str, Any], on_event: Any) -> Any:
        """The task's call: run, or resumed with the client's answer (see above); None when
        the task ended before it resumed."""
        if record.get("answer") is None or record.get("suspended") is None:
            return await self.registry.acall(record["tool"], record["arguments"], on_event=on_event)
        reply = types.ElicitResult.model_validate(record["answer"])
        if await self._working(record["taskId"], answer=None, suspended=None) is None:
            return None
        return await resume_with(self.registry, record["suspended"], reply, None, on_event)

    async def _asking(self, task_id: str, suspension: Any) -> None:
        """The task waits `input_required` for the client's answer to its question (unless
        it ended meanwhile)."""
        request = elicitation(suspension).model_dump(by_alias=True, mode="json", exclude_none=True)

        def waiting(record: dict[str, Any]) -> dict[str, Any] | None:
            if record["status"] != "working":
                return None
            asked = int(record.get("questions") or 0) + 1
            waiting = {**record, "status": "input_required", "questions": asked}
            waiting["statusMessage"] = control.waiting_message(suspension)
            waiting.update(asked={f"ask-{asked}": request}, suspended=suspension.to_json())
            return waiting

        await self._update(task_id, waiting)

    async def queue(self) -> Any:
        """This loop's Docket (opened on first use), and its worker when tasks run here."""
        loop = asyncio.get_running_loop()
        if self._queue is not None and self._queue[0] is loop:
            return self._queue[1]
        from docket import CurrentExecution, Docket  # the server extra's; imported when used

        board, current = self, CurrentExecution()  # Docket's dependency: the delivery's

        async def toolgen_task(task_id: str, execution: Any = current) -> None:
            await board.run(task_id, bool(execution.redelivered))

        if self.shared:
            url = self.store.connection_url
            name = f"{self.store.prefix}:tasks"
        else:
            url, name = f"memory://toolgen-{id(self)}", "toolgen-tasks"
        docket = Docket(name=name, url=url)
        await docket.__aenter__()  # kept open for the process's life
        docket.register(toolgen_task, names=[FUNCTION])
        self._queue = (loop, docket)
        if self.run_here:
            self._worker = loop.create_task(self._work(docket, concurrency=10))
        return docket

    async def _work(self, docket: Any, concurrency: int) -> None:
        from docket import Worker

        async with Worker(
            docket,
            concurrency=concurrency,
            redelivery_timeout=timedelta(seconds=self.redelivery_s),
            minimum_check_interval=timedelta(milliseconds=50),
        ) as worker:
            await worker.run_forever()


async def work(board: Board, concurrency: int = 10) -> None:
    """Run the tasks queued for `board`'s store until cancelled (`python -m <package> worker`)."""
    docket = await board.queue()
    await board._work(docket, concurrency)


def _ended(record: dict[str, Any]) -> bool:
    return record["status"] in FINAL


def _wire(result: Any) -> dict[str, Any]:
    dumped: dict[str, Any] = result.model_dump(by_alias=True, mode="json", exclude_none=True)
    return dumped


def _key(task_id: str) -> str:
    return f"task:{task_id}"


def _expired(task_id: str) -> bool:
    tail = task_id.rpartition(".")[2]
    return tail.isdigit() and int(tail) <= time.time() * 1000


def _iso(seconds: float) -> str:
    return datetime.fromtimestamp(seconds, UTC).isoformat().replace("+00:00", "Z")
