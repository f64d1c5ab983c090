"""write.write plans, then plans again under the lock (another run may have written in
between), except when none of the output's entries existed before and none exists under
the lock: every file is missing either way, and the first plan stands."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest

import toolgen.write as write_module
from toolgen.config import BuildOptions
from toolgen.constants import GENERATED_MARK

FILES = {"pyproject.toml": f"# {GENERATED_MARK}\n", "pkg/a.py": f"# {GENERATED_MARK}\nA = 1\n"}
OPTIONS = BuildOptions(package="pkg")


def _plans(monkeypatch: pytest.MonkeyPatch) -> list[Path]:
    made: list[Path] = []
    plan = write_module.plan

    def counted(out: Path, files: dict[str, str], options: BuildOptions) -> write_module.Plan:
        made.append(out)
        return plan(out, files, options)

    monkeypatch.setattr(write_module, "plan", counted)
    return made


def test_a_first_generation_is_planned_once(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    made = _plans(monkeypatch)
    result = write_module.write(tmp_path, FILES, OPTIONS)
    assert len(made) == 1 and sorted(result.missing) == sorted(FILES)
    assert (tmp_path / "pkg" / "a.py").read_text() == FILES["pkg/a.py"]


def test_an_entry_written_before_the_lock_is_planned_again(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    made = _plans(monkeypatch)
    locked = write_module.locked

    @contextmanager
    def another_run_first(out: Path) -> Iterator[None]:
        (out / "pkg").mkdir()  # another run's file, no longer generated: an orphan
        (out / "pkg" / "gone.py").write_text(f"# {GENERATED_MARK}\n")
        with locked(out):
            yield

    monkeypatch.setattr(write_module, "locked", another_run_first)
    result = write_module.write(tmp_path, FILES, OPTIONS)
    assert len(made) == 2 and result.orphans == ["pkg/gone.py"]
    assert not (tmp_path / "pkg" / "gone.py").exists()
    assert (tmp_path / "pkg" / "a.py").read_text() == FILES["pkg/a.py"]


def test_files_under_a_missing_folder_are_missing_without_being_opened(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Nothing under a folder that is not there can be: the plan opens none of its files
    (a first generation of 1,000 tools would try 2,000 opens), and still reads the rest."""
    (tmp_path / "pkg").mkdir()
    (tmp_path / "pkg" / "a.py").write_text(FILES["pkg/a.py"])
    files = {**FILES, "pkg/tools/b.py": "B = 1\n", "pkg/tools/deep/c.py": "C = 1\n"}
    opened: list[str] = []
    read_bytes = Path.read_bytes

    def spied(path: Path) -> bytes:
        opened.append(path.relative_to(tmp_path).as_posix())
        return read_bytes(path)

    monkeypatch.setattr(Path, "read_bytes", spied)
    result = write_module.plan(tmp_path, files, OPTIONS)
    assert sorted(result.missing) == ["pkg/tools/b.py", "pkg/tools/deep/c.py", "pyproject.toml"]
    assert result.changed == {} and sorted(opened) == ["pkg/a.py", "pyproject.toml"]
    with pytest.raises(write_module.WriteError):  # still refused below a missing folder
        write_module.plan(tmp_path, {"pkg/tools/../../x.py": ""}, OPTIONS)
