"""Exchange two directory entries in one step, where the platform can.

`exchange(a, b)` swaps the names `a` and `b` (two files, two folders, or one of each) in a
single system call: any other process that looks up either name sees the old entry or the new
one, never neither. Linux 3.15+ has `renameat2(..., RENAME_EXCHANGE)` (glibc 2.28+ exports it;
else the raw system call on x86_64 and aarch64); macOS 10.12+ has `renamex_np(...,
RENAME_SWAP)`. Both are called through ctypes. Where there is no such call (Windows, other
systems, an older kernel) or the file system refuses it (`EINVAL`, `ENOTSUP`, `EXDEV`: NFS, SMB,
many FUSE file systems, HFS+), `Unsupported` is raised and nothing has changed; write.py then takes
its journal-based swap.
"""

from __future__ import annotations

import ctypes
import errno
import os
import platform
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

AT_FDCWD = -100
RENAME_EXCHANGE = 1 << 1  # linux/fs.h
RENAME_SWAP = 0x2  # macOS sys/stdio.h
_SYSCALL_RENAMEAT2 = {"x86_64": 316, "aarch64": 276, "arm64": 276}
# The errors that mean "this system or file system cannot exchange", not "these paths are wrong"
# (EXDEV: overlayfs refuses to exchange a folder of a lower layer; the journal's renames may not).
_UNSUPPORTED = {
    errno.EINVAL,
    errno.ENOSYS,
    errno.ENOTSUP,
    errno.EOPNOTSUPP,
    errno.ENOTTY,
    errno.EXDEV,
}


class Unsupported(OSError):
    """No exchange here: the platform lacks the call or the file system refuses it."""


_Call = Callable[[bytes, bytes], int]


def _load(libc: Any = None) -> _Call | None:
    """The exchange call of this platform (in `libc`, by default the C library), or None."""
    if sys.platform.startswith("linux"):
        libc = libc or ctypes.CDLL(None, use_errno=True)
        if hasattr(libc, "renameat2"):
            renameat2 = libc.renameat2
            return lambda a, b: int(renameat2(AT_FDCWD, a, AT_FDCWD, b, RENAME_EXCHANGE))
        number = _SYSCALL_RENAMEAT2.get(platform.machine())
        if number is None or not hasattr(libc, "syscall"):
            return None
        syscall = libc.syscall
        return lambda a, b: int(syscall(number, AT_FDCWD, a, AT_FDCWD, b, RENAME_EXCHANGE))
    if sys.platform == "darwin":
        libc = libc or ctypes.CDLL(None, use_errno=True)
        if not hasattr(libc, "renamex_np"):
            return None
        renamex_np = libc.renamex_np
        return lambda a, b: int(renamex_np(a, b, RENAME_SWAP))
    return None


_CALL: _Call | None = None
_LOADED = False


def primitive() -> _Call | None:
    """The platform's exchange call (looked up once), or None where there is none."""
    global _CALL, _LOADED
    if not _LOADED:
        _CALL, _LOADED = _load(), True
    return _CALL


def exchange(a: Path, b: Path) -> None:
    """Swap the entries `a` and `b` atomically. Unsupported (nothing changed) where it cannot be
    done here; OSError for any other failure (nothing changed either: the call is atomic)."""
    call = primitive()
    if call is None:
        raise Unsupported(errno.ENOSYS, "no atomic exchange on this platform", str(a))
    if call(os.fsencode(a), os.fsencode(b)) == 0:
        return
    code = ctypes.get_errno()
    kind = Unsupported if code in _UNSUPPORTED else OSError
    raise kind(code, os.strerror(code), str(a), None, str(b))
