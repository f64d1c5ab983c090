"""Facts of the runtime that render writes into a package, read from the runtime's source.

Importing the modules that own them (`runtime/models.py`, and `runtime/search/index.py`,
which imports it) builds the runtime's pydantic models: about 0.2 s of CPU for a few
literals, in the child that renders a large build's tool modules. The source is the same
owner, read without running it; tests/unit/render/test_runtime_source.py holds each reading
equal to the imported value.
"""

from __future__ import annotations

import ast
from functools import cache
from pathlib import Path
from typing import Any

from toolgen import runtime

_RUNTIME = Path(runtime.__file__).parent


@cache
def _module(path: str) -> ast.Module:
    """The syntax tree of a runtime module (`path`: relative to the runtime, `/`-separated)."""
    return ast.parse((_RUNTIME / path).read_text(encoding="utf-8"))


def constant(path: str, name: str) -> Any:
    """The literal a runtime module assigns to `name` at its top level."""
    for node in _module(path).body:
        if isinstance(node, ast.Assign) and any(
            isinstance(t, ast.Name) and t.id == name for t in node.targets
        ):
            return ast.literal_eval(node.value)
    raise LookupError(f"{path} assigns no {name}")


def model_config(path: str, class_name: str) -> dict[str, Any]:
    """The `model_config = ConfigDict(...)` keywords of a class of a runtime module: its
    whole configuration, for a class that subclasses pydantic's BaseModel directly (which
    configures nothing)."""
    for node in _module(path).body:
        if isinstance(node, ast.ClassDef) and node.name == class_name:
            bases = [b.id for b in node.bases if isinstance(b, ast.Name)]
            if bases != ["BaseModel"]:
                raise LookupError(f"{class_name} of {path} subclasses {bases}, not BaseModel")
            for item in node.body:
                if (
                    isinstance(item, ast.Assign)
                    and [t.id for t in item.targets if isinstance(t, ast.Name)] == ["model_config"]
                    and isinstance(item.value, ast.Call)
                    and not item.value.args
                ):
                    return {str(k.arg): ast.literal_eval(k.value) for k in item.value.keywords}
            return {}
    raise LookupError(f"{path} defines no class {class_name}")
