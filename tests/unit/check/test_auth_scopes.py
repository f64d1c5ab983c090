"""The spec's `auth: {scopes}`: a bad value is a located `spec-format` error, a good one
reaches the typed spec, the IR (sorted) and the generated module's `ToolInfo.scopes`."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from tests.support._generated import build_specs, spec
from toolgen.spec.model import ToolSpec


@pytest.mark.parametrize(
    "auth",
    [
        {"scopes": ["notes read"]},  # a space separates scopes: it cannot be in one
        {"scopes": ['say"hi']},
        {"scopes": []},
        {"scopes": ["a", "a"]},
        {"scopes": "notes:read"},
        {"scope": ["notes:read"]},
    ],
    ids=["space", "quote", "empty", "repeated", "not a list", "unknown key"],
)
def test_a_bad_auth_is_a_located_error(tmp_path: Path, auth: Any) -> None:
    built = build_specs(tmp_path, [spec("read_notes", auth=auth)], "bad_auth")
    errors = [d for d in built.diagnostics if d.severity == "error"]
    assert errors and not built.ok
    assert {d.rule for d in errors} <= {"spec-format", "unknown-key"}
    assert all(d.pointer.startswith("/tools/0/auth") and d.line > 0 for d in errors), errors


def test_scopes_reach_the_generated_tool_info(tmp_path: Path) -> None:
    entry = spec("read_notes", auth={"scopes": ["notes:write", "notes:read"]})
    assert ToolSpec.parse(entry).scopes == ("notes:write", "notes:read")
    built = build_specs(tmp_path, [entry, spec("ping")], "good_auth")
    assert built.ok, built.diagnostics
    module = built.files["good_auth/tools/read_notes.py"]
    assert 'scopes=frozenset({"notes:read", "notes:write"}),' in module
    assert "scopes=" not in built.files["good_auth/tools/ping.py"]
