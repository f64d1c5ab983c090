# Part of toolgen's runtime, copied verbatim into generated packages (edit toolgen, not a copy).
"""The store every process of a fleet shares, on Redis (base.py's interface; the `redis`
extra: the official client, its sync API for `call` and its asyncio API for `acall`).

Each operation is one round trip, atomic on the server: a Lua script where it reads before
it writes. Times are the Redis server's (`TIME`), the one clock every process sees:

- a rate-limit window is a sorted set of start times (microseconds), trimmed, counted and
  added to in one script: an exact sliding window over every process;
- a bounded map (a tool's result cache) is a hash of entries and a sorted set of when each
  was put: a read past `ttl_s` misses, a put drops the expired and then the oldest past
  `max_entries`;
- a claim (a suspension record used) is `SET key 1 NX EXAT expires_at`;
- counted leases (the fleet's concurrency slots) are a sorted set of tokens scored by when
  each lease ends; acquiring drops the ended ones first. A thread of this process renews the
  leases it holds every third of `lease_s`, so a holder that dies (SIGKILL) stops renewing
  and its slot is free once its lease ends;
- a task's record is a hash (the record, whether it is final, its version) that Redis
  expires with the task, listed in a sorted set of task keys scored by when each expires
  (the listing script reads the records by the store's prefix: a single Redis, not a
  Cluster). The put script compares the version (a compare-and-set) and publishes the
  task's key on the channel `<prefix>:task-notices`, which `anotices` subscribes to.

URL: `redis://[:password@]HOST:PORT/DB` (`rediss://`, `unix://` too), with query settings of
this store (removed before the client reads the URL): `prefix` (of every key; default
`toolgen`), `lease_s` (default 30), `timeout_s` (connect and reply deadline; default 1). A
Redis that does not answer within it raises StoreUnavailable, and the client reconnects on
the next operation: nothing to restart once Redis is back. Each event loop has its own asyncio
client, closed when that loop ends (`asyncio.run`'s does: `_async`).
"""

from __future__ import annotations

import asyncio
import itertools
import math
import os
import threading
import weakref
from collections.abc import AsyncGenerator, AsyncIterator, Awaitable, Callable
from typing import Any
from urllib.parse import parse_qsl, urlencode, urlsplit, urlunsplit

import redis
import redis.asyncio
import redis.asyncio.retry
from redis.backoff import NoBackoff
from redis.retry import Retry

from .base import StoreUnavailable, shown

_NOW_US = "local t = redis.call('TIME') local now = tonumber(t[1]) * 1000000 + tonumber(t[2])\n"

# KEYS: window; ARGV: calls, per (us), member -> 0 (counted) or the microseconds to wait
RESERVE = """local per = tonumber(ARGV[2])
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', now - per)
if redis.call('ZCARD', KEYS[1]) < tonumber(ARGV[1]) then
  redis.call('ZADD', KEYS[1], now, ARGV[3])
  redis.call('PEXPIRE', KEYS[1], math.ceil(per / 1000))
  return 0
end
local oldest = redis.call('ZRANGE', KEYS[1], 0, 0, 'WITHSCORES')
return per - (now - tonumber(oldest[2]))
"""
# KEYS: entries, times; ARGV: field, ttl (us) -> the value or nil
GET = """local stored = redis.call('ZSCORE', KEYS[2], ARGV[1])
if not stored or now - tonumber(stored) >= tonumber(ARGV[2]) then return false end
return redis.call('HGET', KEYS[1], ARGV[1])
"""
# KEYS: entries, times; ARGV: field, value, ttl (us), max_entries
PUT = """local ttl = tonumber(ARGV[3])
redis.call('HSET', KEYS[1], ARGV[1], ARGV[2])
redis.call('ZADD', KEYS[2], now, ARGV[1])
local gone = redis.call('ZRANGEBYSCORE', KEYS[2], '-inf', now - ttl)
local extra = redis.call('ZCARD', KEYS[2]) - #gone - tonumber(ARGV[4])
if extra > 0 then
  for _, f in ipairs(redis.call('ZRANGE', KEYS[2], #gone, #gone + extra - 1)) do
    table.insert(gone, f)
  end
end
for _, f in ipairs(gone) do
  redis.call('HDEL', KEYS[1], f)
  redis.call('ZREM', KEYS[2], f)
end
redis.call('PEXPIRE', KEYS[1], math.ceil(ttl / 1000))
redis.call('PEXPIRE', KEYS[2], math.ceil(ttl / 1000))
return 1
"""
# KEYS: leases; ARGV: limit, lease (us), token -> 1 (held) or 0 (every slot taken)
ACQUIRE = """local lease = tonumber(ARGV[2])
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', now)
if redis.call('ZCARD', KEYS[1]) >= tonumber(ARGV[1]) then return 0 end
redis.call('ZADD', KEYS[1], now + lease, ARGV[3])
local ms = math.ceil(lease / 1000) + 1000
if redis.call('PTTL', KEYS[1]) < ms then redis.call('PEXPIRE', KEYS[1], ms) end
return 1
"""
# KEYS: leases; ARGV: lease (us), tokens... -> the leases still held, renewed
RENEW = """local lease = tonumber(ARGV[1])
local renewed = 0
for i = 2, #ARGV do
  renewed = renewed + redis.call('ZADD', KEYS[1], 'XX', 'CH', now + lease, ARGV[i])
end
local ms = math.ceil(lease / 1000) + 1000
if redis.call('PTTL', KEYS[1]) < ms then redis.call('PEXPIRE', KEYS[1], ms) end
return renewed
"""
# KEYS: record, index; ARGV: record, final (0/1), expires_at (s), member, version, expected
# version ('': any), channel -> 1 or 0 (final, or another version than expected)
PUT_TASK = """local found = redis.call('HMGET', KEYS[1], 'f', 'v')
if found[1] == '1' then return 0 end
if ARGV[6] ~= '' and found[2] ~= ARGV[6] then return 0 end
redis.call('HSET', KEYS[1], 'r', ARGV[1], 'f', ARGV[2], 'v', ARGV[5])
redis.call('EXPIREAT', KEYS[1], ARGV[3])
redis.call('ZREMRANGEBYSCORE', KEYS[2], '-inf', math.floor(now / 1000000))
redis.call('ZADD', KEYS[2], ARGV[3], ARGV[4])
if redis.call('TTL', KEYS[2]) < tonumber(ARGV[3]) - math.floor(now / 1000000) then
  redis.call('EXPIREAT', KEYS[2], ARGV[3])
end
redis.call('PUBLISH', ARGV[7], ARGV[4])
return 1
"""
# KEYS: index; ARGV: the records' key prefix -> the live records, the first to expire first
LIST_TASKS = """local records = {}
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', math.floor(now / 1000000))
for _, member in ipairs(redis.call('ZRANGE', KEYS[1], 0, -1)) do
  local record = redis.call('HGET', ARGV[1] .. member, 'r')
  if record then table.insert(records, record) end
end
return records
"""
_SCRIPTS = {
    name: _NOW_US + lua
    for name, lua in (
        ("reserve", RESERVE),
        ("get", GET),
        ("put", PUT),
        ("acquire", ACQUIRE),
        ("renew", RENEW),
        ("put_task", PUT_TASK),
        ("list_tasks", LIST_TASKS),
    )
}
_DOWN = (redis.ConnectionError, redis.TimeoutError, redis.ReadOnlyError, OSError)
# How long a close of an asyncio client or subscription is waited for. Closing writes
# nothing: it closes the socket, then waits for the transport to say it has ended, which
# redis-py's asyncio client was seen never to hear of once in a while (a suite hung in a
# cancelled subscription's `finally`); past this wait the socket is closed all the same.
CLOSE_S = 2.0
_OWN = ("prefix", "lease_s", "timeout_s")  # query settings of this store, not the client's


class RedisStore:
    shared = True

    def __init__(self, url: str) -> None:
        parts = urlsplit(url)
        query = dict(parse_qsl(parts.query))
        self.url = shown(url)
        self.prefix = query.get("prefix", "toolgen")
        self.lease_s = _positive(query, "lease_s", 30.0)
        timeout = _positive(query, "timeout_s", 1.0)
        rest = urlencode({k: v for k, v in query.items() if k not in _OWN})
        self._client_url = urlunsplit(parts._replace(query=rest))
        # One try, no backoff: an unreachable store answers at once, the registry says so.
        self._settings: dict[str, Any] = {
            "socket_timeout": timeout,
            "socket_connect_timeout": timeout,
        }
        try:
            self._sync = redis.Redis.from_url(
                self._client_url, retry=Retry(NoBackoff(), 0), **self._settings
            )
        except ValueError as exc:
            raise ValueError(f"store {self.url!r}: {exc}") from None
        self._scripts = {name: self._sync.register_script(lua) for name, lua in _SCRIPTS.items()}
        self._loops: weakref.WeakKeyDictionary[Any, tuple[Any, dict[str, Any], Any]] = (
            weakref.WeakKeyDictionary()
        )
        self._member = f"{os.getpid()}-{os.urandom(6).hex()}-"  # unique among processes
        self._count = itertools.count()
        self._held: dict[str, str] = {}  # token -> key: the leases this process renews
        self._lock = threading.RLock()  # _finish re-enters it (_closed_with)
        self._renewing: threading.Event | None = None

    def _key(self, key: str) -> str:
        return f"{self.prefix}:{key}"

    @property
    def _notices(self) -> str:
        """The channel of the task records put (anotices)."""
        return self._key("task-notices")

    def _token(self) -> str:
        return f"{self._member}{next(self._count)}"

    def _down(self, exc: BaseException) -> StoreUnavailable:
        return StoreUnavailable(self.url, str(exc) or type(exc).__name__)

    def _run(self, name: str, keys: list[str], args: list[Any]) -> Any:
        try:
            return self._scripts[name](keys=keys, args=args)
        except _DOWN as exc:
            raise self._down(exc) from None

    async def _arun(self, name: str, keys: list[str], args: list[Any]) -> Any:
        try:
            return await (await self._async())[1][name](keys=keys, args=args)
        except _DOWN as exc:
            raise self._down(exc) from None

    async def _acall(self, do: Callable[[Any], Awaitable[Any]]) -> Any:
        try:
            return await do((await self._async())[0])
        except _DOWN as exc:
            raise self._down(exc) from None

    async def _async(self) -> tuple[Any, dict[str, Any]]:
        """This event loop's client and scripts (an asyncio client belongs to one loop).

        The client is closed when its loop ends: an async generator started on the loop holds
        it, and a loop that ends as `asyncio.run`'s do (and uvicorn's, anyio's) closes every
        async generator still open, running its `finally`. Without that, a host running
        `asyncio.run(registry.acall(...))` again and again keeps a connection per loop (the
        client refers to its loop, so the weak mapping never lets either go). A loop closed
        without closing its generators (`loop.close()` alone) leaves its entry to the next
        loop's first call, which drops it; its sockets are then the garbage collector's.
        """
        import asyncio

        loop = asyncio.get_running_loop()
        with self._lock:  # the loops of several threads
            found = self._loops.get(loop)
            if found is not None:
                return found[:2]
            for ended in [other for other in self._loops if other.is_closed()]:
                _finish(self._loops[ended][2])
            retry = redis.asyncio.retry.Retry(NoBackoff(), 0)
            client = redis.asyncio.Redis.from_url(self._client_url, retry=retry, **self._settings)
            scripts = {name: client.register_script(lua) for name, lua in _SCRIPTS.items()}
            closer = self._closed_with(loop, client)
            self._loops[loop] = (client, scripts, closer)
        await closer.asend(None)  # started here, so the loop closes it when it ends
        return client, scripts

    async def _closed_with(self, loop: Any, client: Any) -> AsyncGenerator[None, None]:
        try:
            yield
        finally:
            with self._lock:
                self._loops.pop(loop, None)
            if not loop.is_closed():
                await closed(client.aclose)

    def reserve(self, key: str, calls: int, per_s: float, now: float) -> float:
        waited = self._run("reserve", [self._key(key)], [calls, _us(per_s), self._token()])
        return int(waited) / 1e6

    async def areserve(self, key: str, calls: int, per_s: float, now: float) -> float:
        waited = await self._arun("reserve", [self._key(key)], [calls, _us(per_s), self._token()])
        return int(waited) / 1e6

    def get(self, key: str, field: str, ttl_s: float, now: float) -> Any:
        return self._run("get", self._map(key), [field, _us(ttl_s)])

    async def aget(self, key: str, field: str, ttl_s: float, now: float) -> Any:
        return await self._arun("get", self._map(key), [field, _us(ttl_s)])

    def put(
        self, key: str, field: str, value: Any, ttl_s: float, max_entries: int, now: float
    ) -> None:
        self._run("put", self._map(key), [field, value, _us(ttl_s), max_entries])

    async def aput(
        self, key: str, field: str, value: Any, ttl_s: float, max_entries: int, now: float
    ) -> None:
        await self._arun("put", self._map(key), [field, value, _us(ttl_s), max_entries])

    def _map(self, key: str) -> list[str]:
        return [self._key(key), self._key(key + ":times")]

    def claim(self, key: str, expires_at: float) -> bool:
        try:
            return bool(self._sync.set(self._key(key), 1, nx=True, exat=_at(expires_at)))
        except _DOWN as exc:
            raise self._down(exc) from None

    async def aclaim(self, key: str, expires_at: float) -> bool:
        at = _at(expires_at)
        return bool(await self._acall(lambda c: c.set(self._key(key), 1, nx=True, exat=at)))

    def acquire(self, key: str, limit: int, lease_s: float) -> str | None:
        token = self._token()
        if not self._run("acquire", [self._key(key)], [limit, _us(lease_s), token]):
            return None
        self._hold(key, token)
        return token

    async def aacquire(self, key: str, limit: int, lease_s: float) -> str | None:
        token = self._token()
        if not await self._arun("acquire", [self._key(key)], [limit, _us(lease_s), token]):
            return None
        self._hold(key, token)
        return token

    def release(self, key: str, token: str) -> None:
        self._forget(token)
        try:
            self._sync.zrem(self._key(key), token)
        except _DOWN as exc:
            raise self._down(exc) from None

    async def arelease(self, key: str, token: str) -> None:
        self._forget(token)
        await self._acall(lambda c: c.zrem(self._key(key), token))

    async def aput_task(
        self,
        index: str,
        key: str,
        record: str,
        final: bool,
        expires_at: float,
        version: int = 0,
        expect: int | None = None,
    ) -> bool:
        keys = [self._key(key), self._key(index)]
        expected = "" if expect is None else str(expect)
        args = [record, int(final), _at(expires_at), key, str(version), expected, self._notices]
        return bool(await self._arun("put_task", keys, args))

    async def anotices(self) -> AsyncIterator[str | None]:
        """None once subscribed, then the key of each task record put (a message the script
        that puts it publishes): a connection of its own, which waits without a deadline."""
        client: Any = redis.asyncio.Redis.from_url(
            self._client_url,
            retry=redis.asyncio.retry.Retry(NoBackoff(), 0),
            socket_connect_timeout=self._settings["socket_connect_timeout"],
        )
        pubsub = client.pubsub(ignore_subscribe_messages=True)
        try:
            await pubsub.subscribe(self._notices)
            yield None
            while True:
                message = await pubsub.get_message(timeout=None)
                if message is not None:
                    yield bytes(message["data"]).decode()
        except _DOWN as exc:
            raise self._down(exc) from None
        finally:  # (also when the listening task is cancelled: a server or loop ending)
            await closed(pubsub.aclose, client.aclose)

    async def aget_task(self, key: str) -> str | None:
        found = await self._acall(lambda c: c.hget(self._key(key), "r"))
        return None if found is None else bytes(found).decode()

    async def alist_tasks(self, index: str) -> list[str]:
        found = await self._arun("list_tasks", [self._key(index)], [self._key("")])
        return [bytes(record).decode() for record in found]

    @property
    def connection_url(self) -> str:
        """The URL the client connects with (password included; never shown): what Docket's
        queue of this store's tasks connects to (serving/taskwork.py)."""
        return self._client_url

    def _hold(self, key: str, token: str) -> None:
        """Renew this lease until it is released (one thread renews every lease held here)."""
        with self._lock:
            self._held[token] = key
            if self._renewing is None:
                self._renewing = threading.Event()
                threading.Thread(
                    target=self._renew, args=(self._renewing,), name="toolgen-leases", daemon=True
                ).start()

    def _forget(self, token: str) -> None:
        with self._lock:
            self._held.pop(token, None)

    def _renew(self, stop: threading.Event) -> None:
        while not stop.wait(self.lease_s / 3):
            with self._lock:
                if not self._held:  # nothing to renew: the next lease starts a thread again
                    self._renewing = None
                    return
                by_key: dict[str, list[str]] = {}
                for token, key in self._held.items():
                    by_key.setdefault(key, []).append(token)
            for key, tokens in by_key.items():
                try:
                    self._run("renew", [self._key(key)], [_us(self.lease_s), *tokens])
                except StoreUnavailable:  # a lease not renewed in time is lost, not held
                    pass


async def closed(*closes: Callable[[], Awaitable[object]]) -> None:
    """Run each close in turn, each waited for at most CLOSE_S (a close that fails or does not
    end in time is left: the others still run)."""
    for close in closes:
        try:
            await asyncio.wait_for(close(), CLOSE_S)
        except Exception:  # noqa: BLE001 - closing: the connection is gone either way
            pass


def _finish(closer: Any) -> None:
    """Close `closer` (a `_closed_with` generator) whose loop is closed: its `finally` awaits
    nothing then, so one step runs it to the end (and the loop's finalizer is never asked)."""
    try:
        closer.aclose().send(None)
    except StopIteration:
        pass


def _us(seconds: float) -> int:
    return max(1, int(seconds * 1e6))


def _at(expires_at: float) -> int:
    return max(1, math.ceil(expires_at))


def _positive(query: dict[str, str], name: str, default: float) -> float:
    if name not in query:
        return default
    try:
        value = float(query[name])
    except ValueError:
        value = -1.0
    if not value > 0:
        raise ValueError(f"store setting {name}={query[name]!r}: a number of seconds above 0")
    return value
