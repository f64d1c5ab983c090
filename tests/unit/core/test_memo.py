"""memo.Bounded: an answer kept until the memo is full, then the memo starts again empty."""

from __future__ import annotations

import pytest

from toolgen.memo import Bounded


def test_a_kept_answer_is_returned_until_the_memo_is_full_then_it_starts_again() -> None:
    memo: Bounded[str, int] = Bounded(2)
    assert memo.keep("a", 1) == 1 and memo.keep("b", 2) == 2
    assert dict(memo) == {"a": 1, "b": 2}
    assert memo.keep("c", 3) == 3
    assert dict(memo) == {"c": 3}  # cleared whole, never past its limit


def test_make_answers_a_missing_key_once_and_without_make_it_is_missing() -> None:
    made: list[str] = []
    memo = Bounded(10, lambda key: made.append(key) or key.upper())
    assert memo["x"] == "X" and memo["x"] == "X" and made == ["x"]
    with pytest.raises(KeyError):
        Bounded[str, str](10)["x"]
