"""Shared by tests/unit/binding/test_binding.py and tests/unit/binding/test_scaffold.py: temp projects, run in process, forgotten after."""

from __future__ import annotations

import contextlib
import importlib
import sys
from collections.abc import Iterator
from pathlib import Path

from click.testing import CliRunner

from tests.support.generation import REPO, generate
from toolgen.cli import main

WEATHER = REPO / "tests" / "golden" / "cases" / "weather" / "specs" / "get_weather.yaml"
SEND_NOTE = """\
name: send_note
description: Send a note. The key is the host's.
parameters:
  type: object
  properties:
    text: {type: string, description: What to say}
  required: [text]
returns:
  type: object
  properties:
    id: {type: string}
  required: [id]
injected:
  api_key: {type: string, x-secret: true, description: Secret key}
"""


@contextlib.contextmanager
def forgetting(root: Path, *names: str) -> Iterator[None]:
    """Run with `names` (and their submodules) unloaded; afterwards unload whatever was imported
    from under `root` or under those names, and put sys.path and the unloaded modules back."""
    path = list(sys.path)

    def ours(name: str, module: object) -> bool:
        # A namespace package (a folder without __init__.py) has no __file__, only __path__.
        places = [
            getattr(module, "__file__", None) or "",
            *(getattr(module, "__path__", None) or []),
        ]
        return any(name == n or name.startswith(n + ".") for n in names) or any(
            str(place).startswith(str(root)) for place in places
        )

    saved = {name: m for name, m in sys.modules.items() if ours(name, m)}
    for name in saved:
        del sys.modules[name]
    importlib.invalidate_caches()
    try:
        yield
    finally:
        for name in [n for n, m in sys.modules.items() if ours(n, m)]:
            del sys.modules[name]
        sys.modules.update(saved)
        sys.path[:] = path


class Project:
    """A temp project: pyproject.toml with [tool.toolgen], specs/, the generated package in gen/."""

    def __init__(
        self,
        root: Path,
        specs: dict[str, str],
        *,
        package: str = "weather",
        implementations: str | None = "impls:registry",
    ) -> None:
        self.root, self.package = root, package
        (root / "specs").mkdir(parents=True)
        for name, text in specs.items():
            (root / "specs" / name).write_text(text, "utf-8")
        setting = f'implementations = "{implementations}"\n' if implementations else ""
        (root / "pyproject.toml").write_text(
            f'[tool.toolgen]\nspecs = "specs"\nout = "gen"\npackage = "{package}"\n{setting}',
            "utf-8",
        )
        generate(root / "specs", root / "gen", package)

    def write(self, relative: str, text: str) -> Path:
        path = self.root / relative
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, "utf-8")
        return path

    def line_of(self, relative: str, text: str) -> int:
        """1-based number of the first line of a file that contains `text`."""
        lines = (self.root / relative).read_text("utf-8").split("\n")
        return next(i for i, line in enumerate(lines, 1) if text in line)

    def run(self, *args: str) -> tuple[int, str, str]:
        """`toolgen ARGS` in the project's folder, in this process, its imports forgotten after."""
        with contextlib.chdir(self.root), forgetting(self.root, self.package):
            result = CliRunner().invoke(main, list(args))
        if result.exception is not None and not isinstance(result.exception, SystemExit):
            raise result.exception
        return result.exit_code, result.stdout, result.stderr


def weather_project(root: Path, **options: str | None) -> Project:
    """get_weather (no injected values) and send_note (an injected key), with an empty `impls` package."""
    project = Project(
        root,
        {"get_weather.yaml": WEATHER.read_text("utf-8"), "send_note.yaml": SEND_NOTE},
        **options,
    )  # type: ignore[arg-type]
    project.write("impls/__init__.py", "")
    return project
