# Part of toolgen's runtime, copied verbatim into generated packages (edit toolgen, not a copy).
"""Running an implementation's `run` under what its spec declares: a deadline, a thread.

- Without a deadline, a sync `run` is called directly by `Registry.call` (nothing added to
  its path); `Registry.acall` hands it to a worker thread, so it never blocks the event loop
  that awaits it. `Registry.acall` awaits an async `run` in the caller's task, a deadline
  or not (`bounded`: no thread, no task of its own).
- With a deadline (`timeout_s`, the tool's or the registry's), the call answers when `run`
  returns or when the deadline passes, whichever comes first. An async `run` is cancelled at
  the deadline (its cleanup runs: `finally` blocks, `async with` exits; a sync caller waits
  for that GRACE seconds at most). A sync `run` cannot be
  stopped from outside in Python: its worker thread is a daemon that goes on until `run`
  returns, and what it returns then is dropped; it never keeps the process from exiting.
- A sync `run` in a worker thread may poll `cancelled()`: True once the call is over (its
  deadline passed, its task was cancelled), so that it can stop instead of working unseen.
- An async `run` called through the sync `Registry.call` from inside a running event loop
  (Jupyter, a web handler) is run to completion on a fresh loop in a worker thread.

Worker threads are daemons, reused while idle and started when every one is busy; a call
handed to one runs in a copy of the caller's context variables.
"""

from __future__ import annotations

import contextvars
import inspect
import threading
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:  # imported when first needed: most calls have no deadline and no thread
    from concurrent.futures import Future


GRACE = 0.2  # seconds an async `run` cancelled at its deadline has for its cleanup

# Set once the call a worker thread runs is over (its deadline passed, its task was
# cancelled): a sync `run` that polls `cancelled()` can stop instead of working on unseen.
_STOP: contextvars.ContextVar[threading.Event | None] = contextvars.ContextVar(
    "toolgen_stop", default=None
)


def cancelled() -> bool:
    """In `run`: whether the call is over (past its deadline, or cancelled), so that what it
    does now is wasted. Only a call run in a worker thread can learn this; else False."""
    stop = _STOP.get()
    return stop is not None and stop.is_set()


def _stoppable() -> tuple[contextvars.Context, threading.Event]:
    """The caller's context variables for a worker, with a fresh stop signal in them."""
    context = contextvars.copy_context()
    stop = threading.Event()
    context.run(_STOP.set, stop)
    return context, stop


class Clock:
    """The registry's time (rate limits, cache ages, the expiry of suspended calls) and waits
    (retries, rate limits): real time. A test passes its own (the same methods) to
    `Registry(..., clock=...)`; one without `time()` leaves expiry to real time."""

    def time(self) -> float:
        """Seconds since the epoch: when a suspended call's record expires."""
        import time

        return time.time()

    def monotonic(self) -> float:
        import time

        return time.monotonic()

    def sleep(self, seconds: float) -> None:
        import time

        time.sleep(seconds)

    async def asleep(self, seconds: float) -> None:
        import asyncio

        await asyncio.sleep(seconds)


def backoff(retry: tuple[int, float, float | None], tries: int) -> float:
    """The wait before call number `tries + 1`: the first backoff, doubled each time, capped."""
    _, first, most = retry
    wait = float(first * 2 ** (tries - 1))
    return wait if most is None else min(wait, float(most))


class Timeout(Exception):
    """The deadline passed before `run` returned (the registry makes it a `timeout` failure)."""

    def __init__(self, seconds: float) -> None:
        super().__init__(f"no answer within {seconds:g} s")
        self.seconds = seconds


class _Workers:
    """Daemon threads that run submitted functions; an idle one takes the next, and a new one
    starts when none is idle (a `run` that never returns holds one thread, not the others)."""

    def __init__(self) -> None:
        self._jobs: Any = None  # a queue.SimpleQueue of (future, function), made on first use
        self._idle = 0
        self._lock = threading.Lock()

    def submit(self, function: Callable[[], Any]) -> Future[Any]:
        from concurrent.futures import Future

        future: Future[Any] = Future()
        with self._lock:
            if self._jobs is None:
                import queue

                self._jobs = queue.SimpleQueue()
            if self._idle:
                self._idle -= 1
            else:
                threading.Thread(target=self._work, name="toolgen-worker", daemon=True).start()
        self._jobs.put((future, function))
        return future

    def _work(self) -> None:
        while True:
            future, function = self._jobs.get()
            if future.set_running_or_notify_cancel():
                try:
                    future.set_result(function())
                except BaseException as exc:  # noqa: BLE001 - handed to the caller as is
                    future.set_exception(exc)
            del future, function  # nothing of a finished call is kept alive while idle
            with self._lock:
                self._idle += 1


WORKERS = _Workers()


def awaited(outcome: Any) -> Any:
    """What an async `run` returned, awaited to completion from synchronous code."""
    import asyncio  # only here: importing it costs every generated package ~15 ms

    try:
        asyncio.get_running_loop()
    except RuntimeError:  # no loop in this thread: run one here
        return asyncio.run(_awaited(outcome))
    # Called from inside a running loop (Jupyter, a web handler): a fresh loop, in a worker.
    return _wait(WORKERS.submit(lambda: asyncio.run(_awaited(outcome))), None)


def within(function: Callable[..., Any], args: tuple[Any, ...], timeout: float) -> Any:
    """`function(*args)` to completion (awaiting what it returns) in a worker thread, from
    synchronous code; Timeout once `timeout` seconds have passed (for an async `run`, once its
    cancellation has run its cleanup, GRACE seconds at most)."""
    from concurrent.futures import TimeoutError as FutureTimeout

    context, stop = _stoppable()  # the caller's context variables (tracing, ...) go along
    awaiting = threading.Event()  # set by the worker once `run` returned an awaitable
    future = WORKERS.submit(lambda: context.run(_completed, function, args, timeout, awaiting))
    try:
        return future.result(timeout)
    except FutureTimeout:
        stop.set()
        if not awaiting.is_set():
            raise Timeout(timeout) from None
    try:  # being cancelled: its Timeout, once its cleanup has run
        return future.result(GRACE)
    except FutureTimeout:
        raise Timeout(timeout) from None


async def run_async(
    function: Callable[..., Any], args: tuple[Any, ...], timeout: float | None
) -> Any:
    """`function(*args)` to completion from a coroutine: a sync function in a worker thread,
    an async one awaited here, within `timeout` seconds when one is given (else Timeout)."""
    import asyncio

    stop = None
    if inspect.iscoroutinefunction(function):
        pending: Any = function(*args)
    else:
        context, stop = _stoppable()
        pending = asyncio.wrap_future(WORKERS.submit(lambda: context.run(function, *args)))
    try:
        outcome = await _within(pending, timeout)
    except BaseException:  # its deadline, or a cancelled task: the worker may stop early
        if stop is not None:
            stop.set()
        raise
    if inspect.isawaitable(outcome):  # a sync function that returned an awaitable
        outcome = await _within(outcome, timeout)
    return outcome


async def _within(awaitable: Any, timeout: float | None) -> Any:
    if timeout is None:
        return await awaitable
    return await bounded(awaitable, timeout)


async def bounded(awaitable: Any, timeout: float) -> Any:
    """`awaitable` awaited in this task, cancelled once `timeout` seconds have passed (its
    cleanup runs), then Timeout; no task is made for it. A TimeoutError it raises itself
    before the deadline is its own failure, not the deadline's."""
    import asyncio

    scope = asyncio.timeout(timeout)
    try:
        async with scope:
            return await awaitable
    except TimeoutError:
        if scope.expired():
            raise Timeout(timeout) from None
        raise


def _completed(
    function: Callable[..., Any], args: tuple[Any, ...], timeout: float, awaiting: threading.Event
) -> Any:
    """In a worker: `function(*args)`, and what it returns awaited (cancelled at the deadline)."""
    outcome = function(*args)
    if not inspect.isawaitable(outcome):
        return outcome
    awaiting.set()
    import asyncio

    return asyncio.run(_within(outcome, timeout))


def _wait(future: Future[Any], timeout: float | None) -> Any:
    from concurrent.futures import TimeoutError as FutureTimeout

    try:
        return future.result(timeout)
    except FutureTimeout:
        assert timeout is not None
        raise Timeout(timeout) from None


async def _awaited(awaitable: Any) -> Any:
    return await awaitable
