"""glob_files' matcher and walk: fnmatch's answers, in linear time, with every bound a declared error."""

from __future__ import annotations

import fnmatch
import os
import time
from pathlib import Path
from typing import Any

import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st

import toolgen_builtin
from implementations import Workspace, globbing, registry, search
from tests.support.builtin_support import within

TIMEOUT_S = toolgen_builtin.tool_info("glob_files").timeout_s
assert TIMEOUT_S is not None


def kind(result: Any) -> str | None:
    return None if result.failure is None else result.failure.kind


def call(r: Any, **arguments: Any) -> Any:
    """One glob_files call, failing the test if it takes longer than the tool's declared timeout."""
    return within(TIMEOUT_S, lambda: r.call("glob_files", arguments))


# --- the segment matcher agrees with fnmatch -------------------------------------------------

NAME_CHARS = "ababab.-]!["  # mostly a and b, so that patterns often nearly match
PATTERN_PIECES = [
    "*",
    "*",
    "*",
    "a",
    "b",
    "a",
    "b",
    "ab",
    "ba",
    "?",
    "[ab]",
    "[!a]",
    "[a-b]",
    "[]a]",
    "[!]]",
    "[",
    "[-a]",
    "[a-]",
    "[.]",
    "]",
    ".",
    "-",
    "!",
    "**",
]


# Star-separated chunks of a few characters: where overlapping or misplaced chunks would show.
STARRED = st.lists(
    st.lists(st.sampled_from(["a", "b", "?", "[ab]", "[!b]"]), min_size=1, max_size=3).map("".join),
    min_size=1,
    max_size=4,
).map("*".join)
PATTERNS = st.one_of(
    st.lists(st.sampled_from(PATTERN_PIECES), max_size=9).map("".join),
    st.tuples(st.sampled_from(["", "*"]), STARRED, st.sampled_from(["", "*"])).map("".join),
)


@settings(max_examples=2500, derandomize=True, database=None, deadline=None)
@given(pattern=PATTERNS, name=st.text(NAME_CHARS, max_size=10))
def test_a_segment_matches_exactly_when_fnmatch_says_so(pattern: str, name: str) -> None:
    expected = fnmatch.fnmatchcase(name, pattern)
    try:
        segment = globbing.compile_segment(pattern)
    except globbing.PatternError as exc:  # fnmatch drops a reversed range silently; we say so
        assert exc.kind == "invalid_pattern" and "reversed" in str(exc)
        assume(False)
    assert segment.matches(name, include_hidden=True) is expected, (pattern, name)


@settings(max_examples=1500, derandomize=True, database=None, deadline=None)
@given(body=st.text("ab-!]^\\[", max_size=6), name=st.text("ab-!]^\\[c", min_size=1, max_size=2))
def test_sets_follow_fnmatch(body: str, name: str) -> None:
    for pattern in (f"[{body}]", f"[{body}]*", f"*[{body}]"):
        try:
            segment = globbing.compile_segment(pattern)
        except globbing.PatternError:
            continue
        assert segment.matches(name, include_hidden=True) is fnmatch.fnmatchcase(name, pattern), (
            pattern,
            name,
        )


def _reference(segments: list[str], names: list[str]) -> bool:
    """Whole-path matching by trying every split (exponential; only for small inputs)."""
    if not segments:
        return not names
    head, rest = segments[0], segments[1:]
    if head == "**":
        if not rest:
            return len(names) >= 1  # a trailing "**" matches one or more names
        return any(_reference(rest, names[skip:]) for skip in range(len(names) + 1))
    return bool(names) and fnmatch.fnmatchcase(names[0], head) and _reference(rest, names[1:])


@settings(max_examples=1500, derandomize=True, database=None, deadline=None)
@given(
    segments=st.lists(
        st.sampled_from(["**", "*", "a", "b", "a*", "*b", "?", "[ab]"]), min_size=1, max_size=6
    ),
    names=st.lists(st.sampled_from(["a", "b", "ab", "ba", "aa"]), min_size=1, max_size=6),
)
def test_a_path_matches_exactly_when_the_reference_says_so(
    segments: list[str], names: list[str]
) -> None:
    glob = globbing.compile_glob(segments)
    assert glob.matches("/".join(names), include_hidden=True) is _reference(segments, names), (
        segments,
        names,
    )


def test_hidden_names_need_a_literal_dot_or_include_hidden() -> None:
    glob = globbing.compile_glob(["**", "*.py"])
    assert not glob.matches(".git/x.py", include_hidden=False)
    assert not glob.matches("src/.x.py", include_hidden=False)
    assert glob.matches("src/.x.py", include_hidden=True) and glob.matches(
        ".git/x.py", include_hidden=True
    )
    assert globbing.compile_glob([".git", "*"]).matches(".git/config", include_hidden=False)
    assert not globbing.compile_segment("?git").matches(".git", include_hidden=False)


def test_a_reversed_range_is_an_invalid_pattern() -> None:
    with pytest.raises(globbing.PatternError) as caught:
        globbing.compile_segment("[z-a]")
    assert caught.value.kind == "invalid_pattern"


# --- adversarial patterns answer within the declared timeout ---------------------------------


@pytest.fixture
def root(tmp_path: Path) -> Path:
    root = tmp_path / "root"
    root.mkdir()
    return root


def test_star_heavy_patterns_answer_at_once(root: Path) -> None:
    (root / ("a" * 250)).write_text("x")
    (root / ("ab" * 120)).write_text("x")
    r = registry(root)
    for pattern in [
        "*a*a*a*a*a*b",
        "*a" * 100 + "*b",
        "*?a*[ab]?*a" * 20 + "*c",
        "*" + "[ab]?" * 50 + "*c",
        "**/" + "*a" * 120 + "*b",
    ]:
        started = time.monotonic()
        result = call(r, pattern=pattern)
        assert result.ok, result.text()
        assert time.monotonic() - started < 1, pattern  # linear: well under the timeout
    assert call(r, pattern="*a*b*").to_dict()["result"]["matches"] == ["ab" * 120]
    assert call(r, pattern="*" + "[ab]?" * 50 + "b").to_dict()["result"]["matches"] == ["ab" * 120]


def test_deep_globstars_visit_every_directory_once(
    root: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    deep = root.joinpath(*["d"] * 30)
    deep.mkdir(parents=True)
    (deep / "f").write_text("x")
    (root / "d" / "side").mkdir()
    listed: list[str] = []
    real_scandir = os.scandir

    def counting(path: Any) -> Any:
        listed.append(str(path))
        return real_scandir(path)

    monkeypatch.setattr(search.os, "scandir", counting)
    r = registry(root)
    for pattern in ["/".join(["**"] * 30) + "/x", "**/d/**/d/**/d/**/d/**/x", "**/**/f"]:
        listed.clear()
        result = call(r, pattern=pattern)
        assert result.ok, (pattern, result.text())
        assert len(listed) == len(set(listed)) == 32, pattern  # root, 30 levels of d, side
    assert call(r, pattern="**/**/f").to_dict()["result"]["matches"] == [
        "/".join(["d"] * 30) + "/f"
    ]


def test_patterns_past_the_limits_are_too_complex(root: Path) -> None:
    r = registry(root)
    separate = "/".join(["**", "a"] * (globbing.MAX_GLOBSTARS + 1))
    for pattern in [separate, "/".join(["a"] * (globbing.MAX_SEGMENTS + 1)), "*" + "a" * 300]:
        result = call(r, pattern=pattern)
        assert kind(result) == "pattern_too_complex", (pattern[:40], result.text())
        assert "at most" in result.text()
    assert call(r, pattern="/".join(["**", "a"] * globbing.MAX_GLOBSTARS)).ok


def test_the_walk_is_bounded_in_entries_depth_and_time(root: Path) -> None:
    for i in range(300):
        (root / f"f{i}").write_text("x")
    deep = root.joinpath(*["d"] * 6)
    deep.mkdir(parents=True)
    assert (
        kind(call(registry(Workspace(root, max_scan_entries=100)), pattern="**/*"))
        == "too_many_entries"
    )
    assert call(
        registry(Workspace(root, max_scan_entries=100)), pattern="d/*"
    ).ok  # starts at d: 1 entry
    too_deep = call(registry(Workspace(root, max_scan_depth=3)), pattern="**/x")
    assert kind(too_deep) == "too_deep" and "d/d/d/d" in too_deep.text()
    assert call(
        registry(Workspace(root, max_scan_depth=3)), pattern="*/*/*/x"
    ).ok  # never goes that deep
    out_of_time = call(registry(Workspace(root, max_scan_seconds=0.0)), pattern="**/*")
    assert kind(out_of_time) == "too_many_entries" and " 0 s" in out_of_time.text()


def test_the_time_budget_is_at_most_half_the_declared_timeout(root: Path) -> None:
    tool = search.GlobFiles(Workspace(root, max_scan_seconds=1e9))
    assert tool._budget_s() == TIMEOUT_S / 2


def test_the_new_error_kinds_are_declared() -> None:
    declared = toolgen_builtin.tool_info("glob_files").errors
    assert {"pattern_too_complex", "too_many_entries", "too_deep", "invalid_pattern"} <= declared
