"""Handwritten implementations of the built-in tool library, behind the generated interfaces.

`registry()` is what `toolgen call` uses (see [tool.toolgen] implementations in pyproject.toml).
The process tools and the browser are not in it unless the host enables them; the web tools
and the browser reach only the hosts the host allows, and web_search only the search service
it configures; see docs/builtin-tools.md.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

from toolgen_builtin import Registry

from .browser import Browser, BrowserPolicy
from .control import AskUser, Done, Unable
from .data import ParseCsv, QueryJson, SummarizeNumbers
from .disabled import HintingRegistry
from .files import (
    AppendFile,
    EditFile,
    EditHistory,
    InsertLines,
    ListDirectory,
    ReadFile,
    UndoEdit,
    Workspace,
    WriteFile,
)
from .limits import ResourceLimits
from .processes import ProcessPolicy, RunPython, RunShell
from .search import GlobFiles
from .web import FetchUrl, WebPolicy
from .web_search import SearchBackend, SearchHit, SearxngBackend, WebSearch
from .web_status import CheckWebsiteStatus

__all__ = [
    "AppendFile",
    "AskUser",
    "Browser",
    "BrowserPolicy",
    "CheckWebsiteStatus",
    "Done",
    "EditFile",
    "EditHistory",
    "FetchUrl",
    "GlobFiles",
    "InsertLines",
    "ListDirectory",
    "ParseCsv",
    "ProcessPolicy",
    "QueryJson",
    "ReadFile",
    "ResourceLimits",
    "RunPython",
    "RunShell",
    "SearchBackend",
    "SearchHit",
    "SearxngBackend",
    "SummarizeNumbers",
    "Unable",
    "UndoEdit",
    "WebPolicy",
    "WebSearch",
    "Workspace",
    "WriteFile",
    "registry",
]

ENABLE_PROCESSES = "TOOLGEN_ENABLE_PROCESSES"  # "1": registry() includes run_shell and run_python
WEB_ALLOW = "TOOLGEN_WEB_ALLOW"  # comma-separated hosts fetch_url may reach ("*.example.com" for subdomains)
SEARCH_URL = (
    "TOOLGEN_SEARCH_URL"  # base URL of the SearXNG instance web_search asks (none: unavailable)
)
ENABLE_BROWSER = (
    "TOOLGEN_ENABLE_BROWSER"  # "1": registry() includes browser (it starts Chromium when called)
)


def registry(
    root: str | os.PathLike[str] | Workspace | None = None,
    *,
    enable_processes: bool | None = None,
    processes: ProcessPolicy | None = None,
    web: WebPolicy | None = None,
    search: SearchBackend | None = None,
    enable_browser: bool | None = None,
    browser: BrowserPolicy | None = None,
    **settings: Any,
) -> Registry:
    """The built-in tools, confined to `root` (default: $TOOLGEN_WORKSPACE, else the working directory).

    - run_shell and run_python are registered only when `enable_processes` is true (default:
      $TOOLGEN_ENABLE_PROCESSES == "1"), or when a `processes` policy is given. Without a
      policy, their resource limits come from the TOOLGEN_PROCESS_* variables (limits.py).
    - fetch_url and check_website_status reach only the hosts of `web.allow_hosts` (default:
      $TOOLGEN_WEB_ALLOW; none when unset, so every call fails with host_not_allowed until the
      host allows some).
    - web_search asks `search` (default: a SearxngBackend at $TOOLGEN_SEARCH_URL; none when
      unset, so every search fails with unavailable).
    - browser is registered only when `enable_browser` is true (default: $TOOLGEN_ENABLE_BROWSER
      == "1"), or when a `browser` policy is given. It reaches the hosts of `web` too; its
      Chromium starts at its first call and stays open until its `close` action or
      `Browser.close()` (also run when the registry is collected or the interpreter exits).
    - undo_edit reverts what the file tools of this registry changed: they share the workspace
      (pass the same Workspace to several registries for them to share the history too).
    - `settings` are the Registry's (timeout_s, max_concurrency, approve, inject, hooks, ...).
    """
    workspace = (
        root
        if isinstance(root, Workspace)
        else Workspace(Path(root or os.environ.get("TOOLGEN_WORKSPACE") or Path.cwd()))
    )
    if web is None:
        hosts = os.environ.get(WEB_ALLOW, "")
        web = WebPolicy(allow_hosts=tuple(h.strip() for h in hosts.split(",") if h.strip()))
    if search is None and os.environ.get(SEARCH_URL, "").strip():
        search = SearxngBackend(os.environ[SEARCH_URL].strip())
    tools: list[object] = [
        ReadFile(workspace),
        ListDirectory(workspace),
        WriteFile(workspace),
        AppendFile(workspace),
        EditFile(workspace),
        InsertLines(workspace),
        UndoEdit(workspace),
        GlobFiles(workspace),
        FetchUrl(web),
        CheckWebsiteStatus(web),
        WebSearch(search),
        ParseCsv(workspace),
        QueryJson(workspace),
        SummarizeNumbers(),
        Done(),
        Unable(),
        AskUser(),
    ]
    off: dict[str, str] = {}
    if enable_processes is None:
        enable_processes = processes is not None or os.environ.get(ENABLE_PROCESSES) == "1"
    if enable_processes:
        policy = processes or ProcessPolicy(limits=ResourceLimits.from_environment())
        tools += [RunShell(workspace, policy), RunPython(workspace, policy)]
    else:
        how = _switch(ENABLE_PROCESSES, "enable_processes")
        off.update(run_shell=how, run_python=how)
    if enable_browser is None:
        enable_browser = browser is not None or os.environ.get(ENABLE_BROWSER) == "1"
    if enable_browser:
        tools.append(Browser(web, browser))
    else:
        off["browser"] = _switch(ENABLE_BROWSER, "enable_browser")
    return HintingRegistry(tools, off, **settings)


def _switch(variable: str, argument: str) -> str:
    """How a host turns a tool on: the variable (what `toolgen call` and `serve` read)."""
    return (
        f"set {variable}=1 in the environment of the process that serves the tools "
        f"(or pass registry({argument}=True))"
    )
