# Part of toolgen's runtime, copied verbatim into generated packages (edit toolgen, not a copy).
"""How a server checks OAuth access tokens (`AuthSettings`), and `serve`'s flags for it:
`--auth-issuer URL --auth-audience AUD [--auth-jwks-url URL]`, else `$TOOLGEN_AUTH_ISSUER`,
`$TOOLGEN_AUTH_AUDIENCE`, `$TOOLGEN_AUTH_JWKS_URL`. An empty value is an error, never a way
to turn checking off. auth.py checks tokens with these settings (PyJWT is imported there, not
here: `serve` without OAuth never loads it).
"""

from __future__ import annotations

import argparse
import os
import urllib.parse
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from .addresses import loopback

ISSUER, AUDIENCE, JWKS_URL = "TOOLGEN_AUTH_ISSUER", "TOOLGEN_AUTH_AUDIENCE", "TOOLGEN_AUTH_JWKS_URL"


@dataclass(frozen=True)
class AuthSettings:
    """How bearer tokens are checked. `issuer`: the authorization server (its URL, the `iss`
    of its tokens); `audience`: this resource (the `aud` tokens must name, and the `resource`
    of the metadata document: the server's canonical URL, such as `https://tools.example.com/mcp`).
    `jwks_url`: the key set's URL where the issuer's metadata should not be asked for it.
    `leeway_s`: clock skew allowed on `exp` and `nbf`; the key set is kept `cache_s`, fetched
    again for an unknown key id at most once per `refresh_s`."""

    issuer: str
    audience: str
    jwks_url: str | None = None
    leeway_s: float = 30.0
    cache_s: float = 3600.0
    refresh_s: float = 10.0
    timeout_s: float = 5.0
    scopes: tuple[str, ...] = ()  # what the metadata document lists as `scopes_supported`

    def __post_init__(self) -> None:
        if not self.issuer.strip():
            raise ValueError("the auth issuer is empty: set it to the authorization server's URL")
        if not self.audience.strip():
            raise ValueError("the auth audience is empty: set it to this server's resource URL")
        fetchable(self.issuer, "the auth issuer")
        if self.jwks_url is not None:
            if not self.jwks_url.strip():
                raise ValueError("the JWKS URL is empty: set it, or leave it out")
            fetchable(self.jwks_url, "the JWKS URL")
        if self.leeway_s < 0 or self.refresh_s < 0 or self.cache_s <= 0:
            raise ValueError("leeway_s and refresh_s are at least 0, cache_s more than 0")


def fetchable(url: str, what: str) -> urllib.parse.SplitResult:
    """`url`'s parts when keys may be fetched from it: https, or http on a loopback host."""
    parts = urllib.parse.urlsplit(url)
    if parts.scheme == "https" and parts.hostname:
        return parts
    if parts.scheme == "http" and parts.hostname and loopback(parts.hostname):
        return parts
    raise ValueError(f"{what} {url!r} is not an https URL (http only on a loopback host)")


def add_flags(serve: argparse.ArgumentParser) -> None:
    """`serve`'s flags of authentication: the static token's and OAuth's."""
    serve.add_argument(
        "--token-env",
        default="TOOLGEN_MCP_TOKEN",
        metavar="NAME",
        help="the environment variable holding the bearer token HTTP requests must carry "
        "(unset: no token is asked for, on a loopback --host only)",
    )
    serve.add_argument(
        "--insecure-no-auth",
        action="store_true",
        help="serve HTTP on an address other than loopback without a token",
    )
    serve.add_argument(
        "--auth-issuer",
        metavar="URL",
        help="check OAuth access tokens (JWTs) of this authorization server, with the keys its "
        f"metadata names (default ${ISSUER}); needs --auth-audience",
    )
    serve.add_argument(
        "--auth-audience",
        metavar="AUD",
        help=f"this server's resource URL, the audience tokens must name (default ${AUDIENCE})",
    )
    serve.add_argument(
        "--auth-jwks-url",
        metavar="URL",
        help=f"the issuer's key set, where its metadata should not be asked (default ${JWKS_URL})",
    )


def from_args(args: argparse.Namespace, environ: Mapping[str, str]) -> dict[str, Any] | str:
    """The OAuth settings the flags and the environment give (an empty dict: none), or why
    they cannot be used."""
    given = {
        "issuer": _given(args.auth_issuer, environ, ISSUER, "--auth-issuer"),
        "audience": _given(args.auth_audience, environ, AUDIENCE, "--auth-audience"),
        "jwks_url": _given(args.auth_jwks_url, environ, JWKS_URL, "--auth-jwks-url"),
    }
    for value in given.values():
        if isinstance(value, Exception):
            return str(value)
    if given["issuer"] is None and given["audience"] is None:
        if given["jwks_url"] is not None:
            return "--auth-jwks-url needs --auth-issuer and --auth-audience"
        return {}
    if given["issuer"] is None or given["audience"] is None:
        return "--auth-issuer and --auth-audience go together: set both"
    settings = {k: v for k, v in given.items() if v is not None}
    try:
        AuthSettings(**settings)
    except ValueError as error:
        return str(error)
    return settings


def _given(flag: str | None, environ: Mapping[str, str], name: str, option: str) -> Any:
    if flag is not None:
        return (
            flag
            if flag.strip()
            else ValueError(f"{option} is empty: give a value, or leave it out")
        )
    value = environ.get(name)
    if value is not None and not value.strip():
        return ValueError(f"{name} is set but empty: set it, or unset it")
    return value


def unsafe(args: argparse.Namespace, oauth: bool) -> str | None:
    """Why the server must not start as told: an empty token (set, but nothing to compare
    with), a token and OAuth both, or HTTP beyond loopback that anyone may call."""
    token = os.environ.get(args.token_env)
    if token is not None and not token.strip():
        return f"{args.token_env} is set but empty: set it to a token, or unset it"
    if token is not None and oauth:
        return f"{args.token_env} and --auth-issuer both set: choose one way to authenticate"
    if args.ui and not (args.http and token is None and not oauth and loopback(args.host)):
        return (
            "--ui serves pages that call tools without credentials: only with --http on a "
            f"loopback --host, {args.token_env} unset and no --auth-issuer"
        )
    if args.http and token is None and not oauth and not loopback(args.host):
        if not args.insecure_no_auth:
            return (
                f"--host {args.host} is not a loopback address: set {args.token_env} to a "
                "bearer token, or --auth-issuer and --auth-audience (or pass --insecure-no-auth)"
            )
    return None
