"""The tests the suite runs first under xdist (tests/support/ordering.py) exist, and their
modules are moved whole, the heaviest first, shared between the workers' first chunks."""

from __future__ import annotations

import re

from tests.support.generation import REPO
from tests.support.ordering import LONG, figures, key, ordered


def test_each_long_test_names_a_test_function_of_its_file() -> None:
    missing = []
    for nodeid in LONG:
        path, _, name = nodeid.partition("::")
        source = REPO / path
        text = source.read_text("utf-8") if source.is_file() else ""
        if not re.search(rf"^(async )?def {re.escape(name)}\(", text, re.MULTILINE):
            missing.append(nodeid)
    assert not missing, missing


def test_the_long_tests_modules_come_first_whole_shared_between_the_workers() -> None:
    modules = ["a"] * 4 + ["b"] * 10 + ["c"] * 12 + ["d"] * 6 + ["e"] * 8  # 40 items
    items = [f"{module}{i}" for i, module in enumerate(modules)]
    seconds: list[float | None] = [None] * 40
    for i, s in {15: 50.0, 16: 5.0, 30: 30.0, 39: 20.0, 2: 10.0}.items():
        seconds[i] = s
    order = ordered(items, seconds, modules, workers=2)

    def of(*names: str) -> list[str]:
        return [item for name in names for item in items if item[0] == name]

    # c (55 s) to worker one; then d (30 s), e (20 s) and a (10 s) each to the less loaded,
    # worker two; worker one's first chunk overfilled (12 items, not 5) moves the rest along.
    assert order == of("c") + of("d", "e", "a") + of("b")


def test_a_short_first_share_is_filled_up_to_the_chunk() -> None:
    modules = ["a"] * 2 + ["b"] * 30 + ["c"] * 8
    items = list(range(40))
    seconds: list[float | None] = [None] * 40
    seconds[0], seconds[39] = 20.0, 10.0
    order = ordered(items, seconds, modules, workers=2)
    chunk = 40 // 2 // 4
    assert order[:2] == [0, 1]  # module a, to worker one, then b's first tests to fill its chunk
    assert order[2:chunk] == list(range(2, chunk))
    assert order[chunk : chunk + 8] == list(range(32, 40))  # module c, worker two's chunk
    assert order[chunk + 8 :] == list(range(chunk, 32))


def test_without_long_tests_the_order_is_unchanged() -> None:
    items = list(range(7))
    assert ordered(items, [None] * 7, ["m"] * 7, workers=3) == items


def test_key_drops_the_parameters() -> None:
    assert key("a_test.py::test_b[x-1]") == "a_test.py::test_b"


def test_a_parametrized_long_test_counts_once() -> None:
    name = next(iter(LONG))
    found = figures([f"{name}[a]", f"{name}[b]", "x_test.py::test_y", name])
    assert found == [LONG[name], None, None, None]
