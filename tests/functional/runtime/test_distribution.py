"""The generated package as a product: deterministic, installable alone, usable without toolgen."""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
import tomllib
from pathlib import Path

import pydantic

from tests.support.generation import REPO, case_output, golden_tree, tree

CASES = REPO / "tests" / "golden" / "cases"


def _toolgen(*args: str, cwd: Path, seed: str = "0") -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "PYTHONHASHSEED": seed, "TOOLGEN_NO_CACHE": "1"}
    return subprocess.run(
        [sys.executable, "-m", "toolgen", *args], cwd=cwd, env=env, capture_output=True, text=True
    )


def test_same_specs_give_identical_trees_whatever_the_hash_seed_and_file_order(
    tmp_path: Path,
) -> None:
    sources = [
        p
        for case in ("library", "refs", "weather")
        for p in sorted((CASES / case / "specs").glob("*"))
    ]
    outputs = []
    for seed, order in (("1", sources), ("4242", list(reversed(sources)))):
        specs = tmp_path / f"specs-{seed}"
        specs.mkdir()
        for source in order:  # created in a different order each time
            shutil.copy(source, specs / source.name)
        out = tmp_path / f"out-{seed}"
        result = _toolgen(
            "generate",
            "--specs",
            str(specs),
            "--out",
            str(out),
            "--package",
            "pkg",
            cwd=tmp_path,
            seed=seed,
        )
        assert result.returncode == 0, result.stderr
        outputs.append(tree(out))
    assert outputs[0] == outputs[1]
    assert len(outputs[0]) > 10


def test_generate_works_from_any_directory_with_templates_from_the_installed_package(
    tmp_path: Path,
) -> None:
    elsewhere = tmp_path / "somewhere" / "else"
    elsewhere.mkdir(parents=True)
    result = _toolgen(
        "generate",
        "--specs",
        str(CASES / "weather" / "specs"),
        "--out",
        "out",
        "--package",
        "weather",
        cwd=elsewhere,
    )
    assert result.returncode == 0, result.stderr
    assert golden_tree(elsewhere / "out") == golden_tree(CASES / "weather" / "expected")


PYDANTIC = (
    "pydantic",
    "pydantic_core",
    "typing_extensions",
    "annotated_types",
    "typing_inspection",
)
# The `testing` extra: hypothesis, jsonschema and pytest, with their own dependencies.
TESTING = (
    "pytest",
    "_pytest",
    "pluggy",
    "iniconfig",
    "packaging",
    "pygments",
    "py",
    "hypothesis",
    "_hypothesis_globals",
    "attr",
    "attrs",
    "sortedcontainers",
    "jsonschema",
    "jsonschema_specifications",
    "referencing",
    "rpds",
)


def _site(tmp_path: Path, modules: tuple[str, ...]) -> Path:
    """A folder holding (links to) just these installed modules: the isolated interpreter's path."""
    site = tmp_path / "site"
    site.mkdir()
    for module in modules:
        spec = __import__(module)
        location = Path(spec.__file__)
        source = location.parent if location.name == "__init__.py" else location
        (site / source.name).symlink_to(source)
    return site


def isolated(site: Path) -> dict[str, str]:
    """The environment of an interpreter that sees `site` and the library case's package, and
    nothing else (run it with -S)."""
    return {
        "PYTHONPATH": os.pathsep.join([str(site), str(case_output("library"))]),
        "PATH": os.environ.get("PATH", ""),
        "PYTHONDONTWRITEBYTECODE": "1",
    }


def test_generated_package_works_with_pydantic_and_without_toolgen(tmp_path: Path) -> None:
    """An isolated interpreter whose path holds only pydantic (and its dependencies) and the package."""
    site = _site(tmp_path, PYDANTIC)
    script = (
        "import sys\n"
        "try:\n    import toolgen\nexcept ImportError:\n    pass\nelse:\n    sys.exit('toolgen is importable')\n"
        "import library\n"
        "from library.tools.send_email import SendEmailArguments, SendEmailResult, SendEmailTool\n"
        "class Send(SendEmailTool):\n"
        "    def run(self, arguments, injected):\n"
        "        assert injected.smtp_password == 's3cret'\n"
        "        return SendEmailResult(message_id='<1@x>')\n"
        "r = library.build_registry(Send())\n"
        'ok = r.call(\'send-email\', \'{"to": ["a@b.c"], "subject": "s", "body": "b"}\', injected={\'smtp_password\': \'s3cret\'})\n'
        "assert ok.ok and ok.to_dict() == {'ok': True, 'result': {'message_id': '<1@x>'}}, ok\n"
        'bad = r.call(\'send-email\', \'{"to": [], "subjet": "s", "body": "b"}\', injected={\'smtp_password\': \'s3cret\'})\n'
        "assert not bad.ok and 'did you mean \"subject\"' in bad.text() and 's3cret' not in bad.text(), bad.text()\n"
        "assert library.tool_definitions('openai')[0]['function']['name'] == 'done'\n"
        "assert 'redis' not in sys.modules  # the in-process store: no redis client needed\n"
        "try:\n    library.build_registry(Send(), store='redis://127.0.0.1:1/0')\n"
        "except ImportError as exc:\n    assert 'redis` extra' in str(exc), exc\n"
        "else:\n    sys.exit('a redis store without redis')\n"
        "print('ok')\n"
    )
    env = isolated(site)
    result = subprocess.run(
        [sys.executable, "-S", "-c", script], env=env, capture_output=True, text=True
    )
    assert result.returncode == 0, result.stdout + result.stderr
    assert result.stdout.strip() == "ok"
    assert pydantic.VERSION  # the symlinked pydantic is the one toolgen's tests run with


def test_generated_testing_subpackage_works_with_its_extra_and_without_toolgen(
    tmp_path: Path,
) -> None:
    """`<package>.testing` needs hypothesis and jsonschema (the `testing` extra), not toolgen."""
    site = _site(tmp_path, PYDANTIC + TESTING)
    script = (
        "import sys\n"
        "try:\n    import toolgen\nexcept ImportError:\n    pass\nelse:\n    sys.exit('toolgen is importable')\n"
        "import library\n"
        "from hypothesis import settings\n"
        "from library.testing import ContractViolation, check_contract, contract\n"
        "from library.tools.done import DoneResult, DoneTool\n"
        "class Done(DoneTool):\n"
        "    def run(self, arguments):\n"
        "        return DoneResult(arguments.summary)\n"
        "class Broken(DoneTool):\n"
        "    def run(self, arguments):\n"
        "        if len(arguments.summary) > 2:\n"
        "            raise KeyError(arguments.summary)\n"
        "        return DoneResult(arguments.summary)\n"
        "quick = settings(max_examples=30, database=None)\n"
        "check_contract(library.build_registry(Done()), contract('done'), settings=quick)\n"
        "try:\n"
        "    check_contract(library.build_registry(Broken()), contract('done'), settings=quick)\n"
        "except ContractViolation as exc:\n"
        "    print(str(exc).splitlines()[-1])\n"
    )
    env = {**isolated(site), "HYPOTHESIS_STORAGE_DIRECTORY": str(tmp_path / "hypothesis")}
    result = subprocess.run(
        [sys.executable, "-S", "-c", script], env=env, capture_output=True, text=True, cwd=tmp_path
    )
    assert result.returncode == 0, result.stdout + result.stderr
    assert result.stdout.strip() == """toolgen call done '{"summary": "000"}'"""


def test_the_contract_test_class_runs_under_pytest_with_the_testing_extra_alone(
    tmp_path: Path,
) -> None:
    """The documented contract test (a `ContractTests` subclass) runs where the package's
    `testing` extra is all that is installed: the extra names pytest."""
    extra = tomllib.loads((case_output("library") / "pyproject.toml").read_text("utf-8"))
    assert any(r.startswith("pytest") for r in extra["project"]["optional-dependencies"]["testing"])
    site = _site(tmp_path, PYDANTIC + TESTING)
    (tmp_path / "test_done.py").write_text(
        "import pytest\n"
        "import library\n"
        "from library.testing import ContractTests\n"
        "from library.tools.done import DoneResult, DoneTool\n\n"
        "class Done(DoneTool):\n"
        "    def run(self, arguments):\n"
        "        return DoneResult(arguments.summary)\n\n"
        "class TestContracts(ContractTests):\n"
        "    max_examples = 10\n\n"
        "    @pytest.fixture\n"
        "    def registry(self):\n"
        "        return library.build_registry(Done())\n",
        "utf-8",
    )
    env = {**isolated(site), "HYPOTHESIS_STORAGE_DIRECTORY": str(tmp_path / "hypothesis")}
    result = subprocess.run(
        [sys.executable, "-S", "-m", "pytest", "-q", "-p", "no:cacheprovider", "test_done.py"],
        env=env,
        capture_output=True,
        text=True,
        cwd=tmp_path,
    )
    assert result.returncode == 0, result.stdout + result.stderr
    assert re.search(r"\b\d+ passed", result.stdout), result.stdout
