"""The browser tool's network gate: an HTTP proxy on 127.0.0.1 that connects only to allowed hosts.

Chromium sends all its traffic through it (`--proxy-server`, loopback included), so what
Playwright's request routing cannot see is held to the allow-list too: redirects (routing sees
only a request's first URL), WebSockets, workers, prefetches. It speaks just what Chromium
sends a proxy:

- `CONNECT host:port` (HTTPS, WSS, WS): an allowed host gets a raw tunnel (TLS stays between
  the browser and the site); any other host a 403, and nothing is contacted;
- `GET http://host:port/path` and the other methods with an absolute URL (plain HTTP): the
  request goes to an allowed host as `GET /path` with `Connection: close`, and the response's
  head gets `Connection: close` too, so that the browser never sends a second request (for
  another host) down a connection opened for the first. Any other host gets a 403 page.

Refusals are reported through `on_blocked(host)`; a host that cannot be reached gets a 502 (and
`on_unreachable(host, reason)`). Chromium's own background requests come here too (and are
refused): that is why the tool names the hosts a page was refused from the page's side instead.
Responses the proxy makes itself carry the header `X-Toolgen-Proxy` (`blocked` or
`unreachable`), so the tool can tell them from a site's. Connections are bounded in number,
and each is closed when either side closes it or after `idle_s` without a byte.
"""

from __future__ import annotations

import selectors
import socket
import threading
from collections.abc import Callable

MAX_HEAD = 65536
_CHUNK = 65536
_DROPPED = frozenset({b"connection", b"proxy-connection", b"keep-alive", b"proxy-authorization"})
PROXY_HEADER = "x-toolgen-proxy"


def _split_host_port(authority: str, default_port: int | None) -> tuple[str, int]:
    """("example.com", 443) from "example.com:443" or "[::1]:8080"; ValueError when malformed."""
    if authority.startswith("["):
        host, _, rest = authority[1:].partition("]")
        port_text = rest[1:] if rest.startswith(":") else ""
    else:
        host, _, port_text = authority.rpartition(":") if ":" in authority else (authority, "", "")
    if port_text:
        port = int(port_text)
    elif default_port is not None:
        port = default_port
    else:
        raise ValueError("no port")
    if not host or not 0 < port < 65536:
        raise ValueError("no host or a bad port")
    return host.lower().rstrip("."), port


def _response(status: str, kind: str, text: str = "") -> bytes:
    body = text.encode("utf-8")
    return (
        f"HTTP/1.1 {status}\r\nContent-Type: text/plain; charset=utf-8\r\nContent-Length: {len(body)}\r\n"
        f"{PROXY_HEADER}: {kind}\r\nConnection: close\r\n\r\n"
    ).encode("ascii") + body


def _read_head(sock: socket.socket, first: bytes = b"") -> tuple[bytes, bytes]:
    """(the head up to its blank line, the bytes read after it); ValueError when too long or cut."""
    data = bytearray(first)
    while b"\r\n\r\n" not in data:
        if len(data) > MAX_HEAD:
            raise ValueError("head too long")
        chunk = sock.recv(_CHUNK)
        if not chunk:
            raise ValueError("closed before the end of the head")
        data += chunk
    head, _, rest = bytes(data).partition(b"\r\n\r\n")
    return head, rest


def _rewrite(head: bytes, first_line: bytes) -> bytes:
    """`head` with its first line replaced and `Connection: close` instead of any hop-by-hop header."""
    lines = [first_line]
    for line in head.split(b"\r\n")[1:]:
        if line.split(b":", 1)[0].strip().lower() not in _DROPPED:
            lines.append(line)
    lines.append(b"Connection: close")
    return b"\r\n".join(lines) + b"\r\n\r\n"


class AllowListProxy:
    """An HTTP proxy that reaches only the hosts `allows` accepts. `start()` gives its URL."""

    def __init__(
        self,
        allows: Callable[[str], bool],
        *,
        on_blocked: Callable[[str], None] | None = None,
        on_unreachable: Callable[[str, str], None] | None = None,
        connect_timeout_s: float = 10.0,
        idle_s: float = 120.0,
        max_connections: int = 64,
    ) -> None:
        self.allows, self.on_blocked, self.on_unreachable = allows, on_blocked, on_unreachable
        self.connect_timeout_s, self.idle_s = connect_timeout_s, idle_s
        self._slots = threading.BoundedSemaphore(max_connections)
        self._lock = threading.Lock()
        self._open: set[socket.socket] = set()
        self._closed = False
        self._server = socket.create_server(("127.0.0.1", 0))
        self._thread = threading.Thread(
            target=self._accept, name="toolgen-browser-proxy", daemon=True
        )

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self._server.getsockname()[1]}"

    def start(self) -> str:
        self._thread.start()
        return self.url

    def close(self) -> None:
        """Stop accepting and close every open connection (their threads then end)."""
        with self._lock:
            self._closed = True
            sockets = list(self._open)
        try:
            self._server.shutdown(socket.SHUT_RDWR)
        except OSError:
            pass
        self._server.close()
        for sock in sockets:
            try:
                sock.shutdown(socket.SHUT_RDWR)
            except OSError:
                pass
        self._thread.join(5)

    def _track(self, sock: socket.socket) -> bool:
        with self._lock:
            if self._closed:
                return False
            self._open.add(sock)
            return True

    def _forget(self, *socks: socket.socket | None) -> None:
        for sock in socks:
            if sock is None:
                continue
            with self._lock:
                self._open.discard(sock)
            sock.close()

    def _accept(self) -> None:
        while True:
            try:
                client, _ = self._server.accept()
            except OSError:
                return  # closed
            if not self._slots.acquire(blocking=False):
                client.close()  # the browser retries; more than max_connections at once is not a page's need
                continue
            if not self._track(client):
                client.close()
                self._slots.release()
                return
            threading.Thread(
                target=self._serve, args=(client,), name="toolgen-browser-proxy-conn", daemon=True
            ).start()

    def _serve(self, client: socket.socket) -> None:
        upstream: socket.socket | None = None
        try:
            client.settimeout(self.idle_s)
            head, rest = _read_head(client)
            method, target, _version = head.split(b"\r\n", 1)[0].decode("latin-1").split(" ", 2)
            if method == "CONNECT":
                host, port = _split_host_port(target, None)
                path = ""
            else:
                scheme, _, remainder = target.partition("://")
                if scheme.lower() != "http":
                    client.sendall(
                        _response("400 Bad Request", "refused", "only http:// URLs and CONNECT")
                    )
                    return
                authority, slash, path = remainder.partition("/")
                host, port = _split_host_port(authority, 80)
                path = slash + path or "/"
            if not self.allows(host):
                if self.on_blocked is not None:
                    self.on_blocked(host)
                client.sendall(
                    _response(
                        "403 Forbidden",
                        "blocked",
                        f"The browser tool blocked {host}: it is not an allowed host.",
                    )
                )
                return
            try:
                upstream = socket.create_connection((host, port), timeout=self.connect_timeout_s)
            except OSError as exc:
                reason = str(exc.strerror or exc)
                if self.on_unreachable is not None:
                    self.on_unreachable(host, reason)
                client.sendall(_response("502 Bad Gateway", "unreachable", f"{host}: {reason}"))
                return
            if not self._track(upstream):
                return
            upstream.settimeout(self.idle_s)
            if method == "CONNECT":
                client.sendall(b"HTTP/1.1 200 Connection established\r\n\r\n")
                if rest:
                    upstream.sendall(rest)
                self._relay(client, upstream)
                return
            upstream.sendall(_rewrite(head, f"{method} {path} HTTP/1.1".encode("latin-1")) + rest)
            self._relay(client, upstream, rewrite_response=True)
        except (OSError, ValueError, UnicodeError):
            pass  # a broken request or a closed connection: nothing more to say to the browser
        finally:
            self._forget(client, upstream)
            self._slots.release()

    def _relay(
        self, client: socket.socket, upstream: socket.socket, rewrite_response: bool = False
    ) -> None:
        """Copy bytes both ways until either side closes or nothing moves for idle_s."""
        pending_head = bytearray() if rewrite_response else None
        with selectors.DefaultSelector() as selector:
            selector.register(client, selectors.EVENT_READ, upstream)
            selector.register(upstream, selectors.EVENT_READ, client)
            while True:
                ready = selector.select(self.idle_s)
                if not ready:
                    return
                for key, _ in ready:
                    source: socket.socket = key.fileobj  # type: ignore[assignment]
                    sink: socket.socket = key.data
                    data = source.recv(_CHUNK)
                    if not data:
                        return
                    if source is upstream and pending_head is not None:
                        pending_head += data
                        if b"\r\n\r\n" not in pending_head:
                            if len(pending_head) > MAX_HEAD:
                                return
                            continue
                        head, _, body = bytes(pending_head).partition(b"\r\n\r\n")
                        data = _rewrite(head, head.split(b"\r\n", 1)[0]) + body
                        pending_head = None
                    sink.sendall(data)
