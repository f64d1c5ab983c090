# Part of toolgen's runtime, copied verbatim into generated packages (edit toolgen, not a copy).
"""`serve --http --ui DIR`: the catalog `toolgen catalog` wrote into DIR, served at `/ui/`, and
its playground: each tool's page gets a form whose arguments are called through the registry
(`POST /ui/call`), its validation, policies and messages included.

Only for a loopback server without a token (`main` refuses the rest): the pages carry no
credentials. A call must come from a page of this server: JSON (`Content-Type:
application/json`, which a page of another origin cannot send without a preflight this
server does not answer) with an `Origin` naming this server's own host; anything else is
refused (403) before the registry sees it. Bodies are cut off at `MAX_BODY` bytes.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import JSONResponse
from starlette.routing import Mount, Route
from starlette.staticfiles import StaticFiles

from ..calls.registry import Registry

PATH = "/ui"
MAX_BODY = 1 << 20


def _refused(message: str, status: int = 403) -> JSONResponse:
    return JSONResponse({"ok": False, "error": {"kind": "refused", "message": message}}, status)


def _same_origin(request: Request) -> bool:
    origin = request.headers.get("origin")
    return origin is not None and urlsplit(origin).netloc == request.headers.get("host")


def mount(app: Starlette, registry: Registry, folder: Path) -> None:
    """Add the catalog in `folder` and the playground's endpoints to `app`."""
    if not (folder / "index.html").is_file():
        raise ValueError(f"--ui {folder}: no catalog there (write one with `toolgen catalog`)")

    async def call(request: Request) -> JSONResponse:
        kind = request.headers.get("content-type", "").split(";")[0].strip().lower()
        if kind != "application/json" or not _same_origin(request):
            return _refused("calls come from this server's own pages, as JSON")
        body = b""
        async for chunk in request.stream():
            body += chunk
            if len(body) > MAX_BODY:
                return _refused(f"the request is over {MAX_BODY} bytes", 413)
        try:
            asked: Any = json.loads(body)
        except ValueError as error:
            return _refused(f"the request is not JSON: {error}", 400)
        name = asked.get("name") if isinstance(asked, dict) else None
        if not isinstance(name, str):
            return _refused('the request is {"name": ..., "arguments": {...}}', 400)
        result = await registry.acall(name, asked.get("arguments", {}))
        return JSONResponse(result.to_dict())

    async def playground(request: Request) -> JSONResponse:
        return JSONResponse({"call": f"{PATH}/call"})

    app.router.routes[0:0] = [
        Route(f"{PATH}/call", call, methods=["POST"]),
        Route(f"{PATH}/playground.json", playground, methods=["GET"]),
        Mount(PATH, StaticFiles(directory=folder, html=True)),
    ]
