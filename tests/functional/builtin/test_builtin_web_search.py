"""web_search: the tool around any backend, and the SearXNG backend against a local server on
127.0.0.1 that the test starts, speaking SearXNG's JSON API (no other address is used)."""

from __future__ import annotations

import json
import time
from collections.abc import Iterator, Sequence
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any
from urllib.parse import parse_qs, urlsplit

import pytest

from implementations import SearchHit, SearxngBackend, registry
from tests.support.builtin_support import BackoffClock, base_url, serving, within
from toolgen_builtin import ToolError

PER_PAGE = 3


def page_of(query: str, page: int) -> list[dict[str, Any]]:
    return [
        {
            "title": f"{query} {n}",
            "url": f"https://example.org/{page}/{n}",
            "content": f"About {query}, part {n}.",
            "engine": "test",
        }
        for n in range(1, PER_PAGE + 1)
    ]


class Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"

    def log_message(self, format: str, *args: Any) -> None:
        pass

    def send(
        self, status: int, body: bytes, content_type: str = "application/json", **headers: str
    ) -> None:
        self.send_response(status)
        self.send_header("Content-Type", content_type)
        self.send_header("Content-Length", str(len(body)))
        for name, value in headers.items():
            self.send_header(name, value)
        self.end_headers()
        try:
            self.wfile.write(body)
        except OSError:
            pass

    def results(self, results: Any, **extra: Any) -> None:
        self.send(200, json.dumps({"query": "", "results": results, **extra}).encode())

    def do_GET(self) -> None:  # noqa: N802 - the http.server API
        self.server.requests.append(self.path)  # type: ignore[attr-defined]
        parts = urlsplit(self.path)
        if parts.path not in ("/search", "/searx/search"):
            self.send(404, b"{}")
            return
        parameters = {name: values[0] for name, values in parse_qs(parts.query).items()}
        query, page = parameters.get("q", ""), int(parameters.get("pageno", "1"))
        if parameters.get("format") != "json" or query == "forbidden":  # SearXNG, json not enabled
            self.send(403, b"Forbidden", "text/html")
            return
        port = self.server.server_address[1]
        if query.startswith("python csv"):
            self.results(page_of(query, page) if page <= 3 else [])
        elif query == "few":  # one page, then nothing new
            self.results(page_of(query, 1))
        elif query == "messy":
            self.results(
                [
                    {
                        "title": "  Spaced \n out\ttitle ",
                        "url": "https://a.example/x",
                        "content": "word " * 500,
                    },
                    {
                        "title": "again",
                        "url": "https://a.example/x",
                        "content": "a repeat of the first URL",
                    },
                    {"title": "script", "url": "javascript:alert(1)", "content": ""},
                    {"title": "ftp", "url": "ftp://files.example/y", "content": ""},
                    {"title": "no url"},
                    "not an object",
                    {"url": "http://b.example/z", "title": None, "content": 42},
                ]
            )
        elif query == "lang":
            self.results(
                [
                    {
                        "title": parameters.get("language", "none"),
                        "url": "https://l.example/",
                        "content": "",
                    }
                ]
            )
        elif query == "busy":
            self.send(503, b"{}")
        elif query == "limited":
            self.send(429, b"{}")
        elif query == "bad":
            self.send(400, b"{}")
        elif query == "html":
            self.send(200, b"<html><body>captcha</body></html>", "text/html")
        elif query == "binary":
            self.send(200, b"\x89PNG" + bytes(50), "image/png")
        elif query == "nolist":
            self.send(200, b'{"results": 5}')
        elif query == "brotli":  # a coding the tool cannot decode
            self.send(200, b"\x1b\x03\x00\xf8\xa5@\x02", **{"Content-Encoding": "br"})
        elif query == "nested":  # deeper than any JSON parser's recursion goes
            self.send(200, b'{"results": ' + b"[" * 20_000 + b"]" * 20_000 + b"}")
        elif query == "huge":
            self.results(page_of(query, 1), padding="x" * 200_000)
        elif query == "slow":
            time.sleep(3)
            self.results([])
        elif query == "redirect-in":
            self.send(302, b"", Location="/search?q=few&format=json")
        elif query == "redirect-out":  # localhost is another host: never followed
            self.send(302, b"", Location=f"http://localhost:{port}/search?q=few&format=json")
        else:
            self.results([])


@pytest.fixture(scope="module")
def server() -> Iterator[Any]:
    with serving(Handler) as httpd:
        yield httpd


@pytest.fixture
def base(server: Any) -> str:
    return base_url(server)


@pytest.fixture
def r(tmp_path: Path, base: str) -> Any:
    return registry(
        tmp_path, search=SearxngBackend(base, timeout_s=2, max_bytes=100_000), clock=BackoffClock()
    )


def search(r: Any, query: str, **arguments: Any) -> Any:
    return within(15, lambda: r.call("web_search", {"query": query, **arguments}))


def found(r: Any, query: str, **arguments: Any) -> dict[str, Any]:
    result = search(r, query, **arguments)
    assert result.ok, result.text()
    value: dict[str, Any] = result.to_dict()["result"]
    return value


def kind(result: Any) -> str | None:
    return None if result.failure is None else result.failure.kind


def test_results_come_from_the_searxng_json_api(r: Any, server: Any) -> None:
    answer = found(r, "python csv", max_results=2)
    assert answer == {
        "query": "python csv",
        "results": [
            {
                "title": "python csv 1",
                "url": "https://example.org/1/1",
                "snippet": "About python csv, part 1.",
            },
            {
                "title": "python csv 2",
                "url": "https://example.org/1/2",
                "snippet": "About python csv, part 2.",
            },
        ],
    }
    assert server.requests == ["/search?q=python+csv&format=json"]
    assert found(r, "  python \n csv  ")["query"] == "python csv"  # whitespace as one space


def test_more_results_than_a_page_holds_come_from_the_next_pages(r: Any, server: Any) -> None:
    urls = [hit["url"] for hit in found(r, "python csv", max_results=7)["results"]]
    assert urls == [f"https://example.org/{p}/{n}" for p in (1, 2, 3) for n in (1, 2, 3)][:7]
    assert [path.split("pageno=")[-1] if "pageno" in path else "1" for path in server.requests] == [
        "1",
        "2",
        "3",
    ]
    server.requests.clear()
    assert len(found(r, "few", max_results=20)["results"]) == 3
    assert len(server.requests) == 2  # the second page brought nothing new: no third
    server.requests.clear()
    assert len(found(r, "python csv", max_results=20)["results"]) == 9  # at most max_pages pages
    assert len(server.requests) == 3


def test_site_and_language(r: Any, server: Any) -> None:
    answer = found(r, "python csv", site="Example.ORG", max_results=1)
    assert answer["query"] == "python csv site:example.org" and len(answer["results"]) == 1
    assert server.requests == ["/search?q=python+csv+site%3Aexample.org&format=json"]
    assert (
        found(r, "python csv", site="docs.python.org")["results"] == []
    )  # off-site results are dropped
    assert found(r, "lang", language="pt-BR")["results"][0]["title"] == "pt-BR"
    assert found(r, "lang")["results"][0]["title"] == "none"
    refused = search(r, "lang", language="portuguese")
    assert refused.failure is not None and "language" in refused.text()  # the spec's pattern
    assert search(r, "   ").failure is not None  # a query of spaces only is refused by the spec


def test_results_are_cleaned_up(r: Any) -> None:
    results = found(r, "messy", max_results=20)["results"]
    assert [hit["url"] for hit in results] == ["https://a.example/x", "http://b.example/z"]
    first = results[0]
    assert first["title"] == "Spaced out title"
    assert (
        len(first["snippet"]) == 1000
        and first["snippet"].endswith("…")
        and "  " not in first["snippet"]
    )
    assert results[1] == {"title": "", "url": "http://b.example/z", "snippet": ""}


def test_errors_are_declared(r: Any, base: str, server: Any, tmp_path: Path) -> None:
    busy = search(r, "busy")
    assert kind(busy) == "http_unavailable" and "503" in busy.text()
    assert busy.attempts == 2 and busy.failure.retryable  # the spec's retry: once more
    assert kind(search(r, "limited")) == "http_unavailable"
    bad = search(r, "bad")
    assert kind(bad) == "http_status" and bad.attempts == 1 and "400" in bad.text()
    for query, expected in (
        ("html", "bad_response"),
        ("binary", "bad_response"),
        ("nolist", "bad_response"),
        ("nested", "bad_response"),
        ("brotli", "bad_response"),  # a RecursionError in the parser, never `internal`
        ("huge", "bad_response"),
    ):
        assert kind(search(r, query)) == expected, query
    assert found(r, "redirect-in")["results"][0]["title"] == "few 1"
    server.requests.clear()
    outside = search(r, "redirect-out")
    assert kind(outside) == "host_not_allowed" and "localhost" in outside.text()
    assert all("q=few" not in path for path in server.requests)  # the redirect was never followed
    wrong_path = registry(tmp_path, search=SearxngBackend(base + "/nothing-here"))
    assert kind(search(wrong_path, "x")) == "http_status"


def test_refusing_and_unconfigured_services_are_unavailable(
    r: Any, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    forbidden = search(r, "forbidden")  # what SearXNG answers when json is not in search.formats
    assert (
        kind(forbidden) == "unavailable"
        and "search.formats" in forbidden.text()
        and forbidden.attempts == 1
    )
    monkeypatch.delenv("TOOLGEN_SEARCH_URL", raising=False)
    none = search(registry(tmp_path), "python csv")
    assert kind(none) == "unavailable" and none.attempts == 1
    for url in ("", "ftp://127.0.0.1/", "not a url"):
        assert kind(search(registry(tmp_path, search=SearxngBackend(url)), "x")) == "unavailable", (
            url
        )


def test_the_environment_configures_the_service(
    base: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("TOOLGEN_SEARCH_URL", f"{base}/searx/")  # a path prefix, a trailing slash
    assert found(registry(tmp_path), "few")["results"][0]["title"] == "few 1"


def test_slow_services_time_out(base: str, tmp_path: Path) -> None:
    slow = registry(tmp_path, search=SearxngBackend(base, timeout_s=0.3), clock=BackoffClock())
    started = time.monotonic()
    result = search(slow, "slow")
    assert kind(result) == "timeout" and result.attempts == 2
    assert time.monotonic() - started < 2
    assert slow.clock.waits == [1.0]


def test_connection_failures_are_declared(tmp_path: Path) -> None:
    closed = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    port = closed.server_address[1]
    closed.server_close()  # nothing listens there now
    refused = registry(
        tmp_path, search=SearxngBackend(f"http://127.0.0.1:{port}"), clock=BackoffClock()
    )
    assert kind(search(refused, "x")) == "connection_failed"


class Backend:
    """Another search service, plugged in: anything with search(query, limit, language=...)."""

    def __init__(self, hits: Sequence[SearchHit]) -> None:
        self.hits = hits
        self.calls: list[tuple[str, int, str | None]] = []

    def search(self, query: str, limit: int, *, language: str | None = None) -> Sequence[SearchHit]:
        self.calls.append((query, limit, language))
        if query.startswith("down"):
            raise ToolError("unavailable", "the service is down")
        return self.hits


def test_any_backend_can_be_plugged_in(tmp_path: Path) -> None:
    backend = Backend(
        [
            SearchHit("Docs", "https://docs.python.org/3/"),
            SearchHit("Blog", "https://blog.example/"),
            SearchHit("Sub", "https://sub.docs.python.org/x", "snippet"),
            SearchHit("Lookalike", "https://evildocs.python.org.example/"),
        ]
    )
    tools = registry(tmp_path, search=backend)
    result = tools.call(
        "web_search",
        {"query": "csv", "site": "docs.python.org", "language": "en", "max_results": 5},
    )
    assert result.to_dict()["result"] == {
        "query": "csv site:docs.python.org",
        "results": [
            {"title": "Docs", "url": "https://docs.python.org/3/", "snippet": ""},
            {"title": "Sub", "url": "https://sub.docs.python.org/x", "snippet": "snippet"},
        ],
    }
    assert backend.calls == [("csv site:docs.python.org", 5, "en")]
    assert (
        len(
            tools.call("web_search", {"query": "csv", "max_results": 2}).to_dict()["result"][
                "results"
            ]
        )
        == 2
    )
    down = tools.call("web_search", {"query": "down"})
    assert kind(down) == "unavailable" and "down" in down.text()
