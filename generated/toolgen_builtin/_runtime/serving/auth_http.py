# Part of toolgen's runtime, copied verbatim into generated packages (edit toolgen, not a copy).
"""The HTTP side of a resource server (auth.py checks the tokens): ASGI middleware that

- serves the protected resource metadata (RFC 9728) at `/.well-known/oauth-protected-resource`
  (and under the MCP path appended to it), without a token;
- refuses a request without a valid bearer token with 401 and `WWW-Authenticate: Bearer
  resource_metadata="...", error="invalid_token", ...` (no `error` when no token was sent,
  RFC 6750 section 3.1), before MCP reads it;
- refuses a `tools/call` of a tool whose scopes the token lacks with 403 and
  `WWW-Authenticate: Bearer error="insufficient_scope", scope="..."` (the scopes of that tool,
  what a client asks for in a step-up authorization);
- hands the principal to the server in the request's scope (`PRINCIPAL`), read by server.py.

The static bearer token of `--token-env` goes through `Static`: its caller holds every scope.
"""

from __future__ import annotations

import hmac
import json
import urllib.parse
from collections.abc import Callable, Iterable, Mapping
from typing import TYPE_CHECKING, Any

from starlette.types import ASGIApp, Message, Receive, Scope, Send

from ..identity import Principal

if TYPE_CHECKING:
    from .auth_config import AuthSettings

PRINCIPAL = "toolgen.principal"  # the key of the request's ASGI scope holding its Principal
WELL_KNOWN = "/.well-known/oauth-protected-resource"

# The scopes a call needs: (tool name, arguments) -> scopes (call_tool's are the named tool's).
Needs = Callable[[str, Any], Iterable[str]]


def principal(scope: Mapping[str, Any]) -> Principal | None:
    """The principal the middleware authenticated a request as (None: no authentication)."""
    found = scope.get(PRINCIPAL)
    return found if isinstance(found, Principal) else None


def _quoted(value: str) -> str:
    """A quoted-string of printable ASCII (anything else a space: a header holds no newline)."""
    printable = "".join(c if " " <= c <= "~" else " " for c in value)
    return '"' + printable.replace("\\", "\\\\").replace('"', '\\"') + '"'


def challenge(**parameters: str | None) -> bytes:
    """`Bearer k="v", ...` for WWW-Authenticate, the parameters given in order."""
    given = ", ".join(f"{k}={_quoted(v)}" for k, v in parameters.items() if v is not None)
    return ("Bearer " + given if given else "Bearer").encode()


async def _answer(send: Send, status: int, body: Any, headers: list[tuple[bytes, bytes]]) -> None:
    data = json.dumps(body).encode()
    await send(
        {
            "type": "http.response.start",
            "status": status,
            "headers": [(b"content-type", b"application/json"), *headers],
        }
    )
    await send({"type": "http.response.body", "body": data})


def _bearer(scope: Scope) -> str | None:
    given = dict(scope.get("headers", [])).get(b"authorization", b"").decode("latin-1")
    scheme, _, token = given.partition(" ")
    return token.strip() or None if scheme.lower() == "bearer" else None


class _Guard:
    """What both kinds of bearer check share: the insufficient-scope refusal of a tools/call."""

    app: ASGIApp
    needs: Needs | None

    def _metadata_url(self, scope: Scope) -> str | None:
        return None

    async def _admitted(
        self, scope: Scope, receive: Receive, send: Send, caller: Principal
    ) -> None:
        scope[PRINCIPAL] = caller
        if self.needs is None or caller.every_scope or scope.get("method") != "POST":
            await self.app(scope, receive, send)
            return
        body, messages = await _read(receive)
        missing = self._missing(body, caller)
        if missing:
            header = challenge(
                error="insufficient_scope",
                scope=" ".join(missing),
                resource_metadata=self._metadata_url(scope),
                error_description=f"this call needs the scope {' '.join(missing)}",
            )
            await _answer(
                send,
                403,
                {"error": "insufficient_scope", "scope": " ".join(missing)},
                [(b"www-authenticate", header)],
            )
            return
        replay = iter(messages)

        async def replayed() -> Message:
            return next(replay, None) or await receive()

        await self.app(scope, replayed, send)

    def _missing(self, body: bytes, caller: Principal) -> tuple[str, ...]:
        try:
            message = json.loads(body)
        except ValueError:
            return ()  # MCP answers it as the parse error it is
        batch = message if isinstance(message, list) else [message]
        needed: set[str] = set()
        for item in batch:
            if not isinstance(item, dict) or item.get("method") != "tools/call":
                continue
            params = item.get("params")
            if isinstance(params, dict) and isinstance(params.get("name"), str):
                assert self.needs is not None
                needed.update(self.needs(params["name"], params.get("arguments") or {}))
        return caller.missing(needed)


async def _read(receive: Receive) -> tuple[bytes, list[Message]]:
    """The request's body, and the messages that carried it (to hand to the app again)."""
    messages: list[Message] = []
    chunks: list[bytes] = []
    while True:
        message = await receive()
        messages.append(message)
        if message["type"] != "http.request":
            break
        chunks.append(message.get("body", b""))
        if not message.get("more_body", False):
            break
    return b"".join(chunks), messages


class Static(_Guard):
    """Only requests that carry the static bearer token reach the app (compared in constant
    time); their caller holds every scope."""

    def __init__(self, app: ASGIApp, token: str, needs: Needs | None = None) -> None:
        self.app = app
        self.expected = f"Bearer {token}".encode()
        self.needs = needs

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        given = dict(scope.get("headers", [])).get(b"authorization", b"")
        if not hmac.compare_digest(given, self.expected):
            body = {"error": "a bearer token is required (Authorization: Bearer ...)"}
            await _answer(send, 401, body, [(b"www-authenticate", b"Bearer")])
            return
        await self._admitted(scope, receive, send, Principal(every_scope=True))


class OAuth(_Guard):
    """Only requests with a valid access token of the configured issuer reach the app."""

    def __init__(
        self, app: ASGIApp, settings: AuthSettings, path: str, needs: Needs | None = None
    ) -> None:
        from .auth import Refused, Verifier  # PyJWT: loaded only where tokens are checked

        self.app = app
        self.settings = settings
        self.verifier = Verifier(settings)
        self.refused = Refused
        self.needs = needs
        self.path = path  # where MCP is served (/mcp)
        self.document = json.dumps(
            {
                "resource": settings.audience,
                "authorization_servers": [settings.issuer],
                "scopes_supported": sorted(set(settings.scopes)),
                "bearer_methods_supported": ["header"],
            }
        ).encode()

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        path = scope.get("path", "")
        if path == WELL_KNOWN or path.startswith(WELL_KNOWN + "/"):
            await self._metadata(scope, send)
            return
        token = _bearer(scope)
        metadata = self._metadata_url(scope)
        if token is None:
            header = challenge(resource_metadata=metadata)
            body = {"error": "a bearer token is required (Authorization: Bearer ...)"}
            await _answer(send, 401, body, [(b"www-authenticate", header)])
            return
        try:
            caller = await self.verifier.principal(token)
        except self.refused as refused:
            header = challenge(
                resource_metadata=metadata,
                error=refused.error,
                error_description=refused.description,
            )
            body = {"error": refused.error, "error_description": refused.description}
            await _answer(send, 401, body, [(b"www-authenticate", header)])
            return
        await self._admitted(scope, receive, send, caller)

    async def _metadata(self, scope: Scope, send: Send) -> None:
        if scope.get("method") not in ("GET", "HEAD"):
            await _answer(send, 405, {"error": "GET only"}, [(b"allow", b"GET")])
            return
        await send(
            {
                "type": "http.response.start",
                "status": 200,
                "headers": [
                    (b"content-type", b"application/json"),
                    (b"cache-control", b"max-age=3600"),
                ],
            }
        )
        await send({"type": "http.response.body", "body": self.document})

    def _metadata_url(self, scope: Scope) -> str | None:
        """Where the metadata is: on the origin of the resource when the audience is a URL,
        else on the origin the request was sent to."""
        parts = urllib.parse.urlsplit(self.settings.audience)
        if parts.scheme in ("http", "https") and parts.netloc:
            return f"{parts.scheme}://{parts.netloc}{WELL_KNOWN}{parts.path.rstrip('/')}"
        host = dict(scope.get("headers", [])).get(b"host", b"").decode("latin-1")
        if not host:
            return None
        return f"{scope.get('scheme', 'http')}://{host}{WELL_KNOWN}{self.path}"
