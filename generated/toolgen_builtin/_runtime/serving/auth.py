# Part of toolgen's runtime, copied verbatim into generated packages (edit toolgen, not a copy).
"""OAuth 2.1 bearer tokens checked as a resource server does (MCP's authorization spec): a JWT
signed by a key of the issuer's JWKS, issued by the configured issuer for this resource (its
audience), within its lifetime. PyJWT (with `cryptography`, the `server` extra) checks the
signature and the claims; this module decides what is allowed and where keys come from.

- Keys come only from the issuer: its metadata (RFC 8414 `oauth-authorization-server`, else
  OpenID `openid-configuration`) names the `jwks_uri`, which must be on the issuer's own origin,
  or `AuthSettings.jwks_url` names it. https only (http on a loopback host, for tests).
- The key set is cached (`cache_s`) and fetched again when a token names a key id it does not
  hold (a rotated key), at most once per `refresh_s`.
- Only asymmetric algorithms are accepted, each only with a key of its type: `alg: none` and
  HS256 signed with the public key as secret (algorithm confusion) are refused.
- `exp`, `iss` and `aud` are required; `exp` and `nbf` hold with `leeway_s` of clock skew.

A refusal is `Refused` with the RFC 6750 error code and a description that never holds the
token. The settings are auth_config.py; the HTTP side (the 401 and 403 answers, the metadata
document) is auth_http.py.
"""

from __future__ import annotations

import asyncio
import hashlib
import json
import time
import urllib.parse
import urllib.request
from collections.abc import Mapping
from typing import Any

import jwt

from ..identity import Principal
from .auth_config import AuthSettings, fetchable

# Signatures by the issuer's private key only: never HMAC (a shared secret), never `none`.
ALGORITHMS = (
    "RS256",
    "RS384",
    "RS512",
    "PS256",
    "PS384",
    "PS512",
    "ES256",
    "ES384",
    "ES512",
    "EdDSA",
)
_MAX_DOCUMENT = 1024 * 1024  # the most bytes read of a metadata document or key set
_REMEMBERED = 1024  # verified tokens kept, so that a client's next request costs no signature check


class Refused(Exception):
    """A token refused: `error` is RFC 6750's code (`invalid_token`), `description` why."""

    def __init__(self, error: str, description: str) -> None:
        super().__init__(f"{error}: {description}")
        self.error = error
        self.description = description


def _origin(parts: urllib.parse.SplitResult) -> tuple[str, str, int | None]:
    return parts.scheme, (parts.hostname or "").lower(), parts.port


class _NoRedirects(urllib.request.HTTPRedirectHandler):
    """Keys come from the URL asked, never from wherever it redirects."""

    def redirect_request(self, *args: Any, **kwargs: Any) -> None:
        return None


_OPENER = urllib.request.build_opener(_NoRedirects)


def _get_json(url: str, timeout_s: float) -> Any:
    request = urllib.request.Request(url, headers={"Accept": "application/json"})
    # Only an https URL, or http on loopback (checked by auth_config.fetchable), gets here.
    with _OPENER.open(request, timeout=timeout_s) as response:
        if response.status != 200:
            raise ValueError(f"{url} answered {response.status}")
        body = response.read(_MAX_DOCUMENT + 1)
    if len(body) > _MAX_DOCUMENT:
        raise ValueError(f"{url} answered more than {_MAX_DOCUMENT} bytes")
    return json.loads(body)


def metadata_urls(issuer: str) -> list[str]:
    """Where an issuer's metadata is: RFC 8414's well-known path inserted before the issuer's
    path, then OpenID Connect's appended to it."""
    parts = urllib.parse.urlsplit(issuer)
    path = parts.path.rstrip("/")
    base = f"{parts.scheme}://{parts.netloc}"
    return [
        f"{base}/.well-known/oauth-authorization-server{path}",
        f"{base}{path}/.well-known/openid-configuration",
    ]


class Verifier:
    """Checks bearer tokens against `settings`, with the issuer's keys cached (one per server
    process; safe to share among the tasks of one event loop)."""

    def __init__(self, settings: AuthSettings) -> None:
        self.settings = settings
        self._keys: dict[str | None, Any] = {}  # kid -> PyJWK (None: a key without a kid)
        self._fetched = float("-inf")  # when the key set was last fetched (monotonic)
        self._lock: asyncio.Lock | None = None
        # Tokens verified, by their sha256 (never the token): the principal and `exp`.
        self._verified: dict[bytes, tuple[Principal, float]] = {}

    async def principal(self, token: str) -> Principal:
        """The principal `token` authenticates, or Refused. A token verified before is
        answered from memory (by its sha256) until it expires."""
        digest = hashlib.sha256(token.encode()).digest()
        known = self._verified.get(digest)
        if known is not None:
            principal, expires = known
            if time.time() <= expires + self.settings.leeway_s:
                return principal
            del self._verified[digest]
        principal, expires = await self._verify(token)
        if len(self._verified) >= _REMEMBERED:
            self._verified.pop(next(iter(self._verified)))  # the oldest first
        self._verified[digest] = (principal, expires)
        return principal

    async def _verify(self, token: str) -> tuple[Principal, float]:
        try:
            header = jwt.get_unverified_header(token)
        except jwt.InvalidTokenError:
            raise Refused("invalid_token", "the token is not a well-formed JWT") from None
        algorithm = header.get("alg")
        if algorithm not in ALGORITHMS:
            raise Refused("invalid_token", f"the token's algorithm {algorithm!r} is not accepted")
        kid = header.get("kid")
        key = await self._key(kid if isinstance(kid, str) else None)
        if key.algorithm_name != algorithm:
            raise Refused("invalid_token", "the token's algorithm does not match its key")
        settings = self.settings
        try:
            claims = jwt.decode(
                token,
                key.key,
                algorithms=[algorithm],
                audience=settings.audience,
                issuer=settings.issuer,
                leeway=settings.leeway_s,
                options={"require": ["exp", "iss", "aud"]},
            )
        except jwt.ExpiredSignatureError:
            raise Refused("invalid_token", "the token has expired") from None
        except jwt.ImmatureSignatureError:
            raise Refused("invalid_token", "the token is not valid yet (nbf)") from None
        except jwt.InvalidAudienceError:
            raise Refused("invalid_token", "the token is not for this resource (aud)") from None
        except jwt.InvalidIssuerError:
            raise Refused("invalid_token", "the token is not from the trusted issuer") from None
        except jwt.MissingRequiredClaimError as error:
            raise Refused("invalid_token", f"the token has no {error.claim!r} claim") from None
        except (jwt.InvalidTokenError, jwt.PyJWKError, ValueError, TypeError):
            raise Refused("invalid_token", "the token's signature does not verify") from None
        return principal_of(claims, settings.issuer), float(claims["exp"])

    async def _key(self, kid: str | None) -> Any:
        if self._lock is None:
            self._lock = asyncio.Lock()
        async with self._lock:
            now = time.monotonic()
            stale = now - self._fetched >= self.settings.cache_s
            unknown = kid not in self._keys and now - self._fetched >= self.settings.refresh_s
            if stale or unknown:
                # Set before it is known to succeed: a failed fetch too is tried again only
                # after refresh_s, not for each request.
                self._fetched = now
                try:
                    self._keys = await asyncio.to_thread(self._fetch)
                except Exception as error:  # noqa: BLE001 - any failure to fetch: refused
                    if not self._keys:
                        raise Refused(
                            "invalid_token", f"the issuer's keys cannot be fetched: {error}"
                        ) from None
        found = self._keys.get(kid)
        if found is None and kid is None and len(self._keys) == 1:
            found = next(iter(self._keys.values()))
        if found is None:
            raise Refused(
                "invalid_token", "the token is signed with a key the issuer does not list"
            )
        return found

    def _fetch(self) -> dict[str | None, Any]:
        """The issuer's current keys, by kid (the blocking part, run in a thread)."""
        settings = self.settings
        url = settings.jwks_url or self._jwks_uri()
        document = _get_json(url, settings.timeout_s)
        if not isinstance(document, dict) or not isinstance(document.get("keys"), list):
            raise ValueError(f"{url} is not a JWK set")
        keys: dict[str | None, Any] = {}
        for entry in document["keys"]:
            if not isinstance(entry, dict) or entry.get("use", "sig") != "sig":
                continue
            try:
                key = jwt.PyJWK(entry)
            except (jwt.PyJWKError, jwt.InvalidKeyError, ValueError, TypeError):
                continue  # a key of a type or algorithm this server does not take
            if key.algorithm_name in ALGORITHMS:
                keys[entry.get("kid") if isinstance(entry.get("kid"), str) else None] = key
        return keys

    def _jwks_uri(self) -> str:
        issuer = self.settings.issuer
        problems: list[str] = []
        for url in metadata_urls(issuer):
            try:
                document = _get_json(url, self.settings.timeout_s)
            except (OSError, ValueError) as error:
                problems.append(f"{url}: {error}")
                continue
            if not isinstance(document, Mapping) or document.get("issuer") != issuer:
                problems.append(f"{url}: names another issuer")
                continue
            jwks_uri = document.get("jwks_uri")
            if not isinstance(jwks_uri, str):
                problems.append(f"{url}: no jwks_uri")
                continue
            parts = fetchable(jwks_uri, "the issuer's jwks_uri")
            if _origin(parts) != _origin(urllib.parse.urlsplit(issuer)):
                raise ValueError(f"the issuer's jwks_uri {jwks_uri!r} is not on its own origin")
            return jwks_uri
        raise ValueError("no metadata of the issuer: " + "; ".join(problems))


def principal_of(claims: Mapping[str, Any], issuer: str) -> Principal:
    """The caller a verified token's claims name: `sub`, `client_id` (else `azp`), the scopes of
    `scope` (space-separated, RFC 9068) or `scp` (a list, as some issuers write it)."""
    scope = claims.get("scope")
    listed = claims.get("scp")
    scopes = scope.split() if isinstance(scope, str) else []
    if isinstance(listed, list):
        scopes += [s for s in listed if isinstance(s, str)]
    client = claims.get("client_id", claims.get("azp"))
    subject = claims.get("sub")
    return Principal(
        subject=subject if isinstance(subject, str) else None,
        client_id=client if isinstance(client, str) else None,
        scopes=frozenset(scopes),
        issuer=issuer,
    )
