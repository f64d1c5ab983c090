"""pytest's set-up for every test: the cache folder, the hypothesis profiles, shared fixtures.

The helpers the tests import live in tests/support/ (`from tests.support.generation import ...`).
"""

from __future__ import annotations

import os
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from hypothesis import settings

# Imported first: it points TOOLGEN_CACHE_DIR at a temporary folder before any build runs.
from tests.support.generation import REPO
from tests.support.ordering import figures, ordered

# The built-in library's generated package (generated/toolgen_builtin), which implementations/
# and the built-in tools' tests import; the repository itself is on the path as the rootdir.
sys.path.insert(0, str(REPO / "generated"))

# No test depends on luck: every property test draws the same examples on every run and machine.
# HYPOTHESIS_PROFILE=explore draws new ones (for a local bug hunt, never in CI). Nor on the
# machine's load: no per-example deadline (speed is measured in benchmarks/, not asserted).
settings.register_profile(
    "derandomized", derandomize=True, database=None, print_blob=True, deadline=None
)
settings.register_profile("explore", derandomize=False, print_blob=True)
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "derandomized"))


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """Under xdist's `load` scheduling, the modules of the known-long tests first
    (tests/support/ordering.py), so that the run does not end on one with the other worker idle."""
    workerinput = getattr(config, "workerinput", None)
    if workerinput is None or config.getoption("dist", "no") not in ("load", "no"):
        return  # in one process the order is the collection's (fixtures set up once)
    # ("no" in a worker: -n without --dist, which the controller made "load")
    seconds = figures([item.nodeid for item in items])
    modules = [item.nodeid.partition("::")[0] for item in items]
    items[:] = ordered(items, seconds, modules, int(workerinput["workercount"]))


@pytest.fixture
def write_specs(tmp_path: Path):  # type: ignore[no-untyped-def]
    """Write {relative path: text} under tmp_path/specs and return that folder."""

    def write(files: dict[str, str]) -> Path:
        root = tmp_path / "specs"
        for relative, text in files.items():
            path = root / relative
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_text(text, "utf-8")
        return root

    return write


@pytest.fixture(scope="session")
def suite() -> Iterator[Any]:
    """The official JSON-Schema-Test-Suite as one generated package (tests/support/suite_support.py)."""
    from tests.support.suite_support import built

    yield from built()
