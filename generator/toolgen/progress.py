"""A one-line progress display for builds that take longer than a moment.

Shown on stderr with rich, only when stderr is a terminal and only once a build has run
for `DELAY` seconds: a build answered by the cache, a piped or redirected run, and
machine-readable output (`--format json`) stay quiet. rich is imported only when the
display is actually shown.
"""

from __future__ import annotations

import sys
import threading
import time
from types import TracebackType
from typing import IO, Any, Self

DELAY = 0.5  # seconds before anything is shown


class Progress:
    """Call it with each stage's name; use it as a context manager around the build."""

    def __init__(
        self,
        what: str,
        stream: IO[str] | None = None,
        delay: float = DELAY,
        enabled: bool | None = None,
    ) -> None:
        self.stream = stream if stream is not None else sys.stderr
        self.enabled = self.stream.isatty() if enabled is None else enabled
        self.what = what
        self.delay = delay
        self.stage = "starting"
        self.started = time.perf_counter()
        self._lock = threading.Lock()
        self._timer: threading.Timer | None = None
        self._status: Any = None  # a rich Status, once shown
        self._done = False

    def __enter__(self) -> Self:
        if self.enabled:
            self._timer = threading.Timer(self.delay, self._show)
            self._timer.daemon = True
            self._timer.start()
        return self

    def __call__(self, stage: str) -> None:
        with self._lock:
            self.stage = stage
            if self._status is not None:
                self._status.update(self._text())

    def _text(self) -> str:
        return f"{self.what}: {self.stage} ({time.perf_counter() - self.started:.1f} s)"

    def _show(self) -> None:
        from rich.console import Console

        with self._lock:
            if self._done:
                return
            self._status = Console(file=self.stream, force_terminal=True).status(self._text())
            self._status.start()

    def __exit__(
        self,
        kind: type[BaseException] | None,
        error: BaseException | None,
        trace: TracebackType | None,
    ) -> None:
        if self._timer is not None:
            self._timer.cancel()
        with self._lock:
            self._done = True
            if self._status is not None:
                self._status.stop()
