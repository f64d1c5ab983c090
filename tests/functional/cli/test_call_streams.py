"""`toolgen call` as a script uses it: the result alone on stdout, everything else on stderr.

Run as a subprocess in a project of its own ([tool.toolgen] names the package and the
implementations), so that stdout is exactly what a pipe (`toolgen call ... | jq`) reads.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

SPEC = """\
name: forecast
description: The forecast for a city.
parameters:
  type: object
  x-repair: true
  properties:
    location:
      type: string
      description: City and country.
      x-renamed-from: {name: loc, sunset: "2030-06-30"}
  required: [location]
returns:
  type: object
  properties:
    summary: {type: string}
  required: [summary]
"""
IMPLEMENTATION = """\
from weather import build_registry
from weather.tools.forecast import ForecastResult, ForecastTool


class Forecast(ForecastTool):
    def run(self, arguments):
        return ForecastResult(summary=f"sunny in {arguments.location}")


def registry():
    return build_registry(Forecast())
"""


@pytest.fixture(scope="module")
def project(tmp_path_factory: pytest.TempPathFactory) -> Path:
    root = tmp_path_factory.mktemp("call-project")
    (root / "specs").mkdir()
    (root / "specs" / "forecast.yaml").write_text(SPEC, "utf-8")
    (root / "impl.py").write_text(IMPLEMENTATION, "utf-8")
    (root / "pyproject.toml").write_text(
        '[tool.toolgen]\nspecs = "specs"\nout = "out"\npackage = "weather"\n'
        'implementations = "impl:registry"\n',
        "utf-8",
    )
    assert toolgen(root, "generate").returncode == 0
    return root


def toolgen(cwd: Path, *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "toolgen", *args], cwd=cwd, capture_output=True, text=True
    )


def test_repairs_and_deprecations_go_to_stderr_the_result_alone_to_stdout(project: Path) -> None:
    done = toolgen(project, "call", "forecast", '```json\n{"loc": "Oslo"}\n```')
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout) == {"ok": True, "result": {"summary": "sunny in Oslo"}}
    warnings = [line for line in done.stderr.splitlines() if line.startswith("toolgen: warning:")]
    assert any("removed a Markdown code fence" in line for line in warnings), done.stderr
    assert any("'loc'" in line and "location" in line for line in warnings), done.stderr


def test_a_clean_call_prints_nothing_but_the_result(project: Path) -> None:
    done = toolgen(project, "call", "forecast", '{"location": "Oslo"}')
    assert done.returncode == 0 and "warning" not in done.stderr, done.stderr
    assert json.loads(done.stdout)["result"] == {"summary": "sunny in Oslo"}


def test_a_failed_call_is_json_on_stdout_too(project: Path) -> None:
    done = toolgen(project, "call", "forecast", '{"place": "Oslo"}')
    assert done.returncode == 1
    assert json.loads(done.stdout)["error"]["kind"] == "invalid_arguments"
