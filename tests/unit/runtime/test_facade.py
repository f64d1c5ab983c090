"""The facade of a generated package (runtime/facade.py bound by its `__init__.py`): the public
names it has always had, each re-exported name the runtime's own object, loaded on first use."""

from __future__ import annotations

import importlib
import json
import pickle
import subprocess
import sys
from pathlib import Path

import pytest

import toolgen.runtime
from tests.support.generation import case_output, imported
from toolgen.runtime.facade import EXPORTS, located

# What a generated package exports beyond the runtime's names (the golden cases pin `__all__`).
OWN = {"PROVIDERS", "SPEC_SHA256", "SPEC_VERSION", "TOOLGEN_VERSION", "TOOL_NAMES"}
FUNCTIONS = {
    "arespond",
    "build_registry",
    "langchain_tools",
    "openai_agents_tools",
    "pydantic_ai_toolset",
    "respond",
    "tool_definitions",
    "tool_info",
    "validate_arguments",
}


def test_the_public_names_all_resolve() -> None:
    """`__all__`: the package's constants and functions, and every name of the facade's table
    but `validate` (reachable, never listed); `dir()` and `import *` show them all."""
    with imported(case_output("weather"), "weather") as package:
        assert set(package.__all__) == OWN | FUNCTIONS | (set(EXPORTS) - {"validate"})
        assert all(callable(getattr(package, name)) for name in FUNCTIONS)
        testing = importlib.import_module("weather.testing")
        assert all(getattr(testing, name) is not None for name in testing.__all__)
        listed = dir(package)
        assert set(package.__all__) <= set(listed) and listed == sorted(listed)
        star: dict[str, object] = {}
        exec("from weather import *", star)
        assert set(star) - {"__builtins__"} == set(package.__all__)


def test_a_re_exported_name_is_the_runtimes_own_object_loaded_on_first_use() -> None:
    with imported(case_output("weather"), "weather") as package:
        assert "Registry" not in vars(package)  # not loaded by the import
        for name, module in EXPORTS.items():
            defined = importlib.import_module(f"weather._runtime.{module}")
            assert getattr(package, name) is getattr(defined, name), name
            assert getattr(package._runtime, name, None) in (None, getattr(defined, name))
        assert vars(package)["Registry"] is package.Registry  # kept: no second lookup
        with pytest.raises(AttributeError, match="module 'weather' has no attribute 'Registr'"):
            package.Registr  # noqa: B018


def test_the_runtime_loads_its_public_names_on_first_use() -> None:
    for name in toolgen.runtime.__all__:
        module = importlib.import_module(f"toolgen.runtime.{toolgen.runtime.EXPORTS[name]}")
        assert getattr(toolgen.runtime, name) is getattr(module, name)
    assert set(toolgen.runtime.__all__) == set(toolgen.runtime.EXPORTS)
    assert set(toolgen.runtime.__all__) <= set(dir(toolgen.runtime))
    with pytest.raises(AttributeError, match="has no attribute 'Nothing'"):
        toolgen.runtime.Nothing  # noqa: B018


def test_functions_behave_as_before() -> None:
    with imported(case_output("weather"), "weather") as package:
        arguments = package.validate_arguments("get_weather", '{"location": "Paris"}')
        assert arguments.location == "Paris"
        tight = package.Limits(max_bytes=5)
        with pytest.raises(package.ToolArgumentsError):
            package.validate_arguments("get_weather", '{"location": "Paris"}', limits=tight)
        with pytest.raises(package.UnknownToolError, match="get_weather"):
            package.tool_info("get_wether")
        with pytest.raises(ValueError, match="did you mean 'openai'"):
            package.tool_definitions("opnai")
        assert len(package.build_registry()) == 0
        copied = pickle.loads(pickle.dumps(package.validate_arguments))
        assert copied.__self__ is package._facade and copied("get_weather", {"location": "P"})


def test_definitions_are_read_through_importlib_resources_without_a_file(tmp_path: Path) -> None:
    """A package without `__file__` (a zip, a custom loader) reads its definitions through
    importlib.resources; a package in folders reads them beside its `__init__.py`."""
    with imported(case_output("weather"), "weather") as package:
        namespace = {"__name__": "weather"}
        facade = type(package._facade)(
            namespace,
            {},
            {},
            package.PROVIDERS,
            generated_with=("x", "y"),
            holds=("x", "y"),
        )
        assert facade.tool_definitions("anthropic") == package.tool_definitions("anthropic")
        # A document not in render's layout (one line) is parsed whole, with the same answer.
        original = (case_output("weather") / "weather" / "definitions" / "openai.json").read_text()
        (tmp_path / "definitions").mkdir()
        (tmp_path / "definitions" / "openai.json").write_text(json.dumps(json.loads(original)))
        elsewhere = type(package._facade)(
            {"__name__": "weather", "__file__": str(tmp_path / "__init__.py")},
            {},
            {},
            ("openai",),
            generated_with=("x", "y"),
            holds=("x", "y"),
        )
        for strict in (False, True):
            expected = package.tool_definitions("openai", strict=strict)
            assert elsewhere.tool_definitions("openai", strict=strict) == expected
        with pytest.raises(ImportError, match="weather._runtime is not the runtime"):
            type(package._facade)(
                namespace, {}, {}, (), generated_with=("x", "y"), holds=("x", "z")
            )


@pytest.mark.parametrize("case", ["weather", "providers", "deprecations"])
def test_a_variant_is_read_alone_from_the_layout_render_writes(case: str) -> None:
    """Every variant of every provider's document is found by its line and parsed alone, and is
    what parsing the whole document gives; a document laid out otherwise is parsed whole."""
    folder = case_output(case) / case / "definitions"
    documents = sorted(folder.glob("*.json"))
    assert len(documents) >= 6
    for path in documents:
        if path.name == "search.json":
            continue
        text = path.read_text("utf-8")
        for variant in json.loads(text)["variants"]:
            assert located(text, variant["options"]) == variant["definitions"], path.name
        squeezed = json.dumps(json.loads(text))  # one line: no variant starts a line
        assert located(squeezed, json.loads(text)["variants"][0]["options"]) is None
    with imported(case_output(case), case) as package:
        for provider in package.PROVIDERS:
            whole = json.loads((folder / f"{provider}.json").read_text("utf-8"))
            assert package.tool_definitions(provider) == whole["variants"][0]["definitions"]


def test_a_plain_call_answers_as_the_tools_own_validate_arguments() -> None:
    """The facade keeps each tool's plain validator: the same answers as `ToolInfo`'s method,
    the names the host holds secret passed on, a name that is not a tool's still unknown."""
    with imported(case_output("library"), "library") as package:
        info = package.tool_info("send-email")
        good = {"to": ["a@example.com"], "subject": "s", "body": "b"}
        assert package.validate_arguments("send-email", good) == info.validate_arguments(good)
        echoed = {**good, "smtp_password": "hunter2"}
        with pytest.raises(package.ToolArgumentsError) as plain:
            package.validate_arguments("send-email", json.dumps(echoed))
        with pytest.raises(package.ToolArgumentsError) as direct:
            info.validate_arguments(json.dumps(echoed))
        assert str(plain.value) == str(direct.value) and "hunter2" not in str(plain.value)
        assert info.plain_validator().keywords == {"secrets": frozenset({"smtp_password"})}
        for name in (["send-email"], 7, None):
            with pytest.raises(package.UnknownToolError):
                package.validate_arguments(name, good)


def test_the_testing_facade_binds_the_surface_the_generator_reads() -> None:
    """`testing/__init__.py` is rendered from runtime_testing/surface.py's tuples: each name
    is what contract.py or `TestingFacade` holds, and the generator reads them without
    importing hypothesis."""
    from toolgen.runtime_testing import contract, surface
    from toolgen.runtime_testing.facade import TestingFacade

    with imported(case_output("weather"), "weather"):
        testing = importlib.import_module("weather.testing")
        assert tuple(testing.__all__) == surface.TESTING_ALL
        for name in surface.FUNCTIONS:
            bound = getattr(testing, name).__func__  # the package's copy of the class
            assert bound.__qualname__ == getattr(TestingFacade, name).__qualname__, name
    assert set(surface.CONTRACT_NAMES) <= set(contract.__all__)
    loaded = subprocess.run(
        [sys.executable, "-c", "import sys, toolgen.render; print('hypothesis' in sys.modules)"],
        capture_output=True,
        text=True,
        check=True,
    )
    assert loaded.stdout.strip() == "False"
