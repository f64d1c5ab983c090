"""An OAuth authorization server for tests, on 127.0.0.1: its metadata (RFC 8414) and JWK set
served from a thread, RSA keys the test generates, and tokens it signs (PyJWT)."""

from __future__ import annotations

import json
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

import jwt
from cryptography.hazmat.primitives.asymmetric import rsa
from jwt.algorithms import RSAAlgorithm


def rsa_key() -> rsa.RSAPrivateKey:
    return rsa.generate_private_key(public_exponent=65537, key_size=2048)


def public_jwk(key: rsa.RSAPrivateKey, kid: str) -> dict[str, Any]:
    jwk: dict[str, Any] = json.loads(RSAAlgorithm.to_jwk(key.public_key()))
    return {**jwk, "kid": kid, "use": "sig", "alg": "RS256"}


@dataclass
class Issuer:
    """The authorization server: `url` is its issuer identifier; `keys` (kid -> private key)
    the keys its JWK set lists (change it to rotate them); `fetches` counts the set's reads."""

    url: str = ""
    keys: dict[str, rsa.RSAPrivateKey] = field(default_factory=dict)
    fetches: int = 0
    jwks_uri: str | None = None  # what its metadata names (default: its own /jwks)

    def token(
        self,
        *,
        kid: str = "one",
        key: rsa.RSAPrivateKey | None = None,
        audience: str = "http://127.0.0.1/mcp",
        issuer: str | None = None,
        scope: str = "",
        lifetime_s: float = 300,
        not_before_s: float | None = None,
        **claims: Any,
    ) -> str:
        now = int(time.time())
        body: dict[str, Any] = {
            "iss": self.url if issuer is None else issuer,
            "aud": audience,
            "sub": "user-1",
            "client_id": "client-1",
            "iat": now,
            "exp": now + int(lifetime_s),
            **claims,
        }
        if scope:
            body["scope"] = scope
        if not_before_s is not None:
            body["nbf"] = now + int(not_before_s)
        signing = key if key is not None else self.keys[kid]
        return jwt.encode(body, signing, algorithm="RS256", headers={"kid": kid})


@contextmanager
def issuer() -> Iterator[Issuer]:
    """An authorization server on a free port of 127.0.0.1, with one key (`one`)."""
    state = Issuer(keys={"one": rsa_key()})

    class Handler(BaseHTTPRequestHandler):
        def do_GET(self) -> None:  # noqa: N802 - http.server's name
            if self.path == "/.well-known/oauth-authorization-server":
                jwks = state.jwks_uri or state.url + "/jwks"
                body: Any = {"issuer": state.url, "jwks_uri": jwks}
            elif self.path == "/jwks":
                state.fetches += 1
                body = {"keys": [public_jwk(k, kid) for kid, k in state.keys.items()]}
            else:
                self.send_error(404)
                return
            data = json.dumps(body).encode()
            self.send_response(200)
            self.send_header("Content-Type", "application/json")
            self.send_header("Content-Length", str(len(data)))
            self.end_headers()
            self.wfile.write(data)

        def log_message(self, *args: Any) -> None:
            pass

    server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    state.url = f"http://127.0.0.1:{server.server_address[1]}"
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield state
    finally:
        server.shutdown()
        server.server_close()
        thread.join()
