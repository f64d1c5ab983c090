"""docs/getting-started.md, run as written: every `sh` block of a journey, in order, under bash
in an empty folder, with nothing of this checkout on the import path.

The page's placeholders are filled in as a user would: toolgen's repository URL with a clone
of this checkout whose `main` is its HEAD (what the page installs and clones). Journeys 1 to 3
run in one folder (each goes on from the last); journey 4 in another, once per test session:
tests/functional/cli/test_builtin_anywhere.py uses the environment it makes.

Their pip runs with settings a user's machine may have too (PIP_NO_INDEX, PIP_FIND_LINKS:
`from_wheelhouse` in tests/support/journeys.py): it installs from a wheelhouse the session
downloads from the registry by one resolution, not from the registry in each command.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

from tests.support.journeys import filled, journey, journey_four, run_script, shared_clone


def test_journeys_one_to_three_your_tools_served_and_checked_in_ci(tmp_path: Path) -> None:
    clone = shared_clone()
    installed = run_script(filled(journey(1), clone), tmp_path)
    assert installed.splitlines()[-1] == "toolgen, version 0.1.0"  # after what pip says
    tools = run_script(filled(journey(2), clone), tmp_path)
    assert json.loads(tools[tools.index("{") : tools.rindex("}") + 1]) == {
        "ok": True,
        "result": {"temperature": 21.5},
    }, tools
    assert tools.splitlines()[-1] == "21.5", "the client in its own venv did not print 21.5"
    assert "up to date" in tools
    ci = run_script(filled(journey(3), clone), tmp_path)
    for hook in ("toolgen lint", "toolgen check", "toolgen breaking"):
        assert re.search(rf"^{hook}\.+Passed$", ci, re.M), ci


def test_journey_four_the_builtin_library_in_another_project() -> None:
    _, printed = journey_four()
    out = printed.splitlines()[-2:]  # after what pip says
    assert out[0] == "notes.txt"
    assert out[1].startswith("Tool 'run_shell' is off on this host: set TOOLGEN_ENABLE_PROCESSES=1")
