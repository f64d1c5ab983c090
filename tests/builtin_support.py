"""Shared by the tests of the built-in tool library (tests/test_builtin_*.py)."""

from __future__ import annotations

import json
import sys
import threading
from collections.abc import Callable
from typing import Any

import yaml

from conftest import REPO

sys.path[:0] = [str(REPO / "generated"), str(REPO)]

SCHEMAS = REPO / "schemas"


def specs(family: str) -> list[dict[str, Any]]:
    """The tool specs of one folder of schemas/ (files holding only $defs are skipped)."""
    found = []
    for path in sorted((SCHEMAS / family).glob("*.yaml")):
        document = yaml.safe_load(path.read_text("utf-8"))
        if "name" in document:
            found.append(document)
    return found


def check_examples(family: str, registry: Any) -> int:
    """Run every example of a family's specs; each must succeed (or fail as it says) with its result."""
    ran = 0
    for spec in specs(family):
        for example in spec.get("examples", []):
            outcome = registry.call(spec["name"], example["arguments"])
            where = f"{spec['name']} example {json.dumps(example['arguments'])[:80]}"
            if "error" in example:
                assert outcome.failure is not None and outcome.failure.kind == example["error"], where
            else:
                assert outcome.ok, f"{where}: {outcome.text()}"
                if "result" in example:
                    assert outcome.to_dict()["result"] == example["result"], where
            ran += 1
    return ran


def within(seconds: float, function: Callable[[], Any]) -> Any:
    """function(), failing the test (instead of hanging it) when it takes longer than `seconds`."""
    box: dict[str, Any] = {}

    def target() -> None:
        try:
            box["value"] = function()
        except BaseException as exc:  # noqa: BLE001 - re-raised in the test's thread
            box["error"] = exc

    thread = threading.Thread(target=target, daemon=True)
    thread.start()
    thread.join(seconds)
    assert not thread.is_alive(), f"still running after {seconds} s"
    if "error" in box:
        raise box["error"]
    return box["value"]
