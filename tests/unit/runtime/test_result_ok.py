"""`results.ok()`, the runtime's own constructor of an ok result, makes exactly what
`ToolResult(tool, value, duration_s=...)` makes: the same fields stored, the same equality,
repr and dataclass behaviour, and as frozen."""

from __future__ import annotations

import dataclasses

import pytest
from pydantic import BaseModel

from toolgen.runtime.results.result import ToolResult, ok


class Sum(BaseModel):
    total: int


@pytest.mark.parametrize("duration_s", [0.0, 0.25])
def test_ok_is_the_result_init_makes(duration_s: float) -> None:
    value = Sum(total=3)
    made = ok("add", value, duration_s)
    expected = ToolResult("add", value, duration_s=duration_s)
    assert type(made) is ToolResult and vars(made) == vars(expected)
    assert made == expected and repr(made) == repr(expected)
    assert made.ok and made.failure is None and made.attempts == 1 and made.warnings == ()
    assert made.to_dict() == {"ok": True, "result": {"total": 3}}
    assert dataclasses.replace(made, attempts=2) == ToolResult(
        "add", value, attempts=2, duration_s=duration_s
    )
    with pytest.raises(dataclasses.FrozenInstanceError):
        made.tool = "other"  # type: ignore[misc]
