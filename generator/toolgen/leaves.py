"""The runtime's leaf modules as the generator reads them, without the runtime's package.

`toolgen.runtime`'s `__init__` is the public surface of generated packages: it loads pydantic
and the registry. The generator's fast paths (`import toolgen.cli`, a build the cache answers)
must not, yet they need facts the runtime owns (the provider names of `runtime/kinds.py`). A
leaf imports nothing, so it is loaded here from its file, alone, under its own module name:
whoever imports `toolgen.runtime.kinds` later (the runtime's relative imports included) gets
this same module, and the fact keeps one owner.
"""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path
from types import ModuleType
from typing import TYPE_CHECKING

__all__ = ["kinds", "load"]

RUNTIME = "toolgen.runtime"


def load(name: str) -> ModuleType:
    """The runtime's leaf module `name` (a module at the top of runtime/ that imports nothing)."""
    qualified = f"{RUNTIME}.{name}"
    if qualified in sys.modules:
        return sys.modules[qualified]
    spec = importlib.util.spec_from_file_location(
        qualified, Path(__file__).parent / "runtime" / f"{name}.py"
    )
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[qualified] = module
    spec.loader.exec_module(module)
    return module


if TYPE_CHECKING:
    from toolgen.runtime import kinds
else:
    kinds = load("kinds")
