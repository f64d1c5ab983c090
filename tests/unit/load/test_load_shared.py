"""A large spec set parsed on both cores (`load_specs(beside=...)`): a child from the last file
down, this process from the first up, until they meet. The child is only a faster parser: the
load is the one a single process makes wherever they meet, whatever the child's part holds
(YAML, JSON, a broken file, a refused one), whatever the child answers (documents of other
bytes, nothing at all, no claim), and the caller's `beside` runs only while a child parses."""

from __future__ import annotations

import os
import pickle
import time
from collections.abc import Callable
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
    """Ten tools in YAML and JSON; among the last files (the child's first) a broken one, one
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


@pytest.fixture
def splits(monkeypatch: pytest.MonkeyPatch) -> list[parallel.Split]:
    """Each parallel.Split made, kept (to see how far the child has claimed)."""
    made: list[parallel.Split] = []
    real = parallel.Split

    def kept(count: int) -> parallel.Split:
        made.append(real(count))
        return made[-1]

    monkeypatch.setattr(parallel, "Split", kept)
    return made


def _until_the_child_claimed_all(splits: list[parallel.Split]) -> Callable[[], None]:
    """A `beside` that returns once the child has claimed every file (bounded: a minute)."""

    def wait() -> None:
        deadline = time.monotonic() + 60
        while splits[-1].claimed() > 0 and time.monotonic() < deadline:
            time.sleep(0.001)
        assert splits[-1].claimed() == 0, "the child never claimed every file"

    return wait


def _counted(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """The files this process parses (the child counts in its own copy)."""
    parsed_here: list[str] = []

    def counted(raw: bytes, path: Path, display: str) -> Any:
        parsed_here.append(display)
        return load_bytes(raw, path, display)

    monkeypatch.setattr(loading, "load_bytes", counted)
    return parsed_here


def test_the_child_s_documents_are_the_load_of_one_process(
    root: Path, children: list[int], splits: list[parallel.Split], monkeypatch: pytest.MonkeyPatch
) -> None:
    """The child claims every file before this process looks (its `beside` waits for that):
    every document is the child's, but the broken file's, which only this process reports."""
    alone = _seen(load_specs(root, LIMITS))
    parsed_here = _counted(monkeypatch)
    ran: list[int] = []
    wait = _until_the_child_claimed_all(splits)
    shared = load_specs(root, LIMITS, beside=lambda: (ran.append(1), wait()))
    assert children == [1] and ran == [1]
    assert _seen(shared) == alone
    assert parsed_here == ["x_broken.yaml"]
    assert {d.file: d.rule for d in shared.diagnostics} == {
        "x_broken.yaml": "syntax",
        "y_large.yaml": "file-too-large",
        "z_out.yaml": "file-refused",
    }
    assert all("SECRET" not in repr(d.data) for d in shared.documents)


def test_wherever_they_meet_the_load_is_the_load_of_one_process(
    root: Path, children: list[int], monkeypatch: pytest.MonkeyPatch
) -> None:
    """Both at work at once, meeting where their speeds say: this process parsed the first
    files, in order, and the broken one if it was the child's."""
    alone = _seen(load_specs(root, LIMITS))
    parsed_here = _counted(monkeypatch)
    for _ in range(5):
        parsed_here.clear()
        assert _seen(load_specs(root, LIMITS, beside=lambda: None)) == alone
        files = sorted(
            p.name for p in root.iterdir() if p.name not in ("y_large.yaml", "z_out.yaml")
        )
        mine = [name for name in parsed_here if name != "x_broken.yaml"]
        assert mine == files[: len(mine)]
        assert "x_broken.yaml" in parsed_here


def test_a_child_that_claims_nothing_leaves_every_file_to_this_process(
    root: Path, children: list[int], monkeypatch: pytest.MonkeyPatch
) -> None:
    alone = _seen(load_specs(root, LIMITS))
    parsed_here = _counted(monkeypatch)

    def idle(files: list[SpecFile], split: parallel.Split) -> dict[str, Any]:
        time.sleep(60)  # (ended when the load is done)
        return {}

    monkeypatch.setattr(loading, "_parse", idle)
    assert _seen(load_specs(root, LIMITS, beside=lambda: None)) == alone
    assert children == [1]
    assert parsed_here == [
        name
        for name in sorted(p.name for p in root.iterdir())
        if name not in ("y_large.yaml", "z_out.yaml")
    ]


def test_the_child_parses_only_what_this_process_read(root: Path) -> None:
    """The child reads nothing: it is handed the files this process read (by the fork), and a
    refused one (broken, too large, out of the root) holds no bytes to parse."""
    files = read_specs(root, LIMITS)
    assert files is not None
    later = files[-3:]
    assert [f.display for f in later] == ["x_broken.yaml", "y_large.yaml", "z_out.yaml"]
    assert [type(f.read) for f in later] == [bytes, LoadError, LoadError]
    assert loading._parse(later, parallel.Split(len(later))) == {}


def _claiming(answer: Callable[[list[SpecFile]], dict[str, Any]]) -> Any:
    """A child's part that claims every file, then answers `answer(files)`, pickled as the
    child pickles its documents."""

    def part(files: list[SpecFile], split: parallel.Split) -> dict[str, bytes]:
        for index in range(len(files) - 1, -1, -1):
            split.theirs(index)
        return {name: pickle.dumps(value) for name, value in answer(files).items()}

    return part


def test_a_document_of_other_bytes_or_no_document_is_not_taken(
    root: Path, children: list[int], splits: list[parallel.Split], monkeypatch: pytest.MonkeyPatch
) -> None:
    alone = _seen(load_specs(root, LIMITS))

    def forged(files: list[SpecFile]) -> dict[str, Any]:
        other = TOOL.format(name="forged").encode()
        answer: dict[str, Any] = {f.display: load_bytes(other, f.path, f.display) for f in files}
        return {**answer, files[0].display: "not a document"}

    monkeypatch.setattr(loading, "_parse", _claiming(forged))
    shared = load_specs(root, LIMITS, beside=_until_the_child_claimed_all(splits))
    assert children == [1] and _seen(shared) == alone
    assert "forged" not in repr([d.data for d in shared.documents])


def test_files_the_child_claimed_and_did_not_answer_are_parsed_here(
    root: Path, children: list[int], splits: list[parallel.Split], monkeypatch: pytest.MonkeyPatch
) -> None:
    """What a claim left by both (parallel.Split) looks like from here: a file claimed by the
    child that its answer lacks. Here every other file."""
    alone = _seen(load_specs(root, LIMITS))
    parsed_here = _counted(monkeypatch)

    def half(files: list[SpecFile]) -> dict[str, Any]:
        return {
            f.display: load_bytes(f.read, f.path, f.display)
            for f in files[::2]
            if isinstance(f.read, bytes) and f.display != "x_broken.yaml"
        }

    monkeypatch.setattr(loading, "_parse", _claiming(half))
    shared = load_specs(root, LIMITS, beside=_until_the_child_claimed_all(splits))
    assert children == [1] and _seen(shared) == alone
    files = read_specs(root, LIMITS)
    assert files is not None
    answered = set(half(files))
    assert 0 < len(answered) < len(files)
    assert parsed_here == [
        f.display for f in files if isinstance(f.read, bytes) and f.display not in answered
    ]


def test_a_child_that_fails_leaves_the_parsing_to_this_process(
    root: Path, children: list[int], splits: list[parallel.Split], monkeypatch: pytest.MonkeyPatch
) -> None:
    alone = _seen(load_specs(root, LIMITS))

    def broken(files: list[SpecFile]) -> dict[str, Any]:
        raise RuntimeError("broken")

    monkeypatch.setattr(loading, "_parse", _claiming(broken))
    shared = load_specs(root, LIMITS, beside=_until_the_child_claimed_all(splits))
    assert _seen(shared) == alone and children == [1]


def test_without_a_child_beside_is_not_run(root: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(parallel, "wanted", lambda count: False)
    ran: list[int] = []
    load_specs(root, LIMITS, beside=lambda: ran.append(1))
    assert ran == []
