"""A large spec set parsed mostly on the second core (`load_specs(beside=...)`): the child is
only a faster parser. The load is the one a single process makes, whatever the child's share
holds (YAML, JSON, a broken file, a refused one), whatever the child answers (documents of
other bytes, nothing at all), and the caller's `beside` runs only while a child parses."""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

import pytest

from tests.support.children import counted_children
from toolgen import parallel
from toolgen.load import specs as loading
from toolgen.load.document import load_bytes
from toolgen.load.files import Limits, SpecFile, read_specs
from toolgen.load.source_map import LoadError
from toolgen.load.specs import SpecSet, load_specs

pytestmark = pytest.mark.skipif(not hasattr(os, "fork"), reason="no fork on this platform")

TOOL = "name: {name}\ndescription: d\nparameters:\n  type: object\n  properties:\n    x: {{type: string, description: x}}\n"


@pytest.fixture
def root(tmp_path: Path) -> Path:
    """Ten tools in YAML and JSON; among the last files (the child's share) a broken one, one
    too large, and a symlink out of the root."""
    root, outside = tmp_path / "specs", tmp_path / "outside"
    root.mkdir()
    outside.mkdir()
    for i in range(8):
        (root / f"a{i}.yaml").write_text(TOOL.format(name=f"t{i}"))
    (root / "b.json").write_text(
        '{"name": "j", "description": "d",\n "parameters": {"type": "object"}}'
    )
    (root / "c.json").write_text('{"tools": [{"name": "k", "description": "d"}]}')
    (root / "x_broken.yaml").write_text("name: [unclosed\n")
    (root / "y_large.yaml").write_text(TOOL.format(name="big") + "#" * 5000)
    (outside / "secret.yaml").write_text("name: leaked\ndescription: SECRET\n")
    (root / "z_out.yaml").symlink_to(outside / "secret.yaml")
    return root


LIMITS = Limits(files=100, file_bytes=4000, input_bytes=1_000_000)


def _seen(loaded: SpecSet) -> dict[str, Any]:
    """What later stages read of a load: documents (data, digest, positions), tools, diagnostics."""
    return {
        "documents": [
            (
                d.display,
                d.data,
                d.sha256,
                d.source.position("/name"),
                d.source.position("/parameters", key=True),
            )
            for d in loaded.documents
        ],
        "tools": [(t.doc.display, t.pointer, t.data) for t in loaded.tools],
        "diagnostics": loaded.diagnostics,
    }


@pytest.fixture
def children(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """Children are wanted for any set; each one started is counted."""
    return counted_children(monkeypatch)


def test_a_shared_load_is_the_load_of_one_process(
    root: Path, children: list[int], monkeypatch: pytest.MonkeyPatch
) -> None:
    alone = _seen(load_specs(root, LIMITS))
    parsed_here: list[str] = []  # by this process (the child counts in its own copy)

    def counted(raw: bytes, path: Path, display: str) -> Any:
        parsed_here.append(display)
        return load_bytes(raw, path, display)

    monkeypatch.setattr(loading, "load_bytes", counted)
    ran: list[int] = []
    shared = load_specs(root, LIMITS, beside=lambda: ran.append(1))
    assert children == [1] and ran == [1]
    assert _seen(shared) == alone
    # The child's documents (YAML and JSON) were taken: here, only the first files, and the
    # broken one the child could not parse.
    files = sorted(p.name for p in root.iterdir())
    first = files[: len(files) - int(len(files) * loading._CHILD_SHARE)]
    assert parsed_here == [*first, "x_broken.yaml"]
    assert {d.file: d.rule for d in shared.diagnostics} == {
        "x_broken.yaml": "syntax",
        "y_large.yaml": "file-too-large",
        "z_out.yaml": "file-refused",
    }
    assert all("SECRET" not in repr(d.data) for d in shared.documents)


def test_the_child_parses_only_what_this_process_read(root: Path) -> None:
    """The child reads nothing: it is handed the files this process read (by the fork), and a
    refused one (broken, too large, out of the root) holds no bytes to parse."""
    files = read_specs(root, LIMITS)
    assert files is not None
    later = files[-3:]
    assert [f.display for f in later] == ["x_broken.yaml", "y_large.yaml", "z_out.yaml"]
    assert [type(f.read) for f in later] == [bytes, LoadError, LoadError]
    assert loading._parse(later) == {}


def test_a_document_of_other_bytes_is_not_taken(
    root: Path, children: list[int], monkeypatch: pytest.MonkeyPatch
) -> None:
    alone = _seen(load_specs(root, LIMITS))

    def forged(files: list[SpecFile]) -> dict[str, Any]:
        other = TOOL.format(name="forged").encode()
        return {f.display: load_bytes(other, f.path, f.display) for f in files}

    monkeypatch.setattr(loading, "_parse", forged)
    shared = load_specs(root, LIMITS, beside=lambda: None)
    assert children == [1] and _seen(shared) == alone
    assert "forged" not in repr([d.data for d in shared.documents])


def test_a_child_that_fails_leaves_the_parsing_to_this_process(
    root: Path, children: list[int], monkeypatch: pytest.MonkeyPatch
) -> None:
    alone = _seen(load_specs(root, LIMITS))

    def broken(files: list[SpecFile]) -> dict[str, Any]:
        raise RuntimeError("broken")

    monkeypatch.setattr(loading, "_parse", broken)
    assert _seen(load_specs(root, LIMITS, beside=lambda: None)) == alone and children == [1]


def test_without_a_child_beside_is_not_run(root: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(parallel, "wanted", lambda count: False)
    ran: list[int] = []
    load_specs(root, LIMITS, beside=lambda: ran.append(1))
    assert ran == []
