"""The browser tool, driving Chromium through Playwright, against pages a local server serves on 127.0.0.1.

Only 127.0.0.1 is allowed. `localhost` names the same server, so every request the gates
should have blocked but did not would show in the server's log under that host: the tests
check that it never does. One browser serves the module (started by the first call, closed
at the end); each test navigates first, so none depends on another's page. The tests that
need the browser skip, saying why, without Playwright or Chromium; the ones that do not
(registration, `unavailable`, the proxy) always run.
"""

from __future__ import annotations

import asyncio
import json
import socket
import struct
import threading
import time
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler
from pathlib import Path
from typing import Any
from urllib.parse import parse_qs, urlsplit

import pytest
from click.testing import CliRunner

from implementations import Browser, BrowserPolicy, WebPolicy, registry
from implementations.browser import availability
from implementations.browser_proxy import AllowListProxy
from tests.support.builtin_support import (
    serving,  # also puts generated/ and the repository on sys.path
)
from tests.support.generation import REPO
from toolgen.cli import main
from toolgen_builtin import Image, Registry, build_registry

PNG = b"\x89PNG\r\n\x1a\n"
UNAVAILABLE = availability(BrowserPolicy())
needs_browser = pytest.mark.skipif(
    UNAVAILABLE is not None, reason=f"the browser cannot run here: {UNAVAILABLE}"
)

FORM = """<!doctype html><html><head><title>Form</title></head><body>
<h1>Start</h1>
<label for="name">Your name</label> <input id="name" placeholder="Name here">
<button id="greet" onclick="out.textContent = 'Hello, ' + document.getElementById('name').value">Greet</button>
<p id="out">Nobody yet</p>
<form action="/search"><input name="q" aria-label="Search"></form>
<a href="/second">Second page</a> <a href="http://localhost:{port}/elsewhere">Elsewhere</a>
<a href="/redirect">Redirected</a> <a href="/second" target="_blank">New tab</a>
<img src="http://localhost:{port}/pixel.png" alt="">
</body></html>"""
PAGES = {
    "/": FORM,
    "/second": "<!doctype html><title>Second</title><p>The second page.</p>",
    "/subresource-redirect": "<!doctype html><title>Images</title><p>Two images.</p>"
    "<img src='/redirect'><img src='/redirect-https'>",
    # A peer connection asking a STUN server on 127.0.0.1 (UDP) for this machine's address.
    "/webrtc": """<!doctype html><title>WebRTC</title><p id="state">gathering</p><script>
const pc = new RTCPeerConnection({{iceServers: [{{urls: 'stun:127.0.0.1:{stun}'}}]}});
pc.createDataChannel('probe');
pc.onicecandidate = e => {{ if (!e.candidate) document.getElementById('state').textContent = 'gathered'; }};
pc.createOffer().then(offer => pc.setLocalDescription(offer));
</script>""",
    "/long": "<!doctype html><title>Long</title>"
    + "".join(f"<p>Paragraph {n} of the long page.</p>" for n in range(400)),
}


class Site(BaseHTTPRequestHandler):
    hits: list[tuple[str, str]] = []

    def log_message(self, format: str, *args: Any) -> None:
        pass

    def do_GET(self) -> None:  # noqa: N802 - the http.server API
        port = self.server.server_address[1]
        self.hits.append((self.headers.get("Host", ""), self.path))
        path, _, query = self.path.partition("?")
        if path in ("/redirect", "/redirect-https"):
            scheme = "https" if path.endswith("https") else "http"
            self.send_response(302)
            self.send_header("Location", f"{scheme}://localhost:{port}/secret")
            self.send_header("Content-Length", "0")
            self.end_headers()
            return
        if path == "/slow":
            time.sleep(3)
        if path == "/search":
            body = (
                f"<!doctype html><title>Results</title><p>Results for {parse_qs(query)['q'][0]}</p>"
            )
        else:
            body = PAGES.get(
                path, "<!doctype html><title>Other</title><p>Some other page.</p>"
            ).format(port=port, stun=parse_qs(query).get("stun", ["0"])[0])
        data = body.encode("utf-8")
        self.send_response(200)
        self.send_header("Content-Type", "text/html; charset=utf-8")
        self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        self.wfile.write(
            data
        )  # the browser may have given up on it (the time-limit test): no error


@pytest.fixture(scope="module")
def site() -> Iterator[str]:
    with serving(Site) as server:
        yield f"http://127.0.0.1:{server.server_address[1]}"


@pytest.fixture(scope="module")
def browser() -> Iterator[Browser]:
    tool = Browser(WebPolicy(allow_hosts=("127.0.0.1",)), BrowserPolicy(max_timeout_s=20))
    yield tool
    tool.close()


@pytest.fixture
def tools(browser: Browser) -> Iterator[Registry]:
    Site.hits.clear()
    yield build_registry(browser)
    assert not [hit for hit in Site.hits if hit[0].startswith("localhost")], (
        "a request reached a blocked host"
    )


def call(tools: Registry, **arguments: Any) -> dict[str, Any]:
    """The result of a call that must succeed."""
    result = tools.call("browser", arguments)
    assert result.ok, result.text()
    out: dict[str, Any] = result.to_dict()["result"]
    return out


def failure(tools: Registry, **arguments: Any) -> tuple[str, str]:
    result = tools.call("browser", arguments)
    assert result.failure is not None, result.to_dict()
    return result.failure.kind, result.failure.message


@needs_browser
def test_navigate_type_click_read_and_go_back(tools: Registry, site: str) -> None:
    opened = call(tools, action="navigate", url=f"{site}/")
    assert (opened["url"], opened["title"], opened["status"]) == (f"{site}/", "Form", 200)
    assert opened["blocked_hosts"] == [
        "localhost"
    ]  # the page's image on a host that is not allowed
    assert "blocked requests to localhost" in opened["message"]
    typed = call(tools, action="type", element_text="Your name", text="Ada")
    assert typed["message"] == "typed 3 characters into the field labelled 'Your name'"
    call(tools, action="click", element_text="Greet")
    assert call(tools, action="read_text", selector="#out")["text"] == "Hello, Ada"
    page = call(tools, action="read_text")
    assert page["text"].startswith("Start\nYour name") and "Hello, Ada" in page["text"]
    assert page["truncated"] is False and page["status"] is None
    second = call(tools, action="click", element_text="Second page")
    assert (second["url"], second["title"]) == (f"{site}/second", "Second")
    assert call(tools, action="read_text")["text"] == "The second page."
    back = call(tools, action="back")
    assert (back["url"], back["title"], back["status"]) == (f"{site}/", "Form", 200)
    kind, message = failure(tools, action="back")
    assert kind == "no_history" and message.endswith(f"{site}/ is the first page of this session")
    assert call(tools, action="read_text", selector="h1")["url"] == f"{site}/"  # still there


@needs_browser
def test_type_by_selector_and_press_enter_submits_the_form(tools: Registry, site: str) -> None:
    call(tools, action="navigate", url=f"{site}/")
    done = call(
        tools, action="type", selector="input[name=q]", text="csv dialects", press_enter=True
    )
    assert done["url"] == f"{site}/search?q=csv+dialects" and done["title"] == "Results"
    assert call(tools, action="read_text")["text"] == "Results for csv dialects"


@needs_browser
def test_a_screenshot_is_an_image_block(tools: Registry, site: str) -> None:
    call(tools, action="navigate", url=f"{site}/")
    result = tools.call("browser", {"action": "screenshot"})
    assert result.ok, result.text()
    [block] = result.content
    assert (
        isinstance(block, Image) and block.mime_type == "image/png" and block.data.startswith(PNG)
    )
    assert struct.unpack(">II", block.data[16:24]) == (
        1280,
        800,
    )  # the viewport, from the PNG's header
    shown = result.to_dict()
    assert (
        shown["content"][0]["type"] == "image" and shown["content"][0]["mime_type"] == "image/png"
    )
    assert "[image: image/png" in result.text()  # for hosts that send only text
    call(tools, action="navigate", url=f"{site}/long")
    tall = tools.call("browser", {"action": "screenshot", "full_page": True})
    assert tall.ok and struct.unpack(">II", tall.content[0].data[16:24]) == (
        1280,
        4000,
    )  # cut at the policy's height
    assert "the top 4000 pixels of the page" in tall.to_dict()["result"]["message"]


@needs_browser
def test_read_text_is_bounded(tools: Registry, site: str) -> None:
    call(tools, action="navigate", url=f"{site}/long")
    cut = call(tools, action="read_text", max_chars=100)
    assert (
        cut["truncated"] is True
        and len(cut["text"]) == 100
        and cut["text"].startswith("Paragraph 0 of")
    )
    whole = call(tools, action="read_text", max_chars=200000)
    assert whole["truncated"] is False and whole["text"].endswith("Paragraph 399 of the long page.")


@needs_browser
def test_only_allowed_hosts_are_reached(tools: Registry, site: str) -> None:
    port = urlsplit(site).port
    for url, kind in (
        (f"http://localhost:{port}/", "host_not_allowed"),
        ("file:///etc/passwd", "invalid_url"),
        ("chrome://version", "invalid_url"),
        ("javascript:alert(1)", "invalid_url"),
        (f"http://user:pw@127.0.0.1:{port}/", "invalid_url"),
    ):
        assert failure(tools, action="navigate", url=url)[0] == kind, url
    call(tools, action="navigate", url=f"{site}/second")
    # Redirects escape Playwright's routing: the proxy refuses them (plain HTTP and CONNECT alike),
    # and the page stays where it was.
    for path in ("/redirect", "/redirect-https"):
        kind, message = failure(tools, action="navigate", url=f"{site}{path}")
        assert kind == "host_not_allowed" and "localhost" in message, message
        assert call(tools, action="read_text")["url"] == f"{site}/second"
    images = call(tools, action="navigate", url=f"{site}/subresource-redirect")
    assert images["blocked_hosts"] == ["localhost"]
    call(tools, action="navigate", url=f"{site}/")
    link = call(tools, action="click", element_text="Elsewhere")
    assert link["url"] == f"{site}/" and link["blocked_hosts"] == ["localhost"]
    redirected = call(tools, action="click", element_text="Redirected")
    assert redirected["url"] == f"{site}/" and "could not be loaded" in redirected["message"]
    assert (
        f"127.0.0.1:{port}",
        "/redirect",
    ) in Site.hits  # the allowed host was asked; localhost never


@needs_browser
def test_webrtc_sends_no_udp(tools: Registry, site: str) -> None:
    """A page's peer connection gathers its candidates without a single UDP datagram: its STUN
    server, a socket of this test on 127.0.0.1, receives nothing."""
    with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as stun:
        stun.bind(("127.0.0.1", 0))
        stun.settimeout(0.25)
        call(tools, action="navigate", url=f"{site}/webrtc?stun={stun.getsockname()[1]}")
        received: list[bytes] = []
        state = "gathering"
        for _ in range(40):  # until gathering ends or a datagram comes (about 10 s at most)
            try:
                received.append(stun.recv(2048))
            except TimeoutError:
                pass
            state = call(tools, action="read_text", selector="#state")["text"]
            if received or state == "gathered":
                break
        assert received == [], f"{len(received)} UDP datagram(s) reached the STUN server"
        assert state == "gathered"  # gathering ended: nothing was left to send


@needs_browser
def test_a_new_tab_becomes_the_page(tools: Registry, site: str) -> None:
    call(tools, action="navigate", url=f"{site}/")
    opened = call(tools, action="click", element_text="New tab")
    assert opened["url"] == f"{site}/second" and "in a new tab" in opened["message"]
    assert call(tools, action="read_text")["text"] == "The second page."


@needs_browser
def test_declared_failures(tools: Registry, site: str) -> None:
    assert failure(tools, action="navigate")[0] == "missing_argument"
    assert failure(tools, action="click")[0] == "missing_argument"
    assert failure(tools, action="type", selector="#name")[0] == "missing_argument"
    call(tools, action="navigate", url=f"{site}/")
    kind, message = failure(tools, action="click", selector="#absent", timeout_s=0.5)
    assert kind == "element_not_found" and "'#absent'" in message
    assert failure(tools, action="click", selector="a[[", timeout_s=1)[0] == "invalid_selector"
    kind, message = failure(tools, action="type", selector="h1", text="x", timeout_s=1)
    assert kind == "element_not_usable" and "h1" in message
    kind, message = failure(tools, action="navigate", url=f"{site}/slow", timeout_s=1)
    assert kind == "timeout" and "did not load within 1 s" in message
    with socket.socket() as unused:  # a port nothing listens on
        unused.bind(("127.0.0.1", 0))
        closed = unused.getsockname()[1]
    kind, message = failure(tools, action="navigate", url=f"http://127.0.0.1:{closed}/")
    assert kind == "connection_failed" and "127.0.0.1" in message


@needs_browser
def test_calls_from_any_thread_and_event_loop_share_the_page(tools: Registry, site: str) -> None:
    call(tools, action="navigate", url=f"{site}/second")
    results: list[dict[str, Any]] = []
    threads = [
        threading.Thread(target=lambda: results.append(call(tools, action="read_text")))
        for _ in range(4)
    ]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(60)
    assert [r["text"] for r in results] == ["The second page."] * 4
    answer = asyncio.run(tools.acall("browser", {"action": "read_text"}))
    assert answer.ok and answer.to_dict()["result"]["text"] == "The second page."


@needs_browser
def test_close_ends_the_session_and_a_later_call_starts_a_new_one(
    tools: Registry, site: str
) -> None:
    call(tools, action="navigate", url=f"{site}/second")
    assert call(tools, action="close")["message"] == "closed the browser"
    assert failure(tools, action="read_text")[0] == "no_page"
    assert call(tools, action="close")["message"] == "no browser was open"
    assert call(tools, action="navigate", url=f"{site}/")["title"] == "Form"


@needs_browser
def test_toolgen_call_opens_a_page(
    site: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(REPO)
    monkeypatch.setenv("TOOLGEN_WORKSPACE", str(tmp_path))
    monkeypatch.setenv("TOOLGEN_ENABLE_BROWSER", "1")
    monkeypatch.setenv("TOOLGEN_WEB_ALLOW", "127.0.0.1")
    result = CliRunner().invoke(
        main, ["call", "browser", json.dumps({"action": "navigate", "url": f"{site}/second"})]
    )
    assert result.exit_code == 0, result.output
    assert json.loads(result.stdout)["result"]["title"] == "Second"


@needs_browser
def test_the_contract_kit_finds_every_result_valid_or_a_declared_error(site: str) -> None:
    """Drawn calls (every action but close, on the local site and elsewhere), judged against the
    spec. A browser of its own, whose host lowers every wait to half a second."""
    from hypothesis import settings
    from hypothesis import strategies as st

    from toolgen_builtin.testing import check_results, contract

    port = urlsplit(site).port
    words = ["Greet", "Second page", "Your name", "Search", "Elsewhere", "Nobody yet", "absent"]
    with Browser(WebPolicy(allow_hosts=("127.0.0.1",)), BrowserPolicy(max_timeout_s=0.5)) as tool:
        tools = build_registry(tool)
        tools.call(
            "browser", {"action": "navigate", "url": f"{site}/"}
        )  # starts the browser (ok or timeout)
        check_results(
            tools,
            contract("browser"),
            settings=settings(max_examples=40, database=None, deadline=None),
            overrides={
                "action": st.sampled_from(
                    ["navigate", "click", "type", "read_text", "screenshot", "back"]
                ),
                "url": st.sampled_from(
                    [
                        f"{site}/",
                        f"{site}/second",
                        f"{site}/redirect",
                        f"{site}/long",
                        f"http://localhost:{port}/",
                        "ftp://127.0.0.1/",
                    ]
                ),
                "selector": st.sampled_from(
                    ["#name", "#greet", "a", "h1", "input[name=q]", "a[[", "#x"]
                ),
                "element_text": st.sampled_from(words),
            },
        )
    assert call(tools, action="close")["message"] == "no browser was open"  # closed by the `with`


# --- Without the browser ------------------------------------------------------------------


def test_registered_only_when_the_host_enables_it(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.delenv("TOOLGEN_ENABLE_BROWSER", raising=False)
    assert "browser" not in registry(tmp_path)
    assert "TOOLGEN_ENABLE_BROWSER=1" in registry(tmp_path).call("browser", {}).text()
    assert "browser" in registry(tmp_path, enable_browser=True)
    assert "browser" in registry(tmp_path, browser=BrowserPolicy())
    monkeypatch.setenv("TOOLGEN_ENABLE_BROWSER", "1")
    assert "browser" in registry(tmp_path)
    assert "browser" not in registry(tmp_path, enable_browser=False)


def test_unavailable_without_playwright(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(__import__("sys").modules, "playwright", None)
    monkeypatch.setitem(__import__("sys").modules, "playwright.sync_api", None)
    with Browser(WebPolicy(allow_hosts=("127.0.0.1",))) as tool:
        tools = build_registry(tool)
        kind, message = failure(tools, action="navigate", url="http://127.0.0.1/")
        assert (
            kind == "unavailable"
            and "Playwright is not installed" in message
            and "browser" in message
        )
        assert failure(tools, action="screenshot")[0] == "unavailable"
        assert call(tools, action="close")["message"] == "no browser was open"


def test_unavailable_without_chromium(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr("implementations.browser._playwright_missing", lambda: None)
    with Browser(
        WebPolicy(allow_hosts=("127.0.0.1",)), BrowserPolicy(executable="/nonexistent/chromium")
    ) as tool:
        kind, message = failure(build_registry(tool), action="navigate", url="http://127.0.0.1/")
    assert kind == "unavailable" and "no Chromium at /nonexistent/chromium" in message


# --- The proxy, on its own ------------------------------------------------------------------


def exchange(proxy: AllowListProxy, request: bytes) -> bytes:
    port = int(proxy.url.rsplit(":", 1)[1])
    with socket.create_connection(("127.0.0.1", port), timeout=10) as sock:
        sock.sendall(request)
        data = b""
        while chunk := sock.recv(65536):
            data += chunk
    return data


def test_the_proxy_reaches_allowed_hosts_only(site: str) -> None:
    refused: list[str] = []
    proxy = AllowListProxy(lambda host: host == "127.0.0.1", on_blocked=refused.append)
    proxy.start()
    try:
        port = urlsplit(site).port
        Site.hits.clear()
        answer = exchange(
            proxy,
            f"GET {site}/second HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\n"
            "Proxy-Connection: keep-alive\r\n\r\n".encode(),
        )
        head, _, body = answer.partition(b"\r\n\r\n")
        assert (
            head.startswith(b"HTTP/1.0 200")
            and b"Connection: close" in head
            and b"The second page." in body
        )
        assert Site.hits == [(f"127.0.0.1:{port}", "/second")]
        for request in (
            f"GET http://localhost:{port}/ HTTP/1.1\r\nHost: localhost\r\n\r\n",
            f"CONNECT localhost:{port} HTTP/1.1\r\nHost: localhost:{port}\r\n\r\n",
            "CONNECT [::1]:443 HTTP/1.1\r\n\r\n",
        ):
            assert exchange(proxy, request.encode()).startswith(b"HTTP/1.1 403 Forbidden")
        assert refused == ["localhost", "localhost", "::1"] and len(Site.hits) == 1
        tunnel = exchange(
            proxy, f"CONNECT 127.0.0.1:{port} HTTP/1.1\r\n\r\nGET /second HTTP/1.0\r\n\r\n".encode()
        )
        assert tunnel.startswith(b"HTTP/1.1 200 Connection established\r\n\r\nHTTP/1.0 200")
        assert b"The second page." in tunnel
    finally:
        proxy.close()
