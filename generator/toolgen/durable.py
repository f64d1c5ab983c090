"""Make written data durable before a generation is swapped in (docs/decisions/0014).

A killed process loses nothing the kernel holds: only a lost machine (power, a kernel
panic) can undo a write the kernel acknowledged. Against that, the staged files must be on
the device before the exchange that makes them the output is: a file system may commit the
exchange (metadata) before the data of the files inside the exchanged folder, and a lost
machine would then find them empty. `flush` writes the data and metadata of the file system
that holds a path, and only that one: `syncfs(2)` on Linux, through the C library; elsewhere,
or where the call is missing or fails, `os.sync()` (every file system).
"""

from __future__ import annotations

import ctypes
import os
import sys
from collections.abc import Callable
from pathlib import Path

_SYNCFS: list[Callable[[int], int] | None] = []  # looked up once


def _syncfs() -> Callable[[int], int] | None:
    if not _SYNCFS:
        found = None
        if sys.platform.startswith("linux"):
            try:
                libc = ctypes.CDLL(None, use_errno=True)
            except OSError:
                libc = None
            if libc is not None and hasattr(libc, "syncfs"):
                call = libc.syncfs
                found = lambda fd: int(call(fd))  # noqa: E731
        _SYNCFS.append(found)
    return _SYNCFS[0]


def flush(path: Path) -> None:
    """Put everything written to the file system holding `path` on its device."""
    call = _syncfs()
    if call is not None:
        try:
            fd = os.open(path, os.O_RDONLY)
        except OSError:
            fd = -1
        if fd >= 0:
            try:
                if call(fd) == 0:
                    return
            finally:
                os.close(fd)
    if hasattr(os, "sync"):
        os.sync()
