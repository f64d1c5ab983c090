"""What the owner tests share: the string constants of a source, to find a fact spelt outside
the one module that owns it."""

from __future__ import annotations

import ast
from collections.abc import Collection
from pathlib import Path


def literals(source: str, wanted: frozenset[str]) -> list[tuple[int, str]]:
    """(line, string) of each string constant in `wanted`, docstrings aside."""
    tree = ast.parse(source)
    docstrings = {
        id(node.body[0].value)
        for node in ast.walk(tree)
        if isinstance(node, (ast.Module, ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef))
        and node.body
        and isinstance(node.body[0], ast.Expr)
    }
    return [
        (node.lineno, node.value)
        for node in ast.walk(tree)
        if isinstance(node, ast.Constant)
        and isinstance(node.value, str)
        and node.value in wanted
        and id(node) not in docstrings
    ]


def spelt_outside(owners: Collection[Path], wanted: frozenset[str], root: Path) -> list[str]:
    """`path:line: 'value'` for each constant in `wanted` in a module under `root` (a folder
    or a module) that is not in `owners` (a module, or a folder and everything in it)."""

    def owned(path: Path) -> bool:
        return any(path == owner or owner in path.parents for owner in owners)

    return [
        f"{path.relative_to(root)}:{line}: {value!r}"
        for path in sorted(root.rglob("*.py"))
        if not owned(path) and "__pycache__" not in path.parts
        for line, value in literals(path.read_text("utf-8"), wanted)
    ]
