"""A call laid out again, its flat text remembered, is laid out as a fresh equal call is."""

from __future__ import annotations

import pytest

from toolgen.render import code
from toolgen.render.code import call, lines, literal


def _strings() -> code.Call:
    return call("_s.strings", min_size="1", max_size="50", pattern=literal("^[a-z]+$"))


@pytest.mark.parametrize("room", [0, 10, 49, 50, 51, 200])
def test_a_call_fits_the_same_room_asked_again(room: int) -> None:
    shared = _strings()
    first = code._fit(shared, 200)  # remembered whole
    assert first is not None
    assert code._fit(shared, room) == code._fit(_strings(), room)
    assert (code._fit(shared, room) is None) == (len(first) > room)


def test_a_shared_call_is_laid_out_as_equal_calls_are() -> None:
    leaf = _strings()
    shared = call("_s.objects", **{f"field_{i}": leaf for i in range(6)})
    fresh = call("_s.objects", **{f"field_{i}": _strings() for i in range(6)})
    assert lines(shared, 4, "return ") == lines(fresh, 4, "return ")


def test_an_empty_call_too_long_for_its_room_does_not_fit() -> None:
    empty = call("f" * 30)
    assert code._fit(empty, 10) is None
    assert code._fit(empty, 10) is None  # asked again
    assert code._fit(empty, 40) == "f" * 30 + "()"


def test_an_entry_names_only_its_own_call() -> None:
    node = _strings()
    code._CALLS.keep(id(node), (call("other"), "other()"))
    assert code._fit(node, 200) == code._fit(_strings(), 200) != "other()"
