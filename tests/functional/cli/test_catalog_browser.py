"""The catalog in a real browser: Debian's Chromium driven by Playwright opens the site from
file:// (no server, no network), searches, opens a tool, expands a nested parameter, switches
provider views with the mouse and the keyboard; and the accessibility checks written out:
every input labelled, headings in order, keyboard focus reaching the search and the tabs,
text contrast of at least 4.5:1 computed from the page's colours, no sideways scrolling at a
phone's width. A failing test leaves a screenshot under its tmp_path."""

from __future__ import annotations

import importlib.util
import os
import struct
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from tests.support.catalog_support import SPECS
from tests.support.generation import REPO, UPDATE_GOLDEN
from toolgen.catalog.command import build_site, write_site
from toolgen.cli import main
from toolgen.config import load_config
from toolgen.runtime.search import analyzer as search

CHROMIUM = "/usr/bin/chromium"
MISSING = (
    "Playwright is not installed"
    if importlib.util.find_spec("playwright") is None
    else None
    if os.access(CHROMIUM, os.X_OK)
    else f"no Chromium at {CHROMIUM}"
)
pytestmark = pytest.mark.skipif(MISSING is not None, reason=f"no browser here: {MISSING}")
# axe-core's axe.min.js, installed from npm (.ci/run does: npm install axe-core); the checks
# written out below run without it.
AXE = os.environ.get("TOOLGEN_AXE_CORE", "")
# The README's picture of the catalog: the built-in library's index, a search typed in.
SCREENSHOT = REPO / "docs" / "images" / "catalog.png"
SHOT = (1200, 760)
AXE_RULES = ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "wcag22aa", "best-practice"]

# Every element with text of its own: its colour against the first opaque background behind it.
CONTRAST = """() => {
  const rgb = (text) => text.match(/[\\d.]+/g).map(Number);
  const luminance = ([r, g, b]) => {
    const c = [r, g, b].map((v) => { v /= 255; return v <= 0.03928 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4; });
    return 0.2126 * c[0] + 0.7152 * c[1] + 0.0722 * c[2];
  };
  const background = (el) => {
    for (; el; el = el.parentElement) {
      const c = rgb(getComputedStyle(el).backgroundColor);
      if (c.length < 4 || c[3] > 0) return c;
    }
    return [255, 255, 255];
  };
  const low = [];
  for (const el of document.querySelectorAll("body *")) {
    const own = [...el.childNodes].some((n) => n.nodeType === 3 && n.textContent.trim());
    if (!own || !el.getClientRects().length) continue;
    const [a, b] = [luminance(rgb(getComputedStyle(el).color)), luminance(background(el))];
    const ratio = (Math.max(a, b) + 0.05) / (Math.min(a, b) + 0.05);
    if (ratio < 4.5) low.push(`${el.tagName} ${el.textContent.trim().slice(0, 40)}: ${ratio.toFixed(2)}`);
  }
  return low;
}"""
HEADINGS = """() => [...document.querySelectorAll("h1,h2,h3,h4,h5,h6")]
  .filter((h) => h.getClientRects().length || h.closest("[hidden],details:not([open])") === null)
  .map((h) => Number(h.tagName[1]))"""
UNLABELLED = """() => [...document.querySelectorAll("input,select,textarea")]
  .filter((el) => !el.labels.length && !el.getAttribute("aria-label") && !el.getAttribute("aria-labelledby"))
  .map((el) => el.outerHTML)"""


@pytest.fixture(scope="module")
def site(tmp_path_factory: pytest.TempPathFactory) -> Path:
    root = tmp_path_factory.mktemp("catalog")
    specs = root / "specs"
    specs.mkdir()
    for name, text in SPECS.items():
        (specs / name).write_text(text, "utf-8")
    out = root / "site"
    result = CliRunner().invoke(main, ["catalog", "--specs", str(specs), "--out", str(out)])
    assert result.exit_code == 0, result.output
    return out


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
def opened(
    browser: Any,
    tmp_path: Path,
    site: Path,
    path: str,
    width: int = 1100,
    requests: list[str] | None = None,
) -> Iterator[Any]:
    """The site's page at `path`, from file://. Every request it makes is recorded (into
    `requests`, when given; any but file:// is refused): one outside the site's own files
    fails the test, as do script errors; on any failure a screenshot is saved under tmp_path."""
    page = browser.new_page(viewport={"width": width, "height": 900})
    errors: list[str] = []
    requests = [] if requests is None else requests
    page.on("pageerror", lambda error: errors.append(str(error)))
    page.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)
    page.on("request", lambda request: requests.append(request.url))

    def refuse(route: Any) -> None:
        if route.request.url.startswith("file://"):
            route.continue_()
        else:
            route.abort()

    page.route("**/*", refuse)
    page.goto((site / path).as_uri())
    try:
        yield page
        own = site.as_uri() + "/"
        assert [url for url in requests if not url.startswith(own)] == []
        assert errors == []
    except BaseException:
        page.screenshot(path=str(tmp_path / "failure.png"), full_page=True)
        raise
    finally:
        page.close()


def visible_tools(page: Any) -> list[str]:
    return page.eval_on_selector_all(
        "li[data-tool]", "els => els.filter(e => !e.hidden).map(e => e.dataset.tool)"
    )


def test_search_filters_the_index(browser: Any, site: Path, tmp_path: Path) -> None:
    with opened(browser, tmp_path, site, "index.html") as page:
        assert visible_tools(page) == ["find_customer", "merge_customers", "get_weather"]
        page.fill(
            "#search", "customers merged"
        )  # stems meet: merged -> merg, customers -> customer
        assert visible_tools(page) == ["merge_customers"]
        assert page.text_content("#search-status") == "1 tool matches"
        assert page.is_hidden("text=weather >> xpath=ancestor::section[@data-group][1]")
        page.fill("#search", "temperat")  # a word being typed matches the start of a term
        assert visible_tools(page) == ["get_weather"]
        page.fill("#search", "lyon")  # a nested parameter's description
        assert visible_tools(page) == ["find_customer"]
        page.fill("#search", "the")  # a stop word alone filters nothing
        assert len(visible_tools(page)) == 3
        page.fill("#search", "zebra")
        assert visible_tools(page) == [] and page.is_visible("#no-match")
        page.fill("#search", "")
        assert len(visible_tools(page)) == 3


def test_the_pages_analyzer_is_the_runtimes(browser: Any, site: Path, tmp_path: Path) -> None:
    texts = ["Writing files to HTTPServer", "parsed CSV rows' values 42", "東京 weather_stations"]
    with opened(browser, tmp_path, site, "index.html") as page:
        got = page.evaluate(
            "([texts, stop, ed]) => texts.map((t) => toolgenCatalog.tokens(t, new Set(stop), new Set(ed)))",
            [texts, sorted(search.STOP_WORDS), sorted(search._ED)],
        )
    assert got == [search.tokens(t) for t in texts]


def test_open_a_tool_expand_and_switch_providers(browser: Any, site: Path, tmp_path: Path) -> None:
    with opened(browser, tmp_path, site, "index.html") as page:
        page.click("text=find_customer")
        page.wait_for_url("**/tools/find_customer.html")
        assert page.text_content("h1") == "find_customer"
        city = page.locator("details th code", has_text="city").first
        assert not city.is_visible()
        page.click("summary:has-text('2 fields of')")
        assert city.is_visible()
        assert page.is_visible("#panel-openai") and page.is_hidden("#panel-anthropic")
        page.click("#tab-anthropic")
        assert page.is_visible("#panel-anthropic") and page.is_hidden("#panel-openai")
        assert page.get_attribute("#tab-anthropic", "aria-selected") == "true"
        assert '"input_schema"' in page.text_content("#panel-anthropic pre")
        page.focus("#tab-anthropic")
        page.keyboard.press("ArrowRight")
        assert page.evaluate("document.activeElement.id") == "tab-gemini"
        assert page.is_visible("#panel-gemini") and page.is_hidden("#panel-anthropic")
        page.keyboard.press("End")
        assert page.evaluate("document.activeElement.id") == "tab-bedrock"


def test_no_request_leaves_the_sites_own_files(browser: Any, site: Path, tmp_path: Path) -> None:
    """Index, search, a tool's page, its provider tabs: every request is one of the site's
    files (a font, a script or an image from elsewhere would be listed and fail)."""
    requests: list[str] = []
    with opened(browser, tmp_path, site, "index.html", requests=requests) as page:
        page.fill("#search", "customer")
        assert visible_tools(page) == ["find_customer", "merge_customers"]
        page.click("text=find_customer")
        page.wait_for_url("**/tools/find_customer.html")
        page.eval_on_selector_all("details", "els => els.forEach(e => e.open = true)")
        for tab in page.eval_on_selector_all("[role=tab]", "els => els.map(e => e.id)"):
            page.click(f"#{tab}")
        page.click("header nav a")
        page.wait_for_url("**/index.html")
    own = site.as_uri() + "/"
    fetched = sorted({url.removeprefix(own) for url in requests})
    assert fetched == ["catalog.css", "catalog.js", "index.html", "tools/find_customer.html"]


def _tab_until(page: Any, wanted: str, most: int = 40) -> bool:
    for _ in range(most):
        page.keyboard.press("Tab")
        if page.evaluate(wanted):
            return True
    return False


@pytest.mark.parametrize(
    "path", ["index.html", "tools/find_customer.html", "tools/get_weather.html"]
)
def test_accessibility_written_out(browser: Any, site: Path, tmp_path: Path, path: str) -> None:
    with opened(browser, tmp_path, site, path) as page:
        assert page.evaluate(UNLABELLED) == []
        levels = page.evaluate(HEADINGS)
        assert levels[0] == 1 and levels.count(1) == 1
        assert all(b <= a + 1 for a, b in zip(levels, levels[1:], strict=False)), levels
        page.eval_on_selector_all("details", "els => els.forEach(e => e.open = true)")
        assert page.evaluate(CONTRAST) == []
        if path == "index.html":
            assert _tab_until(page, "document.activeElement.id === 'search'")
        else:
            assert _tab_until(page, "document.activeElement.getAttribute('role') === 'tab'")
            assert page.evaluate("document.activeElement.id") == "tab-openai"  # the selected one


@pytest.mark.parametrize("path", ["index.html", "tools/find_customer.html"])
def test_readable_at_a_phones_width(browser: Any, site: Path, tmp_path: Path, path: str) -> None:
    with opened(browser, tmp_path, site, path, width=360) as page:
        page.eval_on_selector_all("details", "els => els.forEach(e => e.open = true)")
        assert page.evaluate("document.documentElement.scrollWidth") <= 360
        wide = page.eval_on_selector_all(
            ".scroll",
            "els => els.filter(e => e.scrollWidth > e.clientWidth + 1)"
            ".map(e => [e.tabIndex, e.getAttribute('role'), e.getAttribute('aria-label')])",
        )  # a table wider than the screen scrolls in a region the keyboard reaches
        assert all(i == 0 and r == "region" and label for i, r, label in wide), wide
        size = page.evaluate("parseFloat(getComputedStyle(document.body).fontSize)")
        assert size >= 16


@pytest.mark.skipif(not os.path.isfile(AXE), reason="TOOLGEN_AXE_CORE names no axe.min.js")
@pytest.mark.parametrize("width", [1100, 360])
@pytest.mark.parametrize(
    "path", ["index.html", "tools/find_customer.html", "tools/get_weather.html"]
)
def test_axe_finds_no_violation(
    browser: Any, site: Path, tmp_path: Path, path: str, width: int
) -> None:
    with opened(browser, tmp_path, site, path, width=width) as page:
        page.eval_on_selector_all("details", "els => els.forEach(e => e.open = true)")
        page.add_script_tag(path=AXE)
        violations = page.evaluate(
            """async (tags) => (await axe.run(document, {preload: false, runOnly: {type: "tag", values: tags}}))
                .violations.map((v) => `${v.id} (${v.impact}): ${v.nodes.map((n) => n.html).join(" | ")}`)""",
            AXE_RULES,
        )
        assert violations == []


def png_size(data: bytes) -> tuple[int, int]:
    """The width and height a PNG's header declares (AssertionError: not a PNG)."""
    assert data[:8] == b"\x89PNG\r\n\x1a\n" and data[12:16] == b"IHDR", data[:16]
    width, height = struct.unpack(">II", data[16:24])
    return width, height


def test_the_readmes_screenshot_of_the_builtin_library(browser: Any, tmp_path: Path) -> None:
    """The catalog of schemas/ as the README shows it. Fonts differ between machines, so the
    pixels are not compared: the committed file must be a PNG of the size taken here, and
    TOOLGEN_UPDATE_GOLDEN=1 takes it again (then review it, as any golden file)."""
    files = build_site(load_config(REPO))
    assert isinstance(files, dict), f"the built-in catalog was not built: exit {files}"
    site = tmp_path / "site"
    write_site(files, site)
    import toolgen_builtin  # generated/, on the path (tests/conftest.py)

    with opened(browser, tmp_path, site, "index.html", width=SHOT[0]) as page:
        page.set_viewport_size({"width": SHOT[0], "height": SHOT[1]})
        assert sorted(visible_tools(page)) == sorted(toolgen_builtin.TOOL_NAMES)
        page.fill("#search", "edit")
        assert "edit_file" in visible_tools(page) and "web_search" not in visible_tools(page)
        page.evaluate("document.activeElement.blur()")
        taken = page.screenshot()
    assert png_size(taken) == SHOT
    if UPDATE_GOLDEN:
        SCREENSHOT.parent.mkdir(parents=True, exist_ok=True)
        SCREENSHOT.write_bytes(taken)
    assert SCREENSHOT.is_file(), "no screenshot: take it with TOOLGEN_UPDATE_GOLDEN=1"
    assert png_size(SCREENSHOT.read_bytes()) == SHOT
    assert "](docs/images/catalog.png)" in (REPO / "README.md").read_text("utf-8")
