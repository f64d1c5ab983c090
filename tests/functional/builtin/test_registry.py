"""The Registry's operations (runtime/calls/registry.py), on the built-in library: a registry is a
value (each operation returns a new one), and its definitions are exactly its tools'."""

from __future__ import annotations

from pathlib import Path

import pytest

import toolgen_builtin
from implementations import ReadFile, Workspace, registry
from tests.support import builtin_support  # noqa: F401 - puts generated/ and the repository on sys.path


def test_get_add_remove_copy(tmp_path: Path) -> None:
    tools = registry(tmp_path)
    assert tools.get("read_file") is tools["read_file"]
    assert tools.get("raed_file") is None and tools.get("raed_file", 7) == 7  # never raises
    fewer = tools.remove("read_file", "fetch_url")
    assert "read_file" not in fewer and "read_file" in tools  # a value: the original is unchanged
    assert len(fewer) == len(tools) - 2
    again = fewer.add(ReadFile(Workspace(tmp_path)))
    assert sorted(again) == sorted(tools.without("fetch_url"))
    with pytest.raises(ValueError, match="already registered: read_file"):
        again.add(ReadFile(Workspace(tmp_path)))
    other = ReadFile(Workspace(tmp_path / "elsewhere"))
    assert again.add(other, replace=True)["read_file"] is other
    copy = tools.copy()
    assert copy is not tools and dict(copy) == dict(tools)


def test_categories_are_enabled_and_disabled_by_name(tmp_path: Path) -> None:
    tools = registry(tmp_path)
    files = tools.only_categories("files")
    assert files.categories() == {"files"} and "read_file" in files
    assert "read_file" not in tools.without_categories(
        "files"
    ) and "done" in tools.without_categories("files")
    with pytest.raises(ValueError, match=r"no tool of category 'file'; did you mean 'files'\?"):
        tools.only_categories("file")
    with pytest.raises(ValueError, match="no tool of category 'network'"):
        tools.without_categories("network")


@pytest.mark.parametrize(
    "provider", ["openai", "openai-responses", "anthropic", "gemini", "mcp", "bedrock"]
)
def test_definitions_are_exactly_the_registrys_tools(provider: str, tmp_path: Path) -> None:
    everything = toolgen_builtin.tool_definitions(provider)
    tools = registry(tmp_path).only_categories("files", "web")
    mine = tools.definitions(provider)
    assert len(mine) == len(tools) and all(d in everything for d in mine)
    names = {toolgen_builtin.tool_info(n).provider_name for n in tools} | set(tools)
    assert all(
        str(d.get("name") or (d.get("function") or d.get("toolSpec"))["name"]) in names
        for d in mine
    )
    strict = (
        tools.definitions(provider, strict=True) if provider in ("openai", "anthropic") else mine
    )
    assert len(strict) == len(tools)


def test_invoke_raises_what_call_would_return_as_a_failure(tmp_path: Path) -> None:
    (tmp_path / "a.txt").write_text("hello\n")
    tools = registry(tmp_path)
    assert tools.invoke("read_file", {"path": "a.txt"}).content == "1\thello"
    with pytest.raises(toolgen_builtin.UnknownToolError, match="read_file"):
        tools.invoke("raed_file", {"path": "a.txt"})
    with pytest.raises(toolgen_builtin.ToolArgumentsError, match='did you mean "path"'):
        tools.invoke("read_file", {"paht": "a.txt"})
    with pytest.raises(toolgen_builtin.ToolCallError) as raised:
        tools.invoke("read_file", {"path": "missing.txt"})
    error = raised.value
    assert (error.tool, error.kind, error.attempts) == ("read_file", "not_found", 1)
    assert error.message == tools.call("read_file", {"path": "missing.txt"}).failure.message
    assert isinstance(error.__cause__, toolgen_builtin.ToolError)  # the implementation's own
    with pytest.raises(toolgen_builtin.UnknownCategoryError):
        tools.only_categories("flies")
    import asyncio

    assert asyncio.run(tools.ainvoke("read_file", {"path": "a.txt"})).content == "1\thello"
