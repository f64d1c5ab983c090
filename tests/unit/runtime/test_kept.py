"""A cached result as JSON for a shared store (runtime/calls/kept.py): read back equal,
content blocks included; anything unreadable is a miss, never an error."""

from __future__ import annotations

from pydantic import BaseModel

from toolgen.runtime.calls import kept
from toolgen.runtime.results.content import Document, Image, ResourceLink, Text
from toolgen.runtime.results.result import ToolInfo, ToolResult

PNG = b"\x89PNG\r\n\x1a\n" + b"\x00" * 16


class Arguments(BaseModel):
    q: str


class Inner(BaseModel):
    x: int
    note: str | None = None


class Result(BaseModel):
    hits: int
    inner: Inner | None = None


INFO = ToolInfo("find", "Finds.", Arguments, Result)


def test_a_result_comes_back_as_it_was_kept() -> None:
    result = ToolResult(
        "find",
        value=Result.model_validate({"hits": 3, "inner": {"x": 1}}),
        metadata="read hits first",
        terminal=True,
        warnings=("old name",),
        content=(
            Text("two"),
            Image(PNG, "image/png"),
            Document(b"plain", "text/plain", name="notes"),
            ResourceLink("file:///a", "a"),
        ),
    )
    back = kept.revived(INFO, kept.encoded(result))
    assert back is not None
    assert back.value == result.value
    assert back.value.inner.model_fields_set == {"x"}  # optional keys not sent stay unset
    assert (back.metadata, back.terminal, back.warnings) == ("read hits first", True, ("old name",))
    assert back.content == result.content


def test_what_cannot_be_read_is_a_miss() -> None:
    assert kept.revived(INFO, None) is None
    assert kept.revived(INFO, b"not json") is None
    assert kept.revived(INFO, b'{"value": {"hits": "many"}, "content": []}') is None
