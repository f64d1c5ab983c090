"""runtime/serving/guard.py: the deadlines a client has to send its request, their defaults and
the environment variables that set others (which tests/functional/serving/test_mcp_serve.py
uses to see a slow client cut off in seconds)."""

from __future__ import annotations

import pytest

from toolgen.runtime.serving.guard import BODY_ENV, BODY_S, HEADERS_ENV, HEADERS_S, deadlines


def test_the_defaults_are_ten_seconds_for_headers_and_thirty_for_a_body() -> None:
    assert (HEADERS_S, BODY_S) == (10.0, 30.0)
    assert deadlines({}) == (10.0, 30.0)


def test_the_environment_sets_other_seconds() -> None:
    assert (HEADERS_ENV, BODY_ENV) == ("TOOLGEN_SERVE_HEADERS_S", "TOOLGEN_SERVE_BODY_S")
    assert deadlines({HEADERS_ENV: "1", BODY_ENV: "2.5"}) == (1.0, 2.5)
    assert deadlines({BODY_ENV: "60"}) == (10.0, 60.0)


@pytest.mark.parametrize("value", ["", "soon", "0", "-1", "nan", "inf"])
def test_what_is_not_a_positive_number_leaves_the_default(value: str) -> None:
    assert deadlines({HEADERS_ENV: value, BODY_ENV: value}) == (10.0, 30.0)


def test_without_a_mapping_they_are_read_from_this_process_environment(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setenv(HEADERS_ENV, "3")
    monkeypatch.delenv(BODY_ENV, raising=False)
    assert deadlines() == (3.0, 30.0)
