# Part of toolgen's runtime, copied verbatim into generated packages (edit toolgen, not a copy).
"""`python -m <package> serve` (and `worker`): the flags, the settings the worker processes
read from the environment, the registry named by `--registry` or installed under the
package's name, and uvicorn running `worker_app` in each worker (server.py makes the server).

Streamable HTTP runs stateless: each request stands alone, so that several worker processes,
or machines behind a load balancer, serve the same tools. A suspended call resumed by another
process needs the same `Registry(secret=...)` in each.
"""

from __future__ import annotations

import argparse
import asyncio
import dataclasses
import gc
import importlib
import json
import logging
import os
import secrets
import sys
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from mcp.server.lowlevel import Server
from starlette.applications import Starlette

from ..calls.registry import SECRET, Registry
from ..store.base import ENVIRONMENT, MEMORY
from . import auth_config, cancelling, scopes
from .auth_config import AuthSettings
from .calling import LOG
from .server import mcp_server
from .transports import http_app, serve_stdio

if TYPE_CHECKING:
    from . import guard  # uvicorn's: imported where HTTP is served

__all__ = ["REGISTRIES", "main", "worker_app"]

_SETTINGS = "TOOLGEN_SERVE"  # the worker processes' settings, as JSON in the environment
REGISTRIES = "toolgen.registries"  # the entry points of installed registries, by package name


def main(argv: list[str], package: str) -> int:
    """`python -m <package> serve (--stdio | --http) [--registry module:name] ...`, or
    `worker --registry module:name --store URL` (tasks_worker.py)."""
    if argv[:1] == ["worker"]:
        from . import tasks_worker

        return tasks_worker.main(argv[1:], package, _registry_of, _logging)
    parser = argparse.ArgumentParser(prog=f"python -m {package}")
    commands = parser.add_subparsers(dest="command", required=True)
    serve = commands.add_parser("serve", help="serve the tools over MCP")
    transport = serve.add_mutually_exclusive_group(required=True)
    transport.add_argument("--stdio", action="store_true", help="one client on stdin/stdout")
    transport.add_argument("--http", action="store_true", help="streamable HTTP (stateless)")
    serve.add_argument(
        "--registry",
        metavar="MODULE:NAME",
        help="the registry to serve: a Registry, or a function that returns one; or the name "
        f"of an installed one (entry point group {REGISTRIES}); default: the one installed "
        f"under {package!r}",
    )
    serve.add_argument("--host", default="127.0.0.1", help="bind address (default 127.0.0.1)")
    serve.add_argument("--port", type=int, default=8000)
    serve.add_argument("--workers", type=int, default=1, help="worker processes (HTTP)")
    serve.add_argument(
        "--store",
        metavar="URL",
        help="where rate limits, caches, concurrency slots and used suspension records are kept "
        "(redis://HOST:PORT/DB: shared by every worker and server using it; default "
        "$TOOLGEN_STORE, else memory://, each process its own)",
    )
    serve.add_argument(
        "--stateful",
        action="store_true",
        help="HTTP sessions held by one process (one worker): lets the server ask a client of "
        "a handshake revision for elicitation and sampling during a call",
    )
    serve.add_argument(
        "--log-level",
        default="info",
        choices=["debug", "info", "warning", "error"],
        help="the least level of the records an implementation logs during a call that are "
        "sent to the client (it may ask for less)",
    )
    serve.add_argument(
        "--list-ttl-ms",
        type=int,
        default=0,
        metavar="MS",
        help="how long a client may keep the tool listing (MCP 2026-07-28's ttlMs; default 0)",
    )
    auth_config.add_flags(serve)  # --token-env, --insecure-no-auth, --auth-*
    serve.add_argument(
        "--ui",
        metavar="DIR",
        help="also serve the catalog `toolgen catalog` wrote into DIR at /ui/, each tool's page "
        "with a form that calls it (HTTP on loopback without a token only)",
    )
    args = parser.parse_args(argv)
    if args.stateful and args.workers != 1:
        parser.error("--stateful serves from one process: it takes no --workers")
    auth = auth_config.from_args(args, os.environ)
    refused = auth if isinstance(auth, str) else auth_config.unsafe(args, bool(auth))
    if refused is None and args.ui and not os.path.isfile(os.path.join(args.ui, "index.html")):
        refused = f"--ui {args.ui}: no catalog there (write one with `toolgen catalog --out`)"
    limits = None
    if refused is None and args.http:  # read once, here: every worker is given them
        from . import guard

        try:
            limits = guard.limits(os.environ)
        except ValueError as error:
            refused = str(error)
    if refused:
        print(f"python -m {package} serve: {refused}", file=sys.stderr)
        return 2
    from .stale import stale  # the installed package against its project's specs, when at hand

    if warning := stale(package):
        print(f"python -m {package} serve: warning: {warning}", file=sys.stderr)
    registry = _installed(args.registry, package)
    if registry is None:
        print(
            f"python -m {package} serve: no registry named: pass --registry MODULE:NAME (no "
            f"registry is installed under {args.registry or package!r}, group {REGISTRIES})",
            file=sys.stderr,
        )
        return 2
    settings = {
        "package": package,
        "registry": registry,
        "token_env": args.token_env,
        "stateful": args.stateful,
        "log_level": args.log_level,
        "host": args.host,
        "list_ttl_ms": args.list_ttl_ms,
        "auth": auth,
        "ui": os.path.abspath(args.ui) if args.ui else None,
        "limits": dataclasses.asdict(limits) if limits else None,
    }
    if args.store is not None:  # read by every registry made without a store (workers too)
        os.environ[ENVIRONMENT] = args.store
    try:
        server = _server(settings)
    except (ImportError, AttributeError, TypeError, ValueError) as error:
        print(f"python -m {package} serve: {error}", file=sys.stderr)
        return 2
    if args.http and args.workers > 1 and not _shared_store(settings):
        print(
            f"python -m {package} serve: warning: {args.workers} workers with the in-process "
            "store: rate limits, caches, concurrency limits and suspended-call records are per "
            "process (each worker its own); pass --store redis://HOST:PORT/DB (or set "
            f"${ENVIRONMENT}) to share them",
            file=sys.stderr,
        )
    if args.stdio:
        _settled()
        asyncio.run(serve_stdio(server))
        return 0
    os.environ[_SETTINGS] = json.dumps(settings)
    # Workers resume each other's suspended calls: they share one key (registry.SECRET).
    os.environ.setdefault(SECRET, secrets.token_hex(32))
    assert limits is not None  # read above for --http
    _serve_http(args.host, args.port, args.workers, limits)
    return 0


def _installed(given: str | None, package: str) -> str | None:
    """The MODULE:NAME to serve: `given` when it is one, else the entry point of group
    REGISTRIES named `given` (default: the package's name), else None."""
    if given is not None and ":" in given:
        return given
    from importlib.metadata import entry_points

    found = entry_points(group=REGISTRIES, name=given or package)
    return next((point.value for point in found), None)


def _shared_store(settings: Mapping[str, Any]) -> bool:
    """Whether the served registry keeps its policies' state where every worker sees it: its
    own store when `--registry` names a registry, else the store $TOOLGEN_STORE names."""
    module_name, _, attribute = settings["registry"].partition(":")
    found = getattr(sys.modules.get(module_name), attribute, None)
    if _registry(found):
        return bool(getattr(getattr(found, "store", None), "shared", False))
    return (os.environ.get(ENVIRONMENT) or MEMORY).partition("://")[0] != "memory"


def _serve_http(host: str, port: int, workers: int, limits: guard.Limits) -> None:
    """uvicorn, `worker_app` in each of `workers` processes, their clients held to `limits`."""
    import shutil
    import socket
    import tempfile

    import uvicorn
    from uvicorn.supervisors import Multiprocess

    from . import guard

    config = uvicorn.Config(
        f"{__name__}:worker_app",
        factory=True,
        host=host,
        port=port,
        workers=workers,
        log_level="warning",
        # Idle and slow clients cut off (guard.py): uvicorn's keep-alive timeout and 503 past
        # the limit; the read deadlines and the cap on connections are the protocol's.
        http=guard.Guarded,
        timeout_keep_alive=guard.KEEP_ALIVE_S,
        limit_concurrency=limits.connections + 1,
    )
    if workers == 1:  # one process makes its listener through asyncio, which sets TCP_NODELAY
        uvicorn.Server(config).run()
        return
    # The listener the workers share, made a TCP socket by name: asyncio turns Nagle's
    # algorithm off (TCP_NODELAY) only on those, and uvicorn's own would leave each answer on a
    # kept connection waiting about 40 ms for the client's delayed acknowledgement.
    made = config.bind_socket()
    listener = socket.socket(made.family, made.type, socket.IPPROTO_TCP, made.detach())
    # A handshake-era client's cancellation may reach another worker than its call: the
    # workers pass it on through a folder of their own (cancelling.py).
    os.environ[cancelling.SIBLINGS] = siblings = tempfile.mkdtemp(prefix="toolgen-serve-")
    try:
        Multiprocess(config, sockets=[listener]).run()
    finally:
        shutil.rmtree(siblings, ignore_errors=True)


def worker_app() -> Starlette:
    """The HTTP app of one worker process (uvicorn's factory): settings from `main`."""
    from . import guard

    settings = json.loads(os.environ[_SETTINGS])
    guard.use(guard.Limits(**settings["limits"]))  # what `main` read, before any connection
    token = os.environ.get(settings["token_env"]) or None
    _logging(settings)
    registry = _registry_of(settings)
    server = _server(settings, registry)
    declared, auth = scopes.every_scope(registry), None
    if settings.get("auth"):
        auth = AuthSettings(**settings["auth"], scopes=declared)
    app = http_app(
        server,
        token=token,
        host=settings["host"],
        stateful=settings["stateful"],
        auth=auth,
        needs=scopes.needs_of(registry) if declared else None,  # no tool declares any: no check
    )
    if settings.get("ui"):
        from pathlib import Path

        from . import ui

        ui.mount(app, registry, Path(settings["ui"]))
    _settled()
    return app


def _settled() -> None:
    """Before the first request: what start-up made (modules, classes, the registry, the
    server) is kept out of the collector's sight (`gc.freeze`), garbage collected first. A
    full collection while serving then scans what requests made, not every object of every
    library imported: unfrozen, each one stopped the process for about 100 ms under load, the
    p99 of the served calls (docs/performance.md)."""
    gc.collect()
    gc.freeze()


def _registry_of(settings: Mapping[str, Any]) -> Registry:
    """The registry `--registry` names: a Registry, or a function that returns one."""
    sys.path.insert(0, os.getcwd())
    module_name, _, attribute = settings["registry"].partition(":")
    if not attribute:
        raise ValueError(f"--registry is MODULE:NAME, not {settings['registry']!r}")
    found = getattr(importlib.import_module(module_name), attribute)
    registry = found if _registry(found) else found() if callable(found) else found
    if not _registry(registry):
        raise TypeError(
            f"{settings['registry']} is not a Registry (it is {type(registry).__name__})"
        )
    return registry  # type: ignore[no-any-return]


def _logging(settings: Mapping[str, Any]) -> None:
    logging.getLogger().setLevel(settings["log_level"].upper())  # what implementations log
    if not LOG.handlers:  # the server's own records (failed calls) on stderr, at that level
        handler = logging.StreamHandler(sys.stderr)
        handler.setFormatter(logging.Formatter("%(asctime)s %(levelname)s %(name)s: %(message)s"))
        LOG.addHandler(handler)


def _server(settings: Mapping[str, Any], registry: Registry | None = None) -> Server[Any]:
    _logging(settings)
    if registry is None:
        registry = _registry_of(settings)
    package = importlib.import_module(settings["package"])
    return mcp_server(
        registry,
        name=settings["package"],
        version=str(package.__version__),
        list_ttl_ms=settings["list_ttl_ms"],
    )


def _registry(found: Any) -> bool:
    """A Registry of this package's or of any other generated package's (`b + a` is `b`'s
    class, the same code): what `mcp_server` serves."""
    return isinstance(found, Registry) or (
        type(found).__name__ == "Registry" and callable(getattr(found, "acall", None))
    )
