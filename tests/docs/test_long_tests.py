"""The tests the suite runs first under xdist (tests/support/ordering.py) exist, and are dealt
to every worker's first chunk, longest first."""

from __future__ import annotations

import re

from tests.support.generation import REPO
from tests.support.ordering import LONG, key, ordered


def test_each_long_test_names_a_test_function_of_its_file() -> None:
    missing = []
    for nodeid in LONG:
        path, _, name = nodeid.partition("::")
        source = REPO / path
        text = source.read_text("utf-8") if source.is_file() else ""
        if not re.search(rf"^(async )?def {re.escape(name)}\(", text, re.MULTILINE):
            missing.append(nodeid)
    assert not missing, missing


def test_the_long_tests_come_first_dealt_to_each_workers_first_chunk() -> None:
    items = [f"t{i}" for i in range(40)]
    seconds: list[float | None] = [None] * 40
    for i, s in {3: 10.0, 20: 50.0, 33: 30.0, 39: 20.0}.items():
        seconds[i] = s
    order = ordered(items, seconds, workers=2)
    assert sorted(order) == sorted(items)
    chunk = 40 // 2 // 4  # the first chunk xdist sends each of two workers
    assert order[:2] == ["t20", "t39"]  # worker one: 50 s, then 20 s
    assert order[chunk : chunk + 2] == ["t33", "t3"]  # worker two: 30 s, then 10 s
    rest = [item for item in order if item not in {"t3", "t20", "t33", "t39"}]
    assert rest == [item for item in items if item not in {"t3", "t20", "t33", "t39"}]


def test_without_long_tests_the_order_is_unchanged() -> None:
    items = list(range(7))
    assert ordered(items, [None] * 7, workers=3) == items


def test_key_drops_the_parameters() -> None:
    assert key("a_test.py::test_b[x-1]") == "a_test.py::test_b"
