"""A generated package served as an OAuth 2.1 resource server (`serve --http --auth-issuer
--auth-audience`), against an authorization server the test runs on 127.0.0.1 with keys it
generates (tests/support/oauth_support.py): the protected resource metadata, 401s with their
`WWW-Authenticate` challenges, per-tool scopes (`auth: {scopes}`: the listing shows a caller
only what its token may call, a call without the scope is refused with 403), the caller's
identity injected into the implementation, and the official SDK's client with a token."""

from __future__ import annotations

import json
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import anyio
import httpx2
import pytest
from mcp import Client
from mcp.client.streamable_http import streamable_http_client

from tests.support.mcp_support import HANDSHAKE_HEADERS, python_path, serving
from tests.support.oauth_support import Issuer, issuer, rsa_key

IMPL = """
import scoped
from scoped._runtime import identity
from scoped.tools import admin_reset, ping, read_notes


class Ping(ping.PingTool):
    def run(self, arguments):
        return ping.PingResult(said="pong")


class ReadNotes(read_notes.ReadNotesTool):
    def run(self, arguments, injected, ctx):  # in a worker thread: the caller follows the call
        assert identity.caller().as_json() == injected.caller, "the two ways disagree"
        assert ctx.caller == injected.caller["subject"], "the run context names another"
        return read_notes.ReadNotesResult(caller=injected.caller)


class AdminReset(admin_reset.AdminResetTool):
    def run(self, arguments):
        return admin_reset.AdminResetResult(said="reset")


registry = scoped.build_registry(Ping(), ReadNotes(), AdminReset())
"""

SAID = {"type": "object", "properties": {"said": {"type": "string"}}, "required": ["said"]}


@pytest.fixture(scope="module")
def package(tmp_path_factory: pytest.TempPathFactory) -> Path:
    from tests.support._generated import spec, write_specs
    from tests.support.generation import generate

    root = tmp_path_factory.mktemp("scoped")
    tools = [
        {**spec("admin_reset", description="Reset the notes store."), "returns": SAID},
        {**spec("ping", description="Answer pong, to check the server."), "returns": SAID},
        {
            **spec("read_notes", description="Read the caller's notes."),
            "auth": {"scopes": ["notes:read"]},
            "injected": {"caller": {"type": "object"}},
            "returns": {
                "type": "object",
                "properties": {"caller": {"type": "object"}},
                "required": ["caller"],
            },
        },
    ]
    tools[0]["auth"] = {"scopes": ["admin", "notes:write"]}
    generate(write_specs(root / "specs", tools), root, "scoped")
    (root / "scoped_impl.py").write_text(IMPL, encoding="utf-8")
    return root


def _clean(env: dict[str, str]) -> dict[str, str]:
    """`env` without a bearer token or OAuth settings of the test run's own."""
    return {k: v for k, v in env.items() if k != "TOOLGEN_MCP_TOKEN" and "_AUTH_" not in k}


@pytest.fixture(scope="module")
def authority() -> Iterator[Issuer]:
    with issuer() as found:
        yield found


@pytest.fixture(scope="module")
def url(package: Path, authority: Issuer) -> Iterator[str]:
    env = _clean(python_path(package))
    env["TOOLGEN_AUTH_ISSUER"] = authority.url  # the audience by flag: both ways are read
    with serving("scoped", "scoped_impl:registry", env, "--auth-audience", "AUDIENCE") as found:
        yield found


HEADERS = {"Accept": "application/json, text/event-stream", "Content-Type": "application/json"}
LIST = {"jsonrpc": "2.0", "id": 1, "method": "tools/list"}


def _call(name: str) -> dict[str, Any]:
    return {"jsonrpc": "2.0", "id": 2, "method": "tools/call", "params": {"name": name}}


def _post(url: str, body: Any, token: str | None) -> httpx2.Response:
    headers = dict(HEADERS)
    if token is not None:
        headers["Authorization"] = f"Bearer {token}"
    return httpx2.post(url, json=body, headers=headers, timeout=30)


def _challenge(response: httpx2.Response) -> str:
    return response.headers.get("www-authenticate", "")


def test_the_protected_resource_metadata_is_served_without_a_token(
    url: str, authority: Issuer
) -> None:
    base = url.removesuffix("/mcp")
    for path in (
        "/.well-known/oauth-protected-resource",
        "/.well-known/oauth-protected-resource/mcp",
    ):
        answer = httpx2.get(base + path, timeout=30)
        assert answer.status_code == 200
        assert answer.json() == {
            "resource": "AUDIENCE",
            "authorization_servers": [authority.url],
            "scopes_supported": ["admin", "notes:read", "notes:write"],
            "bearer_methods_supported": ["header"],
        }


def test_a_request_without_a_token_is_told_where_the_metadata_is(url: str) -> None:
    answer = _post(url, LIST, None)
    assert answer.status_code == 401
    port = url.split(":")[2].split("/")[0]
    metadata = f"http://127.0.0.1:{port}/.well-known/oauth-protected-resource/mcp"
    assert _challenge(answer) == f'Bearer resource_metadata="{metadata}"'


@pytest.mark.parametrize(
    ("claims", "said"),
    [
        ({"issuer": "http://127.0.0.1:9/other"}, "not from the trusted issuer"),
        ({"audience": "another-resource"}, "not for this resource"),
        ({"lifetime_s": -300}, "expired"),
        ({"kid": "stranger", "key": "fresh"}, "key the issuer does not list"),
    ],
    ids=["wrong issuer", "wrong audience", "expired", "unknown kid"],
)
def test_a_bad_token_is_refused_with_invalid_token(
    url: str, authority: Issuer, claims: dict[str, Any], said: str
) -> None:
    if claims.get("key") == "fresh":
        claims = {**claims, "key": rsa_key()}
    token = authority.token(**{"audience": "AUDIENCE", **claims})
    answer = _post(url, LIST, token)
    assert answer.status_code == 401
    challenge = _challenge(answer)
    assert challenge.startswith('Bearer resource_metadata="http://127.0.0.1:')
    assert 'error="invalid_token"' in challenge and said in challenge
    assert token not in answer.text and token not in challenge


def _tools(answer: httpx2.Response) -> list[str]:
    text = answer.text
    data = json.loads(text.split("data: ", 1)[1]) if text.startswith("event") else answer.json()
    return [t["name"] for t in data["result"]["tools"]]


def test_the_listing_shows_only_the_tools_the_token_may_call(url: str, authority: Issuer) -> None:
    plain = authority.token(audience="AUDIENCE")
    reader = authority.token(audience="AUDIENCE", scope="notes:read")
    admin = authority.token(audience="AUDIENCE", scope="admin notes:write notes:read")
    assert _tools(_post(url, LIST, plain)) == ["ping"]
    assert _tools(_post(url, LIST, reader)) == ["ping", "read_notes"]
    assert _tools(_post(url, LIST, admin)) == ["admin_reset", "ping", "read_notes"]


def test_a_call_without_the_scope_is_refused_with_403_naming_it(
    url: str, authority: Issuer
) -> None:
    reader = authority.token(audience="AUDIENCE", scope="notes:read notes:write")
    answer = _post(url, _call("admin_reset"), reader)
    assert answer.status_code == 403
    challenge = _challenge(answer)
    assert challenge.startswith('Bearer error="insufficient_scope", scope="admin", ')
    assert answer.json() == {"error": "insufficient_scope", "scope": "admin"}


def test_the_sdk_client_with_a_token_calls_and_the_tool_sees_its_caller(
    url: str, authority: Issuer
) -> None:
    token = authority.token(audience="AUDIENCE", scope="notes:read", sub="ada", client_id="app")

    async def scenario() -> tuple[list[str], Any, Any]:
        headers = {"Authorization": f"Bearer {token}"}
        async with httpx2.AsyncClient(headers=headers, timeout=30) as http:
            async with Client(streamable_http_client(url, http_client=http)) as client:
                listed = await client.list_tools()
                pong = await client.call_tool("ping", {})
                notes = await client.call_tool("read_notes", {})
        return [t.name for t in listed.tools], pong, notes

    names, pong, notes = anyio.run(scenario)
    assert names == ["ping", "read_notes"]
    assert pong.structured_content == {"said": "pong"}
    assert not notes.is_error, notes.content
    assert notes.structured_content == {
        "caller": {
            "subject": "ada",
            "client_id": "app",
            "scopes": ["notes:read"],
            "issuer": authority.url,
            "every_scope": False,
        }
    }
    assert token not in json.dumps(notes.structured_content)


def _serve(package: Path, *options: str, **environ: str) -> subprocess.CompletedProcess[str]:
    env = _clean(python_path(package))
    env.update(environ)
    argv = [sys.executable, "-m", "scoped", "serve", "--http", "--registry", "scoped_impl:registry"]
    return subprocess.run(
        [*argv, *options], env=env, capture_output=True, text=True, timeout=30, cwd=package
    )


@pytest.mark.parametrize(
    ("options", "environ", "said"),
    [
        (("--auth-issuer", "", "--auth-audience", "a"), {}, "--auth-issuer is empty"),
        (
            (),
            {"TOOLGEN_AUTH_ISSUER": "https://id.example.com", "TOOLGEN_AUTH_AUDIENCE": " "},
            "TOOLGEN_AUTH_AUDIENCE is set but empty",
        ),
        (
            ("--auth-issuer", "https://id.example.com", "--auth-audience", "a"),
            {"TOOLGEN_MCP_TOKEN": "t0ken"},
            "choose one way",
        ),
        (
            ("--auth-issuer", "http://id.example.com", "--auth-audience", "a"),
            {},
            "not an https URL",
        ),
        (("--host", "0.0.0.0"), {}, "--auth-issuer and --auth-audience"),
    ],
    ids=["empty flag", "empty variable", "token and oauth", "plain http issuer", "open host"],
)
def test_serve_refuses_to_start_without_a_sound_way_to_authenticate(
    package: Path, options: tuple[str, ...], environ: dict[str, str], said: str
) -> None:
    ran = _serve(package, *options, **environ)
    assert ran.returncode == 2, ran.stderr
    assert said in ran.stderr and ran.stderr.count("\n") == 1


def test_a_host_builds_the_same_app_from_the_package_server_module(package: Path) -> None:
    """`from <package>.server import AuthSettings, needs_of` is what a host needs for
    `http_app(server, auth=..., needs=...)`: the scopes each call needs, call_tool's included."""
    script = (
        "import scoped_impl\n"
        "from scoped.server import AuthSettings, http_app, mcp_server, needs_of\n"
        "needs = needs_of(scoped_impl.registry)\n"
        "print(sorted(needs('admin_reset', {})), sorted(needs('ping', {})))\n"
        "auth = AuthSettings(issuer='https://id.example.com', audience='https://t.example.com')\n"
        "http_app(mcp_server(scoped_impl.registry, name='s'), auth=auth, needs=needs)\n"
    )
    ran = subprocess.run(
        [sys.executable, "-c", script],
        env=_clean(python_path(package)),
        cwd=package,
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert ran.returncode == 0, ran.stderr
    assert ran.stdout.strip() == "['admin', 'notes:write'] []"


HOST_WITHOUT_NEEDS = """
import os
import sys

import scoped_impl
import uvicorn
from scoped.server import AuthSettings, http_app, mcp_server

auth = AuthSettings(issuer=os.environ["ISSUER"], audience="AUDIENCE")
app = http_app(mcp_server(scoped_impl.registry, name="s"), auth=auth)  # no needs=
uvicorn.run(app, host="127.0.0.1", port=int(sys.argv[2]), log_level="warning")
"""


def test_a_task_without_the_scope_is_refused_by_the_server_itself(
    package: Path, authority: Issuer
) -> None:
    """A host app built without `needs=` has no 403 at the HTTP layer: the server refuses a
    call without the tool's scopes itself, a call asked for as a task too (it is answered
    before the call's own handler runs, so it checks the scopes as that handler does)."""
    script = package / "host_without_needs.py"
    script.write_text(HOST_WITHOUT_NEEDS, encoding="utf-8")
    env = {**_clean(python_path(package)), "ISSUER": authority.url}
    with serving("scoped", "", env, script=script, cwd=package) as url:
        reader = authority.token(audience="AUDIENCE", scope="notes:read notes:write")
        headers = {**HANDSHAKE_HEADERS, "Authorization": f"Bearer {reader}"}
        for asked in ({}, {"task": {"ttl": 60_000}}):
            params = {"name": "admin_reset", "arguments": {}, **asked}
            body = {"jsonrpc": "2.0", "id": 1, "method": "tools/call", "params": params}
            answer = httpx2.post(url, json=body, headers=headers, timeout=30).json()
            result = answer.get("result", {})
            assert "task" not in result, f"a task was made without the scope: {answer}"
            assert result.get("isError") is True, answer
            assert "needs the scope admin" in json.dumps(result), answer
