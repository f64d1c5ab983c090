"""Classes with recursion and nested classes of another configuration, and large wrong input
for them: what the fail-fast twin is tested (tests/unit/runtime/test_failfast.py) and measured
(benchmarks/failfast.py) on."""

from __future__ import annotations

from pydantic import BaseModel, ConfigDict, Field


class Node(BaseModel):
    """A tree: closed, strict, recursive."""

    model_config = ConfigDict(extra="forbid", strict=True)
    id: int
    children: list[Node] = []


class Leaf(BaseModel):
    """Another configuration: lax ("1" is an integer), unknown keys ignored, read by name too."""

    model_config = ConfigDict(extra="ignore", validate_by_name=True)
    size: int = Field(default=0, alias="Size")


class Branch(BaseModel):
    """Recursive through another configuration than the root's: lax, closed, short strings."""

    model_config = ConfigDict(extra="forbid", str_max_length=3)
    name: str = ""
    leaf: Leaf | None = None
    nodes: list[Node] = []
    branches: list[Branch] = []


class Forest(BaseModel):
    model_config = ConfigDict(extra="forbid", strict=True)
    trees: list[Node] = []
    branch: Branch | None = None


def tree_items(n: int) -> str:
    """`n` empty strings as children of a node two levels deep (3 bytes each)."""
    items = ",".join(['""'] * n)
    return '{"trees": [{"id": 1, "children": [{"id": 2, "children": [' + items + "]}]}]}"


def branch_items(n: int) -> str:
    """`n` empty strings as nodes of a branch two levels deep (3 bytes each)."""
    items = ",".join(['""'] * n)
    return '{"branch": {"branches": [{"branches": [{"nodes": [' + items + "]}]}]}}"


def branch_keys(n: int) -> str:
    """`n` unknown keys in a branch (about 13 bytes each)."""
    keys = ",".join(f'"k{i}": 0' for i in range(n))
    return '{"branch": {"branches": [{"name": "x", ' + keys + "}]}}"
