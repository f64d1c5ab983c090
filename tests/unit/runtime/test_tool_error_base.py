"""The results API as a host sees it: one base (`ToolError`) catches every exception the
runtime raises on purpose, `registry[name]` for an unknown name is a KeyError, guidance given
as JSON data reaches the model as JSON, and a failed call's message says its kind once."""

from __future__ import annotations

import json
import pickle
from collections.abc import Iterator
from types import ModuleType

import pytest

from tests.support import renaming_support
from toolgen.runtime.calls.registry import Registry
from toolgen.runtime.calls.renaming import RenameError
from toolgen.runtime.calls.streaming import StreamError
from toolgen.runtime.errors import (
    HostError,
    ToolArgumentsError,
    ToolCallError,
    ToolError,
    ToolgenError,
    UnknownCategoryError,
    UnknownToolError,
)
from toolgen.runtime.results.control import SuspensionError
from toolgen.runtime.results.outcome import tool_error_kind
from toolgen.runtime.serving.failures import ArgumentsRefused


@pytest.fixture(scope="module")
def files(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ModuleType]:
    yield from renaming_support.package(tmp_path_factory)


@pytest.fixture
def registry(files: ModuleType) -> Registry:
    return renaming_support.registry(files)


@pytest.mark.parametrize(
    ("error", "other"),
    [
        (ToolArgumentsError, ValueError),
        (UnknownToolError, KeyError),
        (UnknownToolError, LookupError),
        (UnknownCategoryError, ValueError),
        (SuspensionError, ValueError),
        (HostError, TypeError),
        (RenameError, ValueError),
        (ArgumentsRefused, ToolCallError),
        (StreamError, Exception),
        (ToolCallError, Exception),
    ],
)
def test_each_runtime_error_is_a_tool_error_and_keeps_its_other_base(
    error: type[Exception], other: type[Exception]
) -> None:
    assert issubclass(error, ToolError) and issubclass(error, ToolgenError)
    assert issubclass(error, other)


@pytest.mark.parametrize(
    "error",
    [
        ToolError("quota", "out of quota", {"left": 0}, partial_data=[1]),
        UnknownToolError("read_fil", "read_file", 3),
        ToolCallError("read_file", "timeout", "too slow", True, 2),
        UnknownCategoryError("fs", ["files"], "files"),
        HostError("injected values are a mapping, not list"),
    ],
    ids=lambda error: type(error).__name__,
)
def test_each_error_survives_pickling_whole(error: ToolError) -> None:
    again = pickle.loads(pickle.dumps(error))
    assert type(again) is type(error) and str(again) == str(error)
    assert vars(again) == vars(error)


def test_except_tool_error_catches_what_a_host_meets(files: ModuleType, registry: Registry) -> None:
    own = renaming_support.runtime(files, "errors").ToolError  # the package's, as its host has it
    caught: list[str] = []
    attempts = [
        lambda: registry["nope"],
        lambda: registry.invoke("read_file", {}),
        lambda: registry.invoke("read_file", {"path": "missing"}),
        lambda: registry.only_categories("nope"),
        lambda: registry.resume({"tool": "delete_file"}, approved=True),
        lambda: registry.call("read_file", {"path": "a"}, injected=[1]),  # type: ignore[arg-type]
        lambda: registry.renamed({"read_file": "no spaces"}),
    ]
    for attempt in attempts:
        try:
            attempt()
        except own as error:
            caught.append(type(error).__name__)
    assert caught == [
        "UnknownToolError",
        "ToolArgumentsError",
        "ToolCallError",
        "UnknownCategoryError",
        "SuspensionError",
        "HostError",
        "RenameError",
    ]


def test_an_unknown_name_in_brackets_is_a_key_error_with_the_suggestion(
    files: ModuleType, registry: Registry
) -> None:
    errors = renaming_support.runtime(files, "errors")
    with pytest.raises(KeyError) as raised:
        registry["read_fil"]
    assert isinstance(raised.value, errors.UnknownToolError)
    assert isinstance(raised.value, errors.ToolError)
    assert str(raised.value) == "Unknown tool 'read_fil'. Did you mean 'read_file'?"  # not a repr
    assert registry.get("read_fil", "absent") == "absent"
    assert "read_fil" not in registry


def test_a_declared_tool_error_is_still_what_implementations_raise() -> None:
    error = ToolError("not_found", "a.txt does not exist", partial_data={"read": 3})
    assert str(error) == "not_found: a.txt does not exist"
    assert (error.kind, error.message, error.details, error.partial_data) == (
        "not_found",
        "a.txt does not exist",
        {},
        {"read": 3},
    )
    assert tool_error_kind(error) == "not_found"
    nested = ToolCallError("other_tool", "timeout", "too slow", True, 1)
    assert tool_error_kind(nested) is None  # a call the tool made failed: not a declared kind


@pytest.mark.parametrize(
    ("path", "kind"),
    [("missing", "not_found"), ("guided", None)],
)
def test_a_failed_calls_message_says_its_kind_once(
    registry: Registry, path: str, kind: str | None
) -> None:
    if kind is None:
        assert registry.invoke("read_file", {"path": path}) is not None
        return
    with pytest.raises(Exception, match="does not exist") as raised:
        registry.invoke("read_file", {"path": path})
    assert type(raised.value).__name__ == "ToolCallError"
    assert str(raised.value) == "read_file: not_found: missing does not exist"
    assert raised.value.kind == kind and raised.value.message == "not_found: missing does not exist"


@pytest.mark.parametrize(
    ("kind", "message", "said"),
    [
        ("not_found", "not_found: gone", "t: not_found: gone"),
        ("timeout", "the call took more than 1 s", "t: timeout: the call took more than 1 s"),
        ("rejected", "the user said no", "t: rejected: the user said no"),
        ("internal", "tool 't' failed unexpectedly", "t: internal: tool 't' failed unexpectedly"),
    ],
)
def test_tool_call_error_text_names_each_kind_once(kind: str, message: str, said: str) -> None:
    assert str(ToolCallError("t", kind, message, False, 1)) == said


def test_guidance_given_as_json_data_reaches_the_model_as_json(registry: Registry) -> None:
    result = registry.call("read_file", {"path": "guided"})
    assert result.metadata == json.dumps(
        renaming_support.GUIDANCE, ensure_ascii=False, separators=(",", ":")
    )
    assert json.loads(result.text().split("\n\n")[-1]) == renaming_support.GUIDANCE
    assert result.to_dict()["metadata"] == result.metadata


def test_guidance_that_is_not_json_fails_the_call_saying_why(registry: Registry) -> None:
    result = registry.call("read_file", {"path": "unjson"})
    assert result.failure is not None and result.failure.kind == "invalid_result"
    assert "object" not in result.failure.message  # the model is told no internals
    assert "Output.metadata is text or JSON data" in str(result.exception)
    assert "not JSON serializable" in str(result.exception)


def test_an_implementation_refusing_its_own_arguments_is_invalid_arguments() -> None:
    """`ToolArgumentsError` raised from `run` for the tool's own call reaches the model as
    `invalid_arguments` with its message; one about another tool (a nested call's) stays an
    `internal` failure, its text never shown."""
    from types import SimpleNamespace

    from toolgen.runtime.errors import ArgumentIssue
    from toolgen.runtime.results.outcome import failure

    info = SimpleNamespace(name="count_days", errors=frozenset(), flags=frozenset())
    issue = ArgumentIssue("start", "format", 'not a day, got "2026-02-30"')
    own = failure(info, ToolArgumentsError("count_days", [issue]))  # type: ignore[arg-type]
    other = failure(info, ToolArgumentsError("book_room", [issue]))  # type: ignore[arg-type]
    assert own.failure is not None and own.failure.kind == "invalid_arguments"
    assert "- start: not a day" in own.failure.message
    assert other.failure is not None and other.failure.kind == "internal"
    assert "2026-02-30" not in other.failure.message


@pytest.mark.parametrize(
    ("location", "path"),
    [
        (("legs", 0, "day"), "legs[0].day"),
        ((0, "day"), "[0].day"),
        (("filters", "a.b"), 'filters["a.b"]'),  # a dotted path would garble this key
        ((), ""),
    ],
)
def test_an_issue_made_at_a_location_writes_its_path_as_messages_do(
    location: tuple[str | int, ...], path: str
) -> None:
    """`ArgumentIssue.at`, what bound implementations build their issues with: one way to
    write a path (`shown_path`), the exact location kept for hosts."""
    from toolgen.runtime.errors import ArgumentIssue, shown_path

    issue = ArgumentIssue.at(location, "format", "not a day", value='"x"')
    assert (issue.path, issue.location, issue.code, issue.value) == (
        path,
        location,
        "format",
        '"x"',
    )
    assert issue.path == shown_path(location)
