"""`--against REF` in the catalog (catalog/changes.py): `toolgen breaking`'s findings, by tool."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.support.catalog_support import SPECS, config
from toolgen.catalog.changes import ChangesUnavailable, against


def _specs(root: Path, files: dict[str, str]) -> Path:
    root.mkdir(parents=True)
    for name, text in files.items():
        (root / name).write_text(text, "utf-8")
    return root


def test_findings_by_tool_with_their_bumps(tmp_path: Path) -> None:
    before = _specs(tmp_path / "before", SPECS)
    changed = SPECS["people.yaml"].replace("required: [keep, remove]", "required: [keep]")
    after = _specs(tmp_path / "specs", {**SPECS, "people.yaml": changed})
    changes = against(
        config(after), str(before), {"find_customer", "merge_customers", "get_weather"}
    )
    assert list(changes.by_tool) == ["merge_customers"]
    (change,) = changes.by_tool["merge_customers"]
    assert "remove" in change.message and change.where.startswith("people.yaml:")
    assert change.bump == changes.needed and changes.needed in ("minor", "major", "patch")
    assert changes.gone == {} and changes.ref == str(before)


def test_a_tool_no_longer_there_is_listed_apart(tmp_path: Path) -> None:
    before = _specs(tmp_path / "before", SPECS)
    after = _specs(tmp_path / "specs", {"people.yaml": SPECS["people.yaml"]})
    changes = against(config(after), str(before), {"find_customer", "merge_customers"})
    assert list(changes.gone) == ["get_weather"] and changes.by_tool == {}
    assert changes.needed == "major" and changes.gone["get_weather"][0].severity == "error"


def test_an_unreadable_ref_is_refused(tmp_path: Path) -> None:
    after = _specs(tmp_path / "specs", SPECS)
    with pytest.raises(ChangesUnavailable, match="cannot read --against"):
        against(config(after), str(tmp_path / "nowhere"), set())
