"""Which spec files are read: inside the root after symlinks, regular files, bounded sizes.

Refusals are located diagnostics (`file-refused`, `file-too-large`, `input-too-large`),
decided from `stat` before anything is opened; the GitHub annotation printer escapes
every value it prints.
"""

from __future__ import annotations

import os
import time
import tracemalloc
from pathlib import Path

import pytest

from toolgen.diagnostics import Diagnostic, Severity, render
from toolgen.load.files import Limits, read_bounded
from toolgen.load.source_map import LoadError
from toolgen.load.specs import load_specs
from toolgen.pipeline import check_specs

TOOL = "name: {name}\ndescription: d\nparameters:\n  type: object\n  properties:\n    x: {{type: string, description: x}}\n"
SECRET = "name: leaked\ndescription: SECRET-CONTENT\n"


@pytest.fixture
def tree(tmp_path: Path) -> tuple[Path, Path]:
    root, outside = tmp_path / "specs", tmp_path / "outside"
    root.mkdir()
    outside.mkdir()
    (root / "ok.yaml").write_text(TOOL.format(name="ok"))
    (outside / "secret.yaml").write_text(SECRET)
    return root, outside


def rules(root: Path, limits: Limits | None = None) -> dict[str, str]:
    specs = load_specs(root, limits)
    assert all("SECRET" not in repr(doc.data) for doc in specs.documents)
    return {d.file: d.rule for d in specs.diagnostics}


def test_a_symlink_inside_the_root_is_read(tree: tuple[Path, Path]) -> None:
    root, _ = tree
    (root / "sub").mkdir()
    (root / "sub" / "real.yaml").write_text(TOOL.format(name="real"))
    (root / "alias.yaml").symlink_to(root / "sub" / "real.yaml")
    specs = load_specs(root)
    assert specs.diagnostics == []
    assert sorted(t.data["name"] for t in specs.tools) == ["ok", "real", "real"]


def test_symlinks_out_of_the_root_are_refused(tree: tuple[Path, Path]) -> None:
    root, outside = tree
    (root / "file.yaml").symlink_to(outside / "secret.yaml")
    (root / "folder").symlink_to(outside)  # a linked folder is not descended into
    (root / "folder.yaml").symlink_to(outside)
    (root / "dangling.yaml").symlink_to(outside / "missing.yaml")
    found = rules(root)
    assert found == {
        "file.yaml": "file-refused",
        "folder.yaml": "file-refused",
        "dangling.yaml": "file-refused",
    }
    assert check_specs(root)[1] and all(t.name == "ok" for t in check_specs(root)[1])


def test_a_ref_through_a_symlink_out_of_the_root_does_not_resolve(tree: tuple[Path, Path]) -> None:
    root, outside = tree
    (outside / "defs.yaml").write_text("$defs:\n  X: {type: string, description: SECRET-CONTENT}\n")
    (root / "defs.yaml").symlink_to(outside / "defs.yaml")
    (root / "user.yaml").write_text(
        TOOL.format(name="user").replace(
            "{type: string, description: x}", "{$ref: 'defs.yaml#/$defs/X'}"
        )
    )
    diagnostics, _ = check_specs(root)
    assert {(d.file, d.rule) for d in diagnostics} >= {
        ("defs.yaml", "file-refused"),
        ("user.yaml", "ref-unresolved"),
    }


def test_proc_files_through_a_symlink_are_refused(tree: tuple[Path, Path]) -> None:
    root, _ = tree
    (root / "environ.yaml").symlink_to("/proc/self/environ")
    assert rules(root) == {"environ.yaml": "file-refused"}


def test_system_files_are_refused_even_under_a_root_that_holds_them(tmp_path: Path) -> None:
    from toolgen.load.files import admit

    with pytest.raises(LoadError) as refused:
        admit(Path("/proc/self/environ"), None)
    assert refused.value.rule == "file-refused" and "/proc" in refused.value.message


def test_a_fifo_is_refused_without_being_opened(tree: tuple[Path, Path]) -> None:
    root, _ = tree
    os.mkfifo(root / "pipe.yaml")  # opening it for reading would block until a writer comes
    started = time.monotonic()
    assert rules(root) == {"pipe.yaml": "file-refused"}
    assert time.monotonic() - started < 5
    with pytest.raises(LoadError, match="regular"):
        read_bounded(root / "pipe.yaml")  # even past the stat check: opened non-blocking, refused


def test_a_huge_sparse_file_is_refused_from_its_size_in_flat_memory(
    tree: tuple[Path, Path],
) -> None:
    root, _ = tree
    with open(root / "big.yaml", "wb") as f:
        f.truncate(3 * 1024**3)
    tracemalloc.start()
    started = time.monotonic()
    try:
        found = rules(root)
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert time.monotonic() - started < 1
    assert found == {"big.yaml": "file-too-large"}
    assert peak < 8 * 1024**2


def test_a_size_that_lies_reads_at_most_the_limit_plus_one(tmp_path: Path) -> None:
    path = tmp_path / "grows.yaml"
    path.write_bytes(b"#" * 1000)
    assert len(read_bounded(path, 1000)) == 1000
    with pytest.raises(LoadError) as too_large:
        read_bounded(path, 999)
    assert too_large.value.rule == "file-too-large"


def test_the_whole_input_is_bounded(
    tree: tuple[Path, Path], monkeypatch: pytest.MonkeyPatch
) -> None:
    root, _ = tree
    for name in ("a", "b", "c"):
        (root / f"{name}.yaml").write_text(TOOL.format(name=name))
    size = len(TOOL.format(name="a"))
    found = rules(root, Limits(input_bytes=3 * size))
    assert found == {
        "ok.yaml": "input-too-large"
    }  # a, b, c fit; the fourth (in sorted order) does not
    assert list(rules(root, Limits(files=3)).values()) == ["input-too-large"]
    monkeypatch.setenv("TOOLGEN_MAX_SPEC_FILES", "3")
    monkeypatch.setenv("TOOLGEN_MAX_FILE_BYTES", str(size - 1))
    assert Limits.from_env() == Limits(file_bytes=size - 1, files=3)
    monkeypatch.delenv("TOOLGEN_MAX_SPEC_FILES")  # unset: the default
    assert rules(root) == {
        name: "file-too-large" for name in ("a.yaml", "b.yaml", "c.yaml", "ok.yaml")
    }
    monkeypatch.setenv("TOOLGEN_MAX_SPEC_FILES", "10_000")  # digits grouped
    assert Limits.from_env().files == 10_000


@pytest.mark.parametrize("value", ["", "many", "0", "-5", "1.5", "1e6", "\u00b2", "x" * 50])
def test_a_limit_set_but_not_a_positive_whole_number_is_refused(
    value: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("TOOLGEN_MAX_SPEC_FILES", value)
    shown = repr(value if len(value) <= 40 else value[:40] + "...")
    with pytest.raises(ValueError) as refused:
        Limits.from_env()
    assert str(refused.value) == (
        f"TOOLGEN_MAX_SPEC_FILES={shown} is not a positive whole number: set one (like 10000, "
        "the default), or unset it"
    )


def test_unset_limits_are_the_defaults(monkeypatch: pytest.MonkeyPatch) -> None:
    for name in ("TOOLGEN_MAX_FILE_BYTES", "TOOLGEN_MAX_INPUT_BYTES", "TOOLGEN_MAX_SPEC_FILES"):
        monkeypatch.delenv(name, raising=False)
    assert Limits.from_env() == Limits(4 * 1024 * 1024, 64 * 1024 * 1024, 10_000)


def test_github_annotations_escape_the_file_property_and_the_message() -> None:
    name = "evil\n::error file=x.yaml,line=1::forged, 100%.yaml"
    d = Diagnostic(name, 3, 4, "syntax", Severity.ERROR, "bad\r\nthing: 5%")
    out = render([d], "github")
    assert "\n" not in out and "\r" not in out
    assert out == (
        "::error file=evil%0A%3A%3Aerror file=x.yaml%2Cline=1%3A%3Aforged%2C 100%25.yaml,line=3,col=4"
        "::[syntax] bad%0D%0Athing: 5%25"
    )


def test_a_spec_file_named_with_a_newline_cannot_inject_a_workflow_command(tmp_path: Path) -> None:
    root = tmp_path / "specs"
    root.mkdir()
    (root / "a\n::warning::x,%.yaml").write_text("name: [")
    diagnostics, _ = check_specs(root)
    out = render(diagnostics, "github")
    assert out.count("\n") == len(diagnostics) - 1 and all(
        line.startswith("::error file=a%0A%3A%3Awarning") for line in out.splitlines()
    )
