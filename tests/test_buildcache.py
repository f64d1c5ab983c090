"""The whole-build cache only skips work: any input change is a miss, a bad entry is a miss."""

from __future__ import annotations

from pathlib import Path

import pytest

from toolgen import cache as buildcache
from toolgen.pipeline import build

SPEC = "name: t\ndescription: {text}\nparameters:\n  type: object\n  properties:\n    x: {{type: string, description: x}}\n"


@pytest.fixture
def specs(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.setenv("TOOLGEN_CACHE_DIR", str(tmp_path / "cache"))
    root = tmp_path / "specs"
    root.mkdir()
    (root / "t.yaml").write_text(SPEC.format(text="first"))
    return root


def test_a_hit_returns_the_same_build(specs: Path) -> None:
    first = build(specs, "p")
    key, stored = buildcache.load(specs, "p", None)
    assert key is not None and stored is not None
    again = build(specs, "p")
    assert (again.tools, again.files, again.diagnostics) == (first.tools, first.files, first.diagnostics)


def test_any_spec_change_is_a_miss(specs: Path) -> None:
    build(specs, "p")
    (specs / "t.yaml").write_text(SPEC.format(text="second"))
    assert buildcache.load(specs, "p", None)[1] is None
    assert "second" in build(specs, "p").files["p/tools/t.py"]
    (specs / "extra.yaml").write_text(SPEC.format(text="x").replace("name: t", "name: u"))
    assert build(specs, "p").tools == ("t", "u")


def test_package_name_and_template_override_are_part_of_the_key(specs: Path, tmp_path: Path) -> None:
    build(specs, "p")
    assert buildcache.load(specs, "q", None)[1] is None
    override = tmp_path / "tpl"
    override.mkdir()
    (override / "index.py.jinja").write_text('"""Custom index."""\n\nMODULES: dict[str, str] = {{ modules | py }}\nPROVIDER_NAMES: dict[str, str] = {{ provider_names | py }}\n')
    assert '"""Custom index."""' in build(specs, "p", override).files["p/_index.py"]


def test_a_corrupt_entry_is_a_miss_not_an_error(specs: Path, tmp_path: Path) -> None:
    build(specs, "p")
    [entry] = (tmp_path / "cache" / "builds").glob("*.json")
    entry.write_text("{not json")
    assert buildcache.load(specs, "p", None)[1] is None
    assert build(specs, "p").ok


def test_disabled_cache_writes_nothing(specs: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("TOOLGEN_NO_CACHE", "1")
    build(specs, "p")
    assert not (tmp_path / "cache").exists()
