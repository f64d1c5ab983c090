"""OAuth access tokens checked as a resource server does (runtime/serving/auth.py): against the
JWK set of an authorization server the test runs on 127.0.0.1 (tests/support/oauth_support.py),
with keys it generates and tokens it signs. Each way a token can be wrong is refused, with
RFC 6750's `invalid_token` and a description that never holds the token."""

from __future__ import annotations

import asyncio
import base64
import json
from collections.abc import Iterator

import jwt
import pytest
from cryptography.hazmat.primitives import serialization

from tests.support.oauth_support import Issuer, issuer, rsa_key
from toolgen.runtime.identity import Principal
from toolgen.runtime.serving import auth_config
from toolgen.runtime.serving.auth import Refused, Verifier, metadata_urls
from toolgen.runtime.serving.auth_config import AuthSettings

AUDIENCE = "http://127.0.0.1/mcp"


@pytest.fixture(scope="module")
def server() -> Iterator[Issuer]:
    with issuer() as found:
        yield found


def _verifier(server: Issuer, **options: float) -> Verifier:
    return Verifier(AuthSettings(issuer=server.url, audience=AUDIENCE, **options))


def _check(verifier: Verifier, token: str) -> Principal:
    return asyncio.run(verifier.principal(token))


def _refused(verifier: Verifier, token: str) -> str:
    with pytest.raises(Refused) as refused:
        _check(verifier, token)
    assert refused.value.error == "invalid_token"
    assert token not in str(refused.value)
    return refused.value.description


def test_a_valid_token_gives_its_principal(server: Issuer) -> None:
    token = server.token(audience=AUDIENCE, scope="notes:read notes:write")
    found = _check(_verifier(server), token)
    assert found == Principal(
        subject="user-1",
        client_id="client-1",
        scopes=frozenset({"notes:read", "notes:write"}),
        issuer=server.url,
    )
    assert found.missing(["notes:read", "admin"]) == ("admin",)


@pytest.mark.parametrize(
    ("claims", "said"),
    [
        ({"issuer": "http://127.0.0.1:9/other"}, "not from the trusted issuer"),
        ({"audience": "http://127.0.0.1/elsewhere"}, "not for this resource"),
        ({"lifetime_s": -120}, "expired"),
        ({"not_before_s": 120}, "not valid yet"),
    ],
    ids=["wrong issuer", "wrong audience", "expired", "not yet valid"],
)
def test_wrong_claims_are_refused(server: Issuer, claims: dict[str, object], said: str) -> None:
    token = server.token(**{"audience": AUDIENCE, **claims})  # type: ignore[arg-type]
    assert said in _refused(_verifier(server), token)


def test_the_leeway_takes_a_little_clock_skew(server: Issuer) -> None:
    token = server.token(audience=AUDIENCE, lifetime_s=-10)  # expired 10 s ago
    assert _check(_verifier(server), token).subject == "user-1"  # 30 s of leeway
    assert "expired" in _refused(_verifier(server, leeway_s=0), token)


def test_a_key_the_issuer_does_not_list_is_refused(server: Issuer) -> None:
    token = server.token(kid="stranger", key=rsa_key(), audience=AUDIENCE)
    assert "key the issuer does not list" in _refused(_verifier(server), token)


def test_a_wrong_signature_is_refused(server: Issuer) -> None:
    token = server.token(kid="one", key=rsa_key(), audience=AUDIENCE)  # another key, same kid
    assert "signature" in _refused(_verifier(server), token)


def test_alg_none_is_refused(server: Issuer) -> None:
    valid = server.token(audience=AUDIENCE)
    claims = jwt.decode(valid, options={"verify_signature": False})
    token = jwt.encode(claims, None, algorithm="none", headers={"kid": "one"})
    assert "algorithm 'none'" in _refused(_verifier(server), token)


def _segment(data: dict[str, object]) -> str:
    return base64.urlsafe_b64encode(json.dumps(data).encode()).rstrip(b"=").decode()


def test_hs256_with_the_public_key_as_secret_is_refused(server: Issuer) -> None:
    """Algorithm confusion: HS256 signed with the issuer's public key (which anyone can read)
    as the HMAC secret. Signed by hand: PyJWT itself refuses a PEM key as an HMAC secret."""
    import hashlib
    import hmac

    public = (
        server.keys["one"]
        .public_key()
        .public_bytes(serialization.Encoding.PEM, serialization.PublicFormat.SubjectPublicKeyInfo)
    )
    claims = jwt.decode(server.token(audience=AUDIENCE), options={"verify_signature": False})
    signing = _segment({"alg": "HS256", "typ": "JWT", "kid": "one"}) + "." + _segment(claims)
    mac = hmac.new(public, signing.encode(), hashlib.sha256).digest()
    token = signing + "." + base64.urlsafe_b64encode(mac).rstrip(b"=").decode()
    assert "algorithm 'HS256'" in _refused(_verifier(server), token)


def test_garbage_is_refused(server: Issuer) -> None:
    assert "not a well-formed JWT" in _refused(_verifier(server), "not.a.jwt")


def test_a_rotated_key_is_fetched_when_a_token_names_it(server: Issuer) -> None:
    """The key set is cached; a token with an unknown kid fetches it again (at most once per
    refresh_s), so a key the issuer added since is taken."""
    verifier = _verifier(server, refresh_s=0)
    before = server.fetches
    _check(verifier, server.token(audience=AUDIENCE))
    _check(verifier, server.token(audience=AUDIENCE))
    assert server.fetches == before + 1  # cached
    server.keys["two"] = rsa_key()
    try:
        assert _check(verifier, server.token(kid="two", audience=AUDIENCE)).subject == "user-1"
        assert server.fetches == before + 2
    finally:
        del server.keys["two"]
    slow = _verifier(server, refresh_s=3600)
    _check(slow, server.token(audience=AUDIENCE))
    fetched = server.fetches
    _refused(slow, server.token(kid="three", key=rsa_key(), audience=AUDIENCE))
    assert server.fetches == fetched  # an unknown kid does not make the server fetch each time


def test_the_settings_refuse_empty_values_and_plain_http_beyond_loopback() -> None:
    with pytest.raises(ValueError, match="issuer is empty"):
        AuthSettings(issuer=" ", audience=AUDIENCE)
    with pytest.raises(ValueError, match="audience is empty"):
        AuthSettings(issuer="https://id.example.com", audience="")
    with pytest.raises(ValueError, match="not an https URL"):
        AuthSettings(issuer="http://id.example.com", audience=AUDIENCE)
    with pytest.raises(ValueError, match="not an https URL"):
        AuthSettings(issuer="https://id.example.com", audience=AUDIENCE, jwks_url="ftp://x/k")
    assert AuthSettings(issuer="http://127.0.0.1:9", audience=AUDIENCE).issuer


def test_the_issuer_metadata_is_looked_for_where_rfc_8414_and_openid_put_it() -> None:
    assert metadata_urls("https://id.example.com/tenant/") == [
        "https://id.example.com/.well-known/oauth-authorization-server/tenant",
        "https://id.example.com/tenant/.well-known/openid-configuration",
    ]


def test_a_jwks_uri_on_another_origin_is_refused() -> None:
    """The issuer's metadata may not send the server to fetch keys from elsewhere."""
    with issuer() as other, issuer() as server:
        server.jwks_uri = other.url + "/jwks"
        said = _refused(_verifier(server), server.token(audience=AUDIENCE))
        assert "cannot be fetched" in said and "not on its own origin" in said
        assert other.fetches == 0


def test_the_serve_flags_refuse_what_would_turn_checking_off() -> None:
    import argparse

    parser = argparse.ArgumentParser()
    auth_config.add_flags(parser)

    def given(*argv: str, **environ: str) -> object:
        return auth_config.from_args(parser.parse_args(list(argv)), environ)

    assert given() == {}
    assert given("--auth-issuer", "https://id.example.com", "--auth-audience", "a") == {
        "issuer": "https://id.example.com",
        "audience": "a",
    }
    assert "empty" in str(given("--auth-issuer", "", "--auth-audience", "a"))
    assert "set but empty" in str(given(TOOLGEN_AUTH_ISSUER=" ", TOOLGEN_AUTH_AUDIENCE="a"))
    assert "go together" in str(given("--auth-issuer", "https://id.example.com"))
    assert "needs --auth-issuer" in str(given("--auth-jwks-url", "https://id.example.com/k"))
    assert "not an https URL" in str(
        given("--auth-issuer", "http://id.example.com", "--auth-audience", "a")
    )


def test_a_verified_token_is_remembered_until_it_expires(
    server: Issuer, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A client sends the same token with each request: its signature is checked once, and
    again only once the token has expired (where it is then refused)."""
    import time

    from toolgen.runtime.serving import auth

    verifier = _verifier(server, leeway_s=0)
    checked: list[str] = []
    verify = verifier._verify

    async def counted(token: str) -> tuple[Principal, float]:
        checked.append(token)
        return await verify(token)

    monkeypatch.setattr(verifier, "_verify", counted)
    token = server.token(audience=AUDIENCE, lifetime_s=60)
    first, second = _check(verifier, token), _check(verifier, token)
    assert first == second and len(checked) == 1
    later = time.time() + 120
    monkeypatch.setattr(auth.time, "time", lambda: later)
    _check(verifier, token)  # PyJWT reads its own clock: here only the memory is past it
    assert len(checked) == 2
