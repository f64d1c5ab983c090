"""The output directory's lock: one writing run at a time, readers wait for it.

`locked(out)` holds an exclusive flock on the output folder itself (opened read-only: no lock
file is left in the output, and a swap renames only entries inside it, never the folder);
`locked(out, shared=True)` a shared one, for a run that only reads. A run that cannot have the
lock within TOOLGEN_LOCK_TIMEOUT seconds (default 10) fails with WriteError. flock locks go
with the process: a killed run holds nothing.
"""

from __future__ import annotations

import math
import os
import sys
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

JOURNAL = ".toolgen-journal"
TIMEOUT_ENV = "TOOLGEN_LOCK_TIMEOUT"
DEFAULT_TIMEOUT = 10.0


class WriteError(Exception):
    """A problem with the output directory, as a sentence for the user; the output is as it was
    (or, when a swap was cut short, the next writing run completes it)."""


def timeout() -> float:
    raw = os.environ.get(TIMEOUT_ENV)
    if raw is None:
        return DEFAULT_TIMEOUT
    try:
        value = float(raw)
    except ValueError:
        value = math.nan
    if not value >= 0:  # nan and a negative wait are no more a number of seconds than "soon"
        raise WriteError(f"{TIMEOUT_ENV}={raw!r} is not a number of seconds (0 or more)")
    return value


@contextmanager
def locked(out: Path, shared: bool = False) -> Iterator[None]:
    if sys.platform == "win32":  # no flock: one run at a time is then the user's business
        yield
        return
    import fcntl

    try:
        fd = os.open(out, os.O_RDONLY | getattr(os, "O_DIRECTORY", 0))
    except FileNotFoundError:
        if not shared:
            raise
        yield  # nothing to read yet
        return
    try:
        wait = timeout()
        deadline = time.monotonic() + wait
        while True:
            try:
                fcntl.flock(fd, (fcntl.LOCK_SH if shared else fcntl.LOCK_EX) | fcntl.LOCK_NB)
                break
            except BlockingIOError:
                if time.monotonic() >= deadline:
                    raise WriteError(
                        f"{out} is in use by another toolgen run (waited {wait:g} s; "
                        f"{TIMEOUT_ENV} sets the wait): try again when it is done"
                    ) from None
                time.sleep(0.05)
        yield
    finally:
        os.close(fd)
