"""A package installed from its project, served after the specs changed: the server says so.

The journey in a fresh virtual environment: generate, install the package (editable, then a
copy), serve it; edit a spec and serve again: a warning names the commands that bring it up
to date; run them as written: the warning is gone.
"""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import pytest

from tests.support.generation import REPO
from tests.support.journeys import (
    fresh_venv,
    from_wheelhouse,
    outside,
    pip,
    toolgen_on_path,
)

SPECS = REPO / "tests" / "golden" / "cases" / "weather" / "specs"
IMPLEMENTATION = """\
import weather
from weather.tools.get_weather import GetWeatherResult, GetWeatherTool


class GetWeather(GetWeatherTool):
    def run(self, arguments):
        return GetWeatherResult(temperature=21.5)


registry = weather.build_registry(GetWeather())
"""
SERVE = ["python", "-m", "weather", "serve", "--stdio", "--registry", "impl:registry"]


@pytest.fixture(scope="module")
def setup(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path, dict[str, str]]:
    """The project (specs, implementation, generated out/), a fresh venv and the environment
    that puts `toolgen` on PATH."""
    root = tmp_path_factory.mktemp("stale")
    project = root / "project"
    shutil.copytree(SPECS, project / "specs")
    (project / "impl.py").write_text(IMPLEMENTATION, "utf-8")
    (project / "pyproject.toml").write_text(
        '[tool.toolgen]\nspecs = "specs"\nout = "out"\npackage = "weather"\n', "utf-8"
    )
    env = toolgen_on_path(root / "bin")
    venv = fresh_venv(root / "venv")
    outside(venv, ["toolgen", "generate"], project, env)
    return project, venv, env


def served(project: Path, venv: Path) -> str:
    """What `serve` says on stderr before serving (stdin is empty: it stops at once)."""
    done = subprocess.run(
        [str(venv / "bin" / SERVE[0]), *SERVE[1:]],
        cwd=project,
        stdin=subprocess.DEVNULL,
        capture_output=True,
        text=True,
        timeout=120,
        env={"PATH": "/usr/bin:/bin"},
    )
    assert done.returncode == 0, done.stderr
    return done.stderr


def edit(project: Path, text: str) -> None:
    spec = project / "specs" / "get_weather.yaml"
    spec.write_text(spec.read_text("utf-8") + f"# {text}\n", "utf-8")


def test_editable_install_warns_until_regenerated(
    setup: tuple[Path, Path, dict[str, str]],
) -> None:
    project, venv, env = setup
    pip(venv, "install", "-e", f"{project / 'out'}[server]")
    assert "warning" not in served(project, venv)
    edit(project, "edited once")
    warning = served(project, venv)
    assert "weather was generated from other specs than" in warning
    assert "run `toolgen generate` in the project, then restart this server" in warning
    outside(venv, ["toolgen", "generate"], project, env)
    assert "warning" not in served(project, venv)


def test_an_installed_copy_warns_with_the_commands_that_reinstall_it(
    setup: tuple[Path, Path, dict[str, str]],
) -> None:
    project, venv, env = setup
    outside(venv, ["toolgen", "generate"], project, env)
    pip(venv, "install", f"{project / 'out'}[server]")
    assert "warning" not in served(project, venv)
    edit(project, "edited twice")
    warning = served(project, venv)
    command = warning.partition("run `")[2].partition("`")[0]
    assert command == "toolgen generate && pip install --force-reinstall --no-deps ./out", warning
    outside(venv, ["bash", "-euc", command], project, {**env, **from_wheelhouse()})
    assert "warning" not in served(project, venv)
    site = next((venv / "lib").glob("python3*/site-packages"))
    assert (site / "weather" / "__init__.py").is_file(), "the copy was replaced, not made editable"
