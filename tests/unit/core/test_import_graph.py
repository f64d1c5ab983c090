"""The import graph of toolgen's own modules: no cycles, no import of a later stage, and the
fast paths (`import toolgen.cli`, a build answered by the cache) import no heavy stage.

The graph comes from the AST of every module under generator/toolgen, with every import
statement wherever it is (module level, inside functions, under TYPE_CHECKING).
"""

from __future__ import annotations

import ast
import json
import subprocess
import sys
from functools import cache
from pathlib import Path

import pytest

from tests.support.generation import REPO, generate

PACKAGE = REPO / "generator" / "toolgen"

# Pipeline order: a module may import its own rank or an earlier one. Longest prefix wins.
RANKS = {
    "toolgen": 0,  # the package itself: __version__
    "toolgen.constants": 0,
    "toolgen.schema": 0,
    "toolgen.naming": 0,
    "toolgen.diagnostics": 0,
    "toolgen.runtime": 0,
    "toolgen.config": 0,
    "toolgen.spec": 0,
    "toolgen.ir": 0,
    "toolgen.literals": 0,
    "toolgen.doctable": 0,
    "toolgen.load": 1,
    "toolgen.check": 2,
    "toolgen.lower": 3,
    "toolgen.providers": 4,
    "toolgen.render": 5,
    "toolgen.format": 6,
    "toolgen.write": 7,
    "toolgen.outlock": 7,
    "toolgen.cache": 8,
    "toolgen.pipeline": 8,
    "toolgen.binding": 9,
    "toolgen.importers": 9,
    "toolgen.breaking": 9,  # side features: may use the pipeline
    "toolgen.catalog": 9,
    "toolgen.cli": 10,
    "toolgen.progress": 10,
    "toolgen.__main__": 10,
}
# Known exceptions, each to be removed with its fix (the tests fail once one is gone, so the
# list cannot outlive them).
KNOWN_LATER: set[tuple[str, str]] = set()
KNOWN_CYCLES: list[list[str]] = []
HEAVY = ("toolgen.render", "toolgen.providers", "pydantic", "jinja2", "jsonschema")


def module_name(path: Path) -> str:
    parts = list(path.relative_to(PACKAGE.parent).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


MODULES = {module_name(p): p for p in sorted(PACKAGE.rglob("*.py")) if "__pycache__" not in p.parts}


def imports(name: str) -> set[str]:
    """The toolgen modules `name` imports, anywhere in its body."""
    path = MODULES[name]
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    found: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text("utf-8"))):
        if isinstance(node, ast.Import):
            targets = [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                anchor = package.split(".")[: len(package.split(".")) - (node.level - 1)]
                base = ".".join(anchor + ([base] if base else []))
            # `from toolgen.x import y` names the submodule toolgen.x.y when there is one
            targets = [
                f"{base}.{a.name}" if f"{base}.{a.name}" in MODULES else base for a in node.names
            ]
        else:
            continue
        found.update(t for t in targets if t in MODULES and t != name)
    return found


@cache
def import_graph() -> dict[str, set[str]]:
    """Module -> the toolgen modules it imports: parsed when a test first asks, not when the
    module is collected (each xdist worker collects every test module)."""
    return {name: imports(name) for name in MODULES}


def rank(name: str) -> int:
    prefix = max((p for p in RANKS if name == p or name.startswith(p + ".")), key=len, default=None)
    assert prefix is not None, f"{name} has no place in the pipeline order: add it to RANKS"
    return RANKS[prefix]


def test_the_graph_is_read() -> None:
    """The parser finds what is plainly there (a broken parser would pass every check below)."""
    assert "toolgen.cache" in import_graph()["toolgen.pipeline"]
    assert "toolgen.render" in import_graph()["toolgen.pipeline"]  # a function-level import
    assert "toolgen.runtime.errors" in import_graph()["toolgen.runtime"]  # a relative import
    assert len(MODULES) > 60


def test_every_module_has_a_rank() -> None:
    for name in MODULES:
        rank(name)


def test_no_module_imports_a_later_stage() -> None:
    later = {
        (name, target)
        for name, targets in import_graph().items()
        for target in targets
        if rank(target) > rank(name)
    }
    assert sorted(later - KNOWN_LATER) == []
    assert sorted(KNOWN_LATER - later) == [], "fixed: remove it from KNOWN_LATER"


def cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """Tarjan's strongly connected components: each component of two or more nodes, sorted."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []

    def visit(node: str) -> None:
        index[node] = low[node] = len(index)
        stack.append(node)
        on_stack.add(node)
        for target in sorted(graph.get(node, ())):
            if target not in index:
                visit(target)
                low[node] = min(low[node], low[target])
            elif target in on_stack:
                low[node] = min(low[node], index[target])
        if low[node] == index[node]:
            component = []
            while True:
                member = stack.pop()
                on_stack.discard(member)
                component.append(member)
                if member == node:
                    break
            if len(component) > 1:
                found.append(sorted(component))

    sys.setrecursionlimit(max(sys.getrecursionlimit(), 10_000))
    for name in sorted(graph):
        if name not in index:
            visit(name)
    return sorted(found)


def test_no_import_cycles() -> None:
    assert cycles(import_graph()) == sorted(KNOWN_CYCLES), (
        "a new cycle, or a known one fixed (then remove it from KNOWN_CYCLES)"
    )


# The runtime's groups: each subpackage of toolgen.runtime is one (validation, results, calls,
# search, providers, serving), each module at its top one of its own (errors, types, secrets,
# models). `toolgen.runtime` itself, the public surface, imports from every group and is none.
RUNTIME = "toolgen.runtime"
RUNTIME_GROUPS = sorted({name.split(".")[2] for name in MODULES if name.startswith(RUNTIME + ".")})


def runtime_group(name: str) -> str | None:
    return name.split(".")[2] if name.startswith(RUNTIME + ".") else None


def group_graph(graph: dict[str, set[str]]) -> dict[str, set[str]]:
    """Group -> the other groups its modules import (every import, as import_graph() reads them)."""
    edges: dict[str, set[str]] = {group: set() for group in RUNTIME_GROUPS}
    for name, targets in graph.items():
        source = runtime_group(name)
        if source is None:
            continue
        for target in targets:
            group = runtime_group(target)
            if group is not None and group != source:
                edges[source].add(group)
    return edges


def test_the_runtime_groups_are_read() -> None:
    """What the layering test below walks is there: the groups and an edge plainly in the code."""
    assert {"calls", "errors", "results", "search", "serving", "validation"} <= set(RUNTIME_GROUPS)
    groups = group_graph(import_graph())
    assert "validation" in groups["results"]  # results.result imports validation.validate
    assert "calls" in groups["serving"]


def test_the_runtime_groups_form_no_cycle() -> None:
    """The groups form a layered graph: no group imports, through any chain, one that imports
    it (docs/architecture.md lists the allowed edges)."""
    assert cycles(group_graph(import_graph())) == []


def test_a_cycle_between_groups_is_caught() -> None:
    """The check above fails on a cycle: one planted import from validation back to calls."""
    planted = {name: set(targets) for name, targets in import_graph().items()}
    planted[f"{RUNTIME}.validation.validate"].add(f"{RUNTIME}.calls.registry")
    found = cycles(group_graph(planted))
    assert found and "validation" in found[0] and "calls" in found[0]


def test_a_runtime_group_package_imports_nothing() -> None:
    """A group's `__init__.py` is its docstring: importing one module of a group never loads
    the rest of it."""
    for name, path in MODULES.items():
        if path.name == "__init__.py" and runtime_group(name) is not None:
            body = ast.parse(path.read_text("utf-8")).body
            assert all(isinstance(s, ast.Expr) for s in body), f"{name} does more than document"
            assert ast.get_docstring(ast.parse(path.read_text("utf-8"))), f"{name} has no docstring"


# Third-party imports the runtime may make: pydantic everywhere; the extras' packages only in
# the modules those extras serve (each imported there, never elsewhere).
RUNTIME_THIRD_PARTY = {"pydantic", "pydantic_core"}
RUNTIME_EXTRAS = {
    f"{RUNTIME}.serving.server": {"mcp", "mcp_types"},
    f"{RUNTIME}.serving.command": {"mcp", "starlette", "uvicorn"},
    f"{RUNTIME}.serving.calling": {"mcp", "mcp_types"},
    f"{RUNTIME}.serving.transports": {"mcp", "starlette"},
    f"{RUNTIME}.serving.remote": {"mcp", "mcp_types", "anyio", "httpx2"},
    f"{RUNTIME}.serving.reading": {"mcp_types"},
    f"{RUNTIME}.serving.failures": {"httpx2"},
    f"{RUNTIME}.serving.guard": {"uvicorn", "h11"},
    f"{RUNTIME}.serving.ui": {"starlette"},
    f"{RUNTIME}.serving.answering": {"mcp_types", "starlette"},
    f"{RUNTIME}.serving.cancelling": {"starlette"},
    f"{RUNTIME}.serving.tasks": {"mcp", "mcp_types"},
    f"{RUNTIME}.serving.remote_tasks": {"mcp_types"},
    f"{RUNTIME}.serving.taskwork": {"docket", "mcp_types"},
    f"{RUNTIME}.serving.tasks_modern": {"mcp", "mcp_types"},
    f"{RUNTIME}.serving.task_notices": {"mcp", "mcp_types"},
    f"{RUNTIME}.serving.auth": {"jwt"},
    f"{RUNTIME}.serving.auth_http": {"starlette"},
    f"{RUNTIME}.calls.tracing": {"opentelemetry"},
    f"{RUNTIME}.store.redis": {"redis"},
}


def test_the_runtime_imports_only_itself_the_standard_library_and_pydantic() -> None:
    """Copied into packages that do not have toolgen: relative imports only inside the runtime,
    and nothing beyond the standard library and pydantic outside the modules extras serve."""
    found: list[str] = []
    for name, path in MODULES.items():
        if not (name == RUNTIME or name.startswith(RUNTIME + ".")):
            continue
        allowed = RUNTIME_THIRD_PARTY | RUNTIME_EXTRAS.get(name, set())
        for node in ast.walk(ast.parse(path.read_text("utf-8"))):
            if isinstance(node, ast.Import):
                tops = {alias.name.split(".")[0] for alias in node.names}
            elif isinstance(node, ast.ImportFrom) and node.level == 0:
                tops = {(node.module or "").split(".")[0]}
            else:
                continue
            found += [f"{name}: {top}" for top in sorted(tops - allowed - sys.stdlib_module_names)]
    assert found == []


PROBE = """
import json, sys, time
from pathlib import Path
import toolgen.cli
after_cli = sorted(sys.modules)
from toolgen.config import BuildOptions
from toolgen.pipeline import build
first = build(Path(sys.argv[1]), BuildOptions(package="probe"))
print(json.dumps({"cli": after_cli, "ok": first.ok}))
"""


@pytest.mark.parametrize("phase", ["cli", "cached build"])
def test_the_fast_paths_import_no_heavy_stage(phase: str, tmp_path: Path) -> None:
    """In a fresh interpreter: `import toolgen.cli`, and a build answered by the build cache."""
    specs = REPO / "tests" / "golden" / "cases" / "weather" / "specs"
    env = {
        "PYTHONPATH": str(REPO / "generator"),
        "PATH": "/usr/bin:/bin",
        "TOOLGEN_CACHE_DIR": str(tmp_path),
    }
    warm = subprocess.run(
        [sys.executable, "-c", PROBE, str(specs)], env=env, capture_output=True, text=True
    )
    assert warm.returncode == 0, warm.stderr
    assert json.loads(warm.stdout)["ok"]
    if phase == "cli":
        loaded = json.loads(warm.stdout)["cli"]
    else:  # the second build is a cache hit: what does it load?
        probe = PROBE.replace(
            'print(json.dumps({"cli": after_cli, "ok": first.ok}))',
            'print(json.dumps({"cli": sorted(sys.modules), "ok": first.ok}))',
        )
        hit = subprocess.run(
            [sys.executable, "-c", probe, str(specs)], env=env, capture_output=True, text=True
        )
        assert hit.returncode == 0, hit.stderr
        loaded = json.loads(hit.stdout)["cli"]
    assert "toolgen.cli" in loaded and "toolgen.pipeline" in loaded
    heavy = sorted(m for m in loaded if any(m == h or m.startswith(h + ".") for h in HEAVY))
    assert heavy == []


# What importing a generated package must not load: pydantic and the runtime's modules (its
# facade loads them when a name, a tool or a call first needs them), asyncio (async streams
# import it when they run).
LOADED_AT_FIRST_USE = (
    "asyncio",
    "pydantic",
    "weather._runtime.calls",
    "weather._runtime.results",
    "weather._runtime.validation",
    "weather._runtime.search",
    "weather._runtime.serving",
    "weather._runtime.providers",
    "weather.tools.",
)
# What the first validation, and then the first registry, load: never tracing, serving, search
# or the repair of malformed text, which only a call that needs them loads.
NOT_FOR_A_CALL = (
    "asyncio",
    "weather._runtime.calls.tracing",
    "weather._runtime.validation.repair",
    "weather._runtime.validation.lenient",
    "weather._runtime.validation.glued",
    "weather._runtime.search",
    "weather._runtime.serving",
    "weather._runtime.providers",
)


def _loaded_after(tmp_path: Path, steps: str) -> list[str]:
    generate(REPO / "tests" / "golden" / "cases" / "weather" / "specs", tmp_path, "weather")
    probe = f"import json, sys, weather\n{steps}\nprint(json.dumps(sorted(sys.modules)))"
    env = {"PYTHONPATH": str(tmp_path), "PATH": "/usr/bin:/bin"}
    ran = subprocess.run([sys.executable, "-c", probe], env=env, capture_output=True, text=True)
    assert ran.returncode == 0, ran.stderr
    loaded: list[str] = json.loads(ran.stdout)
    return loaded


def _early(loaded: list[str], names: tuple[str, ...]) -> list[str]:
    """The loaded modules among `names` (a name ending in "." stands for every module under it)."""
    return [
        m
        for m in loaded
        if any(
            m.startswith(n) if n.endswith(".") else m == n or m.startswith(n + ".") for n in names
        )
    ]


def test_importing_a_generated_package_leaves_what_a_call_may_need_unloaded(
    tmp_path: Path,
) -> None:
    """In a fresh interpreter, `import weather` (a 1-tool package) loads its facade, index and
    stamp; nothing of pydantic, of the runtime's groups or of its tools."""
    loaded = _loaded_after(tmp_path, "")
    assert "weather._runtime.facade" in loaded  # the probe sees the package's imports
    assert _early(loaded, LOADED_AT_FIRST_USE) == []


def test_a_first_call_loads_what_it_needs_and_no_more(tmp_path: Path) -> None:
    """Validating a call, then building a registry and reading a re-exported name: the
    validation, the registry and the name are loaded, tracing, repair, search and serving not."""
    loaded = _loaded_after(
        tmp_path,
        "weather.validate_arguments('get_weather', {'location': 'Paris'})\n"
        "weather.build_registry()\n"
        "weather.ToolResult",
    )
    assert {"weather._runtime.validation.validate", "weather._runtime.calls.registry"} <= set(
        loaded
    )
    assert _early(loaded, NOT_FOR_A_CALL) == []
