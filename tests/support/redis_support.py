"""A real redis-server for a test: its own free loopback port, a temporary folder, no
persistence; stopped (and restartable on the same port) by the test that started it.

Debian's `redis-server` (.ci/run installs it); a test that needs one and finds none skips,
saying so. Never fakeredis: the store's scripts and expiries are what is tested.
"""

from __future__ import annotations

import shutil
import socket
import subprocess
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest

SERVER = shutil.which("redis-server")
START_S = 10.0  # how long a server may take to accept connections


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port: int = probe.getsockname()[1]
        return port


class RedisServer:
    """One redis-server process on 127.0.0.1:`port`, data in `folder` (not persisted)."""

    def __init__(self, folder: Path) -> None:
        if SERVER is None:
            pytest.skip("redis-server is not installed (apt-get install redis-server)")
        self.folder, self.port = folder, free_port()
        self.process: subprocess.Popen[bytes] | None = None

    @property
    def url(self) -> str:
        return f"redis://127.0.0.1:{self.port}/0"

    def start(self) -> None:
        assert SERVER is not None and self.process is None
        self.process = subprocess.Popen(
            [SERVER, "--port", str(self.port), "--bind", "127.0.0.1", "--dir", str(self.folder)]
            + ["--save", "", "--appendonly", "no", "--daemonize", "no", "--loglevel", "warning"],
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )
        deadline = time.monotonic() + START_S
        while True:
            try:
                with socket.create_connection(("127.0.0.1", self.port), timeout=1) as s:
                    s.sendall(b"PING\r\n")
                    if s.recv(16).startswith(b"+PONG"):
                        return
            except OSError:
                pass
            if time.monotonic() > deadline or self.process.poll() is not None:
                self.stop()
                raise RuntimeError(f"redis-server did not start on port {self.port}")
            time.sleep(0.02)

    def stop(self) -> None:
        if self.process is not None:
            self.process.terminate()
            try:
                self.process.wait(10)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()
            self.process = None


@contextmanager
def redis_server(folder: Path) -> Iterator[RedisServer]:
    """A started server, stopped when the block ends."""
    server = RedisServer(folder)
    server.start()
    try:
        yield server
    finally:
        server.stop()
