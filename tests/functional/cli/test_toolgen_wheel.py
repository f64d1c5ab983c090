"""toolgen itself as a distribution: `python -m build` makes a wheel and an sdist from a clone,
and the wheel, installed in a fresh virtual environment, generates what the checkout does.

The clone is of the committed HEAD (what a user or CI checks out). One venv for the module,
which holds `build` and the build backend pyproject.toml requires: `--no-isolation` builds
with it instead of installing it into a fresh environment for the sdist and again for the
wheel (the same backend and the same archives, without two environments made and filled).
"""

from __future__ import annotations

import tarfile
import tomllib
import zipfile
from pathlib import Path

import pytest

from tests.support.generation import REPO, golden_tree
from tests.support.journeys import fresh_venv, outside, pip, toolgen_clone

CASE = REPO / "tests" / "golden" / "cases" / "weather"


@pytest.fixture(scope="module")
def built(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path, Path]:
    """(venv, wheel, sdist), built by `python -m build` from a fresh clone."""
    root = tmp_path_factory.mktemp("toolgen-dist")
    clone = toolgen_clone(root / "toolgen")
    backend = tomllib.loads((clone / "pyproject.toml").read_text("utf-8"))["build-system"]
    venv = fresh_venv(root / "venv", "build", *backend["requires"])
    build = ["python", "-m", "build", "-q", "--no-isolation", "--outdir", str(root / "dist")]
    outside(venv, [*build, str(clone)], root)
    (wheel,) = (root / "dist").glob("toolgen-*.whl")
    (sdist,) = (root / "dist").glob("toolgen-*.tar.gz")
    return venv, wheel, sdist


def test_the_wheel_carries_the_templates_the_runtime_and_the_spec_schema(
    built: tuple[Path, Path, Path],
) -> None:
    _, wheel, _ = built
    names = set(zipfile.ZipFile(wheel).namelist())
    for template in (REPO / "templates").glob("*.jinja"):
        assert f"toolgen/templates/{template.name}" in names, template.name
    source = REPO / "generator" / "toolgen"
    for folder in ("runtime", "runtime_testing"):
        for module in (source / folder).rglob("*.py"):
            assert f"toolgen/{module.relative_to(source).as_posix()}" in names, module
    assert "toolgen/spec/schema.json" in names
    assert not [n for n in names if n.startswith(("tests/", "generated/", "implementations/"))]


def test_the_sdist_holds_the_sources_and_nothing_else(built: tuple[Path, Path, Path]) -> None:
    _, _, sdist = built
    with tarfile.open(sdist) as archive:
        tops = {Path(n).parts[1] for n in archive.getnames() if len(Path(n).parts) > 1}
    # hatchling adds .gitignore (what it excluded) and PKG-INFO to every sdist
    assert tops == {
        "generator",
        "templates",
        "README.md",
        "pyproject.toml",
        "PKG-INFO",
        ".gitignore",
    }


def test_the_installed_wheel_generates_what_the_checkout_does(
    built: tuple[Path, Path, Path], tmp_path: Path
) -> None:
    venv, wheel, _ = built
    pip(venv, "install", str(wheel))
    specs = tmp_path / "specs"
    specs.mkdir()
    for spec in (CASE / "specs").iterdir():
        specs.joinpath(spec.name).write_bytes(spec.read_bytes())
    command = ["toolgen", "generate", "--specs", "specs", "--out", "out", "--package", "weather"]
    outside(venv, command, tmp_path)
    assert golden_tree(tmp_path / "out") == golden_tree(CASE / "expected")
    check = outside(venv, [*command[:1], "check", *command[2:]], tmp_path)
    assert "up to date" in check.stdout
