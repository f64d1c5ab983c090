"""fetch_url: an HTTP GET bounded in hosts, time and size, with HTML turned into Markdown or text.

- Hosts: only those on the policy's allow-list ("docs.python.org" exactly; "*.python.org" any
  subdomain). Every redirect target is checked again before it is contacted. URLs carrying a
  user name or password are refused. No proxy is used (the environment's proxies are ignored).
- Time: one deadline for the whole fetch, redirects included. Each socket operation waits at
  most the time left, and a timer shuts the socket down at the deadline, so a server that
  dribbles bytes cannot stretch it. A host's addresses are tried in turn, each connection
  attempt given its share of the time left (half of it for the first of two), so an address
  that never answers leaves the next one time to connect. Name resolution is inside the
  deadline too: the system's resolver runs in a thread of its own, waited for at most the
  time left, so a resolver that hangs ends the fetch as a `timeout` at the deadline.
- Size: the body is read in chunks up to the limit, then the connection is dropped
  (`truncated: true`); memory stays bounded whatever the server sends or announces. A body
  in gzip or deflate is decoded as it is read, the limit counting decoded bytes (encoding.py).
"""

from __future__ import annotations

import codecs
import http.client
import re
import socket
import ssl
import threading
import time
from dataclasses import dataclass
from typing import Any, NamedTuple
from urllib.parse import SplitResult, quote, urljoin, urlsplit

from toolgen_builtin import ToolError
from toolgen_builtin.tools.fetch_url import FetchUrlArguments, FetchUrlResult, FetchUrlTool

from .encoding import ACCEPT_ENCODING, Decoder
from .html_markdown import convert

REDIRECTS = frozenset({301, 302, 303, 307, 308})


def error_kind(status: int) -> str:
    """The declared kind of an HTTP error status: `http_unavailable` (retryable: a 5xx, 408
    Request Timeout, 429 Too Many Requests) or `http_status` (the request itself was refused)."""
    return "http_unavailable" if status >= 500 or status in (408, 429) else "http_status"


TEXT_TYPES = frozenset(
    {
        "application/json",
        "application/xml",
        "application/javascript",
        "application/x-javascript",
        "application/ecmascript",
        "application/xhtml+xml",
        "application/x-yaml",
        "application/yaml",
        "application/toml",
        "application/x-sh",
        "application/sql",
        "application/csv",
        "image/svg+xml",
        "application/x-ndjson",
        "application/graphql",
    }
)
HTML_TYPES = frozenset({"text/html", "application/xhtml+xml"})
_CHARSET = re.compile(r"charset\s*=\s*[\"']?([A-Za-z0-9._:-]+)", re.IGNORECASE)
_SAFE_URL_CHARS = "/%:@!$&'()*+,;=-._~?"
_CHUNK = 65536
_SHOWN_HOSTS = 10


@dataclass(frozen=True)
class WebPolicy:
    """What a host allows fetch_url: hosts, and ceilings on the model's size and time arguments."""

    allow_hosts: tuple[str, ...] = ()  # empty: every URL is refused (host_not_allowed)
    max_bytes: int = 2_000_000
    max_timeout_s: float = 30.0
    max_redirects: int = 5
    user_agent: str = "toolgen-fetch_url/0.1"
    retries: int = 1  # a failure that may pass (connection, 5xx, 408, 429): tried again
    retry_backoff_s: float = 1.0  # after this wait, when the deadline leaves time for it

    def allows(self, host: str) -> bool:
        for entry in self.allow_hosts:
            entry = entry.lower().rstrip(".")
            if host == entry or (entry.startswith("*.") and host.endswith(entry[1:])):
                return True
        return False


class Target(NamedTuple):
    https: bool
    host: str
    port: int | None
    path: str  # path and query, percent-encoded


def check_url(url: str, policy: WebPolicy) -> Target:
    """The parts of an allowed URL, or ToolError(invalid_url | host_not_allowed)."""
    try:
        parts: SplitResult = urlsplit(url.strip())
        port = parts.port
        host = (parts.hostname or "").rstrip(".")
        host = (
            host.encode("idna").decode("ascii").lower()
            if host and not host.isascii()
            else host.lower()
        )
    except (ValueError, UnicodeError) as exc:
        raise ToolError("invalid_url", f"{url!r} is not a valid URL: {exc}") from None
    if parts.scheme.lower() not in ("http", "https") or not host:
        raise ToolError("invalid_url", f"{url!r} is not an absolute http:// or https:// URL")
    if parts.username is not None or parts.password is not None:
        raise ToolError("invalid_url", "URLs with a user name or password are refused")
    if not policy.allows(host):
        allowed = ", ".join(policy.allow_hosts[:_SHOWN_HOSTS]) or "none"
        raise ToolError(
            "host_not_allowed", f"{host} is not an allowed host (allowed hosts: {allowed})"
        )
    path = quote(parts.path or "/", safe=_SAFE_URL_CHARS)
    if parts.query:
        path += "?" + quote(parts.query, safe=_SAFE_URL_CHARS)
    return Target(parts.scheme.lower() == "https", host, port, path)


class _Response(NamedTuple):
    status: int
    reason: str
    location: str | None
    media_type: str
    charset: str | None
    body: bytes
    truncated: bool


def _is_text(media_type: str) -> bool:
    return (
        media_type.startswith("text/")
        or media_type in TEXT_TYPES
        or media_type.endswith(("+json", "+xml"))
    )


def resolve(host: str, port: int) -> list[tuple[int, int, int, Any]]:
    """The addresses of `host` to try, in the resolver's order: (family, type, proto, address)."""
    found = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM)
    return [(family, kind, proto, address) for family, kind, proto, _, address in found]


def resolve_before(host: str, port: int, deadline: float) -> list[tuple[int, int, int, Any]]:
    """resolve(host, port) within `deadline`, or TimeoutError. `getaddrinfo` cannot be
    interrupted, so it runs in a daemon thread that is left to finish on its own when the
    deadline passes first (its answer is then dropped)."""
    box: dict[str, Any] = {}

    def lookup() -> None:
        try:
            box["addresses"] = resolve(host, port)
        except BaseException as exc:  # noqa: BLE001 - raised again in the caller's thread
            box["error"] = exc

    thread = threading.Thread(target=lookup, name=f"resolve {host}", daemon=True)
    thread.start()
    thread.join(max(deadline - time.monotonic(), 0))
    if thread.is_alive():
        raise TimeoutError(f"the name {host} was not resolved in time")
    if "error" in box:
        raise box["error"]
    addresses: list[tuple[int, int, int, Any]] = box["addresses"]
    return addresses


def open_socket(host: str, port: int, deadline: float) -> socket.socket:
    """A TCP connection to one of `host`'s addresses before `deadline` (the name resolved
    within it too): each attempt waits at most its share of the time left (the last one all
    of it). The last failure is raised (TimeoutError when the attempts ran out of time)."""
    addresses = resolve_before(host, port, deadline)
    failed: OSError = TimeoutError(f"no address of {host} answered in time")
    for at, (family, kind, proto, address) in enumerate(addresses):
        left = deadline - time.monotonic()
        if left <= 0:
            break
        sock = socket.socket(family, kind, proto)
        try:
            sock.settimeout(left / (len(addresses) - at))
            sock.connect(address)
        except OSError as exc:
            sock.close()
            failed = exc
            continue
        sock.settimeout(max(deadline - time.monotonic(), 0.001))
        return sock
    raise failed


def connect(target: Target, deadline: float) -> http.client.HTTPConnection:
    """A connection (not opened yet) to an allowed target, opened before `deadline` (one
    attempt per address, open_socket); never through a proxy."""
    timeout = max(deadline - time.monotonic(), 0.001)
    connection: http.client.HTTPConnection
    if target.https:
        connection = http.client.HTTPSConnection(
            target.host, target.port, timeout=timeout, context=ssl.create_default_context()
        )
    else:
        connection = http.client.HTTPConnection(target.host, target.port, timeout=timeout)

    def opened(address: tuple[str, int], *_: Any) -> socket.socket:
        return open_socket(address[0], address[1], deadline)

    connection._create_connection = opened  # type: ignore[attr-defined]
    return connection


class Watchdog:
    """Shuts a connection's socket down after `seconds`, waking any blocked read (`expired` says so)."""

    def __init__(self, connection: http.client.HTTPConnection, seconds: float) -> None:
        self.connection = connection
        self.expired = threading.Event()
        self._timer = threading.Timer(seconds, self._abort)
        self._timer.daemon = True
        self._timer.start()

    def _abort(self) -> None:
        self.expired.set()
        if self.connection.sock is not None:
            try:
                self.connection.sock.shutdown(socket.SHUT_RDWR)
            except OSError:
                pass

    def cancel(self) -> None:
        self._timer.cancel()


def http_get(
    target: Target,
    deadline: float,
    limit: int,
    policy: WebPolicy,
    accept: str = "text/html, text/markdown, text/plain, application/json, */*;q=0.5",
) -> _Response:
    """A GET of an allowed target within the deadline; the body read up to `limit` bytes (2xx only).

    Raises ToolError: timeout, connection_failed, not_text (a 2xx body that is not text),
    bad_encoding (a Content-Encoding not decoded, or broken compressed data; encoding.py).
    """
    remaining = deadline - time.monotonic()
    if remaining <= 0:
        raise ToolError("timeout", "the time limit passed before the fetch finished")
    connection = connect(target, deadline)
    watchdog = Watchdog(connection, remaining)
    expired = watchdog.expired
    try:
        connection.request(
            "GET",
            target.path,
            headers={
                "User-Agent": policy.user_agent,
                "Accept-Encoding": ACCEPT_ENCODING,
                "Accept": accept,
            },
        )
        response = connection.getresponse()
        content_type = response.getheader("Content-Type") or ""
        media_type = content_type.split(";")[0].strip().lower()
        charset_match = _CHARSET.search(content_type)
        head = (
            response.status,
            response.reason,
            response.getheader("Location"),
            media_type,
            charset_match.group(1) if charset_match else None,
        )
        if response.status in REDIRECTS or not 200 <= response.status < 300:
            return _Response(*head, b"", False)
        if media_type and not _is_text(media_type):
            raise ToolError("not_text", f"the content is {media_type}, not text")
        decoder = Decoder.of(response.getheader("Content-Encoding"))
        body = bytearray()
        truncated = False
        while True:
            left = deadline - time.monotonic()
            if left <= 0 or expired.is_set():
                raise TimeoutError
            if connection.sock is not None:
                connection.sock.settimeout(left)
            chunk = response.read1(_CHUNK if decoder else min(_CHUNK, limit + 1 - len(body)))
            if not chunk:
                break
            body += decoder.feed(chunk, limit - len(body)) if decoder else chunk
            if len(body) > limit:
                del body[limit:]
                truncated = True
                break
        if expired.is_set():  # the timer's shutdown reads as end-of-file
            raise TimeoutError
        if decoder and not truncated:
            decoder.finish()
        if not truncated and response.length:
            raise ToolError(
                "connection_failed",
                f"{target.host} closed the connection after {len(body)} bytes, "
                f"{response.length} before the end of the body",
            )
        return _Response(*head, bytes(body), truncated)
    except TimeoutError:
        raise ToolError("timeout", "the server did not answer within the time limit") from None
    except (OSError, http.client.HTTPException) as exc:
        if expired.is_set():
            raise ToolError("timeout", "the server did not answer within the time limit") from None
        reason = (
            getattr(exc, "reason", None) or getattr(exc, "strerror", None) or exc.__class__.__name__
        )
        kind = "certificate" if isinstance(exc, ssl.SSLError) else "connection"
        raise ToolError("connection_failed", f"{kind} to {target.host} failed: {reason}") from None
    finally:
        watchdog.cancel()
        connection.close()


def _decode(body: bytes, charset: str | None) -> str:
    try:
        codec = codecs.lookup(charset or "utf-8").name
    except LookupError:
        codec = "utf-8"
    return body.decode(codec, errors="replace")


class FetchUrl(FetchUrlTool):
    """fetch_url. Its retries are its own, under the call's one deadline (the spec declares
    none for the registry, whose retries would each get a new `timeout_s`)."""

    def __init__(self, policy: WebPolicy) -> None:
        self.policy = policy

    def get(self, target: Target, deadline: float, limit: int) -> _Response:
        """One GET, tried again after `retry_backoff_s` while it fails in a way that may pass
        (`connection_failed`, a 5xx, 408 or 429) and the backoff ends before the deadline."""
        for tries in range(1, self.policy.retries + 2):
            try:
                response = http_get(target, deadline, limit, self.policy)
            except ToolError as exc:
                if exc.kind != "connection_failed" or not self._again(tries, deadline):
                    raise
                continue
            if error_kind(response.status) != "http_unavailable" or not self._again(
                tries, deadline
            ):
                return response
        raise AssertionError("unreachable: the last try returns or raises")

    def _again(self, tries: int, deadline: float) -> bool:
        """Whether to try once more (after waiting the backoff)."""
        wait = self.policy.retry_backoff_s
        if tries > self.policy.retries or time.monotonic() + wait >= deadline:
            return False
        time.sleep(wait)
        return True

    def run(self, arguments: FetchUrlArguments) -> FetchUrlResult:
        deadline = time.monotonic() + min(arguments.timeout_s, self.policy.max_timeout_s)
        limit = min(arguments.max_bytes, self.policy.max_bytes)
        url = arguments.url.strip()
        for _ in range(self.policy.max_redirects + 1):
            response = self.get(check_url(url, self.policy), deadline, limit)
            if response.status in REDIRECTS and response.location:
                url = urljoin(url, response.location.strip())
                continue
            break
        else:
            raise ToolError(
                "too_many_redirects",
                f"more than {self.policy.max_redirects} redirects; last to {url}",
            )
        if not 200 <= response.status < 300:
            raise ToolError(
                error_kind(response.status),
                f"the server answered {response.status} {response.reason} for {url}",
            )
        if not response.media_type:
            sample = (
                response.body[:-4] if response.truncated else response.body
            )  # a cut may split a character
            try:
                sample.decode(response.charset or "utf-8")
            except (UnicodeDecodeError, LookupError):
                raise ToolError(
                    "not_text", "the content is not text (no type declared, not UTF-8)"
                ) from None
        text = _decode(response.body, response.charset)
        html = response.media_type in HTML_TYPES or (
            not response.media_type
            and text.lstrip()[:15].lower().startswith(("<!doctype html", "<html"))
        )
        title = None
        if html and arguments.format != "raw":
            text, title = convert(text, url, markdown=arguments.format == "markdown")
        elif html:
            _, title = convert(text, url)
        return FetchUrlResult(
            url=url,
            status=response.status,
            content_type=response.media_type,
            title=title,
            content=text,
            truncated=response.truncated,
        )
