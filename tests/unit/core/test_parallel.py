"""A build's tool modules rendered in a forked child (parallel.py): the child's answer comes
back whole, a failed child leaves the work to the parent, a child left behind is ended, and a
build with the child writes the same bytes as one without it. (The specs parsed in a child:
tests/unit/load/test_load_shared.py.)"""

from __future__ import annotations

import os

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tests.support.children import counted_children
from tests.support.generation import REPO
from toolgen import parallel, pipeline
from toolgen.config import BuildOptions

pytestmark = pytest.mark.skipif(not hasattr(os, "fork"), reason="no fork on this platform")


def test_the_child_answers_what_the_work_returns() -> None:
    with parallel.in_child(lambda: {"a/b.py": "x = 1\n", "é": "\u2603" * 100_000}) as pending:
        answer = pending.result()
    assert answer == {"a/b.py": "x = 1\n", "é": "\u2603" * 100_000}


def _fails() -> dict[str, str]:
    raise RuntimeError("broken")


def test_a_child_that_fails_answers_none() -> None:
    with parallel.in_child(_fails) as pending:
        assert pending.result() is None


def test_a_child_not_waited_for_is_ended() -> None:
    with parallel.in_child(lambda: __import__("time").sleep(60)) as pending:
        pid = pending.pid
    with pytest.raises(ChildProcessError):  # reaped: no such child any more
        os.waitpid(pid, os.WNOHANG)


@settings(max_examples=300, derandomize=True)
@given(st.integers(min_value=1, max_value=12), st.lists(st.booleans(), max_size=40))
def test_a_split_list_is_worked_once_from_both_ends(count: int, turns: list[bool]) -> None:
    """Turn by turn (True: this process, False: the child; then each in turn to the end),
    each claims its next item until it meets the other's claim: this process works a first
    part, the child the rest, every item once."""
    split = parallel.Split(count)
    mine: list[int] = []
    theirs: list[int] = []
    going = {True: True, False: True}
    for side in [*turns, *([True, False] * count)]:
        if not going[side]:
            continue
        if side:
            index = len(mine)
            going[side] = index < count and split.mine(index)
            mine += [index] if going[side] else []
        else:
            index = count - 1 - len(theirs)
            going[side] = index >= 0 and split.theirs(index)
            theirs += [index] if going[side] else []
    split.close()
    assert mine == list(range(len(mine)))
    assert sorted(mine + theirs) == list(range(count))


def test_a_split_s_claims_are_shared_with_a_forked_child() -> None:
    """The page is shared with a forked child: what it claims there, this process sees."""
    split = parallel.Split(10)
    with parallel.in_child(lambda: [split.theirs(i) for i in range(9, 3, -1)]) as pending:
        assert pending.result() == [True] * 6
    assert split.claimed() == 4
    assert split.mine(3) and not split.mine(4)
    split.close()


def test_small_builds_and_jobs_1_stay_in_one_process(monkeypatch: pytest.MonkeyPatch) -> None:
    assert not parallel.wanted(parallel.MIN_TOOLS - 1)
    monkeypatch.setenv("TOOLGEN_JOBS", "1")
    assert not parallel.wanted(10 * parallel.MIN_TOOLS)


def _alone_and_shared(
    monkeypatch: pytest.MonkeyPatch,
) -> tuple[pipeline.Build, pipeline.Build, list[int]]:
    """The library case built in one process, then with its children (each one started
    counted)."""
    specs = REPO / "tests" / "golden" / "cases" / "library" / "specs"
    options = BuildOptions(package="library")
    monkeypatch.setenv("TOOLGEN_NO_CACHE", "1")
    monkeypatch.setattr(parallel, "wanted", lambda tools: False)
    alone = pipeline.build(specs, options)
    started = counted_children(monkeypatch)
    return alone, pipeline.build(specs, options), started


def test_a_build_with_the_child_is_the_build_without_it(monkeypatch: pytest.MonkeyPatch) -> None:
    alone, shared, started = _alone_and_shared(monkeypatch)
    assert started and shared.ok
    assert list(shared.files) == list(alone.files) and shared.files == alone.files
    assert shared.diagnostics == alone.diagnostics


def test_a_failed_child_leaves_the_work_to_the_build(monkeypatch: pytest.MonkeyPatch) -> None:
    specs = REPO / "tests" / "golden" / "cases" / "weather" / "specs"
    options = BuildOptions(package="weather")
    monkeypatch.setenv("TOOLGEN_NO_CACHE", "1")
    expected = pipeline.build(specs, options).files
    in_child = parallel.in_child
    monkeypatch.setattr(parallel, "wanted", lambda tools: True)
    monkeypatch.setattr(parallel, "in_child", lambda work: in_child(_fails))
    assert pipeline.build(specs, options).files == expected


def test_the_token_warning_found_on_the_other_core_is_the_one_found_in_process(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    from toolgen.providers import tokens

    monkeypatch.setattr(tokens, "BUDGET", 0)  # every catalog is over it: the warning is given
    alone, shared, started = _alone_and_shared(monkeypatch)
    assert (
        len(started) == 2
    )  # the tool modules' child, then the estimates' (one spec file: no parser)
    warned = [d for d in shared.diagnostics if d.rule == tokens.ID]
    assert len(warned) == 1 and shared.diagnostics == alone.diagnostics
