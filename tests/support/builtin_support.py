"""Shared by the tests of the built-in tool library (tests/functional/builtin/test_builtin_*.py)."""

from __future__ import annotations

import json
import sys
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

import yaml

from tests.support.generation import REPO

sys.path[:0] = [str(REPO / "generated"), str(REPO)]

SCHEMAS = REPO / "schemas"


def specs(family: str) -> list[dict[str, Any]]:
    """The tool specs of one folder of schemas/ (files holding only $defs are skipped)."""
    found = []
    for path in sorted((SCHEMAS / family).glob("*.yaml")):
        document = yaml.safe_load(path.read_text("utf-8"))
        if "name" in document:
            found.append(document)
    return found


def check_examples(family: str, registry: Any) -> int:
    """Run every example of a family's specs; each must succeed (or fail as it says) with its result."""
    ran = 0
    for spec in specs(family):
        for example in spec.get("examples", []):
            outcome = registry.call(spec["name"], example["arguments"])
            where = f"{spec['name']} example {json.dumps(example['arguments'])[:80]}"
            if "error" in example:
                assert outcome.failure is not None and outcome.failure.kind == example["error"], (
                    where
                )
            else:
                assert outcome.ok, f"{where}: {outcome.text()}"
                if "result" in example:
                    assert outcome.to_dict()["result"] == example["result"], where
            ran += 1
    return ran


def within(seconds: float, function: Callable[[], Any]) -> Any:
    """function(), failing the test (instead of hanging it) when it takes longer than `seconds`."""
    box: dict[str, Any] = {}

    def target() -> None:
        try:
            box["value"] = function()
        except BaseException as exc:  # noqa: BLE001 - re-raised in the test's thread
            box["error"] = exc

    thread = threading.Thread(target=target, daemon=True)
    thread.start()
    thread.join(seconds)
    assert not thread.is_alive(), f"still running after {seconds} s"
    if "error" in box:
        raise box["error"]
    return box["value"]


class LocalServer(ThreadingHTTPServer):
    """A quiet HTTP server on 127.0.0.1 for the web tools' tests: `requests` records the paths
    asked for; a client that hangs up mid-answer (what the limits are for) is no error."""

    daemon_threads = True
    requests: list[str]

    def handle_error(self, request: Any, client_address: Any) -> None:
        pass


@contextmanager
def serving(
    handler: type[BaseHTTPRequestHandler], host: str = "127.0.0.1"
) -> Iterator[LocalServer]:
    """`handler` served on a free port of `host` (a loopback address) until the block ends."""
    httpd = LocalServer((host, 0), handler)
    httpd.requests = []
    thread = threading.Thread(target=httpd.serve_forever, daemon=True)
    thread.start()
    try:
        yield httpd
    finally:
        httpd.shutdown()
        httpd.server_close()


def base_url(server: LocalServer) -> str:
    """The server's URL, its record of requests cleared (for one test)."""
    server.requests.clear()
    return f"http://127.0.0.1:{server.server_address[1]}"


class BackoffClock:
    """Real time, but the backoff between retries is only recorded (Registry(clock=...))."""

    def __init__(self) -> None:
        self.waits: list[float] = []

    def monotonic(self) -> float:
        return time.monotonic()

    def sleep(self, seconds: float) -> None:
        self.waits.append(seconds)

    async def asleep(self, seconds: float) -> None:
        self.waits.append(seconds)
