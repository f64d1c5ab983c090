"""`multiple_test` (the compiled `multipleOf` of a generated field) gives `is_multiple`'s
verdict, the exact one (the decimal numbers the JSON texts write), for any finite float and
integer: its shortcut for floats that are a decimal with the step's places never differs."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from toolgen.runtime.validation.exact.values import is_multiple, multiple_test

STEPS = [0.01, 0.1, 0.25, 0.5, 2.5, 5, 3, 0.001, 0.0075, 1e-7, 12.5]
# Floats of every size, and the decimals a model writes (a few places, often a multiple).
NUMBERS = st.one_of(
    st.floats(allow_nan=False, allow_infinity=False),
    st.integers(-(10**6), 10**6).map(lambda n: n / 100),
    st.integers(-(10**9), 10**9).map(lambda n: n / 1000),
    st.integers(-(10**18), 10**18).map(lambda n: n * 0.01),
    st.integers(-(2**60), 2**60),
)


@pytest.mark.parametrize("step", STEPS)
@settings(max_examples=300, deadline=None)
@given(NUMBERS)
def test_the_compiled_test_gives_the_exact_verdict(step: float, value: float) -> None:
    assert multiple_test(step)(value) == is_multiple(value, step), (value, step)


@pytest.mark.parametrize(
    ("value", "step", "expected"),
    [
        (120.5, 0.01, True),
        (9.99, 0.01, True),
        (9.999, 0.01, False),
        (0.3, 0.1, True),
        (-0.0, 0.01, True),
        (2.0**52, 0.01, True),
        (0.07, 0.0075, False),
        (1e-7, 1e-7, True),
    ],
)
def test_known_verdicts(value: float, step: float, expected: bool) -> None:
    assert multiple_test(step)(value) is expected
