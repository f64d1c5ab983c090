"""toolgen's runtime, tested once: the sources, and their verbatim copies in a generated package.

Every generated package holds `_runtime/` (and `testing/_support/`) copied byte for byte
from `generator/toolgen/runtime/` (and `runtime_testing/`), so the golden cases do not pin
them; this module holds what they would: the sources are black-stable and mypy-strict
clean, the copies are identical, the stamps match, and `toolgen check` and orphan cleanup
treat the copies as toolgen's.
"""

from __future__ import annotations

import ast
import json
import re
from pathlib import Path
from types import ModuleType
from typing import Any

import black
import pytest
from click.testing import CliRunner
from pydantic import ConfigDict, RootModel

from tests.support.generation import CASES, REPO, generate, imported
from tests.support.mypy_support import mypy
from toolgen.cli import main
from toolgen.config import BuildOptions
from toolgen.constants import RUNTIME_MARKER
from toolgen.format import in_black_layout, mode
from toolgen.ir import FieldIR, ModelIR
from toolgen.render import _configuration, digest, model_base, model_config
from toolgen.runtime import models as runtime_models
from toolgen.write import apply, plan

SOURCE = REPO / "generator" / "toolgen"
RUNTIME = sorted(p for p in (SOURCE / "runtime").rglob("*.py") if "__pycache__" not in p.parts)
SUPPORT = sorted((SOURCE / "runtime_testing").glob("*.py"))


def source_id(path: Path) -> str:
    return path.relative_to(SOURCE).as_posix()


@pytest.mark.parametrize("path", RUNTIME + SUPPORT, ids=source_id)
def test_each_source_is_marked_black_stable_and_skips_black(path: Path) -> None:
    text = path.read_text("utf-8")
    assert text.startswith(f"# {RUNTIME_MARKER}\n")
    assert black.format_str(text, mode=mode()) == text, f"run black -l 100 -t py311 on {path.name}"
    assert in_black_layout(text)  # so the format step passes the copy through untouched


@pytest.mark.parametrize("path", RUNTIME + SUPPORT, ids=source_id)
def test_sources_import_nothing_of_toolgen_and_support_reaches_the_runtime_only_through_its_link(
    path: Path,
) -> None:
    for node in ast.walk(ast.parse(path.read_text("utf-8"))):
        if isinstance(node, ast.Import):
            assert not any(alias.name.split(".")[0] == "toolgen" for alias in node.names), path
        elif isinstance(node, ast.ImportFrom):
            assert node.level > 0 or (node.module or "").split(".")[0] != "toolgen", path
            # never above its own root folder (runtime/ or runtime_testing/), but for the
            # support's link, to the runtime
            depth = len(path.relative_to(SOURCE).parts) - 1  # 1: a module at a root's top
            if node.level > depth:
                assert path.name == "_link.py" and (node.module or "").startswith("runtime."), path


def test_the_registry_does_not_import_the_adapters() -> None:
    tree = ast.parse((SOURCE / "runtime" / "calls" / "registry.py").read_text("utf-8"))
    imported_modules = [n.module for n in ast.walk(tree) if isinstance(n, ast.ImportFrom)]
    assert imported_modules and not any("adapters" in (m or "") for m in imported_modules)


def test_sources_pass_mypy_strict() -> None:
    packages = ("-p", "toolgen.runtime", "-p", "toolgen.runtime_testing")
    result = mypy(*packages, env={"MYPYPATH": str(SOURCE.parent), "PATH": ""})
    assert result.returncode == 0, result.stdout + result.stderr


@pytest.fixture(scope="module")
def library(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, dict[str, str]]:
    out = tmp_path_factory.mktemp("library")
    return out, generate(CASES / "library" / "specs", out, "library")


def test_copies_are_byte_identical(library: tuple[Path, dict[str, str]]) -> None:
    out, _ = library
    runtime = SOURCE / "runtime"
    for source in RUNTIME:
        name = source.relative_to(runtime)
        assert (out / "library" / "_runtime" / name).read_bytes() == source.read_bytes(), name
    for source in SUPPORT:
        copy = (out / "library" / "testing" / "_support" / source.name).read_bytes()
        if source.name == "_link.py":  # the one rewritten line per import: same line numbers
            assert copy.count(b"\n") == source.read_bytes().count(b"\n")
            assert copy == source.read_bytes().replace(b"from ..runtime", b"from ..._runtime")
        else:
            assert copy == source.read_bytes(), source.name
    copied = {
        p.relative_to(out / "library" / "_runtime")
        for p in (out / "library" / "_runtime").rglob("*.py")
    }
    assert copied == {p.relative_to(runtime) for p in RUNTIME} | {Path("_stamp.py")}


def test_stamps_name_the_copied_sources(library: tuple[Path, dict[str, str]]) -> None:
    out, files = library
    for folder, sources, root, constant in (
        ("_runtime", RUNTIME, "runtime", "_RUNTIME_SHA256"),
        ("testing/_support", SUPPORT, "runtime_testing", "_SUPPORT_SHA256"),
    ):
        names = [p.relative_to(SOURCE / root).as_posix() for p in sources]
        copies = {name: files[f"library/{folder}/{name}"] for name in names}
        stamp = files[f"library/{folder}/_stamp.py"]
        assert f'RUNTIME_SHA256 = "{digest(copies)}"' in stamp
        checker = files[
            "library/__init__.py" if folder == "_runtime" else "library/testing/__init__.py"
        ]
        assert f'{constant} = "{digest(copies)}"' in checker
    with imported(out, "library") as package:
        assert package.TOOL_NAMES
        assert importlib_module("library.testing").CONTRACTS


def importlib_module(name: str) -> ModuleType:
    import importlib

    return importlib.import_module(name)


@pytest.mark.parametrize(
    "folder, module", [("_runtime", "stamp"), ("testing/_support", "stamp.testing")]
)
def test_a_package_refuses_a_runtime_it_was_not_generated_with(
    tmp_path: Path, folder: str, module: str
) -> None:
    generate(CASES / "weather" / "specs", tmp_path, "stamp")
    stamp = tmp_path / "stamp" / folder / "_stamp.py"
    stamp.write_text(
        re.sub(
            r'RUNTIME_SHA256 = "[0-9a-f]+"',
            'RUNTIME_SHA256 = "' + "0" * 64 + '"',
            stamp.read_text(),
        )
    )
    with pytest.raises(
        ImportError,
        match="is not the (runtime|test support) stamp.* was generated with.*000000000000",
    ):
        with imported(tmp_path, "stamp"):
            importlib_module(module)


def test_check_reports_a_hand_edited_runtime_file_and_cleanup_knows_the_copies(
    tmp_path: Path,
) -> None:
    specs = CASES / "weather" / "specs"
    files = generate(specs, tmp_path, "weather")
    registry = tmp_path / "weather" / "_runtime" / "calls" / "registry.py"
    registry.write_text(registry.read_text().replace("registered twice", "registered 2x"))
    result = CliRunner().invoke(
        main, ["check", "--specs", str(specs), "--out", str(tmp_path), "--package", "weather"]
    )
    assert result.exit_code == 1 and "stale: weather/_runtime/calls/registry.py" in result.stdout
    # A runtime module toolgen no longer ships is an orphan; a file of the user's is not.
    old = tmp_path / "weather" / "_runtime" / "retired.py"
    old.write_text(f"# {RUNTIME_MARKER}\n")
    mine = tmp_path / "weather" / "_runtime" / "notes.py"
    mine.write_text("# my notes\n")
    changes = plan(tmp_path, files, BuildOptions(package="weather"))
    assert changes.orphans == ["weather/_runtime/retired.py"]
    apply(tmp_path, changes)
    assert (
        not old.exists()
        and mine.exists()
        and registry.read_text() == files["weather/_runtime/calls/registry.py"]
    )


# --- shared model bases --------------------------------------------------------------------

MODELS = [
    ModelIR("M", None, fields, extra, role, root=root)
    for extra in ("forbid", "allow")
    for role in ("arguments", "result", "injected")
    for root in (None, "list[int]")
    for fields in ((), (FieldIR("model_x", "model_x_", "int", required=True, nullable=False),))
]
PYDANTIC_DEFAULTS = {
    "strict": False,
    "validate_by_name": False,
    "validate_by_alias": True,
    "extra": "ignore",
    "allow_inf_nan": True,
    "validate_assignment": False,
}


@pytest.mark.parametrize(
    "model", MODELS, ids=lambda m: f"{m.extra}-{m.role}-{m.root}-{len(m.fields)}"
)
def test_a_generated_class_ends_up_with_exactly_the_configuration_it_needs(model: ModelIR) -> None:
    """What a class states (its base's config merged with its own line) is what the spec needs."""
    code = (
        f"class M({model_base(model)}):\n    '''A model.'''\n{model_config(model) or '    pass'}\n"
    )
    namespace: dict[str, Any] = {
        "ConfigDict": ConfigDict,
        "RootModel": RootModel,
        **vars(runtime_models),
    }
    exec(code, namespace)  # noqa: S102 - our own rendered class body
    effective = dict(namespace["M"].model_config)
    needed = _configuration(model)
    assert {key: effective.get(key, PYDANTIC_DEFAULTS.get(key)) for key in needed} == needed
    for key, value in effective.items():
        if key not in needed:
            assert value == PYDANTIC_DEFAULTS.get(key, value), key


# --- registries of two generated packages ----------------------------------------------------


def _specs(folder: Path, tool: dict[str, Any]) -> Path:
    folder.mkdir(parents=True)
    (folder / "tools.json").write_text(json.dumps({"tools": [tool]}), "utf-8")
    return folder


ALPHA = {
    "name": "alpha.add",
    "description": "Add two integers.",
    "errors": {"overflow": {"description": "Too big."}},
    "parameters": {
        "type": "object",
        "properties": {"a": {"type": "integer"}, "b": {"type": "integer"}},
        "required": ["a", "b"],
    },
    "returns": {"type": "object", "properties": {"sum": {"type": "integer"}}, "required": ["sum"]},
}
BETA = {
    "name": "beta.echo",
    "description": "Echo a text.",
    "errors": {"empty": {"description": "Nothing to echo."}},
    "parameters": {
        "type": "object",
        "properties": {"text": {"type": "string"}, "pin": {"type": "string", "x-secret": True}},
        "required": ["text"],
    },
    "returns": {"type": "string"},
}


def test_registries_of_two_generated_packages_merge(tmp_path: Path) -> None:
    generate(_specs(tmp_path / "a-specs", ALPHA), tmp_path / "a", "merge_a")
    generate(_specs(tmp_path / "b-specs", BETA), tmp_path / "b", "merge_b")
    with imported(tmp_path / "a", "merge_a") as a, imported(tmp_path / "b", "merge_b") as b:
        from merge_a.tools.alpha_add import AlphaAddResult, AlphaAddTool  # type: ignore[import-not-found]
        from merge_b.tools.beta_echo import BetaEchoResult, BetaEchoTool  # type: ignore[import-not-found]

        class Add(AlphaAddTool):  # type: ignore[misc]
            def run(self, arguments: Any) -> Any:
                if arguments.a > 100:
                    raise a.ToolError("overflow", "too big")
                return AlphaAddResult(sum=arguments.a + arguments.b)

        class Echo(BetaEchoTool):  # type: ignore[misc]
            def run(self, arguments: Any) -> Any:
                if not arguments.text:
                    raise b.ToolError("empty", "nothing")  # b's ToolError, in a's registry
                return BetaEchoResult(arguments.text)

        merged = a.build_registry(Add()) + b.build_registry(Echo())
        together = a.build_registry(Add(), Echo())
        for registry in (merged, together, b.build_registry(Echo()) + a.build_registry(Add())):
            assert sorted(registry) == ["alpha.add", "beta.echo"]
            assert registry.call("alpha.add", {"a": 1, "b": 2}).to_dict() == {
                "ok": True,
                "result": {"sum": 3},
            }
            assert registry.call("beta_echo", '{"text": "hi"}').to_dict() == {
                "ok": True,
                "result": "hi",
            }
            assert registry.call("beta.echo", {"text": ""}).failure.kind == "empty"
            assert registry.call("alpha.add", {"a": 101, "b": 2}).failure.kind == "overflow"
            refused = registry.call(
                "beta.echo", {"txt": "hi", "pin": 12345}
            )  # b's runtime: the secret stays hidden
            assert refused.failure.kind == "invalid_arguments" and "did you mean" in refused.text()
            assert "12345" not in refused.text()
            answers = a.respond(
                registry,
                "anthropic",
                [
                    {"type": "tool_use", "id": "1", "name": "alpha_add", "input": {"a": 2, "b": 2}},
                    {"type": "tool_use", "id": "2", "name": "beta_echo", "input": {"text": "x"}},
                ],
            )
            assert [c["content"] for c in answers["content"]] == ['{"sum":4}', '"x"']
        with pytest.raises(TypeError, match="is not an implementation"):
            a.build_registry(object())
