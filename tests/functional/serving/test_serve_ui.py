"""`python -m PKG serve --http --ui DIR`: the catalog served at /ui/ with a playground on each
tool's page; in Chromium, every feature of the playground against a server the test starts:
a call made from the form and its result, validation errors as the model reads them, an
image block shown as an image, a streaming tool's events shown as they arrive (before its
result), an approval and a question asked as prompts and answered, and no request leaving
the server's origin. Then the endpoints' refusals (another origin, not JSON, too big, a
record not signed) and the refusals to start (`--ui` beyond loopback, with a token, without
a catalog). A failing browser test leaves a screenshot under its tmp_path."""

from __future__ import annotations

import importlib.util
import json
import os
import subprocess
import sys
import urllib.error
import urllib.request
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

import pytest
from click.testing import CliRunner

from tests.support.catalog_support import SPECS
from tests.support.generation import generate
from tests.support.mcp_support import python_path, serving
from toolgen.cli import main

CHROMIUM = "/usr/bin/chromium"
NO_BROWSER = pytest.mark.skipif(
    importlib.util.find_spec("playwright") is None or not os.access(CHROMIUM, os.X_OK),
    reason="no browser here (Playwright or Chromium missing)",
)
# Beside the catalog's tools: one returning an image, one streaming, one asking a question.
PLAYGROUND = """\
tools:
  - name: draw_chart
    description: Draw a chart of the numbers given, as a PNG image.
    content: [image]
    parameters:
      type: object
      properties:
        title: {type: string, description: The chart's title}
      required: [title]
    returns:
      type: object
      properties:
        title: {type: string, description: The title drawn}
      required: [title]
  - name: count_slowly
    description: Count to two, telling how far it is as it goes.
    flags: [streaming]
    parameters: {type: object, properties: {}}
    returns:
      type: object
      properties:
        total: {type: integer, description: How far it counted}
      required: [total]
  - name: ask_name
    description: Greet the user by the name they give when asked.
    parameters: {type: object, properties: {}}
    returns:
      type: object
      properties:
        greeting: {type: string, description: The greeting}
      required: [greeting]
"""
IMPLEMENTATION = """\
import asyncio
import os
import struct
import zlib

import shop
from shop.tools.ask_name import AskNameTool
from shop.tools.count_slowly import CountSlowlyTool
from shop.tools.draw_chart import DrawChartTool
from shop.tools.find_customer import FindCustomerArguments, FindCustomerResult, FindCustomerTool
from shop.tools.merge_customers import MergeCustomersTool


def png(width, height):
    rows = b"".join(b"\\x00" + b"\\x20\\x60\\xa0" * width for _ in range(height))

    def chunk(kind, data):
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))

    header = struct.pack(">IIBBBBB", width, height, 8, 2, 0, 0, 0)
    return b"\\x89PNG\\r\\n\\x1a\\n" + chunk(b"IHDR", header) + chunk(b"IDAT", zlib.compress(rows)) + chunk(b"IEND", b"")


class FindCustomer(FindCustomerTool):
    def run(self, arguments: FindCustomerArguments) -> FindCustomerResult:
        return FindCustomerResult(customers=[{"id": arguments.query.upper()}])


class MergeCustomers(MergeCustomersTool):
    def run(self, arguments):
        return {"kept": arguments.keep}


class DrawChart(DrawChartTool):
    def run(self, arguments):
        return shop.Output({"title": arguments.title}, content=[shop.Image.of(png(4, 3))])


class CountSlowly(CountSlowlyTool):
    async def run(self, arguments):  # the second step waits for the test's file "release"
        yield shop.Progress(1, 2, "started")
        for _ in range(1200):
            if os.path.exists("release"):
                break
            await asyncio.sleep(0.05)
        yield shop.Progress(2, 2, "released")
        yield {"total": 2}


class AskName(AskNameTool):
    def run(self, arguments):
        answer = shop.resumed()
        if answer is None:
            raise shop.Suspend("What is your name?")
        return {"greeting": f"Hello, {answer.answer}"}


registry = shop.build_registry(FindCustomer(), MergeCustomers(), DrawChart(), CountSlowly(), AskName())
"""


@pytest.fixture(scope="module")
def built(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, dict[str, str]]:
    root = tmp_path_factory.mktemp("ui")
    specs = root / "specs"
    specs.mkdir()
    for name, text in {**SPECS, "playground.yaml": PLAYGROUND}.items():
        (specs / name).write_text(text, "utf-8")
    generate(specs, root / "out", "shop")
    (root / "shop_impl.py").write_text(IMPLEMENTATION, "utf-8")
    result = CliRunner().invoke(
        main, ["catalog", "--specs", str(specs), "--out", str(root / "site")]
    )
    assert result.exit_code == 0, result.output
    return root, python_path(root / "out", root)


@pytest.fixture(scope="module")
def served(built: tuple[Path, dict[str, str]]) -> Iterator[str]:
    root, env = built
    with serving("shop", "shop_impl:registry", env, "--ui", str(root / "site"), cwd=root) as url:
        yield url.removesuffix("/mcp")


def _post(base: str, body: bytes, headers: dict[str, str], path: str = "call") -> tuple[int, Any]:
    """(status, the JSON lines of the answer as a list) or (status, the refusal's JSON)."""
    request = urllib.request.Request(f"{base}/ui/{path}", body, headers, method="POST")
    try:
        with urllib.request.urlopen(request, timeout=10) as answer:
            assert answer.headers["content-type"] == "application/x-ndjson"
            return answer.status, [json.loads(line) for line in answer.read().splitlines()]
    except urllib.error.HTTPError as error:
        return error.code, json.loads(error.read())


def test_a_call_from_the_servers_own_page(served: str) -> None:
    origin = {"Origin": served, "Content-Type": "application/json"}
    call = json.dumps({"name": "find_customer", "arguments": {"query": "ada"}}).encode()
    result = {"ok": True, "result": {"customers": [{"id": "ADA"}]}}
    assert _post(served, call, origin) == (
        200,
        [{"result": {**result, "text": '{"customers":[{"id":"ADA"}]}'}}],
    )
    status, lines = _post(
        served, json.dumps({"name": "find_customer", "arguments": "{}"}).encode(), origin
    )  # arguments as text, as a model sends them
    answer = lines[-1]["result"]
    assert status == 200 and answer["error"]["kind"] == "invalid_arguments"
    assert answer["text"].startswith("Invalid arguments for tool 'find_customer'")


def test_a_streaming_calls_events_come_first(served: str, built: tuple[Path, Any]) -> None:
    (built[0] / "release").touch()  # nothing to wait for here: the browser test waits
    origin = {"Origin": served, "Content-Type": "application/json"}
    call = json.dumps({"name": "count_slowly", "arguments": {}}).encode()
    status, lines = _post(served, call, origin)
    (built[0] / "release").unlink()
    assert status == 200 and lines[:2] == [
        {"event": {"type": "progress", "done": 1, "total": 2, "message": "started"}},
        {"event": {"type": "progress", "done": 2, "total": 2, "message": "released"}},
    ]
    assert lines[2]["result"]["result"] == {"total": 2} and len(lines) == 3


def test_a_suspended_call_is_resumed_once(served: str) -> None:
    origin = {"Origin": served, "Content-Type": "application/json"}
    call = json.dumps({"name": "ask_name", "arguments": {}}).encode()
    waits = _post(served, call, origin)[1][-1]["result"]
    assert waits["error"]["kind"] == "suspended" and waits["suspended"]["reason"] == "question"
    assert waits["suspended"]["prompt"] == "What is your name?"
    resume = json.dumps({"record": waits["suspended"]["record"], "answer": "Ada"}).encode()
    status, lines = _post(served, resume, origin, "resume")
    assert (status, lines[-1]["result"]["result"]) == (200, {"greeting": "Hello, Ada"})
    status, refused = _post(served, resume, origin, "resume")  # a record is resumed once
    assert status == 400 and "already used" in refused["error"]["message"]
    forged = {**waits["suspended"]["record"], "tool": "find_customer"}
    status, refused = _post(
        served, json.dumps({"record": forged, "answer": "x"}).encode(), origin, "resume"
    )
    assert status == 400 and "signature" in refused["error"]["message"]


@pytest.mark.parametrize(
    ("headers", "status"),
    [
        ({"Content-Type": "application/json"}, 403),  # no Origin
        ({"Content-Type": "text/plain", "Origin": "SELF"}, 403),  # a form's simple request
        ({"Content-Type": "application/json", "Origin": "http://evil.example"}, 403),
    ],
)
def test_other_calls_are_refused(served: str, headers: dict[str, str], status: int) -> None:
    headers = {k: served if v == "SELF" else v for k, v in headers.items()}
    call = json.dumps({"name": "find_customer", "arguments": {"query": "ada"}}).encode()
    for path in ("call", "resume"):
        code, answer = _post(served, call, headers, path)
        assert code == status and answer["error"]["kind"] == "refused"


def test_a_body_over_the_limit_is_refused(served: str) -> None:
    origin = {"Origin": served, "Content-Type": "application/json"}
    code, answer = _post(served, b" " * (1 << 20) + b"{}", origin)
    assert code == 413 and "bytes" in answer["error"]["message"]


@pytest.mark.parametrize(
    ("options", "env", "said"),
    [
        (["--host", "0.0.0.0"], {}, "loopback"),
        ([], {"TOOLGEN_MCP_TOKEN": "secret"}, "loopback"),
        (["--ui-missing"], {}, "no catalog there"),
    ],
)
def test_refusals_to_start(
    built: tuple[Path, dict[str, str]], options: list[str], env: dict[str, str], said: str
) -> None:
    root, base = built
    folder = str(root / "nowhere") if options == ["--ui-missing"] else str(root / "site")
    argv = [sys.executable, "-m", "shop", "serve", "--http", "--registry", "shop_impl:registry"]
    argv += ["--ui", folder, *[o for o in options if o != "--ui-missing"]]
    done = subprocess.run(argv, env={**base, **env}, cwd=root, capture_output=True, timeout=60)
    assert done.returncode == 2 and said in done.stderr.decode()


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright:
        chromium = playwright.chromium.launch(
            executable_path=CHROMIUM, headless=True, args=["--no-sandbox", "--disable-gpu"]
        )
        yield chromium
        chromium.close()


@contextmanager
def tool_page(browser: Any, served: str, tmp_path: Path, tool: str) -> Iterator[Any]:
    """The tool's page on the server, reached from the index, its playground shown. Every
    request the page makes is recorded: one to anywhere but the server's origin fails the
    test, as does a script error; on any failure a screenshot is saved under tmp_path."""
    page = browser.new_page(viewport={"width": 1100, "height": 900})
    errors: list[str] = []
    requests: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    page.on("request", lambda request: requests.append(request.url))
    origin = urlsplit(served)
    try:
        page.goto(f"{served}/ui/index.html")
        page.click(f"li[data-tool={tool}] a")
        page.wait_for_url(f"**/tools/{tool}.html")
        page.wait_for_selector("#playground:not([hidden])")
        yield page
        elsewhere = [url for url in requests if urlsplit(url)[:2] != (origin.scheme, origin.netloc)]
        assert elsewhere == [] and errors == []
        assert f"{served}/ui/playground.json" in requests
    except BaseException:
        page.screenshot(path=str(tmp_path / "failure.png"), full_page=True)
        raise
    finally:
        page.close()


def _call(page: Any, arguments: str | None = None) -> None:
    if arguments is not None:
        page.fill("#playground-arguments", arguments)
    page.click("#playground-form button")


def _no_axe_violation(page: Any) -> None:
    """axe-core finds nothing on the page as it is (where TOOLGEN_AXE_CORE names it), as
    test_catalog_browser.py checks the catalog's pages."""
    axe = os.environ.get("TOOLGEN_AXE_CORE", "")
    if os.path.isfile(axe):
        page.add_script_tag(path=axe)
        violations = page.evaluate(
            """async () => (await axe.run(document, {preload: false, runOnly: {type: "tag",
            values: ["wcag2a", "wcag2aa", "wcag21aa", "wcag22aa", "best-practice"]}}))
            .violations.map((v) => v.id + ": " + v.nodes.map((n) => n.html).join(" | "))"""
        )
        assert violations == []


def _settled(page: Any) -> dict[str, Any]:
    """The result shown once the call is done: its JSON, what the model reads, the status."""
    page.wait_for_function(
        "document.getElementById('playground-result').textContent.includes('ok')"
    )
    return {
        "result": json.loads(page.text_content("#playground-result") or ""),
        "text": page.text_content("#playground-text"),
        "status": page.text_content("#playground-status"),
    }


@NO_BROWSER
def test_fill_the_form_call_and_see_what_the_model_reads(
    browser: Any, served: str, tmp_path: Path
) -> None:
    with tool_page(browser, served, tmp_path, "find_customer") as page:
        assert '"ada@example.com"' in page.input_value("#playground-arguments")
        _call(page)
        shown = _settled(page)
        assert shown["result"] == {"ok": True, "result": {"customers": [{"id": "ADA@EXAMPLE.COM"}]}}
        assert shown["text"] == '{"customers":[{"id":"ADA@EXAMPLE.COM"}]}'
        assert shown["status"] == "Done: the call succeeded."
        _call(page, '{"qury": "ada", "limit": 0}')  # the validation errors a model reads
        shown = _settled(page)
        assert shown["status"] == "The call failed: invalid_arguments."
        assert shown["text"].startswith("Invalid arguments for tool 'find_customer' (")
        assert 'qury: unknown key; did you mean "query"?' in shown["text"]
        assert "- limit: expected at least 1, got 0" in shown["text"]
        assert "Fix these and call the tool again." in shown["text"]
        _call(page, "{not json")  # text that is no JSON: the registry says so, as to a model
        shown = _settled(page)
        assert shown["result"]["error"]["kind"] == "invalid_arguments"
        assert "JSON" in shown["text"]
        page.fill("#playground-arguments", '{"address": {"city": "Lyon"}}')  # the form's fields
        assert page.input_value("#playground-fields [data-param=query]") == ""
        page.fill("#playground-fields [data-param=query]", "grace")
        page.fill("#playground-fields [data-param=limit]", "2")
        assert json.loads(page.input_value("#playground-arguments")) == {
            "address": {"city": "Lyon"},
            "query": "grace",
            "limit": 2,
        }
        page.fill("#playground-fields [data-param=limit]", "")  # emptied: the key goes
        assert "limit" not in json.loads(page.input_value("#playground-arguments"))
        _call(page)
        assert _settled(page)["result"] == {"ok": True, "result": {"customers": [{"id": "GRACE"}]}}
        page.goto(f"{served}/ui/tools/get_weather.html")  # a select for an enum
        page.wait_for_selector("#playground:not([hidden])")
        page.select_option("#playground-fields [data-param=unit]", '"fahrenheit"')
        assert json.loads(page.input_value("#playground-arguments")) == {"unit": "fahrenheit"}
        page.fill("#playground-arguments", '{"unit": "celsius", "location": "Oslo"}')
        assert page.input_value("#playground-fields [data-param=unit]") == '"celsius"'
        assert page.input_value("#playground-fields [data-param=location]") == "Oslo"
        _no_axe_violation(page)


@NO_BROWSER
def test_an_image_block_is_shown_as_an_image(browser: Any, served: str, tmp_path: Path) -> None:
    with tool_page(browser, served, tmp_path, "draw_chart") as page:
        _call(page, '{"title": "Sales"}')
        shown = _settled(page)
        image = page.wait_for_selector("#playground-content img")
        page.wait_for_function("document.querySelector('#playground-content img').complete")
        size = image.evaluate("img => [img.naturalWidth, img.naturalHeight]")
        assert size == [4, 3]  # decoded: the PNG the tool made, not text about it
        _no_axe_violation(page)
        assert (image.get_attribute("src") or "").startswith("data:image/png;base64,iVBORw0KGgo")
        assert (
            shown["result"]["content"]
            == [
                {
                    "type": "image",
                    "mime_type": "image/png",
                    "data": shown["result"]["content"][0]["data"],
                }
            ]
            and "base64 characters" in shown["result"]["content"][0]["data"]
        )


@NO_BROWSER
def test_streaming_events_show_before_the_result(
    browser: Any, served: str, built: tuple[Path, Any], tmp_path: Path
) -> None:
    release = built[0] / "release"
    release.unlink(missing_ok=True)
    with tool_page(browser, served, tmp_path, "count_slowly") as page:
        _call(page)
        page.wait_for_selector("#playground-events li")
        # The tool now waits for `release`: its first event is on the page, its result is not.
        assert page.text_content("#playground-events") == "Progress: 1 of 2: started"
        assert page.text_content("#playground-result") == ""
        assert page.text_content("#playground-status") == "Calling…"
        release.touch()
        shown = _settled(page)
        events = page.eval_on_selector_all(
            "#playground-events li", "els => els.map(e => e.textContent)"
        )
        assert events == ["Progress: 1 of 2: started", "Progress: 2 of 2: released"]
        _no_axe_violation(page)
        assert shown["result"] == {"ok": True, "result": {"total": 2}}
    release.unlink()


@NO_BROWSER
def test_an_approval_is_asked_as_a_prompt(browser: Any, served: str, tmp_path: Path) -> None:
    with tool_page(browser, served, tmp_path, "merge_customers") as page:
        _call(page, '{"keep": "c1", "remove": "c2"}')
        page.wait_for_selector("#playground-prompt:not([hidden])")
        assert page.text_content("#playground-prompt-text") == (
            'Allow tool \'merge_customers\' to run with {"keep": "c1", "remove": "c2"}?'
        )
        assert page.is_visible("#playground-approve") and page.is_hidden("#playground-answer")
        assert page.evaluate("document.activeElement.id") == "playground-approve"
        _no_axe_violation(page)
        waiting = json.loads(page.text_content("#playground-result") or "")
        assert waiting["error"]["kind"] == "suspended"
        assert page.text_content("#playground-text") == waiting["error"]["message"]
        page.click("#playground-approve")
        shown = _settled(page)
        assert shown["result"] == {"ok": True, "result": {"kept": "c1"}}
        assert page.is_hidden("#playground-prompt")
        _call(page)  # again, rejected with a reason: the model reads it
        page.wait_for_selector("#playground-prompt:not([hidden])")
        page.fill("#playground-reason", "c2 is a real customer")
        page.click("#playground-reject")
        shown = _settled(page)
        assert shown["result"]["error"]["kind"] == "rejected"
        assert shown["status"] == "The call failed: rejected."
        assert "c2 is a real customer" in shown["text"]


@NO_BROWSER
def test_a_question_is_asked_as_a_prompt(browser: Any, served: str, tmp_path: Path) -> None:
    with tool_page(browser, served, tmp_path, "ask_name") as page:
        _call(page)
        page.wait_for_selector("#playground-prompt:not([hidden])")
        assert page.text_content("#playground-prompt-text") == "What is your name?"
        assert page.text_content("#playground-status") == "The tool asks you a question."
        assert page.is_hidden("#playground-approve")
        assert page.evaluate("document.activeElement.id") == "playground-answer"
        page.keyboard.type("Ada")
        page.keyboard.press("Enter")
        shown = _settled(page)
        assert shown["result"] == {"ok": True, "result": {"greeting": "Hello, Ada"}}
