"""The official MCP conformance suite against what toolgen generates: its server scenarios
against a generated package serving the suite's test tools, its client scenarios against the
generated typed client. The suite runs with Node (`npm ci` of tests/data/mcp/suite: the suite and
the TypeScript SDK it was built against); without Node and npm these tests skip, saying why."""

from __future__ import annotations

import re
import shutil
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.support.mcp_support import (
    IMPLEMENTATIONS,
    PACKAGE,
    conformance_package,
    python_path,
    serving,
)

SUITE = Path(__file__).parents[2] / "data" / "mcp" / "suite"
# The suite's tools-* and json-schema-2020-12 server scenarios, and the lifecycle.
SERVER = [
    "server-initialize",
    "tools-list",
    "tools-call-simple-text",
    "tools-call-image",
    "tools-call-audio",
    "tools-call-embedded-resource",
    "tools-call-mixed-content",
    "tools-call-with-logging",
    "tools-call-error",
    "tools-call-with-progress",
    "tools-call-sampling",
    "tools-call-elicitation",
    "json-schema-2020-12",
]
# Sampling and elicitation are requests of the server's own during a call: on the handshake
# revisions the suite speaks, they need a session (`--stateful`); everything else passes stateless.
NEEDS_SESSION = {"tools-call-sampling", "tools-call-elicitation"}
CLIENT = ["initialize", "tools_call"]


@pytest.fixture(scope="module")
def suite(tmp_path_factory: pytest.TempPathFactory) -> Path:
    if shutil.which("npm") is None or shutil.which("node") is None:
        pytest.skip("the MCP conformance suite runs with Node: no node or npm on PATH")
    folder = tmp_path_factory.mktemp("suite")
    for name in ("package.json", "package-lock.json"):
        shutil.copy(SUITE / name, folder / name)
    done = subprocess.run(
        ["npm", "ci", "--no-audit", "--no-fund", "--loglevel=error"],
        cwd=folder,
        capture_output=True,
        text=True,
        timeout=300,
    )
    if done.returncode != 0:
        pytest.skip(
            f"npm could not install the MCP conformance suite: {done.stderr.strip()[-500:]}"
        )
    return folder / "node_modules" / ".bin" / "conformance"


@pytest.fixture(scope="module")
def package(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return conformance_package(tmp_path_factory.mktemp("conformance"))


@pytest.fixture(scope="module", params=["stateless", "stateful"])
def server(request: pytest.FixtureRequest, package: Path) -> Iterator[tuple[str, str]]:
    options = ["--stateful"] if request.param == "stateful" else ["--workers", "2"]
    env = python_path(package, IMPLEMENTATIONS)
    with serving(PACKAGE, "conformance_impl:registry", env, *options) as url:
        yield request.param, url


def _passed(output: str) -> tuple[int, int]:
    found = re.search(r"Passed: (\d+)/(\d+), (\d+) failed", output)
    assert found, output
    return int(found[1]), int(found[2])


@pytest.mark.parametrize("scenario", SERVER)
def test_server_scenario(suite: Path, server: tuple[str, str], scenario: str) -> None:
    mode, url = server
    if mode == "stateless" and scenario in NEEDS_SESSION:
        pytest.skip(
            "the server's own requests on a handshake revision need a session: run stateful"
        )
    done = subprocess.run(
        [str(suite), "server", "--url", url, "--scenario", scenario],
        capture_output=True,
        text=True,
        timeout=120,
    )
    passed, total = _passed(done.stdout)
    assert passed == total and total >= 1 and done.returncode == 0, done.stdout + done.stderr


@pytest.mark.parametrize("scenario", CLIENT)
def test_client_scenario(suite: Path, package: Path, scenario: str) -> None:
    client = f"{sys.executable} {IMPLEMENTATIONS / 'conformance_client.py'}"
    done = subprocess.run(
        [str(suite), "client", "--command", client, "--scenario", scenario],
        capture_output=True,
        text=True,
        timeout=120,
        env=python_path(package, IMPLEMENTATIONS),
    )
    output = done.stdout + done.stderr
    passed, total = _passed(output)
    assert passed == total and total >= 1 and "OVERALL: PASSED" in output, output
