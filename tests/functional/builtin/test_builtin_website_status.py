"""check_website_status against a local HTTP server on 127.0.0.1 that the test starts (no other address is used)."""

from __future__ import annotations

import socket
import time
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any

import pytest

from implementations import WebPolicy, registry
from tests.support.builtin_support import base_url, serving, within


class Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"

    def log_message(self, format: str, *args: Any) -> None:
        pass

    def answer(self, status: int, body: bytes = b"", **headers: str) -> None:
        self.send_response(status)
        self.send_header("Content-Type", "text/plain")
        self.send_header("Content-Length", str(len(body)))
        for name, value in headers.items():
            self.send_header(name.replace("_", "-"), value)
        self.end_headers()
        if self.command != "HEAD":
            try:
                self.wfile.write(body)
            except OSError:
                pass  # the client read the status and hung up: all it wanted

    def route(self) -> None:
        self.server.requests.append((self.command, self.path))  # type: ignore[attr-defined]
        port = self.server.server_address[1]
        path = self.path
        if path == "/ok":
            self.answer(200, b"fine")
        elif path == "/missing":
            self.answer(404, b"not here")
        elif path == "/busy":
            self.answer(503, b"try later")
        elif path == "/no-head":  # refuses HEAD, answers GET with a body that is never read
            if self.command == "HEAD":
                self.answer(405, Allow="GET")
            else:
                self.answer(200, b"x" * 5_000_000)
        elif path == "/to-ok":
            self.answer(301, Location="/ok")
        elif path == "/to-no-head":
            self.answer(302, Location="/no-head")
        elif path == "/to-outside":  # localhost is not on the allow-list: never followed
            self.answer(302, Location=f"http://localhost:{port}/ok")
        elif path == "/to-nowhere":
            self.answer(302, Location="ftp://127.0.0.1/file")
        elif path.startswith("/loop"):
            self.answer(302, Location=f"/loop{len(path)}")
        elif path == "/slow":  # no answer for 3 s
            time.sleep(3)
            self.answer(200, b"late")
        else:
            self.answer(404, b"unknown")

    do_GET = do_HEAD = route  # noqa: N815 - the http.server API


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
        tmp_path, web=WebPolicy(allow_hosts=("127.0.0.1",), max_timeout_s=5, max_redirects=3)
    )


def status(r: Any, url: str, **arguments: Any) -> dict[str, Any]:
    result = within(15, lambda: r.call("check_website_status", {"url": url, **arguments}))
    assert result.ok, result.text()
    value: dict[str, Any] = result.to_dict()["result"]
    return value


def kind(result: Any) -> str | None:
    return None if result.failure is None else result.failure.kind


def test_a_site_that_answers(r: Any, base: str, server: Any) -> None:
    answer = status(r, f" {base}/ok ")
    assert answer == {
        **answer,
        "url": f"{base}/ok",
        "reachable": True,
        "ok": True,
        "status": 200,
        "final_url": f"{base}/ok",
        "redirects": 0,
        "location": None,
        "method": "HEAD",
        "error": None,
    }
    assert 0 <= answer["response_ms"] < 2000
    assert server.requests == [("HEAD", "/ok")]  # one request, no body


def test_error_statuses_are_answers_not_errors(r: Any, base: str) -> None:
    missing = status(r, f"{base}/missing")
    assert (missing["reachable"], missing["ok"], missing["status"]) == (True, False, 404)
    busy = status(r, f"{base}/busy")
    assert (busy["reachable"], busy["ok"], busy["status"], busy["error"]) == (
        True,
        False,
        503,
        None,
    )


def test_get_when_the_server_refuses_head(r: Any, base: str, server: Any) -> None:
    started = time.monotonic()
    answer = status(r, f"{base}/no-head")
    assert (answer["status"], answer["method"], answer["ok"]) == (200, "GET", True)
    assert server.requests == [("HEAD", "/no-head"), ("GET", "/no-head")]
    assert time.monotonic() - started < 2  # the 5 MB body was never read
    server.requests.clear()
    assert status(r, f"{base}/to-no-head")["method"] == "GET"
    assert server.requests == [("HEAD", "/to-no-head"), ("HEAD", "/no-head"), ("GET", "/no-head")]


def test_redirects_are_followed_to_allowed_hosts_only(r: Any, base: str, server: Any) -> None:
    followed = status(r, f"{base}/to-ok")
    assert (
        followed["status"],
        followed["final_url"],
        followed["redirects"],
        followed["location"],
    ) == (200, f"{base}/ok", 1, None)
    not_followed = status(r, f"{base}/to-ok", follow_redirects=False)
    assert (
        not_followed["status"],
        not_followed["ok"],
        not_followed["final_url"],
        not_followed["location"],
    ) == (301, True, f"{base}/to-ok", f"{base}/ok")
    server.requests.clear()
    outside = status(r, f"{base}/to-outside")
    assert (outside["status"], outside["redirects"]) == (302, 0)
    assert outside["location"].startswith("http://localhost:")
    assert server.requests == [("HEAD", "/to-outside")]  # the target was never asked
    assert status(r, f"{base}/to-nowhere")["location"] == "ftp://127.0.0.1/file"
    loop = status(r, f"{base}/loop")
    assert (loop["status"], loop["redirects"]) == (302, 3) and loop["location"].startswith(
        f"{base}/loop"
    )


def test_unreachable_sites_are_results(
    r: Any, base: str, monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    closed = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    port = closed.server_address[1]
    closed.server_close()  # nothing listens there now
    refused = status(r, f"http://127.0.0.1:{port}/")
    assert (refused["reachable"], refused["ok"], refused["status"]) == (False, False, None)
    assert "refused" in refused["error"]

    started = time.monotonic()
    slow = status(r, f"{base}/slow", timeout_s=0.5)
    assert slow["reachable"] is False and "time limit" in slow["error"]
    assert time.monotonic() - started < 2 and 400 <= slow["response_ms"] < 2000

    resolve = socket.getaddrinfo

    def no_such_name(host: Any, *args: Any, **kwargs: Any) -> Any:
        if host == "unknown.test":
            raise socket.gaierror(socket.EAI_NONAME, "Name or service not known")
        return resolve(host, *args, **kwargs)

    monkeypatch.setattr(socket, "getaddrinfo", no_such_name)  # no resolver is asked
    named = registry(tmp_path, web=WebPolicy(allow_hosts=("unknown.test",)))
    unknown = status(named, "https://unknown.test/")
    assert unknown["reachable"] is False and "could not be resolved" in unknown["error"]


def test_urls_are_checked_before_anything_is_contacted(
    r: Any, base: str, server: Any, tmp_path: Path
) -> None:
    port = server.server_address[1]
    for url in (
        "file:///etc/passwd",
        "ftp://127.0.0.1/x",
        "127.0.0.1/ok",
        "http://",
        "http://user:pw@127.0.0.1/",
    ):
        assert kind(r.call("check_website_status", {"url": url})) == "invalid_url", url
    assert (
        kind(r.call("check_website_status", {"url": f"http://localhost:{port}/ok"}))
        == "host_not_allowed"
    )
    nobody = registry(tmp_path)  # the default policy allows no host at all
    refused = nobody.call("check_website_status", {"url": f"{base}/ok"})
    assert kind(refused) == "host_not_allowed" and "allowed hosts: none" in refused.text()
    assert server.requests == []
