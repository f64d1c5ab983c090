"""Handwritten implementations of the built-in tool library, behind the generated interfaces.

`registry()` is what `toolgen call` uses (see [tool.toolgen] implementations in pyproject.toml).
The process tools are not in it unless the host enables them; see docs/builtin-tools.md.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

from toolgen_builtin import Registry, build_registry

from .control import AskUser, Done, Unable
from .data import ParseCsv, QueryJson, SummarizeNumbers
from .files import AppendFile, EditFile, ListDirectory, ReadFile, Workspace, WriteFile
from .limits import ResourceLimits
from .processes import ProcessPolicy, RunPython, RunShell
from .search import GlobFiles
from .web import FetchUrl, WebPolicy

__all__ = [
    "AppendFile", "AskUser", "Done", "EditFile", "FetchUrl", "GlobFiles", "ListDirectory", "ParseCsv",
    "ProcessPolicy", "QueryJson", "ReadFile", "ResourceLimits", "RunPython", "RunShell", "SummarizeNumbers",
    "Unable", "WebPolicy", "Workspace", "WriteFile", "registry",
]

ENABLE_PROCESSES = "TOOLGEN_ENABLE_PROCESSES"  # "1": registry() includes run_shell and run_python
WEB_ALLOW = "TOOLGEN_WEB_ALLOW"  # comma-separated hosts fetch_url may reach ("*.example.com" for subdomains)


def registry(
    root: str | os.PathLike[str] | Workspace | None = None,
    *,
    enable_processes: bool | None = None,
    processes: ProcessPolicy | None = None,
    web: WebPolicy | None = None,
    **settings: Any,
) -> Registry:
    """The built-in tools, confined to `root` (default: $TOOLGEN_WORKSPACE, else the working directory).

    - run_shell and run_python are registered only when `enable_processes` is true (default:
      $TOOLGEN_ENABLE_PROCESSES == "1"), or when a `processes` policy is given. Without a
      policy, their resource limits come from the TOOLGEN_PROCESS_* variables (limits.py).
    - fetch_url reaches only the hosts of `web.allow_hosts` (default: $TOOLGEN_WEB_ALLOW;
      none when unset, so every fetch fails with host_not_allowed until the host allows some).
    - `settings` are the Registry's (timeout_s, max_concurrency, approve, inject, hooks, ...).
    """
    workspace = root if isinstance(root, Workspace) else Workspace(
        Path(root or os.environ.get("TOOLGEN_WORKSPACE") or Path.cwd())
    )
    if web is None:
        hosts = os.environ.get(WEB_ALLOW, "")
        web = WebPolicy(allow_hosts=tuple(h.strip() for h in hosts.split(",") if h.strip()))
    tools: list[object] = [
        ReadFile(workspace), ListDirectory(workspace), WriteFile(workspace), AppendFile(workspace),
        EditFile(workspace), GlobFiles(workspace),
        FetchUrl(web),
        ParseCsv(workspace), QueryJson(workspace), SummarizeNumbers(),
        Done(), Unable(), AskUser(),
    ]
    if enable_processes is None:
        enable_processes = processes is not None or os.environ.get(ENABLE_PROCESSES) == "1"
    if enable_processes:
        policy = processes or ProcessPolicy(limits=ResourceLimits.from_environment())
        tools += [RunShell(workspace, policy), RunPython(workspace, policy)]
    return build_registry(*tools, **settings)
