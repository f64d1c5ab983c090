"""The built-in library as a whole: every spec is implemented, described and exampled; optional imports stay lazy."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

import toolgen_builtin
from implementations import registry
from tests.support.builtin_support import SCHEMAS, specs
from tests.support.generation import REPO

FAMILIES = sorted(p.name for p in SCHEMAS.iterdir() if p.is_dir())
SPECS = [spec for family in FAMILIES for spec in specs(family)]


def test_every_generated_tool_has_an_implementation(tmp_path: Path) -> None:
    assert sorted(registry(tmp_path, enable_processes=True, enable_browser=True)) == sorted(
        toolgen_builtin.TOOL_NAMES
    )
    assert len(SPECS) == len(toolgen_builtin.TOOL_NAMES)


@pytest.mark.parametrize("spec", SPECS, ids=[s["name"] for s in SPECS])
def test_every_spec_is_complete(spec: dict[str, object]) -> None:
    assert spec.get("category") and spec.get("kind") and spec.get("examples")
    annotations = spec["annotations"]
    assert isinstance(annotations, dict) and set(annotations) >= {
        "read_only",
        "idempotent",
        "open_world",
    }
    parameters = spec["parameters"]
    assert isinstance(parameters, dict)
    for name, schema in parameters["properties"].items():
        assert schema.get("description"), f"{spec['name']}.{name} has no description"
    if spec["kind"] == "return":
        assert "terminal" in spec.get("flags", [])  # type: ignore[operator]


def test_optional_libraries_are_imported_only_when_a_tool_needs_them() -> None:
    code = (
        "import sys; sys.modules['jmespath'] = None\n"
        "import implementations\n"
        "r = implementations.registry('.')\n"
        "print(r.call('query_json', {'expression': 'a', 'text': '{}'}).failure.kind)"
    )
    done = subprocess.run(
        [sys.executable, "-c", code],
        cwd=REPO,
        capture_output=True,
        text=True,
        timeout=60,
        env={"PYTHONPATH": f"{REPO / 'generated'}:{REPO}", "PATH": "/usr/bin:/bin"},
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "unavailable"
