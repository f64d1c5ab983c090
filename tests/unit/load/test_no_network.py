"""Nothing in lint or generate reaches the network, whatever a spec names: `$schema`, `$id`,
remote `$ref`s. Every socket call made while they run is recorded and refused."""

from __future__ import annotations

import json
import socket
from pathlib import Path
from typing import Any

import pytest

from toolgen.config import BuildOptions
from toolgen.pipeline import build, check_specs

REMOTE = "https://example.invalid/schema"
SPECS: dict[str, dict[str, Any]] = {
    "schema_2020_12": {
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "type": "object",
        "properties": {"a": {"type": "string"}},
    },
    "schema_remote": {"$schema": REMOTE, "type": "object", "properties": {"a": {"type": "string"}}},
    "schema_draft7": {
        "$schema": "http://json-schema.org/draft-07/schema#",
        "type": "object",
        "properties": {},
    },
    "ref_remote": {"type": "object", "properties": {"a": {"$ref": REMOTE + "#/$defs/x"}}},
    "id_remote": {"$id": REMOTE, "type": "object", "properties": {}},
    "nested_schema": {"type": "object", "properties": {"a": {"$schema": REMOTE, "type": "string"}}},
}


@pytest.fixture
def no_network(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    attempts: list[str] = []

    def refuse(*args: Any, **kwargs: Any) -> Any:
        attempts.append(repr(args)[:80])
        raise OSError("network access in a test")

    monkeypatch.setattr(socket.socket, "connect", refuse)
    monkeypatch.setattr(socket, "create_connection", refuse)
    monkeypatch.setattr(socket, "getaddrinfo", refuse)
    return attempts


@pytest.mark.parametrize("name", SPECS)
def test_a_spec_naming_remote_documents_makes_no_request(
    name: str, tmp_path: Path, no_network: list[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("TOOLGEN_NO_CACHE", "1")
    specs = tmp_path / "specs"
    specs.mkdir()
    tool = {
        "name": "t",
        "description": "A tool.",
        "parameters": SPECS[name],
        "returns": SPECS[name],
    }
    (specs / "t.json").write_text(json.dumps(tool), "utf-8")
    diagnostics, _ = check_specs(specs)
    result = build(specs, BuildOptions(package="pkg"))
    assert no_network == []
    assert all(d.file == "t.json" and d.line >= 1 for d in diagnostics + list(result.diagnostics))
    if name in ("schema_remote", "schema_draft7", "ref_remote", "id_remote"):
        assert not result.ok, name  # refused, located
    if name == "schema_2020_12":
        assert result.ok, [d.text() for d in result.diagnostics]
