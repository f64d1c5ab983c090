"""The whole-build cache only skips work: any input change is a miss, a bad entry is a miss."""

from __future__ import annotations

import hashlib
import json
import os
from pathlib import Path

import pytest

from toolgen import cache as buildcache
from toolgen.config import BuildOptions
from toolgen.diagnostics import Diagnostic, Severity, row
from toolgen.pipeline import build

P = BuildOptions(package="p")

SPEC = "name: t\ndescription: {text}\nparameters:\n  type: object\n  properties:\n    x: {{type: string, description: x}}\n"


@pytest.fixture
def specs(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.setenv("TOOLGEN_CACHE_DIR", str(tmp_path / "cache"))
    root = tmp_path / "specs"
    root.mkdir()
    (root / "t.yaml").write_text(SPEC.format(text="first"))
    return root


def test_a_hit_returns_the_same_build(specs: Path) -> None:
    first = build(specs, P)
    key, stored = buildcache.load(specs, P)
    assert key is not None and stored is not None
    again = build(specs, P)
    assert (again.tools, again.files, again.diagnostics) == (
        first.tools,
        first.files,
        first.diagnostics,
    )


def test_any_spec_change_is_a_miss(specs: Path) -> None:
    build(specs, P)
    (specs / "t.yaml").write_text(SPEC.format(text="second"))
    assert buildcache.load(specs, P)[1] is None
    assert "second" in build(specs, P).files["p/tools/t.py"]
    (specs / "extra.yaml").write_text(SPEC.format(text="x").replace("name: t", "name: u"))
    assert build(specs, P).tools == ("t", "u")


def test_the_key_and_the_build_read_each_spec_file_once(
    specs: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The build loads the very bytes its key hashed: no second read that could differ."""
    from toolgen.load import files

    (specs / "u.yaml").write_text(SPEC.format(text="second").replace("name: t", "name: u"))
    reads: list[Path] = []
    read_bounded = files.read_bounded

    def counted(path: Path, limit: int = files.MAX_FILE_BYTES) -> bytes:
        reads.append(path)
        return read_bounded(path, limit)

    monkeypatch.setattr(files, "read_bounded", counted)
    assert build(specs, P).tools == ("t", "u")
    assert sorted(p.name for p in reads) == ["t.yaml", "u.yaml"]


def test_every_build_option_and_the_template_override_are_part_of_the_key(
    specs: Path, tmp_path: Path
) -> None:
    build(specs, P)
    assert buildcache.load(specs, P)[1] is not None
    for other in (
        BuildOptions(package="q"),
        BuildOptions(package="p", version="2.0"),
        BuildOptions(package="p", distribution="other-name"),
        BuildOptions(package="p", providers=("mcp",)),
    ):
        assert buildcache.load(specs, other)[1] is None, other
    assert (
        'version = "2.0"'
        in build(specs, BuildOptions(package="p", version="2.0")).files["pyproject.toml"]
    )
    override = tmp_path / "tpl"
    override.mkdir()
    (override / "index.py.jinja").write_text(
        '"""Custom index."""\n\nMODULES: dict[str, str] = {{ modules | py }}\nPROVIDER_NAMES: dict[str, str] = {{ provider_names | py }}\n'
    )
    assert (
        '"""Custom index."""'
        in build(specs, BuildOptions(package="p", templates=override)).files["p/_index.py"]
    )


def test_a_corrupt_entry_is_a_miss_not_an_error(specs: Path, tmp_path: Path) -> None:
    build(specs, P)
    [entry] = (tmp_path / "cache" / "builds").glob("*.build")
    entry.write_text("{not json")
    assert buildcache.load(specs, P)[1] is None
    assert build(specs, P).ok


def test_an_entry_reads_back_exactly_and_one_whose_lengths_do_not_add_up_is_a_miss(
    specs: Path, tmp_path: Path
) -> None:
    found = Diagnostic("a.yaml", 2, 3, "rule", Severity.WARNING, "é", "/x", "hint")
    stored: buildcache.Stored = (
        [found],
        ("t",),
        {"a.py": "é⺀\ud800\n", "b.json": "", "c.py": "x"},
    )
    assert buildcache.decode(buildcache.encode(stored)) == stored
    build(specs, P)
    [entry] = (tmp_path / "cache" / "builds").glob("*.build")
    header, payload = entry.read_bytes().split(b"\n", 1)
    assert buildcache.load(specs, P)[1] is not None
    # Diagnostics kept as rows of another layout (format 5's keyed rows): a miss, not an error.
    head, blob = buildcache.encode(stored).split(b"\n", 1)
    keyed = json.dumps({**json.loads(head), "diagnostics": [row(found)]}).encode() + b"\n" + blob
    for damaged in (payload + b"x", payload[:-1], keyed):  # the digest made to match
        digest = {**json.loads(header), "sha256": hashlib.sha256(damaged).hexdigest()}
        entry.write_bytes(json.dumps(digest).encode() + b"\n" + damaged)
        assert buildcache.load(specs, P)[1] is None


def test_disabled_cache_writes_nothing(
    specs: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("TOOLGEN_NO_CACHE", "1")
    build(specs, P)
    assert not (tmp_path / "cache").exists()


def test_an_edited_entry_is_rebuilt_never_written_as_code(specs: Path, tmp_path: Path) -> None:
    """The payload's sha256 is in the entry's header: an edit that leaves it stale is a miss."""
    from click.testing import CliRunner

    from toolgen.cli import main

    def run(*args: str) -> tuple[int, str]:
        result = CliRunner().invoke(
            main, [*args, "--specs", str(specs), "--out", str(tmp_path / "out"), "--package", "p"]
        )
        return result.exit_code, result.stdout

    assert run("generate")[0] == 0
    module = tmp_path / "out" / "p" / "tools" / "t.py"
    honest = module.read_text()
    [entry] = (tmp_path / "cache" / "builds").glob("*.build")
    header, payload = entry.read_bytes().split(b"\n", 1)
    assert json.loads(header)["sha256"] == hashlib.sha256(payload).hexdigest()
    # Someone edits the stored code and the package on disk alike: without the check the
    # next `check` would find them equal and say "up to date".
    forged = honest.replace('"""', '"""\nimport os; os.system("echo pwned")  # ', 1)
    assert forged != honest
    stored = buildcache.decode(payload)
    assert stored is not None and stored[2]["p/tools/t.py"] == honest
    stored[2]["p/tools/t.py"] = forged
    entry.write_bytes(header + b"\n" + buildcache.encode(stored))
    module.write_text(forged)
    code, out = run("check")
    assert code == 1 and "stale: p/tools/t.py" in out
    assert run("generate")[0] == 0
    assert module.read_text() == honest
    assert run("check") == (0, run("check")[1]) and "up to date" in run("check")[1]
    header, payload = (
        next((tmp_path / "cache" / "builds").glob("*.build")).read_bytes().split(b"\n", 1)
    )
    assert (
        json.loads(header)["sha256"] == hashlib.sha256(payload).hexdigest()
        and b"pwned" not in payload
    )


def _generate(specs: Path, out: Path) -> int | None:
    """What `generate` does: build, write unless intact, remember. The result's `intact`."""
    from toolgen.pipeline import remember
    from toolgen.write import write

    result = build(specs, P, out=out)
    if result.intact is None:
        out.mkdir(exist_ok=True)
        write(out, result.files, P)
        remember(specs, P, out, result)
    return result.intact


def test_an_unchanged_output_is_found_intact_and_any_change_to_it_is_not(
    specs: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    out = tmp_path / "out"
    assert _generate(specs, out) is None
    assert _generate(specs, out) is None  # just written: too recent to trust its marks
    monkeypatch.setattr(buildcache, "RACY_NS", 0)
    assert _generate(specs, out) is None  # compared equal, now remembered
    count = _generate(specs, out)
    assert count is not None and count == len(build(specs, P).files)
    module = out / "p" / "tools" / "t.py"
    text, before = module.read_text(), module.stat()
    module.write_text(text.replace("first", "firsT"))  # same size, mtime put back
    os.utime(module, ns=(before.st_atime_ns, before.st_mtime_ns))
    assert _generate(specs, out) is None and module.read_text() == text
    assert _generate(specs, out) is not None
    (out / "p" / "tools" / "extra.py").write_text("x = 1\n")  # a file toolgen did not write
    assert _generate(specs, out) is None
    assert _generate(specs, out) is not None  # the extra file is now part of what was seen
    module.unlink()
    assert _generate(specs, out) is None and module.read_text() == text
    (specs / "t.yaml").write_text(SPEC.format(text="second"))  # another key
    assert _generate(specs, out) is None and "second" in module.read_text()
    assert _generate(specs, tmp_path / "elsewhere") is None  # another output folder


def test_recent_marks_leave_no_stamp_and_a_disabled_cache_never_finds_the_output_intact(
    specs: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    out = tmp_path / "out"
    _generate(specs, out)
    assert not list((tmp_path / "cache" / "builds").glob("*.stamp"))
    monkeypatch.setattr(buildcache, "RACY_NS", 0)
    _generate(specs, out)
    assert list((tmp_path / "cache" / "builds").glob("*.stamp"))
    monkeypatch.setenv("TOOLGEN_NO_CACHE", "1")
    assert _generate(specs, out) is None
