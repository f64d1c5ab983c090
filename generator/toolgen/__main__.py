"""The `toolgen` command (`python -m toolgen`, and the script pyproject.toml installs).

A command ends the process without tearing its heap down: a build of 1,000 tools leaves
millions of small objects (the loaded specs, the IR, every provider's exports), and freeing
them one by one cost 0.15-0.2 s of a cold `generate`'s CPU for nothing. The build keeps them
(`pipeline.RETAINED`), and after the command has finished, with its exit handlers run (the
cache entry stored in the background, logging) and its output flushed, the process leaves
with `os._exit`. When a thread the interpreter would wait for is still running, it exits as
usual instead.
"""

from __future__ import annotations

import atexit
import os
import sys
import threading


def run() -> None:
    from toolgen import pipeline
    from toolgen.cli import main

    pipeline.RETAINED = []
    try:
        main()
        code = 0
    except SystemExit as exc:
        if _waited_for():
            raise
        code = _code(exc.code)
    except BaseException:
        pipeline.RETAINED = None
        raise
    atexit._run_exitfuncs()
    for stream in (sys.stdout, sys.stderr):
        try:
            stream.flush()
        except (OSError, ValueError):  # a closed pipe (`toolgen ... | head`), a closed stream
            code = code or 1
    os._exit(code)


def _waited_for() -> bool:
    """Whether a thread that the interpreter's exit would wait for is still running (it does
    not wait for daemon threads, such as the progress display's timer)."""
    main = threading.main_thread()
    return any(t is not main and not t.daemon and t.is_alive() for t in threading.enumerate())


def _code(code: object) -> int:
    """The exit status `sys.exit(code)` gives: None is 0, a number itself, anything else is
    printed to stderr and is 1."""
    if code is None:
        return 0
    if isinstance(code, int):
        return code & 0xFF
    print(code, file=sys.stderr)
    return 1


if __name__ == "__main__":
    run()
