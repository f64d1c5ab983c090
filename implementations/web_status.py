"""check_website_status: does a URL answer, with what status, how fast, and where do its redirects end.

The same policy as fetch_url (web.py): only allow-listed hosts, the first URL checked before
anything is contacted (`invalid_url`, `host_not_allowed`), every redirect target checked
before it is followed, no proxy, one deadline for the whole check with a watchdog that shuts
the socket down at it. No body is read: a HEAD request, or a GET whose body is left unread
when the server refuses HEAD (405, 501, and the 400 or 403 some servers and firewalls give a
HEAD they would answer as a GET).

What the tool is asked is whether the site answers, so a site that does not (time limit,
refused connection, unknown name, TLS failure) is a result with `reachable: false` and the
reason, not an error. A redirect that is not followed (follow_redirects false, a target off
the allow-list or not a valid URL, too many redirects) ends the check at the redirect, its
target in `location`.
"""

from __future__ import annotations

import http.client
import socket
import ssl
import time
from typing import Literal, NamedTuple
from urllib.parse import urljoin

from toolgen_builtin import ToolError
from toolgen_builtin.tools.check_website_status import (
    CheckWebsiteStatusArguments,
    CheckWebsiteStatusResult,
    CheckWebsiteStatusTool,
)

from .web import REDIRECTS, Target, Watchdog, WebPolicy, check_url, connect

HEAD_REFUSED = frozenset({400, 403, 405, 501})  # then the same URL is asked again with GET
Method = Literal["HEAD", "GET"]


class _Answer(NamedTuple):
    status: int
    location: str | None


class Unreachable(Exception):
    """The server gave no HTTP answer; the message says why, for the model."""


def _why(exc: BaseException, host: str) -> str:
    if isinstance(exc, socket.gaierror):
        return f"the host name {host} could not be resolved"
    if isinstance(exc, ConnectionRefusedError):
        return f"{host} refused the connection (nothing listens on that port)"
    if isinstance(exc, ssl.SSLError):
        return (
            f"TLS with {host} failed: {getattr(exc, 'verify_message', None) or exc.reason or exc}"
        )
    if isinstance(exc, http.client.RemoteDisconnected):
        return f"{host} closed the connection without answering"
    if isinstance(exc, http.client.HTTPException):
        return f"{host} did not answer in HTTP ({exc.__class__.__name__})"
    reason = getattr(exc, "strerror", None) or exc.__class__.__name__
    return f"the connection to {host} failed: {reason}"


def probe(target: Target, method: Method, deadline: float, policy: WebPolicy) -> _Answer:
    """The status line and Location of one request, or Unreachable. The body is never read."""
    remaining = deadline - time.monotonic()
    if remaining <= 0:
        raise Unreachable("no answer within the time limit")
    connection = connect(target, deadline)
    watchdog = Watchdog(connection, remaining)
    try:
        connection.request(
            method,
            target.path,
            headers={
                "User-Agent": policy.user_agent,
                "Accept-Encoding": "identity",
                "Accept": "*/*",
            },
        )
        response = connection.getresponse()
        return _Answer(response.status, response.getheader("Location"))
    except TimeoutError:  # socket.timeout too
        raise Unreachable(f"{target.host} did not answer within the time limit") from None
    except (OSError, http.client.HTTPException) as exc:
        if watchdog.expired.is_set():
            raise Unreachable(f"{target.host} did not answer within the time limit") from None
        raise Unreachable(_why(exc, target.host)) from None
    finally:
        watchdog.cancel()
        connection.close()


def _milliseconds(since: float) -> int:
    return max(0, round((time.monotonic() - since) * 1000))


class CheckWebsiteStatus(CheckWebsiteStatusTool):
    def __init__(self, policy: WebPolicy) -> None:
        self.policy = policy

    def run(self, arguments: CheckWebsiteStatusArguments) -> CheckWebsiteStatusResult:
        deadline = time.monotonic() + min(arguments.timeout_s, self.policy.max_timeout_s)
        checked = url = arguments.url.strip()
        target = check_url(url, self.policy)  # invalid_url, host_not_allowed: nothing contacted
        method: Method = "HEAD"
        redirects = 0
        while True:
            began = time.monotonic()
            try:
                answer = probe(target, method, deadline, self.policy)
                if method == "HEAD" and answer.status in HEAD_REFUSED:
                    method = "GET"  # and for the redirects that follow: the server wants GET
                    began = time.monotonic()
                    answer = probe(target, method, deadline, self.policy)
            except Unreachable as exc:
                return CheckWebsiteStatusResult(
                    url=checked,
                    reachable=False,
                    ok=False,
                    status=None,
                    final_url=url,
                    redirects=redirects,
                    location=None,
                    method=method,
                    response_ms=_milliseconds(began),
                    error=str(exc),
                )
            elapsed = _milliseconds(began)
            location = None
            if answer.status in REDIRECTS and answer.location:
                location = urljoin(url, answer.location.strip())
                if arguments.follow_redirects and redirects < self.policy.max_redirects:
                    try:
                        target = check_url(location, self.policy)
                    except ToolError:
                        pass  # off the allow-list, or no valid URL: reported, never contacted
                    else:
                        url, redirects = location, redirects + 1
                        continue
            return CheckWebsiteStatusResult(
                url=checked,
                reachable=True,
                ok=answer.status < 400,
                status=answer.status,
                final_url=url,
                redirects=redirects,
                location=location,
                method=method,
                response_ms=elapsed,
                error=None,
            )
