"""Golden cases: the complete generated output of representative specs is pinned.

Each tests/cases/<case>/ has specs/ and expected/ (what `toolgen generate --package <case>`
writes). Regenerate with TOOLGEN_UPDATE_GOLDEN=1 and review the diff.
"""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from conftest import UPDATE_GOLDEN, generate, imported, tree

CASES = sorted(p for p in (Path(__file__).parent / "cases").iterdir() if (p / "specs").is_dir())


@pytest.mark.parametrize("case", CASES, ids=lambda p: p.name)
def test_case_output_is_pinned(case: Path, tmp_path: Path) -> None:
    out = tmp_path / "out"
    generate(case / "specs", out, case.name)
    expected = case / "expected"
    if UPDATE_GOLDEN:
        shutil.rmtree(expected, ignore_errors=True)
        shutil.copytree(out, expected)
    assert tree(out) == tree(expected), f"generated output of {case.name} changed; rerun with TOOLGEN_UPDATE_GOLDEN=1 and review"


@pytest.mark.parametrize("case", CASES, ids=lambda p: p.name)
def test_case_output_imports(case: Path) -> None:
    with imported(case / "expected", case.name) as package:
        assert package.TOOL_NAMES
        for name in package.TOOL_NAMES:
            info = package.tool_info(name)
            assert info.name == name
            assert package.tool_info(info.provider_name) is info


def test_expected_output_passes_mypy_strict() -> None:
    """One mypy run over every case's package (mypy is slow to start)."""
    args = [sys.executable, "-m", "mypy", "--strict", "--no-incremental"]
    for case in CASES:
        args += ["-p", case.name]
    env_path = ":".join(str(case / "expected") for case in CASES)
    result = subprocess.run(args, capture_output=True, text=True, env={"MYPYPATH": env_path, "PATH": ""})
    assert result.returncode == 0, result.stdout + result.stderr
