"""The exact messages for a catalogue of realistic mistakes, pinned as golden files.

tests/golden/errors/cases.yaml lists the calls; expected/<name>.txt holds what the model
reads (`str(error)`) and what the host gets (`error.to_dict()`), or, for a call that is
repaired, the validated arguments and the repairs reported. Regenerate with
TOOLGEN_UPDATE_GOLDEN=1 and review the diff.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest
import yaml

from tests.support.generation import UPDATE_GOLDEN, generate, imported

GOLDEN = Path(__file__).parent
CASES: list[dict[str, Any]] = yaml.safe_load((GOLDEN / "cases.yaml").read_text("utf-8"))


@pytest.fixture(scope="module")
def golden(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ModuleType]:
    out = tmp_path_factory.mktemp("golden") / "out"
    generate(GOLDEN / "specs", out, "golden_errors")
    with imported(out, "golden_errors") as package:
        yield package


def outcome(package: ModuleType, case: dict[str, Any]) -> str:
    """What a host and a model see for one call, as the text of a golden file."""
    sent = case["text"] if "text" in case else case["arguments"]
    shown = sent if isinstance(sent, str) else json.dumps(sent, ensure_ascii=False)
    head = f"tool: {case['tool']}\n{'text' if 'text' in case else 'arguments'}: {shown}\n\n"
    repairs: list[Any] = []
    try:
        model = package.validate_arguments(case["tool"], sent, on_coerce=repairs.append)
    except package.ToolArgumentsError as error:
        data = json.dumps(error.to_dict(), indent=2, ensure_ascii=False)
        return (
            f"{head}--- message (for the model)\n{error}\n\n--- to_dict() (for the host)\n{data}\n"
        )
    valid = json.dumps(
        model.model_dump(mode="json", by_alias=True, exclude_unset=True), ensure_ascii=False
    )
    reported = "\n".join(json.dumps(r.to_dict(), ensure_ascii=False) for r in repairs) or "(none)"
    return f"{head}--- accepted as\n{valid}\n\n--- repairs reported\n{reported}\n"


@pytest.mark.parametrize("case", CASES, ids=[c["name"] for c in CASES])
def test_message_is_pinned(golden: ModuleType, case: dict[str, Any]) -> None:
    path = GOLDEN / "expected" / f"{case['name']}.txt"
    text = outcome(golden, case)
    if UPDATE_GOLDEN:
        path.parent.mkdir(exist_ok=True)
        path.write_text(text, "utf-8")
    assert path.exists(), (
        f"no golden file for {case['name']}; run with TOOLGEN_UPDATE_GOLDEN=1 and review it"
    )
    assert text == path.read_text("utf-8"), (
        f"the message for {case['name']} changed; rerun with TOOLGEN_UPDATE_GOLDEN=1 and review"
    )


def test_no_orphan_golden_files() -> None:
    names = {c["name"] for c in CASES}
    assert len(names) == len(CASES), "case names are unique"
    orphans = sorted(p.stem for p in (GOLDEN / "expected").glob("*.txt") if p.stem not in names)
    assert not orphans, f"golden files without a case: {orphans}"


def test_messages_are_bounded_and_plain(golden: ModuleType) -> None:
    """One line per issue, each short, no Python jargon, tracebacks or pydantic URLs."""
    for case in CASES:
        sent = case["text"] if "text" in case else case["arguments"]
        try:
            golden.validate_arguments(case["tool"], sent)
        except golden.ToolArgumentsError as error:
            lines = str(error).splitlines()
            assert len(lines) == len(error.issues) + 2 + (error.total > len(error.issues)), case[
                "name"
            ]
            for line in lines:
                assert len(line) <= 300, (case["name"], line)
                jargon = re.search(
                    r"Traceback|pydantic|Input should be|Field required|ValidationError|_error\b|"
                    r"\b(str|int|float|bool|dict|NoneType)\b|list\[",
                    line,
                )
                assert jargon is None, (case["name"], line)
