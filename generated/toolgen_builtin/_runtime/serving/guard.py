# Part of toolgen's runtime, copied verbatim into generated packages (edit toolgen, not a copy).
"""What uvicorn lacks against idle and slow clients, for `python -m <package> serve --http`.

uvicorn closes a kept-alive connection idle for `timeout_keep_alive` seconds and answers 503
past `limit_concurrency`, but waits as long as a client likes for a request's headers and
body, and accepts connections until the process runs out of file descriptors (then it accepts
none, a legitimate client's included). `Guarded` is its h11 protocol with:
- a deadline for a request's headers (HEADERS_S from the connection's opening, or from the
  first byte of the next request on a kept connection) and one for its body (BODY_S from its
  headers): past it, the connection is closed (HEADERS_ENV and BODY_ENV set other seconds);
- a cap on open connections (`connection_cap()`: MAX_CONNECTIONS, and RESERVED descriptors
  below the process's limit): a connection past it closes the oldest one that is waiting for
  a request (never one whose request is under way).

`limits()` reads those settings once, when `serve` starts (a variable set to anything but a
positive number of seconds is a `ValueError` naming it); each worker process is given them
(`use`), so a connection reads neither the environment nor the descriptor limit.
"""

from __future__ import annotations

import asyncio
import math
import os
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from uvicorn.protocols.http.h11_impl import H11Protocol

HEADERS_S = 10.0  # to send a request's headers
BODY_S = 30.0  # to send its body, once the headers came
HEADERS_ENV = "TOOLGEN_SERVE_HEADERS_S"  # the environment variables that set other seconds
BODY_ENV = "TOOLGEN_SERVE_BODY_S"
KEEP_ALIVE_S = 5  # idle between requests on a kept connection (uvicorn's own timeout)
MAX_CONNECTIONS = 1000  # per worker process
RESERVED = 64  # descriptors left for what the server and its tools open
SHOWN = 40  # the most characters of a refused value a message repeats


@dataclass(frozen=True)
class Limits:
    """What a worker process holds its clients to: the seconds for a request's headers and
    body, and the most connections it keeps open."""

    headers_s: float = HEADERS_S
    body_s: float = BODY_S
    connections: int = MAX_CONNECTIONS


# This process's limits (`use` sets them) and its connections, oldest first (one server per
# worker process).
_LIMITS = Limits()
_OPEN: dict[Guarded, None] = {}


def limits(environ: Mapping[str, str] = os.environ) -> Limits:
    """The limits of `serve --http`: `deadlines(environ)` and `connection_cap()`."""
    headers_s, body_s = deadlines(environ)
    return Limits(headers_s, body_s, connection_cap())


def use(chosen: Limits) -> None:
    """Hold this process's connections to `chosen` (a worker's, before it accepts any)."""
    global _LIMITS
    _LIMITS = chosen


def connection_cap() -> int:
    """The most connections one process holds: MAX_CONNECTIONS, or fewer where the limit on
    its open files is lower."""
    try:
        import resource
    except ImportError:  # not on Windows
        return MAX_CONNECTIONS
    soft, _ = resource.getrlimit(resource.RLIMIT_NOFILE)
    if soft == resource.RLIM_INFINITY:
        return MAX_CONNECTIONS
    return max(16, min(MAX_CONNECTIONS, soft - RESERVED))


def deadlines(environ: Mapping[str, str] = os.environ) -> tuple[float, float]:
    """The seconds a client has to send a request's headers and then its body: HEADERS_S and
    BODY_S, or the positive number HEADERS_ENV and BODY_ENV hold. A variable set to anything
    else (empty, not a number, zero or less, nan, inf) is a ValueError that names it."""
    return _seconds(environ, HEADERS_ENV, HEADERS_S), _seconds(environ, BODY_ENV, BODY_S)


def _seconds(environ: Mapping[str, str], name: str, default: float) -> float:
    raw = environ.get(name)
    if raw is None:
        return default
    try:
        seconds = float(raw)
    except ValueError:
        seconds = math.nan
    if seconds > 0 and math.isfinite(seconds):
        return seconds
    shown = repr(raw if len(raw) <= SHOWN else raw[:SHOWN] + "...")
    raise ValueError(
        f"{name}={shown} is not a number of seconds: set it to a positive number "
        f"(like 2.5), or unset it for the default, {default:g}"
    )


class Guarded(H11Protocol):
    """uvicorn's h11 protocol, with read deadlines and a cap on connections."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self._phase = ""  # "headers", "body" or "" (nothing being read)
        self._deadline: asyncio.TimerHandle | None = None

    def connection_made(self, transport: asyncio.Transport) -> None:  # type: ignore[override]
        super().connection_made(transport)
        _OPEN[self] = None
        self._watch()
        excess = len(_OPEN) - _LIMITS.connections
        for other in [c for c in _OPEN if c is not self and c._waiting()][: max(excess, 0)]:
            other._close()

    def connection_lost(self, exc: Exception | None) -> None:
        _OPEN.pop(self, None)
        self._phase = ""
        self._restart()
        super().connection_lost(exc)

    def data_received(self, data: bytes) -> None:
        super().data_received(data)
        self._watch()

    def _waiting(self) -> bool:
        """No request under way: a new connection, or a kept one between requests."""
        return self.cycle is None or self.cycle.response_complete

    def _watch(self) -> None:
        """The deadline of what is being read now, restarted when that changes."""
        if self._waiting():
            phase = "headers"
        else:
            phase = "body" if self.cycle.more_body else ""
        if phase != self._phase:
            self._phase = phase
            self._restart()

    def _restart(self) -> None:
        if self._deadline is not None:
            self._deadline.cancel()
            self._deadline = None
        if self._phase:
            seconds = _LIMITS.headers_s if self._phase == "headers" else _LIMITS.body_s
            self._deadline = self.loop.call_later(seconds, self._close)

    def _close(self) -> None:
        _OPEN.pop(self, None)
        if not self.transport.is_closing():
            self.transport.close()
