# Part of toolgen's runtime, copied verbatim into generated packages (edit toolgen, not a copy).
"""`python -m <package> worker --registry MODULE:NAME --store URL`: run the tasks that servers
sharing the store queue (taskwork.py), serving nothing. Several workers, on any machines,
share the work; one that dies leaves its task to another (an idempotent tool's call run
again, any other's task failed as lost).
"""

from __future__ import annotations

import argparse
import asyncio
import os
import sys
from collections.abc import Callable, Mapping
from typing import Any

from ..store.base import ENVIRONMENT
from .taskwork import REDELIVERY_S, Board, work


def main(
    argv: list[str],
    package: str,
    registry_of: Callable[[Mapping[str, Any]], Any],
    logging_of: Callable[[Mapping[str, Any]], None],
) -> int:
    """`registry_of(settings)` and `logging_of(settings)` are `serve`'s (server.py): the
    registry `--registry` names, the log set up as `serve` sets it."""
    parser = argparse.ArgumentParser(prog=f"python -m {package} worker")
    parser.add_argument(
        "--registry",
        required=True,
        metavar="MODULE:NAME",
        help="the registry whose tools the tasks call: a Registry, or a function that returns one",
    )
    parser.add_argument(
        "--store",
        metavar="URL",
        help="the state store the servers queue tasks in (redis://HOST:PORT/DB; default "
        "$TOOLGEN_STORE)",
    )
    parser.add_argument("--concurrency", type=int, default=10, help="tasks run at once (10)")
    parser.add_argument(
        "--redelivery-s",
        type=float,
        default=REDELIVERY_S,
        metavar="S",
        help="how long a worker that stopped answering keeps its task before another worker "
        f"gets it ({REDELIVERY_S:g}); the same on every worker",
    )
    args = parser.parse_args(argv)
    if args.store is not None:  # read by every registry made without a store
        os.environ[ENVIRONMENT] = args.store
    settings = {"registry": args.registry, "log_level": "info"}
    try:
        registry = registry_of(settings)
    except (ImportError, AttributeError, TypeError, ValueError) as error:
        print(f"python -m {package} worker: {error}", file=sys.stderr)
        return 2
    if not getattr(registry.store, "shared", False):
        print(
            f"python -m {package} worker: the registry's store is this process's own: pass "
            f"--store redis://HOST:PORT/DB (or set ${ENVIRONMENT}), the store the servers "
            "share (a server with the in-process store runs its tasks itself)",
            file=sys.stderr,
        )
        return 2
    logging_of(settings)
    board = Board(registry, redelivery_s=args.redelivery_s, run_here=False)
    try:
        asyncio.run(work(board, args.concurrency))
    except KeyboardInterrupt:
        pass
    return 0
