# Part of toolgen's runtime, copied verbatim into generated packages (edit toolgen, not a copy).
"""`serve --http --ui DIR`: the catalog `toolgen catalog` wrote into DIR, served at `/ui/`, and
its playground: each tool's page gets a form whose arguments are called through the registry
(`POST /ui/call`), its validation, policies and messages included, and a call waiting for the
user (an approval, a question) is answered from the page (`POST /ui/resume`).

Both answer with JSON lines (`application/x-ndjson`), written as they come: `{"event": ...}`
for each event a streaming tool yields (a content block as its JSON), then one
`{"result": ...}`: `ToolResult.to_dict()` with `text`, what a model reads, and for a call
that waits, `suspended`: its reason, prompt and signed record, which the page sends back to
`/ui/resume` with the user's decision or answer.

Only for a loopback server without a token (`main` refuses the rest): the pages carry no
credentials. A call must come from a page of this server: JSON (`Content-Type:
application/json`, which a page of another origin cannot send without a preflight this
server does not answer) with an `Origin` naming this server's own host; anything else is
refused (403) before the registry sees it. Bodies are cut off at `MAX_BODY` bytes.
"""

from __future__ import annotations

import json
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import JSONResponse, Response, StreamingResponse
from starlette.routing import Mount, Route
from starlette.staticfiles import StaticFiles

from ..calls.registry import Registry
from ..calls.streaming import Final
from ..results.control import SuspensionError
from ..results.result import ToolResult

PATH = "/ui"
MAX_BODY = 1 << 20
LINES = "application/x-ndjson"


def _refused(message: str, status: int = 403) -> JSONResponse:
    return JSONResponse({"ok": False, "error": {"kind": "refused", "message": message}}, status)


def _same_origin(request: Request) -> bool:
    origin = request.headers.get("origin")
    return origin is not None and urlsplit(origin).netloc == request.headers.get("host")


async def _asked(request: Request) -> dict[str, Any] | JSONResponse:
    """The JSON object a page of this server sent, or the response that refuses it."""
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
    if not isinstance(asked, dict):
        return _refused("the request is a JSON object", 400)
    return asked


def _line(value: dict[str, Any]) -> bytes:
    return json.dumps(value, ensure_ascii=False, separators=(",", ":")).encode() + b"\n"


def shown(result: ToolResult) -> dict[str, Any]:
    """A result as the page shows it: its dict, what a model reads, and what a call that waits
    for the user asks them, with the record to resume it."""
    out = {**result.to_dict(), "text": result.text()}
    if result.warnings:
        out["warnings"] = list(result.warnings)
    record = result.suspended
    if record is not None:
        out["suspended"] = {
            "reason": record.reason,
            "prompt": record.prompt,
            "record": record.to_json(),
        }
    return out


def event_json(event: Any) -> dict[str, Any]:
    """A streaming tool's event (Progress, Chunk, Partial or a content block) as JSON."""
    as_json = getattr(event, "as_json", None)
    return as_json() if callable(as_json) else {"type": "event", "text": str(event)}


def mount(app: Starlette, registry: Registry, folder: Path) -> None:
    """Add the catalog in `folder` and the playground's endpoints to `app`."""
    if not (folder / "index.html").is_file():
        raise ValueError(f"--ui {folder}: no catalog there (write one with `toolgen catalog`)")

    async def streamed(name: str, arguments: Any) -> AsyncIterator[bytes]:
        async for event in registry.astream(name, arguments):
            if isinstance(event, Final):
                yield _line({"result": shown(event.result)})
            else:
                yield _line({"event": event_json(event)})

    async def call(request: Request) -> Response:
        asked = await _asked(request)
        if isinstance(asked, Response):
            return asked
        name = asked.get("name")
        if not isinstance(name, str):
            return _refused('the request is {"name": ..., "arguments": {...}}', 400)
        # Arguments as text are read as a model's are (its JSON text, repairs included).
        return StreamingResponse(streamed(name, asked.get("arguments", {})), media_type=LINES)

    async def resume(request: Request) -> Response:
        asked = await _asked(request)
        if isinstance(asked, Response):
            return asked
        decision: dict[str, Any] = {}
        if "answer" in asked:
            decision["answer"] = asked["answer"]
        else:
            decision["approved"] = asked.get("approved") is True
            if isinstance(asked.get("reason"), str) and asked["reason"]:
                decision["reason"] = asked["reason"]
        try:
            result = await registry.aresume(asked.get("record") or {}, **decision)
        except (SuspensionError, TypeError) as error:
            return _refused(str(error), 400)
        return Response(_line({"result": shown(result)}), media_type=LINES)

    async def playground(request: Request) -> JSONResponse:
        return JSONResponse({"call": f"{PATH}/call", "resume": f"{PATH}/resume"})

    app.router.routes[0:0] = [
        Route(f"{PATH}/call", call, methods=["POST"]),
        Route(f"{PATH}/resume", resume, methods=["POST"]),
        Route(f"{PATH}/playground.json", playground, methods=["GET"]),
        Mount(PATH, StaticFiles(directory=folder, html=True)),
    ]
