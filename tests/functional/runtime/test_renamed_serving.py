"""A renamed registry served over MCP, seen through the official SDK's client (in process):
the listing holds the new names, calls of them run, and the old names are unknown there."""

from __future__ import annotations

from collections.abc import Iterator
from types import ModuleType

import pytest
from mcp import Client
from mcp.shared.exceptions import MCPError

from tests.support import renaming_support

pytestmark = pytest.mark.anyio


@pytest.fixture
def anyio_backend() -> str:
    return "asyncio"


@pytest.fixture(scope="module")
def files(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ModuleType]:
    yield from renaming_support.package(tmp_path_factory)


async def test_a_prefixed_registry_is_listed_and_called_by_its_new_names(
    files: ModuleType,
) -> None:
    mcp_server = renaming_support.runtime(files, "serving.server").mcp_server
    view = renaming_support.registry(files).prefixed("fs_")
    async with Client(mcp_server(view, name="files")) as client:
        listed = await client.list_tools()
        read = await client.call_tool("fs_read_file", {"path": "a"})
        found = await client.call_tool("search_tools", {"query": "archive a file"})
        archived = await client.call_tool(
            "call_tool", {"name": "fs_archive_file", "arguments": {"path": "p"}}
        )
        with pytest.raises(MCPError, match="unknown tool 'read_file'; did you mean 'fs_read_file'"):
            await client.call_tool("read_file", {"path": "a"})
    assert sorted(tool.name for tool in listed.tools) == [
        "call_tool",
        "fs_delete_file",
        "fs_files_stat",
        "fs_read_file",
        "search_tools",
    ]  # the deferred tool is found through search, under its new name
    assert not read.is_error and read.structured_content == {"text": "A"}
    assert "fs_archive_file" in found.content[0].text  # type: ignore[union-attr]
    assert archived.structured_content == {"archived": "p"}


async def test_a_renamed_tool_that_needs_approval_asks_under_its_new_name(
    files: ModuleType,
) -> None:
    mcp_server = renaming_support.runtime(files, "serving.server").mcp_server
    view = renaming_support.registry(files).renamed({"delete_file": "rm"})
    async with Client(mcp_server(view, name="files")) as client:
        listed = await client.list_tools()
        asked = await client.call_tool("rm", {"path": "x"})
    assert "rm" in [tool.name for tool in listed.tools]
    assert "delete_file" not in [tool.name for tool in listed.tools]
    assert asked.is_error and asked.meta is not None
    assert asked.meta["io.toolgen/failure"]["kind"] == "suspended"
