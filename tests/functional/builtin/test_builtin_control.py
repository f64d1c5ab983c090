"""Termination tools signal control flow to the host: the host reads the tool's flags, not its data."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

import toolgen_builtin
from implementations import registry
from tests.support.builtin_support import check_examples

TERMINAL = ("ask_user", "done", "unable")


@pytest.fixture
def r(tmp_path: Path) -> Any:
    return registry(tmp_path)


def host_loop(
    r: Any, model_calls: list[tuple[str, dict[str, Any]]]
) -> tuple[dict[str, Any] | None, list[str]]:
    """A host's agent loop, as docs/builtin-tools.md describes it: stop at a terminal tool's signal."""
    transcript = []
    for name, arguments in model_calls:
        result = r.call(name, arguments)
        if result.ok and "terminal" in r.info(result.tool).flags:
            signal: dict[str, Any] = result.to_dict()["result"]
            return signal, transcript
        transcript.append(result.text())  # what goes back to the model
    return None, transcript


def test_only_the_termination_tools_are_terminal_returns(r: Any) -> None:
    terminal = sorted(name for name in r if "terminal" in r.info(name).flags)
    assert terminal == list(TERMINAL)
    for name in TERMINAL:
        info = toolgen_builtin.tool_info(name)  # also readable without a registry
        assert info.kind == "return" and "terminal" in info.flags and info.category == "control"


def test_done_ends_the_loop_with_its_summary(r: Any, tmp_path: Path) -> None:
    (tmp_path / "a.txt").write_text("x\n")
    signal, transcript = host_loop(
        r,
        [
            ("read_file", {"path": "a.txt"}),
            ("done", {"summary": "Read a.txt.", "answer": "x"}),
            ("write_file", {"path": "never.txt", "content": "the loop stopped before this"}),
        ],
    )
    assert signal == {"signal": "done", "summary": "Read a.txt.", "answer": "x"}
    assert len(transcript) == 1 and not (tmp_path / "never.txt").exists()


def test_unable_carries_its_blockers(r: Any) -> None:
    signal, _ = host_loop(
        r, [("unable", {"reason": "No access.", "blockers": ["no token", "no VPN"]})]
    )
    assert signal == {
        "signal": "unable",
        "reason": "No access.",
        "blockers": ["no token", "no VPN"],
        "partial_result": None,
    }


def test_ask_user_carries_the_question_and_options(r: Any) -> None:
    signal, _ = host_loop(
        r, [("ask_user", {"question": "Which year?", "options": ["2024", "2025"]})]
    )
    assert signal == {"signal": "ask_user", "question": "Which year?", "options": ["2024", "2025"]}
    assert host_loop(r, [("ask_user", {"question": "Why?"})])[0] == {
        "signal": "ask_user",
        "question": "Why?",
        "options": [],
    }


def test_an_invalid_termination_call_is_no_signal(r: Any) -> None:
    signal, transcript = host_loop(
        r,
        [
            ("unable", {"reason": "stuck", "blockers": []}),  # blockers must name at least one
            ("done", {}),
        ],
    )
    assert signal is None and len(transcript) == 2
    assert "blockers" in transcript[0] and "summary" in transcript[1]


def test_examples(r: Any) -> None:
    assert check_examples("control", r) == 3
