"""browser: one Chromium page driven through Playwright, held to the web tools' allow-list.

- Optional: Playwright (the `browser` extra) and Chromium at `BrowserPolicy.executable`
  (Debian's `chromium` package: /usr/bin/chromium) are looked for at each call, never downloaded;
  without them a call fails with the declared `unavailable` error. The tool is registered only
  when the host enables it (`registry(..., enable_browser=True)`, TOOLGEN_ENABLE_BROWSER=1).
- Hosts: a URL to navigate to is checked like fetch_url's (`check_url`, the same `WebPolicy`)
  before anything starts. Then two gates hold everything the page loads to the allow-list:
  Playwright's request routing aborts a request for any other host before it is sent (and the
  host is reported in `blocked_hosts`), and Chromium's only way out is an HTTP proxy on
  127.0.0.1 (browser_proxy.py) that connects to allowed hosts only: routing sees only the
  first URL of a redirect chain, WebSockets and workers' requests escape it, the proxy sees
  all of them. Downloads and service workers are off; WebRTC may not send UDP past the proxy
  (the profile's `webrtc.ip_handling_policy` preference: no UDP at all, as the proxy has none).
- Session: the browser starts at the first call that needs it (a fresh temporary profile,
  removed at the end), and its one page stays open across calls until a `close` action, the
  tool's `close()`, its garbage collection or the interpreter's exit. A page a click opens in
  a new tab replaces the current one.
- Threads: Playwright's sync objects belong to the thread that made them, and a registry runs
  a sync tool in any worker thread, so all Playwright work happens on one thread the tool owns;
  `run` hands each call to it and waits. Calls are serialised (a lock, then that thread's queue).
- Time: each action waits at most `min(timeout_s, max_timeout_s)` (starting the browser has
  its own `launch_timeout_s`); the spec's `timeout_s` (120 s) bounds the whole call.
"""

from __future__ import annotations

import json
import os
import queue
import re
import shutil
import tempfile
import threading
import time
import weakref
from collections.abc import Callable
from concurrent.futures import Future
from concurrent.futures import TimeoutError as FutureTimeout
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, TypeVar
from urllib.parse import urlsplit

from toolgen_builtin import Image, Output, ToolError
from toolgen_builtin._runtime.results.content import LIMITS as CONTENT_LIMITS
from toolgen_builtin.tools.browser import BrowserArguments, BrowserResult, BrowserTool

from .browser_proxy import PROXY_HEADER, AllowListProxy
from .web import WebPolicy, check_url

if TYPE_CHECKING:
    from playwright.sync_api import (
        BrowserContext,
        Locator,
        Page,
        Playwright,
        Request,
        Response,
        Route,
    )

T = TypeVar("T")

CHROMIUM = "/usr/bin/chromium"
# --headless comes from Playwright (headless=True); --no-sandbox is needed as root.
LAUNCH_ARGS = (
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--force-webrtc-ip-handling-policy=disable_non_proxied_udp",
)
# Written into the fresh profile before launch (the switch above alone lets STUN out).
PREFERENCES = {"webrtc": {"ip_handling_policy": "disable_non_proxied_udp"}}
INSTALL_HINT = (
    "install Playwright (toolgen's `browser` extra, playwright==1.65.2) "
    "and Chromium (apt-get install chromium)"
)
_MAX_BLOCKED = 20
_BLANK = "about:blank"
_NET_ERROR = re.compile(r"net::(ERR_[A-Z_]+)")
_SPACES = re.compile(r"[ \t\u00a0]+\n")
_BLANK_LINES = re.compile(r"\n{3,}")
_PAGE_HEIGHT = "() => Math.max(document.documentElement.scrollHeight, document.body ? document.body.scrollHeight : 0)"
# Whether clicking the element follows a link or submits a form into another tab.
_OPENS_TAB = """e => {
  const a = e.closest('a[href], area[href]') || (e.form && e.type === 'submit' ? e.form : null);
  const target = a ? (a.getAttribute('target') || '').toLowerCase() : '';
  return target !== '' && !['_self', '_top', '_parent'].includes(target);
}"""


@dataclass(frozen=True)
class BrowserPolicy:
    """What a host allows the browser tool, beside the hosts (its WebPolicy)."""

    executable: str = CHROMIUM
    max_timeout_s: float = 30.0  # a model's timeout_s is lowered to this
    launch_timeout_s: float = 30.0
    max_text_chars: int = 100_000  # read_text's max_chars is lowered to this
    viewport: tuple[int, int] = (1280, 800)
    max_page_height: int = 4000  # a full-page screenshot is cut at this many pixels
    extra_args: tuple[str, ...] = ()  # more Chromium flags


def _playwright_missing() -> str | None:
    try:
        import playwright.sync_api  # noqa: F401
    except ImportError:
        return "Playwright is not installed"
    return None


def availability(policy: BrowserPolicy) -> str | None:
    """Why the browser cannot run here (a sentence), or None when it can."""
    missing = _playwright_missing()
    if missing is None and not (
        os.path.isfile(policy.executable) and os.access(policy.executable, os.X_OK)
    ):
        missing = f"no Chromium at {policy.executable}"
    return f"{missing}: {INSTALL_HINT}" if missing else None


class _Worker:
    """One thread that runs jobs in order: the only thread that touches Playwright's objects.
    Stopped, it ends after the jobs it was given; a later job starts a new thread (with a queue of its own)."""

    def __init__(self) -> None:
        self._thread: threading.Thread | None = None
        self._jobs: queue.SimpleQueue[tuple[Callable[[], Any], Future[Any]] | None] = (
            queue.SimpleQueue()
        )
        self._lock = threading.Lock()

    def submit(self, job: Callable[[], T]) -> Future[T]:
        future: Future[T] = Future()
        with self._lock:
            if self._thread is None or not self._thread.is_alive():
                # A daemon thread: it never holds up the interpreter's exit, and it is still
                # there when the exit's finalizers ask it to close the browser.
                self._jobs = queue.SimpleQueue()
                self._thread = threading.Thread(
                    target=self._loop, args=(self._jobs,), name="toolgen-browser", daemon=True
                )
                self._thread.start()
            self._jobs.put((job, future))
        return future

    @property
    def running(self) -> bool:
        return self._thread is not None and self._thread.is_alive()

    def is_current(self) -> bool:
        return threading.current_thread() is self._thread

    def stop(self, wait_s: float) -> None:
        with self._lock:
            thread, self._thread = self._thread, None
            self._jobs.put(None)
        if thread is not None and thread is not threading.current_thread():
            thread.join(wait_s)

    @staticmethod
    def _loop(jobs: queue.SimpleQueue[tuple[Callable[[], Any], Future[Any]] | None]) -> None:
        while True:
            item = jobs.get()
            if item is None:
                return
            job, future = item
            if not future.set_running_or_notify_cancel():
                continue
            try:
                future.set_result(job())
            except BaseException as exc:  # noqa: BLE001 - handed to the waiting caller
                future.set_exception(exc)


class _Session:
    """The browser and its page; every method runs on the worker thread."""

    def __init__(self, web: WebPolicy, policy: BrowserPolicy) -> None:
        self.web, self.policy = web, policy
        self.playwright: Playwright | None = None
        self.context: BrowserContext | None = None
        self.page: Page | None = None
        self.proxy: AllowListProxy | None = None
        self.profile: str | None = None
        self._popup: Page | None = None
        self._lock = threading.Lock()  # the proxy's threads report too
        self._blocked: list[str] = []
        self._unreachable: str | None = None

    # --- what the gates report, per action

    def allows(self, host: str) -> bool:
        return self.web.allows(host)

    def blocked(self, host: str) -> None:
        with self._lock:
            if host not in self._blocked and len(self._blocked) < _MAX_BLOCKED:
                self._blocked.append(host)

    def unreachable(self, host: str, reason: str) -> None:
        with self._lock:
            self._unreachable = f"{host}: {reason}"

    def take_reports(self) -> tuple[list[str], str | None]:
        with self._lock:
            blocked, self._blocked = self._blocked, []
            unreachable, self._unreachable = self._unreachable, None
        return blocked, unreachable

    def _route(self, route: Route) -> None:
        url = route.request.url
        try:
            check_url(url, self.web)
        except ToolError:
            self.blocked(urlsplit(url).hostname or url.split(":", 1)[0])
            _quietly(lambda: route.abort("blockedbyclient"))
            return
        _quietly(route.continue_)

    def _response(self, response: Response) -> None:
        if (
            response.header_value(PROXY_HEADER) == "blocked"
        ):  # a redirect (plain HTTP) the proxy refused
            self.blocked(urlsplit(response.url).hostname or response.url)

    def _failed(self, request: Request) -> None:
        host = urlsplit(request.url).hostname
        if (
            host
            and "ERR_TUNNEL_CONNECTION_FAILED" in (request.failure or "")
            and not self.allows(host)
        ):
            self.blocked(host)  # a redirect (HTTPS, WebSocket) the proxy refused

    def _opened(self, page: Page) -> None:
        if page is not self.page:
            self._popup = page  # adopted at the end of the action that opened it

    # --- lifetime

    def open(self) -> Page:
        if self.page is not None and not self.page.is_closed():
            return self.page
        if self.context is not None:
            pages = [p for p in self.context.pages if not p.is_closed()]
            self.page = pages[-1] if pages else self.context.new_page()
            return self.page
        from playwright.sync_api import sync_playwright

        self.proxy = AllowListProxy(self.allows, on_unreachable=self.unreachable)
        proxy_url = self.proxy.start()
        self.profile = tempfile.mkdtemp(prefix="toolgen-browser-")
        _write_preferences(self.profile)
        width, height = self.policy.viewport
        try:
            self.playwright = sync_playwright().start()
            self.context = self.playwright.chromium.launch_persistent_context(
                self.profile,
                executable_path=self.policy.executable,
                headless=True,
                args=[
                    *LAUNCH_ARGS,
                    f"--proxy-server={proxy_url}",
                    "--proxy-bypass-list=<-loopback>",
                    *self.policy.extra_args,
                ],
                viewport={"width": width, "height": height},
                accept_downloads=False,
                service_workers="block",
                timeout=self.policy.launch_timeout_s * 1000,
            )
            self.context.route("**/*", self._route)
            self.context.on("page", self._opened)
            self.context.on("response", self._response)
            self.context.on("requestfailed", self._failed)
            self.page = self.context.pages[0] if self.context.pages else self.context.new_page()
        except Exception as exc:  # noqa: BLE001 - Playwright's driver or Chromium did not start
            self.close()
            first = str(exc).strip().splitlines()[0] if str(exc).strip() else type(exc).__name__
            raise ToolError(
                "unavailable", f"Chromium ({self.policy.executable}) did not start: {first}"
            ) from None
        return self.page

    def close(self) -> bool:
        """Close the browser, the proxy and the profile; whether a browser was open."""
        was_open = self.context is not None
        if self.context is not None:
            _quietly(self.context.close)
        if self.playwright is not None:
            _quietly(self.playwright.stop)
        if self.proxy is not None:
            _quietly(self.proxy.close)
        if self.profile:
            shutil.rmtree(self.profile, ignore_errors=True)
        self.playwright = self.context = self.page = self._popup = self.proxy = self.profile = None
        return was_open

    def current(self, deadline: float) -> Page:
        """The open page, once something was opened in it (ToolError no_page); a tab opened since
        the last action (by a script, after it ended) is the page now."""
        self.adopt_popup(deadline)
        page = self.page
        if page is not None and page.is_closed() and self.context is not None:
            pages = [p for p in self.context.pages if not p.is_closed()]
            page = self.page = pages[-1] if pages else None
        if page is None or page.url == _BLANK:
            raise ToolError("no_page", "no page is open: navigate to a URL first")
        return page

    def adopt_popup(self, deadline: float) -> bool:
        """Make a tab the last action opened the page (closing the old one); whether there was one."""
        popup, self._popup = self._popup, None
        if popup is None or popup.is_closed():
            return False
        old, self.page = self.page, popup
        if old is not None:
            _quietly(old.close)
        settle(popup, deadline)
        return True


def _write_preferences(profile: str) -> None:
    """The fresh profile's preferences, before Chromium first reads them: WebRTC may use no UDP
    but through the proxy (which has none), so no STUN or media packet leaves the machine.
    (The switch --force-webrtc-ip-handling-policy alone did not hold: a page's STUN binding
    requests still went out over UDP.)"""
    folder = os.path.join(profile, "Default")
    os.makedirs(folder, exist_ok=True)
    with open(os.path.join(folder, "Preferences"), "w", encoding="utf-8") as out:
        json.dump(PREFERENCES, out)


def _quietly(step: Callable[[], object]) -> None:
    try:
        step()
    except Exception:  # noqa: BLE001 - cleanup and best-effort steps: the browser may be gone
        pass


def _left_ms(deadline: float) -> float:
    return max(1.0, (deadline - time.monotonic()) * 1000)


def settle(page: Page, deadline: float) -> bool:
    """Wait (until the deadline) for the page's load event; whether it came."""
    from playwright.sync_api import Error as PlaywrightError

    try:
        page.wait_for_load_state("load", timeout=_left_ms(deadline))
        return True
    except PlaywrightError:
        return False


def _title(page: Page) -> str:
    try:
        return page.title()
    except Exception:  # noqa: BLE001 - a page in the middle of a navigation has no title to give
        return ""


def _clean(text: str) -> str:
    return _BLANK_LINES.sub("\n\n", _SPACES.sub("\n", text.replace("\r\n", "\n"))).strip()


class Browser(BrowserTool):
    """The browser tool over one Chromium page; `close()` ends the session (also at exit)."""

    def __init__(self, web: WebPolicy, policy: BrowserPolicy | None = None) -> None:
        self.web, self.policy = web, policy or BrowserPolicy()
        self._worker = _Worker()
        self._session = _Session(self.web, self.policy)
        self._lock = threading.Lock()
        self._finalizer = weakref.finalize(self, _shutdown, self._worker, self._session)

    def close(self) -> None:
        """Close the browser and stop the tool's thread (a later call starts them again)."""
        _shutdown(self._worker, self._session)

    def __enter__(self) -> Browser:
        return self

    def __exit__(self, *_: object) -> None:
        self.close()

    def run(self, arguments: BrowserArguments) -> BrowserResult | Output[BrowserResult]:
        action = arguments.action
        _require(arguments)
        if action == "navigate":
            check_url(arguments.url or "", self.web)
        if action == "close" and not self._worker.running:
            return BrowserResult(
                url="",
                title="",
                status=None,
                text=None,
                truncated=False,
                blocked_hosts=[],
                message="no browser was open",
            )
        if action != "close":
            reason = availability(self.policy)
            if reason:
                raise ToolError("unavailable", f"the browser cannot run here: {reason}")
        seconds = min(arguments.timeout_s, self.policy.max_timeout_s)
        wait = (
            seconds + self.policy.launch_timeout_s + 10
        )  # the action, starting the browser, closing
        if not self._lock.acquire(timeout=wait):
            raise ToolError("timeout", "the browser is still busy with an earlier call")
        try:
            future = self._worker.submit(lambda: _Action(self._session, arguments, seconds).run())
            try:
                return future.result(wait)
            except FutureTimeout:
                raise ToolError(
                    "timeout", f"the browser did not finish the action within {wait:g} s"
                ) from None
            finally:
                if action == "close":
                    self._worker.stop(5)  # started again by the next call
        finally:
            self._lock.release()


def _shutdown(worker: _Worker, session: _Session) -> None:
    if (
        worker.is_current()
    ):  # collected during an action, on the worker itself: it cannot wait for itself
        session.close()
        worker.stop(0)
        return
    if worker.running:
        try:
            worker.submit(session.close).result(15)
        except Exception:  # noqa: BLE001 - closing: the browser may be gone already
            pass
        worker.stop(5)


def _require(arguments: BrowserArguments) -> None:
    """ToolError(missing_argument) when the action lacks what it needs."""
    action = arguments.action
    if action == "navigate" and not arguments.url:
        raise ToolError("missing_argument", "navigate needs a url")
    if action in ("click", "type") and not (arguments.selector or arguments.element_text):
        raise ToolError(
            "missing_argument", f"{action} needs a selector or an element_text to find the element"
        )
    if action == "type" and arguments.text is None:
        raise ToolError("missing_argument", "type needs the text to type")


class _Action:
    """One call's action, on the worker thread."""

    def __init__(self, session: _Session, arguments: BrowserArguments, seconds: float) -> None:
        self.session, self.arguments, self.seconds = session, arguments, seconds
        self.deadline = time.monotonic() + seconds

    def run(self) -> BrowserResult | Output[BrowserResult]:
        from playwright.sync_api import Error as PlaywrightError
        from playwright.sync_api import TimeoutError as PlaywrightTimeout

        self.session.take_reports()  # what earlier actions left behind is theirs
        action = self.arguments.action
        if action == "close":
            closed = self.session.close()
            return self.result(None, "closed the browser" if closed else "no browser was open")
        try:
            if action == "navigate":
                return self.navigate()
            page = self.session.current(self.deadline)
            if action == "click":
                return self.click(page)
            if action == "type":
                return self.type(page)
            if action == "read_text":
                return self.read_text(page)
            if action == "screenshot":
                return self.screenshot(page)
            return self.back(page)
        except PlaywrightTimeout:
            raise ToolError(
                "timeout", f"{action} did not finish within {self.seconds:g} s"
            ) from None
        except PlaywrightError as exc:
            if "has been closed" in str(exc):  # the browser crashed or was closed under us
                self.session.close()
                raise ToolError(
                    "no_page", "the browser closed; navigate to start it again"
                ) from None
            raise

    # --- results and failures

    def result(
        self,
        page: Page | None,
        message: str,
        *,
        status: int | None = None,
        text: str | None = None,
        truncated: bool = False,
    ) -> BrowserResult:
        blocked, _ = self.session.take_reports()
        url = page.url if page is not None and not page.is_closed() else ""
        title = _title(page) if page is not None and not page.is_closed() else ""
        if blocked:
            message += f"; blocked requests to {', '.join(blocked)} (not allowed hosts)"
        return BrowserResult(
            url="" if url == _BLANK else url,
            title=title,
            status=status,
            text=text,
            truncated=truncated,
            blocked_hosts=blocked,
            message=message,
        )

    def load_failure(self, exc: Exception, url: str) -> ToolError:
        """A navigation's failure as a declared error."""
        from playwright.sync_api import TimeoutError as PlaywrightTimeout

        if isinstance(exc, PlaywrightTimeout):
            return ToolError("timeout", f"{url} did not load within {self.seconds:g} s")
        blocked, unreachable = self.session.take_reports()
        match = _NET_ERROR.search(str(exc))
        code = match.group(1) if match else str(exc).strip().splitlines()[0]
        if blocked and code in ("ERR_TUNNEL_CONNECTION_FAILED", "ERR_BLOCKED_BY_CLIENT"):
            return ToolError(
                "host_not_allowed",
                f"loading {url} led to {', '.join(blocked)}, not an allowed host "
                f"(allowed hosts: {', '.join(self.session.web.allow_hosts[:10]) or 'none'})",
            )
        if unreachable:
            return ToolError("connection_failed", f"could not connect to {unreachable}")
        return ToolError("connection_failed", f"loading {url} failed: {code}")

    def locate(self, page: Page, *, field: bool) -> tuple[Locator, str]:
        """The element the arguments name (the first visible match), and how a message names it."""
        selector, words = self.arguments.selector, self.arguments.element_text
        if selector:
            return page.locator(selector).filter(
                visible=True
            ).first, f"the element matching {selector!r}"
        assert words is not None
        if field:
            found = page.get_by_label(words).or_(page.get_by_placeholder(words))
            return found.filter(visible=True).first, f"the field labelled {words!r}"
        exact = page.get_by_text(words, exact=True).filter(visible=True)
        loose = page.get_by_text(words).filter(visible=True)
        return (exact if exact.count() else loose).first, f"the element showing {words!r}"

    def wait_visible(self, locator: Locator, name: str) -> None:
        """Wait for the element to be visible: ToolError(element_not_found | invalid_selector)."""
        from playwright.sync_api import Error as PlaywrightError
        from playwright.sync_api import TimeoutError as PlaywrightTimeout

        try:
            locator.wait_for(state="visible", timeout=_left_ms(self.deadline))
        except PlaywrightTimeout:
            raise ToolError(
                "element_not_found",
                f"{name} is not on the page, or not visible (waited {self.seconds:g} s)",
            ) from None
        except PlaywrightError as exc:
            if "selector" in str(exc).lower() or "unexpected token" in str(exc).lower():
                raise ToolError(
                    "invalid_selector", f"the selector is not valid: {_reason(exc)}"
                ) from None
            raise

    def stay(self, page: Page, before: str) -> str:
        """After a click or Enter: when the page went to a host it may not reach (the proxy's refusal, an
        error page), back to where it was; what to add to the message."""
        host = urlsplit(page.url).hostname
        if page.url == before or not (
            page.url.startswith("chrome-error:") or (host and not self.session.allows(host))
        ):
            return ""
        went = page.url
        self.restore(page, before)
        return f"; it led to {went}, which could not be loaded, so the page stayed at {page.url}"

    def again_after_navigation(self, page: Page, step: Callable[[], T]) -> T:
        """step(), tried once more when a navigation replaced the page while it ran."""
        from playwright.sync_api import Error as PlaywrightError

        try:
            return step()
        except PlaywrightError as exc:
            if "context was destroyed" not in str(exc):
                raise
        settle(page, self.deadline)
        return step()

    def stop_loading(self, page: Page) -> None:
        """Cancel the page's navigations under way (window.stop() cannot cancel one the browser started)."""
        if self.session.context is None:
            return
        cdp = self.session.context.new_cdp_session(page)
        try:
            cdp.send("Page.stopLoading")
        finally:
            _quietly(cdp.detach)

    def restore(self, page: Page, before: str, *, error_page: bool = False) -> None:
        """After a failed navigation: back to the page the session was on, not an error page
        (`error_page`: Chromium commits one a moment after the failure is reported)."""
        _quietly(lambda: self.stop_loading(page))  # a navigation still under way would land later
        if error_page:
            _quietly(
                lambda: page.wait_for_url(
                    lambda url: url != before, timeout=min(1000, _left_ms(self.deadline))
                )
            )
        if page.url == before:
            return
        if before == _BLANK:
            _quietly(lambda: page.goto(_BLANK))
        else:
            _quietly(
                lambda: page.go_back(wait_until="domcontentloaded", timeout=_left_ms(self.deadline))
            )

    # --- the actions

    def navigate(self) -> BrowserResult:
        from playwright.sync_api import Error as PlaywrightError

        url = (self.arguments.url or "").strip()
        page = self.session.open()
        self.deadline = (
            time.monotonic() + self.seconds
        )  # starting the browser had a limit of its own
        self.session.take_reports()
        before = page.url
        try:
            response = page.goto(
                url, wait_until="domcontentloaded", timeout=_left_ms(self.deadline)
            )
        except PlaywrightError as exc:
            failure = self.load_failure(exc, url)
            self.restore(page, before, error_page=failure.kind != "timeout")
            raise failure from None
        made_by_proxy = response.header_value(PROXY_HEADER) if response is not None else None
        if made_by_proxy is not None:  # the proxy answered instead of the site: a refused redirect
            host = urlsplit(page.url).hostname or page.url
            self.restore(page, before)
            if made_by_proxy == "blocked":
                raise ToolError(
                    "host_not_allowed",
                    f"{url} redirected to {host}, which is not an allowed host; "
                    "nothing was sent to it",
                )
            raise ToolError("connection_failed", f"could not connect to {host}")
        loaded = settle(page, self.deadline)
        status = response.status if response is not None else None
        message = f"opened {page.url}" + (f" (HTTP {status})" if status is not None else "")
        return self.result(
            page, message + ("" if loaded else "; the page is still loading"), status=status
        )

    def click(self, page: Page) -> BrowserResult:
        from playwright.sync_api import Error as PlaywrightError

        locator, name = self.locate(page, field=False)
        self.wait_visible(locator, name)
        before = page.url
        new_tab = bool(locator.evaluate(_OPENS_TAB, timeout=_left_ms(self.deadline)))
        try:
            if (
                new_tab and self.session.context is not None
            ):  # wait for the tab: its event comes after the click
                with self.session.context.expect_page(timeout=_left_ms(self.deadline)):
                    locator.click(timeout=_left_ms(self.deadline))
            else:
                locator.click(timeout=_left_ms(self.deadline))
        except PlaywrightError as exc:
            raise ToolError(
                "element_not_usable", f"{name} could not be clicked: {_reason(exc)}"
            ) from None
        if self.session.adopt_popup(self.deadline):
            page = self.session.page or page
            return self.result(
                page, f"clicked {name}; it opened {page.url} in a new tab, now the page"
            )
        loaded = settle(page, self.deadline)
        stayed = self.stay(page, before)
        moved = f"; now at {page.url}" if page.url != before else ""
        return self.result(
            page,
            f"clicked {name}{stayed or moved}" + ("" if loaded else "; the page is still loading"),
        )

    def type(self, page: Page) -> BrowserResult:
        from playwright.sync_api import Error as PlaywrightError

        locator, name = self.locate(page, field=True)
        self.wait_visible(locator, name)
        text = self.arguments.text or ""
        before = page.url
        try:
            locator.fill(text, timeout=_left_ms(self.deadline))
            if self.arguments.press_enter:
                locator.press("Enter", timeout=_left_ms(self.deadline))
        except PlaywrightError as exc:
            raise ToolError(
                "element_not_usable", f"could not type into {name}: {_reason(exc)}"
            ) from None
        message = f"typed {len(text)} characters into {name}"
        if self.arguments.press_enter:
            self.session.adopt_popup(self.deadline)
            page = self.session.page or page
            loaded = settle(page, self.deadline)
            stayed = self.stay(page, before)
            message += f" and pressed Enter{stayed or f'; now at {page.url}'}" + (
                "" if loaded else " (still loading)"
            )
        return self.result(page, message)

    def read_text(self, page: Page) -> BrowserResult:
        settle(page, self.deadline)
        limit = min(self.arguments.max_chars, self.session.policy.max_text_chars)
        asked = 2 * limit + 1000  # cleaning only shortens: enough raw text to fill `limit`
        if self.arguments.selector:
            locator = page.locator(self.arguments.selector).filter(visible=True).first
            self.wait_visible(locator, f"the element matching {self.arguments.selector!r}")
            raw = self.again_after_navigation(
                page,
                lambda: locator.evaluate(
                    "(e, n) => (e.innerText ?? e.textContent ?? '').slice(0, n)",
                    asked,
                    timeout=_left_ms(self.deadline),
                ),
            )
        else:
            raw = self.again_after_navigation(
                page,
                lambda: page.evaluate(
                    "n => (document.body ? document.body.innerText : '').slice(0, n)", asked
                ),
            )
        text = _clean(str(raw))
        truncated = len(raw) >= asked or len(text) > limit
        text = text[:limit]
        where = (
            f" of the element matching {self.arguments.selector!r}"
            if self.arguments.selector
            else ""
        )
        return self.result(
            page,
            f"read {len(text)} characters{where}" + (" (cut at max_chars)" if truncated else ""),
            text=text,
            truncated=truncated,
        )

    def screenshot(self, page: Page) -> Output[BrowserResult]:
        settle(page, self.deadline)
        width, height = self.session.policy.viewport
        options: dict[str, Any] = {"timeout": _left_ms(self.deadline)}
        if self.arguments.full_page:
            full = int(self.again_after_navigation(page, lambda: page.evaluate(_PAGE_HEIGHT)))
            height = max(1, min(full, self.session.policy.max_page_height))
            options.update(full_page=True, clip={"x": 0, "y": 0, "width": width, "height": height})
        data = page.screenshot(type="png", **options)
        kind = "PNG"
        if len(data) > CONTENT_LIMITS["image"]:  # a busy full page: JPEG is several times smaller
            data, kind = page.screenshot(type="jpeg", quality=70, **options), "JPEG"
        image = Image.of(data)
        part = (
            f"the top {height} pixels of the page"
            if self.arguments.full_page
            else "the visible part"
        )
        result = self.result(
            page, f"screenshot of {part}: {width}x{height} pixels, {kind}, {len(data):,} bytes"
        )
        return Output(result, content=[image])

    def back(self, page: Page) -> BrowserResult:
        from playwright.sync_api import Error as PlaywrightError

        before = page.url
        try:
            response = page.go_back(wait_until="domcontentloaded", timeout=_left_ms(self.deadline))
        except PlaywrightError as exc:
            raise self.load_failure(exc, "the previous page") from None
        if page.url == _BLANK:  # the page before the first one: blank, not a page to go back to
            _quietly(
                lambda: page.go_forward(
                    wait_until="domcontentloaded", timeout=_left_ms(self.deadline)
                )
            )
            raise ToolError("no_history", f"{before} is the first page of this session")
        if response is None and page.url == before:
            raise ToolError("no_history", f"there is no page before {before}")
        loaded = settle(page, self.deadline)
        status = response.status if response is not None else None
        return self.result(
            page,
            f"went back to {page.url}" + ("" if loaded else "; the page is still loading"),
            status=status,
        )


def _reason(exc: Exception) -> str:
    """The first line of a Playwright error, without its call log."""
    from playwright.sync_api import TimeoutError as PlaywrightTimeout

    if isinstance(exc, PlaywrightTimeout):
        return "it did not become ready in time (covered by another element, disabled, or still moving)"
    lines = [line.strip() for line in str(exc).splitlines() if line.strip()]
    return lines[0] if lines else type(exc).__name__
