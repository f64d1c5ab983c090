"""`python -m PKG serve --http --ui DIR`: the catalog served at /ui/ with a playground on each
tool's page, in Chromium; the call endpoint's refusals (another origin, not JSON, too big);
and the refusals to start (`--ui` beyond loopback, with a token, without a catalog)."""

from __future__ import annotations

import importlib.util
import json
import os
import subprocess
import sys
import urllib.error
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from tests.support.catalog_support import SPECS
from tests.support.generation import generate
from tests.support.mcp_support import python_path, serving
from toolgen.cli import main

CHROMIUM = "/usr/bin/chromium"
IMPLEMENTATION = """\
import shop
from shop.tools.find_customer import FindCustomerArguments, FindCustomerResult, FindCustomerTool


class FindCustomer(FindCustomerTool):
    def run(self, arguments: FindCustomerArguments) -> FindCustomerResult:
        return FindCustomerResult(customers=[{"id": arguments.query.upper()}])


registry = shop.build_registry(FindCustomer())
"""


@pytest.fixture(scope="module")
def built(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, dict[str, str]]:
    root = tmp_path_factory.mktemp("ui")
    specs = root / "specs"
    specs.mkdir()
    for name, text in SPECS.items():
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


def _post(base: str, body: bytes, headers: dict[str, str]) -> tuple[int, Any]:
    request = urllib.request.Request(f"{base}/ui/call", body, headers, method="POST")
    try:
        with urllib.request.urlopen(request, timeout=10) as answer:
            return answer.status, json.loads(answer.read())
    except urllib.error.HTTPError as error:
        return error.code, json.loads(error.read())


def test_a_call_from_the_servers_own_page(served: str) -> None:
    origin = {"Origin": served, "Content-Type": "application/json"}
    call = json.dumps({"name": "find_customer", "arguments": {"query": "ada"}}).encode()
    assert _post(served, call, origin) == (
        200,
        {"ok": True, "result": {"customers": [{"id": "ADA"}]}},
    )
    status, answer = _post(
        served, json.dumps({"name": "find_customer", "arguments": {}}).encode(), origin
    )
    assert (
        status == 200 and answer["ok"] is False and answer["error"]["kind"] == "invalid_arguments"
    )


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
    code, answer = _post(served, call, headers)
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


@pytest.mark.skipif(
    importlib.util.find_spec("playwright") is None or not os.access(CHROMIUM, os.X_OK),
    reason="no browser here (Playwright or Chromium missing)",
)
def test_the_playground_in_a_browser(served: str, tmp_path: Path) -> None:
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=CHROMIUM, args=["--no-sandbox"])
        page = browser.new_page()
        errors: list[str] = []
        page.on("pageerror", lambda error: errors.append(str(error)))
        try:
            page.goto(f"{served}/ui/index.html")
            page.click("text=find_customer")
            page.wait_for_selector("#playground:not([hidden])")
            assert '"ada@example.com"' in page.input_value("#playground-arguments")
            page.click("#playground button")
            page.wait_for_function(
                "document.getElementById('playground-result').textContent.includes('ok')"
            )
            shown = json.loads(page.text_content("#playground-result") or "")
            assert shown == {"ok": True, "result": {"customers": [{"id": "ADA@EXAMPLE.COM"}]}}
            page.fill("#playground-arguments", "{not json")
            page.click("#playground button")
            assert "not JSON" in (page.text_content("#playground-result") or "")
            axe = os.environ.get("TOOLGEN_AXE_CORE", "")
            if os.path.isfile(
                axe
            ):  # the playground's form, as test_catalog_browser.py checks pages
                page.add_script_tag(path=axe)
                violations = page.evaluate(
                    """async () => (await axe.run(document, {preload: false, runOnly: {type: "tag",
                    values: ["wcag2a", "wcag2aa", "wcag21aa", "wcag22aa", "best-practice"]}}))
                    .violations.map((v) => v.id + ": " + v.nodes.map((n) => n.html).join(" | "))"""
                )
                assert violations == []
            assert errors == []
        except BaseException:
            page.screenshot(path=str(tmp_path / "failure.png"), full_page=True)
            raise
        finally:
            browser.close()
