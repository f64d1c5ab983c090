"""Handwritten implementations of the built-in tool library, behind the generated interfaces.

`registry()` is what `toolgen call` uses (see [tool.toolgen] implementations in pyproject.toml).
"""

from __future__ import annotations

import os
from pathlib import Path

from toolgen_builtin import Registry, build_registry

from .files import ListDirectory, ReadFile, Workspace, WriteFile

__all__ = ["ListDirectory", "ReadFile", "Workspace", "WriteFile", "registry"]


def registry(root: str | os.PathLike[str] | None = None) -> Registry:
    """All built-in tools, confined to `root` (default: $TOOLGEN_WORKSPACE, else the working directory)."""
    workspace = Workspace(Path(root or os.environ.get("TOOLGEN_WORKSPACE") or Path.cwd()))
    return build_registry(ReadFile(workspace), ListDirectory(workspace), WriteFile(workspace))
