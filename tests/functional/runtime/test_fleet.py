"""A fleet: several processes of one generated package sharing a Redis state store
(`build_registry(..., store="redis://...")`, `serve --store`): rate limits, caches,
concurrency slots and single-use records hold across them; the in-process store keeps each
process's own (and `serve --workers N` says so); a store that does not answer makes calls
`unavailable`, never unguarded, until it is back. Each test starts its own redis-server.
"""

from __future__ import annotations

import asyncio
import gc
import json
import os
import signal
import socket
import subprocess
import sys
import threading
import time
import warnings
from collections.abc import Iterator
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest

from tests.support.redis_support import RedisServer, free_port, redis_server
from tests.support.runtime_support import generated_package

NUMBER = {"type": "object", "properties": {"n": {"type": "integer", "description": "A number."}}}
RETURNS = {"type": "object", "properties": {"n": {"type": "integer"}}}
SPECS = {
    "tools": [
        {
            "name": "limited",
            "description": "Counts, at most five times a minute.",
            "rate_limit": {"calls": 5, "per_s": 60},
            "parameters": NUMBER,
            "returns": RETURNS,
        },
        {
            "name": "gated",
            "description": "Counts, once a person approved it.",
            "flags": ["requires_approval"],
            "approval": {"expires_s": 600},
            "parameters": NUMBER,
            "returns": RETURNS,
        },
        {
            "name": "kept",
            "description": "Counts; the same call again is answered from the cache.",
            "flags": ["idempotent"],
            "cache": {"ttl_s": 60, "max_entries": 2},
            "parameters": NUMBER,
            "returns": RETURNS,
        },
        {
            "name": "slow",
            "description": "Sleeps for n seconds.",
            "parameters": NUMBER,
            "returns": RETURNS,
        },
        {
            "name": "plain",
            "description": "Counts, with no policy.",
            "parameters": NUMBER,
            "returns": RETURNS,
        },
    ]
}
# The implementations, a module each process imports (the tests' and their children).
IMPLEMENTATIONS = """
import os, time
from importlib import import_module

package = import_module(os.environ["FLEET_PACKAGE"])


def interface(tool):
    tools = import_module(f"{package.__name__}.tools.{package._index.MODULES[tool]}")
    return next(
        v for v in vars(tools).values()
        if isinstance(v, type) and getattr(v, "info", None) is tools.INFO and v.__name__.endswith("Tool")
    )


def counted(tool):
    class Counted(interface(tool)):
        def run(self, args):
            with open(os.environ["FLEET_RUNS"], "a") as runs:
                runs.write(tool + "\\n")
            if tool == "slow":
                time.sleep(args.n or 0)
                with open(os.environ["FLEET_RUNS"], "a") as runs:
                    runs.write("slow done\\n")
            return {"n": args.n}
    return Counted()


def registry(**settings):
    tools = [counted(t) for t in ("limited", "gated", "kept", "slow", "plain")]
    return package.build_registry(*tools, secret="a key of 16 bytes or more", **settings)
"""
# One process of the fleet: its registry on STORE, then one action; JSON on stdout.
CHILD = """
import json, sys
import fleet_impls
store, action, *rest = sys.argv[1:]
registry = fleet_impls.registry(store=store, max_concurrency=int(rest[1]) if action == "hold" else None)
if action == "call":
    results = [registry.call(rest[0], {"n": i}) for i in range(int(rest[1]))]
    print(json.dumps([r.failure.kind if r.failure else "ok" for r in results]))
elif action == "resume":
    try:
        result = registry.resume(json.loads(open(rest[0]).read()), approved=True)
        print(json.dumps("ok" if result.ok else result.failure.kind))
    except Exception as exc:
        print(json.dumps(f"refused: {exc}"))
elif action == "hold":
    print("calling", flush=True)
    registry.call("slow", {"n": int(rest[0])})
"""


@pytest.fixture(scope="module")
def package(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ModuleType]:
    yield from generated_package(tmp_path_factory, "fleet", SPECS)


@pytest.fixture
def fleet(package: ModuleType, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Any:
    """The implementations' module, importable here and in children (same environment)."""
    (tmp_path / "fleet_impls.py").write_text(IMPLEMENTATIONS, "utf-8")
    out = Path(package.__file__ or "").parent.parent
    monkeypatch.setenv("FLEET_PACKAGE", package.__name__)
    monkeypatch.setenv("FLEET_RUNS", str(tmp_path / "runs.txt"))
    monkeypatch.setenv("PYTHONPATH", os.pathsep.join([str(out), str(tmp_path)]))
    monkeypatch.delenv("TOOLGEN_STORE", raising=False)
    monkeypatch.syspath_prepend(str(tmp_path))
    sys.modules.pop("fleet_impls", None)
    import fleet_impls  # type: ignore[import-not-found]

    return fleet_impls


def runs(tool: str) -> int:
    path = Path(os.environ["FLEET_RUNS"])
    return path.read_text().splitlines().count(tool) if path.exists() else 0


def children(*argvs: list[str]) -> list[Any]:
    """Processes of the fleet started together; what each printed (JSON)."""
    started = [
        subprocess.Popen([sys.executable, "-c", CHILD, *argv], stdout=subprocess.PIPE, text=True)
        for argv in argvs
    ]
    return [json.loads(p.communicate(timeout=120)[0]) for p in started]


@pytest.fixture
def redis(tmp_path: Path) -> Iterator[RedisServer]:
    (tmp_path / "redis").mkdir()
    with redis_server(tmp_path / "redis") as server:
        yield server


def test_two_processes_on_one_redis_share_a_rate_limit(fleet: Any, redis: RedisServer) -> None:
    """`calls: 5, per_s: 60`, 10 calls from two processes: exactly 5 run, in all."""
    answers = children([redis.url, "call", "limited", "5"], [redis.url, "call", "limited", "5"])
    kinds = answers[0] + answers[1]
    assert sorted(set(kinds)) == ["ok", "rate_limited"]
    assert kinds.count("ok") == 5
    assert runs("limited") == 5


def test_two_processes_with_their_own_stores_each_take_the_limit(fleet: Any) -> None:
    answers = children(["memory://", "call", "limited", "5"], ["memory://", "call", "limited", "5"])
    assert answers == [["ok"] * 5, ["ok"] * 5]
    assert runs("limited") == 10


def test_a_record_is_resumed_once_by_two_processes(
    fleet: Any, redis: RedisServer, tmp_path: Path
) -> None:
    registry = fleet.registry(store=redis.url)
    waiting = registry.call("gated", {"n": 1})
    assert waiting.failure.kind == "suspended"
    record = waiting.suspended
    assert 599 <= record.expires_at - time.time() <= 600  # the spec's approval.expires_s
    (tmp_path / "record.json").write_text(json.dumps(record.to_json()))
    answers = children(
        [redis.url, "resume", str(tmp_path / "record.json")],
        [redis.url, "resume", str(tmp_path / "record.json")],
    )
    assert sorted(answers) == [
        "ok",
        "refused: this suspended call record was already used: a record is resumed once",
    ]
    assert runs("gated") == 1
    with pytest.raises(Exception, match="already used"):  # and here, a third process
        registry.resume(record, approved=True)


def test_a_record_resumed_twice_at_once_in_one_process_runs_once(
    fleet: Any, redis: RedisServer
) -> None:
    registry = fleet.registry(store=redis.url)
    record = registry.call("gated", {"n": 2}).suspended

    async def both() -> list[Any]:
        twice = [registry.aresume(record, approved=True) for _ in range(2)]
        return await asyncio.gather(*twice, return_exceptions=True)

    answers = asyncio.run(both())
    assert sum(getattr(a, "ok", False) for a in answers) == 1
    refused = [a for a in answers if isinstance(a, Exception)]
    assert len(refused) == 1 and "already used" in str(refused[0])
    record = registry.call("gated", {"n": 3}).suspended
    found: list[Any] = []

    def resume() -> None:
        try:
            found.append(registry.resume(record, approved=True).ok)
        except Exception as exc:  # noqa: BLE001 - the refusal is what is counted
            found.append(str(exc))

    threads = [threading.Thread(target=resume) for _ in range(2)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(60)
    assert sorted(found, key=str) == [
        True,
        "this suspended call record was already used: a record is resumed once",
    ]
    assert runs("gated") == 2


def test_a_cache_written_by_one_process_answers_another(fleet: Any, redis: RedisServer) -> None:
    assert children([redis.url, "call", "kept", "1"]) == [["ok"]]  # runs: n=0 is kept
    other = fleet.registry(store=redis.url)
    first = other.call("kept", {"n": 0})
    assert (first.ok, first.value.n, runs("kept")) == (True, 0, 1)  # from the cache
    for n in (1, 2):  # two more entries: max_entries 2 lets n=0 go
        other.call("kept", {"n": n})
    assert runs("kept") == 3
    assert other.call("kept", {"n": 0}).ok and runs("kept") == 4


def test_a_store_that_stops_makes_calls_unavailable_until_it_is_back(
    fleet: Any, redis: RedisServer
) -> None:
    url = redis.url + "?timeout_s=0.5"
    registry = fleet.registry(store=url)
    assert registry.call("limited", {"n": 1}).ok
    record = registry.call("gated", {"n": 1}).suspended
    redis.stop()
    for result in (
        registry.call("limited", {"n": 2}),
        asyncio.run(registry.acall("limited", {"n": 3})),
        registry.call("kept", {"n": 4}),
        registry.resume(record, approved=True),
    ):
        assert result.failure is not None, result
        assert (result.failure.kind, result.failure.retryable) == ("unavailable", True)
        assert result.failure.message.startswith(
            f"tool '{result.tool}' was not run: the state store {url} cannot be reached: "
        )
    assert (runs("limited"), runs("kept"), runs("gated")) == (1, 0, 0)  # none ran unguarded
    assert registry.call("plain", {"n": 1}).ok  # no fleet-wide policy: never asks the store
    redis.start()  # empty: nothing persisted
    assert registry.call("limited", {"n": 5}).ok
    assert registry.resume(record, approved=True).ok  # never used: resumable now
    assert (runs("limited"), runs("gated")) == (2, 1)


def test_a_killed_holder_frees_its_slot_after_its_lease(fleet: Any, redis: RedisServer) -> None:
    url = redis.url + "?lease_s=1"
    holder = subprocess.Popen(
        [sys.executable, "-c", CHILD, url, "hold", "600", "1"], stdout=subprocess.PIPE, text=True
    )
    try:
        assert holder.stdout is not None and holder.stdout.readline() == "calling\n"
        registry = fleet.registry(store=url, max_concurrency=1)
        store = registry.store
        deadline = time.monotonic() + 60
        while store._sync.zcard("toolgen:slots") != 1 and time.monotonic() < deadline:
            time.sleep(0.05)
        assert store.acquire("slots", 1, 1.0) is None  # its one slot is held
        holder.send_signal(signal.SIGKILL)
        holder.wait(30)
        done: list[Any] = []
        worker = threading.Thread(target=lambda: done.append(registry.call("plain", {"n": 1})))
        worker.start()
        worker.join(60)  # free once the lease (1 s) ends unrenewed
        assert len(done) == 1 and done[0].ok
    finally:
        holder.kill()
        holder.wait()


def _served(package: ModuleType, *options: str) -> str:
    """What `serve --http --workers 2` said on stderr, once it accepted a connection."""
    port = free_port()
    server = subprocess.Popen(
        [sys.executable, "-m", package.__name__, "serve", "--http", "--workers", "2"]
        + ["--registry", "fleet_impls:registry", "--port", str(port), *options],
        stderr=subprocess.PIPE,
        text=True,
        start_new_session=True,
    )
    try:
        accepted, deadline = False, time.monotonic() + 120
        while not accepted and time.monotonic() < deadline and server.poll() is None:
            try:
                socket.create_connection(("127.0.0.1", port), timeout=1).close()
                accepted = True
            except OSError:
                time.sleep(0.1)
    finally:
        os.killpg(server.pid, signal.SIGTERM)
        _, said = server.communicate(timeout=60)
    assert accepted, said
    return said


def test_workers_with_the_in_process_store_are_warned(
    fleet: Any, package: ModuleType, redis: RedisServer
) -> None:
    said = _served(package)
    assert "2 workers with the in-process store: rate limits, caches" in said
    assert "pass --store redis://HOST:PORT/DB" in said
    assert "in-process store" not in _served(package, "--store", redis.url)


def test_max_concurrency_counts_the_calls_of_every_registry_sharing_the_store(
    fleet: Any, redis: RedisServer
) -> None:
    """Two registries (as two processes would), `max_concurrency=1` on one Redis: while one
    holds the slot the other's call waits, through `call` and `acall`; both then run."""
    one = fleet.registry(store=redis.url, max_concurrency=1)
    other = fleet.registry(store=redis.url, max_concurrency=1)
    store = one.store
    done: list[Any] = []
    holder = threading.Thread(target=lambda: done.append(one.call("slow", {"n": 2})))
    holder.start()
    deadline = time.monotonic() + 60
    while store._sync.zcard("toolgen:slots") != 1 and time.monotonic() < deadline:
        time.sleep(0.01)
    assert store.acquire("slots", 1, 1.0) is None  # held by `one`

    async def waiting() -> Any:
        return await other.acall("plain", {"n": 1})

    result = asyncio.run(waiting())  # waits for the slot, then runs
    holder.join(60)
    assert result.ok and done[0].ok
    order = Path(os.environ["FLEET_RUNS"]).read_text().splitlines()
    assert order == ["slow", "slow done", "plain"]  # `plain` ran once `slow` let its slot go
    assert store._sync.zcard("toolgen:slots") == 0  # both released


def test_each_event_loop_closes_its_redis_client_when_it_ends(
    fleet: Any, redis: RedisServer
) -> None:
    """A host that runs `asyncio.run(registry.acall(...))` again and again: each loop's client
    is closed as its loop ends, so no connection is left for the garbage collector (no
    ResourceWarning, nothing unraisable) and the server's clients stay bounded."""
    registry = fleet.registry(store=redis.url)
    unraisable: list[Any] = []
    previous_hook = sys.unraisablehook
    sys.unraisablehook = unraisable.append
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("error")
            counts = []
            for n in range(20):
                result = asyncio.run(registry.acall("kept", {"n": n}))
                assert result.ok, result
                counts.append(len(registry.store._sync.client_list()))
            # Once, not after each call (20 full collections of a worker's heap took seconds):
            # a client left open shows on the server as a count that grows, and as a
            # ResourceWarning when it is freed, at once or by this collection.
            gc.collect()
    finally:
        sys.unraisablehook = previous_hook
    assert [str(u.exc_value) for u in unraisable] == []
    assert max(counts) <= 2, counts  # the sync client's own connection, and at most one more
    assert runs("kept") == 20
