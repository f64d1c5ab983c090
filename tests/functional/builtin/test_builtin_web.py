"""fetch_url against a local HTTP server that the test starts on 127.0.0.1 (on 127.0.0.2 and
127.0.0.3 for a host of several addresses; no other address is used)."""

from __future__ import annotations

import gzip
import socket
import threading
import time
import zlib
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any

import pytest

from implementations import WebPolicy, registry, web
from implementations.html_markdown import convert
from tests.support.builtin_support import BackoffClock, base_url, serving, within

PAGE = """<!doctype html><html><head><title>Test  page</title><style>body {color: red}</style>
<script>document.write("no")</script></head><body>
<nav><a href="/">Home</a></nav>
<h1>Hello &amp; welcome</h1>
<p>Read <a href="/docs/intro.html">the intro</a> or <a href="https://example.org/x">elsewhere</a>.
Some <strong>bold</strong>, <em>emphasis</em> and <code>code</code>.</p>
<ul><li>one</li><li>two<ol><li>two.a</li></ol></li></ul>
<pre>def f():
    return 1</pre>
<table><tr><th>name</th><th>qty</th></tr><tr><td>bolt</td><td>12</td></tr></table>
</body></html>"""


QUIET_THEN_LIVE = ("127.0.0.2", "127.0.0.3")  # the addresses of the host of two
BOMB = gzip.compress(b"a" * 20_000_000, compresslevel=9)  # 20 MB in about 20 kB
ENCODED = {  # path: (Content-Encoding, body)
    "/gzip": ("gzip", gzip.compress(PAGE.encode())),
    "/gzip-twice": ("x-gzip", gzip.compress(b"<p>one ") + gzip.compress(b"two</p>")),
    "/deflate": ("deflate", zlib.compress(PAGE.encode())),
    "/raw-deflate": ("Deflate", zlib.compress(PAGE.encode())[2:-4]),  # no zlib header
    "/bomb": ("gzip", BOMB),
    "/broken": ("gzip", gzip.compress(PAGE.encode())[:-30] + b"\xff" * 30),
    "/cut": ("gzip", gzip.compress(PAGE.encode())[:40]),
    "/br": ("br", b"\x1b\x03\x00\xf8\xa5@\x02"),
    "/stacked": ("deflate, gzip", gzip.compress(zlib.compress(b"<p>x</p>"))),
}


class Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"
    requests: list[str]  # set per server

    def log_message(self, format: str, *args: Any) -> None:
        pass

    def send(
        self, status: int, body: bytes, content_type: str = "text/plain", **headers: str
    ) -> None:
        self.send_response(status)
        self.send_header("Content-Type", content_type)
        self.send_header("Content-Length", str(len(body)))
        for name, value in headers.items():
            self.send_header(name.replace("_", "-"), value)
        self.end_headers()
        self.wfile.write(body)

    def do_GET(self) -> None:  # noqa: N802 - the http.server API
        self.server.requests.append(self.path)  # type: ignore[attr-defined]
        self.server.accepted = self.headers.get("Accept-Encoding")  # type: ignore[attr-defined]
        port = self.server.server_address[1]
        path = self.path
        if path == "/page.html":
            self.send(200, PAGE.encode(), "text/html; charset=utf-8")
        elif path == "/latin1":
            self.send(200, "<p>café</p>".encode("latin-1"), "text/html; charset=ISO-8859-1")
        elif path == "/data.json":
            self.send(200, b'{"items": [1, 2]}', "application/json")
        elif path == "/untyped":
            self.send_response(200)
            self.send_header("Content-Length", "5")
            self.end_headers()
            self.wfile.write(b"plain")
        elif path == "/short":  # announces 100 bytes, sends 10, hangs up
            self.send_response(200)
            self.send_header("Content-Type", "text/plain")
            self.send_header("Content-Length", "100")
            self.send_header("Connection", "close")
            self.end_headers()
            self.wfile.write(b"0123456789")
            self.close_connection = True
        elif path == "/image.png":
            self.send(200, b"\x89PNG\r\n\x1a\n" + bytes(100), "image/png")
        elif path == "/missing":
            self.send(404, b"not here")
        elif path == "/busy":
            self.send(503, b"try later")
        elif path == "/to-page":
            self.send(302, b"", Location="/page.html")
        elif (
            path == "/to-outside"
        ):  # localhost is not on the allow-list: this must never be followed
            self.send(302, b"", Location=f"http://localhost:{port}/secret")
        elif path.startswith("/loop"):
            self.send(302, b"", Location=f"/loop{len(path)}")
        elif path == "/endless":  # announces nothing, never ends
            self.send_response(200)
            self.send_header("Content-Type", "text/plain")
            self.end_headers()
            try:
                while True:
                    self.wfile.write(b"x" * 65536)
            except OSError:
                pass
        elif path == "/huge":  # announces 50 MB
            self.send_response(200)
            self.send_header("Content-Type", "text/plain")
            self.send_header("Content-Length", str(50_000_000))
            self.end_headers()
            try:
                for _ in range(50_000_000 // 65536):
                    self.wfile.write(b"y" * 65536)
            except OSError:
                pass
        elif path == "/slow":  # no answer for 3 s
            time.sleep(3)
            self.send(200, b"late")
        elif path == "/drip":  # an answer that trickles in, a byte at a time
            self.send_response(200)
            self.send_header("Content-Type", "text/plain")
            self.send_header("Content-Length", "1000")
            self.end_headers()
            try:
                for _ in range(1000):
                    self.wfile.write(b"d")
                    self.wfile.flush()
                    time.sleep(0.05)
            except OSError:
                pass
        elif path == "/stall-redirect":  # each hop stalls: together they pass the deadline
            time.sleep(0.3)
            self.send(302, b"", Location="/stall-busy")
        elif path == "/stall-busy":
            time.sleep(0.3)
            self.send(503, b"try later")
        elif path == "/busy-once":  # fails the first time only
            first = self.server.requests.count(path) == 1  # type: ignore[attr-defined]
            self.send(503, b"try later") if first else self.send(200, b"recovered")
        elif path in ENCODED:
            encoding, body = ENCODED[path]
            self.send(200, body, "text/html; charset=utf-8", Content_Encoding=encoding)
        else:
            self.send(404, b"unknown")


@pytest.fixture(scope="module")
def server() -> Iterator[Any]:
    with serving(Handler) as httpd:
        yield httpd


@pytest.fixture
def base(server: Any) -> str:
    return base_url(server)


@pytest.fixture
def r(tmp_path: Path) -> Any:
    return registry(
        tmp_path,
        web=WebPolicy(allow_hosts=("127.0.0.1",), max_timeout_s=5, retry_backoff_s=0.05),
        clock=BackoffClock(),
    )


def fetch(r: Any, url: str, **arguments: Any) -> Any:
    return within(15, lambda: r.call("fetch_url", {"url": url, **arguments}))


def ok(r: Any, url: str, **arguments: Any) -> dict[str, Any]:
    result = fetch(r, url, **arguments)
    assert result.ok, result.text()
    value: dict[str, Any] = result.to_dict()["result"]
    return value


def kind(result: Any) -> str | None:
    return None if result.failure is None else result.failure.kind


def test_html_becomes_markdown_with_absolute_links(r: Any, base: str) -> None:
    page = ok(r, f"{base}/page.html")
    assert (
        page["title"] == "Test page"
        and page["status"] == 200
        and page["content_type"] == "text/html"
    )
    content = page["content"]
    assert content.startswith(f"[Home]({base}/)\n\n# Hello & welcome\n\n")
    assert (
        f"Read [the intro]({base}/docs/intro.html) or [elsewhere](https://example.org/x)."
        in content
    )
    assert "**bold**, *emphasis* and `code`." in content
    assert "- one\n- two\n  1. two.a" in content
    assert "```\ndef f():\n    return 1\n```" in content
    assert "| name | qty |\n| --- | --- |\n| bolt | 12 |" in content
    assert "color" not in content and "document.write" not in content and "Test page" not in content


def test_text_and_raw_formats(r: Any, base: str) -> None:
    text = ok(r, f"{base}/page.html", format="text")["content"]
    assert "Hello & welcome" in text and "Read the intro or elsewhere." in text
    assert "[" not in text and "#" not in text and "**" not in text
    raw = ok(r, f"{base}/page.html", format="raw")
    assert raw["content"] == PAGE and raw["title"] == "Test page"
    assert ok(r, f"{base}/latin1")["content"] == "café\n"  # the declared charset is honoured


def test_other_text_is_returned_as_it_came(r: Any, base: str) -> None:
    data = ok(r, f"{base}/data.json")
    assert data["content"] == '{"items": [1, 2]}' and data["title"] is None
    assert ok(r, f"{base}/untyped")["content"] == "plain"


def test_hosts_off_the_allow_list_are_never_contacted(
    r: Any, base: str, server: Any, tmp_path: Path
) -> None:
    port = server.server_address[1]
    result = fetch(r, f"http://localhost:{port}/page.html")
    assert kind(result) == "host_not_allowed" and "127.0.0.1" in result.text()
    nobody = registry(tmp_path)  # the default policy allows no host at all
    assert kind(fetch(nobody, f"{base}/page.html")) == "host_not_allowed"
    subdomains = registry(tmp_path, web=WebPolicy(allow_hosts=("*.example.test",)))
    assert kind(fetch(subdomains, f"http://example.test:{port}/")) == "host_not_allowed"
    assert kind(fetch(subdomains, f"http://evil-example.test:{port}/")) == "host_not_allowed"
    assert server.requests == []


def test_redirects_are_followed_only_to_allowed_hosts(r: Any, base: str, server: Any) -> None:
    followed = ok(r, f"{base}/to-page")
    assert followed["url"] == f"{base}/page.html" and followed["title"] == "Test page"
    server.requests.clear()
    refused = fetch(r, f"{base}/to-outside")
    assert kind(refused) == "host_not_allowed" and "localhost" in refused.text()
    assert server.requests == ["/to-outside"]  # the redirect target was never requested
    assert kind(fetch(r, f"{base}/loop")) == "too_many_redirects"


def test_bodies_are_cut_at_the_size_limit(r: Any, base: str, tmp_path: Path) -> None:
    for path in ("/endless", "/huge"):
        started = time.monotonic()
        body = ok(r, f"{base}{path}", max_bytes=100_000)
        assert body["truncated"] is True and len(body["content"]) == 100_000, path
        assert time.monotonic() - started < 5
    capped = registry(tmp_path, web=WebPolicy(allow_hosts=("127.0.0.1",), max_bytes=1000))
    assert (
        len(ok(capped, f"{base}/endless", max_bytes=10_000_000)["content"]) == 1000
    )  # the host's cap wins
    assert ok(r, f"{base}/data.json", max_bytes=5) == {
        **ok(r, f"{base}/data.json", max_bytes=5),
        "content": '{"ite',
        "truncated": True,
    }


def test_slow_servers_time_out(r: Any, base: str, tmp_path: Path) -> None:
    for path in ("/slow", "/drip"):  # silent, then trickling: one deadline covers both
        started = time.monotonic()
        result = fetch(r, f"{base}{path}", timeout_s=0.5)
        assert kind(result) == "timeout", (path, result.text())
        # Retryable, by the host or the model: the deadline is gone, so the tool did not retry.
        assert result.attempts == 1 and result.failure.retryable
        assert time.monotonic() - started < 3, path
    assert r.clock.waits == []  # the registry never retried either
    capped = registry(
        tmp_path, web=WebPolicy(allow_hosts=("127.0.0.1",), max_timeout_s=0.5), clock=BackoffClock()
    )
    started = time.monotonic()
    assert kind(fetch(capped, f"{base}/slow", timeout_s=60)) == "timeout"
    assert time.monotonic() - started < 3


def test_errors_are_declared(r: Any, base: str, tmp_path: Path) -> None:
    assert kind(fetch(r, f"{base}/image.png")) == "not_text"
    missing = fetch(r, f"{base}/missing")
    assert kind(missing) == "http_status" and "404" in missing.text()
    assert missing.attempts == 1 and not missing.failure.retryable  # a 404 is not tried again
    busy = fetch(r, f"{base}/busy")
    assert kind(busy) == "http_unavailable" and "503" in busy.text()
    for url in (
        "file:///etc/passwd",
        "ftp://127.0.0.1/x",
        "127.0.0.1/page.html",
        "http://",
        "http://127.0.0.1:99999/",
        "http://user:pw@127.0.0.1/",
    ):
        assert kind(fetch(r, url)) == "invalid_url", url
    closed = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    port = closed.server_address[1]
    closed.server_close()  # nothing listens there now
    assert kind(fetch(r, f"http://127.0.0.1:{port}/")) == "connection_failed"
    assert kind(fetch(r, f"{base}/short")) == "connection_failed"


def test_urls_are_sent_encoded(r: Any, base: str, server: Any) -> None:
    fetch(
        r, f"{base}/a b/é?q=x y\r\nInjected: 1"
    )  # no header can be injected: CR and LF are dropped
    assert server.requests == ["/a%20b/%C3%A9?q=x%20yInjected:%201"]


def test_markdown_conversion_edge_cases() -> None:
    assert convert("") == ("", None)
    assert convert("<p>a<br>b</p>")[0] == "a  \nb\n"
    assert convert("<p>unclosed <b>bold")[0] == "unclosed **bold\n"
    assert convert("<blockquote><p>q1</p><p>q2</p></blockquote>")[0] == "> q1\n\n> q2\n"
    assert convert(
        '<a href="javascript:alert(1)">x</a> <img src="i.png" alt="pic">', "http://h/d/"
    )[0] == ("x ![pic](http://h/d/i.png)\n")
    assert convert("<script>never</script><p>&lt;tag&gt; &amp; &#x41;</p>")[0] == "<tag> & A\n"


def test_timeout_s_bounds_the_whole_fetch_retries_and_redirects_included(
    r: Any, base: str, server: Any, tmp_path: Path
) -> None:
    # Two hops of 0.3 s each, then a 503: the deadline of 0.5 s ends in the second hop, and
    # nothing is tried again (neither by the tool nor by the registry).
    stalled = fetch(r, f"{base}/stall-redirect", timeout_s=0.5)
    assert kind(stalled) == "timeout" and stalled.attempts == 1, stalled.text()
    assert server.requests == ["/stall-redirect", "/stall-busy"]
    assert r.clock.waits == []
    # A failure that may pass is tried once more, within the same deadline.
    server.requests.clear()
    assert ok(r, f"{base}/busy-once")["content"] == "recovered"
    assert server.requests == ["/busy-once", "/busy-once"]
    server.requests.clear()
    busy = fetch(r, f"{base}/busy")
    assert kind(busy) == "http_unavailable" and busy.attempts == 1
    assert server.requests == ["/busy", "/busy"]  # once more, by the tool only
    # A backoff (1 s) that would end after the deadline (0.5 s) is not waited: no second try.
    patient = registry(tmp_path, web=WebPolicy(allow_hosts=("127.0.0.1",)), clock=BackoffClock())
    server.requests.clear()
    busy = fetch(patient, f"{base}/busy", timeout_s=0.5)
    assert kind(busy) == "http_unavailable" and busy.attempts == 1
    assert server.requests == ["/busy"] and patient.clock.waits == []


def test_compressed_bodies_are_decoded_within_the_size_limit(
    r: Any, base: str, server: Any
) -> None:
    plain = ok(r, f"{base}/page.html")
    assert server.accepted == "gzip, deflate"  # what the tool decodes, nothing else
    for path in ("/gzip", "/deflate", "/raw-deflate"):
        assert ok(r, f"{base}{path}") == {**plain, "url": f"{base}{path}"}, path
    assert ok(r, f"{base}/gzip-twice", format="raw")["content"] == "<p>one two</p>"
    # A bomb: 20 MB in 20 kB. Decoding stops at the limit, as for any long body.
    bomb = ok(r, f"{base}/bomb", max_bytes=100_000, format="raw")
    assert bomb["content"] == "a" * 100_000 and bomb["truncated"] is True
    for path in ("/br", "/stacked", "/broken", "/cut"):  # refused, never returned as mojibake
        refused = fetch(r, f"{base}{path}")
        assert kind(refused) == "bad_encoding", (path, refused.text())
    assert "br" in fetch(r, f"{base}/br").failure.message


def test_an_address_that_never_answers_leaves_the_next_one_time_to_connect(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A host of two addresses: the first (127.0.0.2) takes no connection (its listener's queue
    is full, so the SYN is dropped), the second (127.0.0.3) serves. Each attempt has its share
    of timeout_s: the fetch succeeds on the second address, within timeout_s."""
    with serving(Handler, "127.0.0.3") as live, socket.socket() as hole, socket.socket() as full:
        port = live.server_address[1]
        hole.bind(("127.0.0.2", port))
        hole.listen(0)
        full.connect(("127.0.0.2", port))  # the one connection its queue holds
        addresses = [(socket.AF_INET, socket.SOCK_STREAM, 6, (a, port)) for a in QUIET_THEN_LIVE]
        monkeypatch.setattr(web, "resolve", lambda host, port: addresses)
        policy = WebPolicy(allow_hosts=("two.test",), retries=0)
        r = registry(tmp_path, web=policy, clock=BackoffClock())
        started = time.monotonic()
        result = fetch(r, f"http://two.test:{port}/data.json", timeout_s=2)
        took = time.monotonic() - started
        assert live.requests == ["/data.json"]
    assert result.ok, result.text()
    assert result.to_dict()["result"]["content"] == '{"items": [1, 2]}'
    assert took < 2, took


def test_a_resolver_that_hangs_ends_the_fetch_at_its_deadline(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Name resolution is inside timeout_s: a resolver that would block for 30 s ends a fetch
    of timeout_s 0.5 as a timeout, long before the resolver answers (10 s: a generous margin)."""
    released = threading.Event()
    asked: list[str] = []

    def hanging(host: str, *_: Any, **__: Any) -> Any:
        asked.append(host)
        released.wait(30)
        raise socket.gaierror(socket.EAI_NONAME, "never answered")

    monkeypatch.setattr(web.socket, "getaddrinfo", hanging)
    r = registry(tmp_path, web=WebPolicy(allow_hosts=("slow-dns.test",)), clock=BackoffClock())
    try:
        started = time.monotonic()
        result = fetch(r, "http://slow-dns.test/page", timeout_s=0.5)
        took = time.monotonic() - started
    finally:
        released.set()
    assert asked == ["slow-dns.test"]
    assert kind(result) == "timeout", result.text()
    assert result.attempts == 1
    assert took < 10, took


def test_the_environments_proxies_are_never_used(
    r: Any, base: str, server: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Proxies set in the environment (to a port nothing listens on) change nothing: the
    fetch goes straight to the allowed host."""
    for name in ("http_proxy", "HTTP_PROXY", "https_proxy", "HTTPS_PROXY", "all_proxy"):
        monkeypatch.setenv(name, "http://127.0.0.1:9")
    server.requests.clear()
    assert ok(r, f"{base}/page.html", format="raw")["status"] == 200
    assert server.requests == ["/page.html"]
