"""Part of a build on the machine's second core: a function run in a forked child process.

A large spec set's files are parsed by a child from the last one down while this process
imports the later stages and compiles the templates, then parses from the first one up
until the two meet (load/specs.py, `Split`: the child parses the bytes this process read,
which it has from the fork). The stages after `lower` are per tool; the tool and
testing modules need nothing of the provider exports. A large build (`MIN_TOOLS` or more)
renders them in a child forked right after lowering, which starts with the IR in its copy
of the memory (nothing is sent to it), while this process exports and renders the rest;
the child sends its files back through a pipe, pickled. A second child, forked once the exports are made, estimates their
tokens (a warning) while this process renders the definitions. The work is the same pure
function either way, so the bytes are the same: a child that fails, or is not started (one
CPU, not Linux, `TOOLGEN_JOBS=1`), leaves the work to this process.

A fork copies only the thread that forks. Another thread (the terminal's progress display)
may hold one of its locks at that moment, which then stays held in the child: the child
takes none of that thread's locks. It runs the pure rendering, writes only to its pipe,
prints nothing (not even a traceback), and leaves with `os._exit`, without the parent's
exit handlers.
"""

from __future__ import annotations

import atexit
import mmap
import os
import pickle
import signal
import struct
import sys
import warnings
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Generic, TypeVar

T = TypeVar("T")
MIN_TOOLS = 200  # below this, starting a child costs more than it saves


def wanted(tools: int) -> bool:
    """Whether a build of `tools` tools hands work to a child."""
    return (
        tools >= MIN_TOOLS
        and os.environ.get("TOOLGEN_JOBS", "") != "1"
        and sys.platform.startswith("linux")  # fork is safe here; macOS's libraries are not
        and len(os.sched_getaffinity(0)) > 1
    )


class Pending(Generic[T]):
    """The child's answer, once it is read; None when the child failed."""

    def __init__(self, pid: int, fd: int) -> None:
        self.pid, self.fd = pid, fd
        self.done = False

    def result(self) -> T | None:
        if self.done:
            return None
        self.done = True
        with os.fdopen(self.fd, "rb") as pipe:
            data = pipe.read()
        _, status = os.waitpid(self.pid, 0)
        if status != 0 or not data:
            return None
        value: T = pickle.loads(data)
        return value

    def abandon(self) -> None:
        if not self.done:
            self.done = True
            os.close(self.fd)
            os.kill(self.pid, signal.SIGKILL)
            os.waitpid(self.pid, 0)


@contextmanager
def in_child(work: Callable[[], T]) -> Iterator[Pending[T]]:
    """Run `work()` in a forked child; the pending answer is read by `result()` (else the
    child is ended when the block is left)."""
    read, write = os.pipe()
    with warnings.catch_warnings():  # Python 3.12+ warns of a fork beside a thread: see above
        warnings.simplefilter("ignore", DeprecationWarning)
        pid = os.fork()
    if pid == 0:  # the child: answer, and leave without running the parent's exit handlers
        code = 1
        try:
            os.close(read)
            data = pickle.dumps(work(), protocol=pickle.HIGHEST_PROTOCOL)
            with os.fdopen(write, "wb") as pipe:
                pipe.write(data)
            code = 0
        finally:
            os._exit(code)
    os.close(write)
    pending: Pending[T] = Pending(pid, read)
    try:
        yield pending
    finally:
        pending.abandon()


class Split:
    """A list of `count` items worked through from both ends: by this process from the first
    up (`mine`), by a child forked after it was made from the last down (`theirs`). Each
    claims an item in a page both share (anonymous, shared memory) before working on it, and
    stops at the first item the other has claimed.

    An item is never lost to both, but may be left by both or taken by both: each writes its
    claim and then reads the other's, and the processor may let a read pass the write before
    it, so that each sees the other's claim of a moment before. So the caller takes the
    child's answer for what this process did not claim, and does itself whatever that answer
    lacks (as it must for a child that failed); an item taken by both is only work done twice."""

    _LOW, _HIGH = 0, 8  # the child's last claim (count: none yet); this process's next item

    def __init__(self, count: int) -> None:
        self._page = mmap.mmap(-1, 16)
        struct.pack_into("<qq", self._page, 0, count, 0)

    def mine(self, index: int) -> bool:
        """Claim the item `index` for this process (items in increasing order): False where
        the child has claimed it, and this process should take the child's answer from there."""
        struct.pack_into("<q", self._page, self._HIGH, index + 1)
        return bool(index < struct.unpack_from("<q", self._page, self._LOW)[0])

    def theirs(self, index: int) -> bool:
        """Claim the item `index` for the child (items in decreasing order): False where this
        process has claimed it, and the child should stop."""
        struct.pack_into("<q", self._page, self._LOW, index)
        return bool(index >= struct.unpack_from("<q", self._page, self._HIGH)[0])

    def claimed(self) -> int:
        """The lowest item the child has claimed (`count` before its first)."""
        return int(struct.unpack_from("<q", self._page, self._LOW)[0])

    def close(self) -> None:
        self._page.close()


_BACKGROUND: list[int] = []  # the children `in_background` started, not yet waited for


def in_background(work: Callable[[], object]) -> None:
    """Run `work()` in a forked child and go on; `settle` waits for it, and this process
    does when it exits. For work whose effect only a later process (or `settle`) looks at:
    storing a build in the cache while this process writes the output."""
    with warnings.catch_warnings():  # as in_child
        warnings.simplefilter("ignore", DeprecationWarning)
        pid = os.fork()
    if pid == 0:
        code = 1
        try:
            work()
            code = 0
        finally:
            os._exit(code)
    if not _BACKGROUND:
        atexit.register(settle)
    _BACKGROUND.append(pid)


def settle() -> None:
    """Wait for every child `in_background` started."""
    while _BACKGROUND:
        try:
            os.waitpid(_BACKGROUND.pop(), 0)
        except ChildProcessError:  # reaped elsewhere already
            pass
