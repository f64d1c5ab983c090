"""Golden cases: the complete generated output of representative specs is pinned.

Each tests/golden/cases/<case>/ has specs/ and expected/ (what `toolgen generate --package <case>`
writes, but for the verbatim copies of toolgen's runtime, which tests/unit/runtime/test_runtime.py checks
once, and with the runtime's digests masked: conftest.golden_tree). Regenerate with
TOOLGEN_UPDATE_GOLDEN=1 and review the diff. Importing and type-checking use the output
generated afresh (conftest.case_output), which holds the runtime.
"""

from __future__ import annotations

import importlib
import subprocess
import sys
from pathlib import Path

import pytest

from tests.support.generation import CASES as CASES_DIR
from tests.support.generation import UPDATE_GOLDEN, case_output, golden_tree, imported, write_golden

CASES = sorted(p for p in CASES_DIR.iterdir() if (p / "specs").is_dir())


@pytest.mark.parametrize("case", CASES, ids=lambda p: p.name)
def test_case_output_is_pinned(case: Path) -> None:
    out = case_output(case.name)
    expected = case / "expected"
    if UPDATE_GOLDEN:
        write_golden(out, expected)
    assert golden_tree(out) == golden_tree(expected), (
        f"generated output of {case.name} changed; rerun with TOOLGEN_UPDATE_GOLDEN=1 and review"
    )
    assert not any(
        (expected / case.name / folder).exists() for folder in ("_runtime", "testing/_support")
    )


@pytest.mark.parametrize("case", CASES, ids=lambda p: p.name)
def test_case_output_imports(case: Path) -> None:
    with imported(case_output(case.name), case.name) as package:
        assert package.TOOL_NAMES
        # Large input is judged by a class's fail-fast twin: every generated class has one.
        failfast = importlib.import_module(f"{case.name}._runtime.validation.failfast")
        for name in package.TOOL_NAMES:
            info = package.tool_info(name)
            assert info.name == name
            assert package.tool_info(info.provider_name) is info
            assert failfast.twin(info.arguments) is not None
            assert failfast.twin(info.result) is not None


def test_expected_output_passes_mypy_strict() -> None:
    """One mypy run over every case's package (mypy is slow to start)."""
    args = [sys.executable, "-m", "mypy", "--strict", "--no-incremental"]
    for case in CASES:
        args += ["-p", case.name]
    env_path = ":".join(str(case_output(case.name)) for case in CASES)
    result = subprocess.run(
        args, capture_output=True, text=True, env={"MYPYPATH": env_path, "PATH": ""}
    )
    assert result.returncode == 0, result.stdout + result.stderr
