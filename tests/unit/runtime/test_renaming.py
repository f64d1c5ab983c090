"""Per-host names (`Registry.renamed`, `Registry.prefixed`): definitions of every provider,
dispatch, provider adapters, approvals and their resumption, and tool search follow the new
names; the old names are unknown; names that collide or that a provider refuses are refused."""

from __future__ import annotations

import asyncio
import json
from collections.abc import Iterator
from types import ModuleType
from typing import Any

import pytest

from tests.support import renaming_support
from toolgen.runtime import kinds
from toolgen.runtime.calls.registry import Registry
from toolgen.runtime.kinds import definition_name

RENAMES = {"read_file": "fs_read", "archive_file": "fs_archive"}
PAIR = ["call_tool", "search_tools"]


@pytest.fixture(scope="module")
def files(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ModuleType]:
    yield from renaming_support.package(tmp_path_factory)


@pytest.fixture
def registry(files: ModuleType) -> Registry:
    """A registry of the package's own runtime (its classes, not toolgen's, by identity)."""
    return renaming_support.registry(files)  # type: ignore[no-any-return]


@pytest.fixture
def errors(files: ModuleType) -> ModuleType:
    return renaming_support.runtime(files, "errors")  # type: ignore[no-any-return]


def names(definitions: list[dict[str, Any]]) -> list[str | None]:
    """The tool names of a provider's definitions, those inside namespaces included."""
    found: list[str | None] = []
    for definition in definitions:
        if definition.get("type") == "namespace":
            found += [d.get("name") for d in definition["tools"]]
        else:
            found.append(definition_name(definition))
    return found


def test_a_renamed_registry_answers_to_the_new_names_only(
    registry: Registry, errors: ModuleType
) -> None:
    view = registry.renamed(RENAMES)
    assert sorted(view) == sorted(["fs_archive", "delete_file", "files.stat", "fs_read", *PAIR])
    assert view.call("fs_read", {"path": "a"}).to_dict() == {"ok": True, "result": {"text": "A"}}
    assert view.info("fs_read").name == "fs_read"
    assert asyncio.run(view.acall("fs_read", {"path": "b"})).to_dict()["result"] == {"text": "B"}
    assert view.invoke("fs_read", {"path": "c"}).text == "C"
    assert "read_file" not in view
    with pytest.raises(errors.UnknownToolError):
        view.resolve("read_file")
    failed = view.call("read_file", {"path": "a"})
    assert failed.failure is not None and failed.failure.kind == "unknown_tool"
    assert sorted(registry) == sorted(
        ["archive_file", "delete_file", "files.stat", "read_file", *PAIR]
    )


@pytest.mark.parametrize("provider", kinds.PROVIDERS)
def test_each_providers_definitions_carry_the_new_names_and_nothing_else_changes(
    registry: Registry, provider: str
) -> None:
    before = registry.definitions(provider)
    after = registry.renamed(RENAMES).definitions(provider)
    assert "read_file" in names(before)  # the renaming has something to rename
    assert sorted(map(str, names(after))) == sorted(str(RENAMES.get(n, n)) for n in names(before))
    # Descriptions, schemas, namespaces and search tools as they were (in the registry's order).
    back = {f'"{new}"': f'"{old}"' for old, new in RENAMES.items()}
    undone = []
    for definition in after:
        text = json.dumps(definition, sort_keys=True)
        for new, old in back.items():
            text = text.replace(new, old)
        undone.append(text)
    assert sorted(undone) == sorted(json.dumps(d, sort_keys=True) for d in before)


@pytest.mark.parametrize("provider", kinds.PROVIDERS)
def test_a_tool_known_to_providers_by_its_alias_is_defined_by_its_new_name(
    registry: Registry, provider: str
) -> None:
    before = names(registry.definitions(provider))
    assert "files_stat" in before or "files.stat" in before  # MCP takes the spec's name
    shown = names(registry.renamed({"files.stat": "stat"}).definitions(provider))
    assert "stat" in shown and "files_stat" not in shown and "files.stat" not in shown


def test_arguments_refused_name_the_tool_by_its_new_name(registry: Registry) -> None:
    view = registry.prefixed("fs_")
    failed = view.call("fs_read_file", {})
    assert failed.failure is not None and failed.failure.kind == "invalid_arguments"
    assert "Invalid arguments for tool 'fs_read_file'" in failed.failure.message


def test_prefixed_renames_every_tool_but_the_search_pair(registry: Registry) -> None:
    view = registry.prefixed("host_")
    assert sorted(view) == sorted(
        ["host_archive_file", "host_delete_file", "host_files_stat", "host_read_file", *PAIR]
    )  # a name providers refuse is prefixed as its provider-safe alias
    assert view.call("host_files_stat", {"path": "abc"}).to_dict()["result"] == {"size": 3}
    assert "files_stat" not in view and "files.stat" not in view
    found = view.call("search_tools", {"query": "archive a file"})
    assert found.ok and "host_archive_file" in found.text() and '"archive_file"' not in found.text()
    called = view.call("call_tool", {"name": "host_archive_file", "arguments": {"path": "p"}})
    assert called.to_dict() == {"ok": True, "result": {"archived": "p"}}
    old = view.call("call_tool", {"name": "archive_file", "arguments": {"path": "p"}})
    assert old.failure is not None and old.failure.kind == "unknown_tool"


def test_an_approval_is_asked_and_resumed_under_the_new_name(registry: Registry) -> None:
    view = registry.renamed({"delete_file": "rm"})
    waiting = view.call("rm", {"path": "x"})
    assert waiting.suspended is not None and waiting.suspended.tool == "rm"
    record = waiting.suspended.to_json()
    assert view.resume(record, approved=True).to_dict() == {"ok": True, "result": {"deleted": "x"}}


def test_provider_adapters_dispatch_by_the_new_names(files: ModuleType, registry: Registry) -> None:
    adapters = renaming_support.runtime(files, "providers.adapters")
    view = registry.renamed(RENAMES)
    calls = [
        {
            "id": "1",
            "type": "function",
            "function": {"name": "fs_read", "arguments": '{"path": "a"}'},
        },
        {"id": "2", "type": "function", "function": {"name": "read_file", "arguments": "{}"}},
    ]
    answers = adapters.respond(view, kinds.OPENAI, calls)
    assert [a["tool_call_id"] for a in answers] == ["1", "2"]
    assert answers[0]["content"] == '{"text":"A"}'
    assert "Unknown tool 'read_file'" in answers[1]["content"]


def test_names_can_be_swapped_renamed_back_and_merged(registry: Registry) -> None:
    swapped = registry.renamed({"read_file": "delete_file", "delete_file": "read_file"})
    assert swapped.call("delete_file", {"path": "a"}).to_dict()["result"] == {"text": "A"}
    back = registry.renamed({"read_file": "fs_read"}).renamed({"fs_read": "read_file"})
    assert type(back["read_file"]) is type(registry["read_file"])  # no wrapper left
    small = registry.without("archive_file", "files.stat")
    both = small + small.prefixed("b_")
    assert sorted(both) == ["b_delete_file", "b_read_file", "delete_file", "read_file"]
    assert both.call("b_read_file", {"path": "z"}).ok


@pytest.mark.parametrize(
    ("renames", "said"),
    [
        ({"read_file": "delete_file"}, "'delete_file' and 'read_file' would both be named"),
        ({"read_file": "x", "delete_file": "x"}, "would both be named 'x'"),
        ({"read_file": "search_tools"}, "would both be named 'search_tools'"),
        (
            {"read_file": "files_stat"},
            "'files.stat' and 'read_file' would both be named 'files_stat'",
        ),
        (
            {"files_stat": "read_file"},
            "'files.stat' and 'read_file' would both be named 'read_file'",
        ),
        ({"read_file": "fs read"}, "cannot be renamed 'fs read'"),
        ({"read_file": "1read"}, "cannot be renamed '1read'"),
        ({"read_file": "r" * 65}, "1 to 64 letters"),
        ({"read_file": ""}, "cannot be renamed ''"),
        ({"search_tools": "find"}, "the tool-search pair's: it keeps its name"),
    ],
)
def test_names_that_collide_or_that_providers_refuse_are_refused(
    files: ModuleType, registry: Registry, errors: ModuleType, renames: dict[str, str], said: str
) -> None:
    refused = renaming_support.runtime(files, "calls.renaming").RenameError
    with pytest.raises(refused, match=said) as raised:
        registry.renamed(renames)
    assert isinstance(raised.value, ValueError) and isinstance(raised.value, errors.ToolError)


def test_renaming_an_unknown_tool_is_an_unknown_tool_error(
    registry: Registry, errors: ModuleType
) -> None:
    with pytest.raises(errors.UnknownToolError, match="Did you mean 'read_file'"):
        registry.renamed({"read_fil": "r"})
