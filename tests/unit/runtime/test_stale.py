"""runtime/serving/stale.py: the served package against the specs of its project."""

from __future__ import annotations

import shutil
from pathlib import Path
from types import SimpleNamespace

import pytest

from tests.support.generation import REPO
from toolgen.load.specs import load_specs
from toolgen.runtime.serving.stale import project, specs_sha256, stale

CASES = REPO / "tests" / "golden" / "cases"


@pytest.mark.parametrize(
    "specs",
    [REPO / "schemas", *sorted(p / "specs" for p in CASES.iterdir() if (p / "specs").is_dir())],
    ids=lambda p: p.parent.name if p.name == "specs" else p.name,
)
def test_the_digest_is_toolgens(specs: Path) -> None:
    assert specs_sha256(specs) == load_specs(specs).sha256


def test_the_digest_skips_what_toolgen_skips(tmp_path: Path) -> None:
    (tmp_path / "a.yaml").write_text("name: a\n")
    (tmp_path / ".hidden").mkdir()
    (tmp_path / ".hidden" / "b.yaml").write_text("name: b\n")
    (tmp_path / "notes.txt").write_text("not a spec")
    (tmp_path / "sub").mkdir()
    (tmp_path / "sub" / "c.JSON").write_text("{}")
    assert specs_sha256(tmp_path) == load_specs(tmp_path).sha256


def _project(root: Path, out: str = "out") -> SimpleNamespace:
    """A project generating `kit` into `out`, and a stand-in for the package module."""
    shutil.copytree(CASES / "weather" / "specs", root / "specs")
    (root / "pyproject.toml").write_text(
        f'[tool.toolgen]\nspecs = "specs"\nout = "{out}"\npackage = "kit"\n'
    )
    (root / out / "kit").mkdir(parents=True)
    init = root / out / "kit" / "__init__.py"
    init.write_text("")
    return SimpleNamespace(SPEC_SHA256=specs_sha256(root / "specs"), __file__=str(init))


def test_current_specs_say_nothing_edited_ones_name_the_command(tmp_path: Path) -> None:
    module = _project(tmp_path)
    assert stale("kit", module, cwd=tmp_path) is None
    spec = next((tmp_path / "specs").glob("*.yaml"))
    spec.write_text(spec.read_text() + "\n# edited\n")
    warning = stale("kit", module, cwd=Path("/"))  # found from the package's own folder
    assert warning is not None
    assert warning.startswith("kit was generated from other specs than")
    assert "run `toolgen generate` in the project, then restart this server" in warning


def test_an_installed_copy_is_told_to_reinstall(tmp_path: Path) -> None:
    project_root = tmp_path / "project"
    module = _project(project_root)
    copy = tmp_path / "site-packages" / "kit" / "__init__.py"
    copy.parent.mkdir(parents=True)
    copy.write_text("")
    installed = SimpleNamespace(SPEC_SHA256="0" * 64, __file__=str(copy))
    warning = stale("kit", installed, cwd=project_root / "specs")  # found from the cwd
    assert warning is not None
    assert "toolgen generate && pip install --force-reinstall --no-deps ./out" in warning
    assert "pip install -e './out[server]'" in warning
    assert (
        stale("kit", SimpleNamespace(**{**vars(module), "__file__": str(copy)}), cwd=project_root)
        is None
    )


def test_no_project_or_another_package_says_nothing(tmp_path: Path) -> None:
    module = _project(tmp_path / "project")
    elsewhere = tmp_path / "elsewhere" / "kit" / "__init__.py"
    elsewhere.parent.mkdir(parents=True)
    elsewhere.write_text("")
    lost = SimpleNamespace(SPEC_SHA256="0" * 64, __file__=str(elsewhere))
    assert stale("kit", lost, cwd=tmp_path / "elsewhere") is None
    assert project("other", [Path(module.__file__).parent]) is None
    assert stale("kit", SimpleNamespace(__file__=module.__file__), cwd=tmp_path) is None
