"""web_search: a web search through a backend the host plugs in; by default a SearXNG JSON API.

A backend is anything with `search(query, limit, *, language=None) -> Sequence[SearchHit]`
(`SearchBackend`). It raises ToolError with web_search's declared kinds (`unavailable`,
`timeout`, `connection_failed`, `http_unavailable`, ...) for its failures. The tool around it
does what every backend would otherwise repeat: `site` becomes a `site:` term of the query and
a filter on the results' hosts, results that are not http(s) URLs or repeat an earlier URL
are dropped, titles and snippets are cut to a bounded length, and at most `max_results` are
returned.

`SearxngBackend` is the default, for a SearXNG instance (or anything answering its API):
GET `{base_url}/search?q=...&format=json[&language=...][&pageno=N]`, reading `results` (each
`title`, `url`, `content`). It contacts only its base URL's host: a redirect elsewhere fails
with `host_not_allowed`, without being followed. No proxy; one deadline for the whole search
(all pages); the answer is read up to `max_bytes`. The instance must serve JSON: SearXNG
answers 403 unless `json` is in `search.formats` of its settings.yml.

Without a backend (`registry()` with no `search=` and no TOOLGEN_SEARCH_URL), every search
fails with `unavailable`: nothing is reachable unless the host configures it.
"""

from __future__ import annotations

import json
import time
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, NamedTuple, Protocol
from urllib.parse import urlencode, urljoin, urlsplit

from toolgen_builtin import ToolError
from toolgen_builtin.tools.web_search import (
    WebSearchArguments,
    WebSearchResult,
    WebSearchResultResultsItem,
    WebSearchTool,
)

from .web import REDIRECTS, WebPolicy, check_url, error_kind, http_get

MAX_TITLE_CHARS = 300
MAX_SNIPPET_CHARS = 1000


class SearchHit(NamedTuple):
    """One result of a backend."""

    title: str
    url: str
    snippet: str = ""


class SearchBackend(Protocol):
    """What web_search needs of a search service. Raise ToolError with web_search's kinds on failure."""

    def search(self, query: str, limit: int, *, language: str | None = None) -> Sequence[SearchHit]:
        """About `limit` results for `query` (fewer when there are fewer), best first.

        `language` is a language code (en, pt-BR) to prefer, or None for the service's default.
        """
        ...


@dataclass(frozen=True)
class SearxngBackend:
    """A SearXNG instance's JSON API at `base_url` (e.g. http://127.0.0.1:8888, or with a path prefix)."""

    base_url: str
    timeout_s: float = 15.0  # the whole search, every page and redirect included
    max_bytes: int = 2_000_000  # of one page of results
    max_pages: int = 3  # pages asked for while fewer than `limit` results came
    max_redirects: int = 3  # followed only on the base URL's host
    user_agent: str = "toolgen-web_search/0.1"

    def search(self, query: str, limit: int, *, language: str | None = None) -> list[SearchHit]:
        base = self.base_url.strip().rstrip("/")
        host = (urlsplit(base).hostname or "") if base else ""
        policy = WebPolicy(
            allow_hosts=(host,) if host else (),
            max_bytes=self.max_bytes,
            max_redirects=self.max_redirects,
            user_agent=self.user_agent,
        )
        try:
            check_url(f"{base}/search", policy)
        except ToolError:
            raise ToolError(
                "unavailable",
                f"the configured search service URL {self.base_url!r} is not an http(s) URL",
            ) from None
        deadline = time.monotonic() + self.timeout_s
        hits: list[SearchHit] = []
        seen: set[str] = set()
        for page in range(1, self.max_pages + 1):
            parameters = {"q": query, "format": "json"}
            if language:
                parameters["language"] = language
            if page > 1:
                parameters["pageno"] = str(page)
            data = self._page(f"{base}/search?{urlencode(parameters)}", policy, deadline)
            new = 0
            for item in data:
                hit = _hit(item)
                if hit is not None and hit.url not in seen:
                    seen.add(hit.url)
                    hits.append(hit)
                    new += 1
            if len(hits) >= limit or new == 0:
                break
        return hits[:limit]

    def _page(self, url: str, policy: WebPolicy, deadline: float) -> list[Any]:
        for _ in range(self.max_redirects + 1):
            try:
                target = check_url(
                    url, policy
                )  # the base URL was checked: this fails only for a redirect
            except ToolError as exc:
                if exc.kind == "host_not_allowed":
                    raise ToolError(
                        "host_not_allowed",
                        f"the search service redirected to {url}, off its own host; not followed",
                    ) from None
                raise ToolError(
                    "bad_response",
                    f"the search service redirected to an invalid URL: {exc.message}",
                ) from None
            try:
                response = http_get(
                    target, deadline, self.max_bytes, policy, accept="application/json"
                )
            except ToolError as exc:
                if exc.kind == "not_text":
                    raise ToolError(
                        "bad_response",
                        f"the search service answered binary content ({exc.message})",
                    ) from None
                if exc.kind == "bad_encoding":
                    raise ToolError(
                        "bad_response", f"the search service's answer: {exc.message}"
                    ) from None
                if exc.kind == "timeout":
                    raise ToolError(
                        "timeout", "the search service did not answer within the time limit"
                    ) from None
                raise
            if response.status in REDIRECTS and response.location:
                url = urljoin(url, response.location.strip())
                continue
            break
        else:
            raise ToolError(
                "bad_response",
                f"the search service redirected more than {self.max_redirects} times",
            )
        status = response.status
        if status in (401, 403):
            raise ToolError(
                "unavailable",
                f"the search service refused the request ({status} {response.reason}); "
                "a SearXNG instance must list json in search.formats",
            )
        if not 200 <= status < 300:
            raise ToolError(
                error_kind(status), f"the search service answered {status} {response.reason}"
            )
        if response.truncated:
            raise ToolError(
                "bad_response", f"the search service's answer is larger than {self.max_bytes} bytes"
            )
        try:
            data = json.loads(response.body.decode(response.charset or "utf-8", errors="replace"))
        except (ValueError, LookupError):
            raise ToolError("bad_response", "the search service's answer is not JSON") from None
        except RecursionError:  # the parser recurses once per level of nesting
            raise ToolError(
                "bad_response", "the search service's answer is JSON nested too deeply to read"
            ) from None
        results = data.get("results") if isinstance(data, dict) else None
        if not isinstance(results, list):
            raise ToolError("bad_response", "the search service's answer has no list of results")
        return results


def _hit(item: Any) -> SearchHit | None:
    """A SearXNG result as a hit; None when it has no URL."""
    if not isinstance(item, dict) or not isinstance(item.get("url"), str):
        return None
    title, content = item.get("title"), item.get("content")
    return SearchHit(
        title if isinstance(title, str) else "",
        item["url"],
        content if isinstance(content, str) else "",
    )


def _clip(text: str, limit: int) -> str:
    """`text` on one line (runs of whitespace as one space), at most `limit` characters."""
    flat = " ".join(text.split())
    return flat if len(flat) <= limit else flat[: limit - 1].rstrip() + "…"


def _host(url: str) -> str | None:
    """The host of an http(s) URL, lower case; None for anything else."""
    try:
        parts = urlsplit(url)
        host = parts.hostname
    except ValueError:
        return None
    if parts.scheme.lower() not in ("http", "https") or not host:
        return None
    return host.rstrip(".")


class WebSearch(WebSearchTool):
    def __init__(self, backend: SearchBackend | None) -> None:
        self.backend = backend

    def run(self, arguments: WebSearchArguments) -> WebSearchResult:
        if self.backend is None:
            raise ToolError(
                "unavailable",
                "no search service is configured for this application; "
                "fetch known URLs with fetch_url instead",
            )
        query = " ".join(arguments.query.split())
        site = arguments.site.lower().rstrip(".") if arguments.site else None
        if site:
            query = f"{query} site:{site}"
        hits = self.backend.search(query, arguments.max_results, language=arguments.language)
        results: list[WebSearchResultResultsItem] = []
        seen: set[str] = set()
        for hit in hits:
            url = hit.url.strip()
            host = _host(url)
            if (
                host is None
                or url in seen
                or (site and host != site and not host.endswith("." + site))
            ):
                continue
            seen.add(url)
            results.append(
                WebSearchResultResultsItem(
                    title=_clip(hit.title, MAX_TITLE_CHARS),
                    url=url,
                    snippet=_clip(hit.snippet, MAX_SNIPPET_CHARS),
                )
            )
            if len(results) == arguments.max_results:
                break
        return WebSearchResult(query=query, results=results)
