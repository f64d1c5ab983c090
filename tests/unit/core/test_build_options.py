"""BuildOptions: validated once, frozen, hashable; [tool.toolgen] fills it; a build honours every field."""

from __future__ import annotations

import tomllib
from dataclasses import replace
from pathlib import Path

import pytest

from tests.support.generation import REPO
from toolgen.config import GENERATED_EXTRAS, BuildOptions, load_config
from toolgen.pipeline import build
from toolgen.runtime.kinds import PROVIDERS

SPECS = REPO / "tests" / "golden" / "cases" / "weather" / "specs"


def test_defaults_and_normalisation(tmp_path: Path) -> None:
    options = BuildOptions(package="my_tools", templates=tmp_path / "x" / "..")
    assert options.distribution == "my-tools" and options.version == "0.1.0"
    assert options.providers == PROVIDERS and options.templates == tmp_path.resolve()
    assert BuildOptions(package="p", providers=("mcp", "openai")).providers == (
        "openai",
        "mcp",
    )  # canonical order


def test_equal_options_hash_alike_and_are_frozen() -> None:
    a, b = (
        BuildOptions(package="p", version="1.2"),
        BuildOptions(package="p", version="1.2", distribution="p"),
    )
    assert a == b and hash(a) == hash(b) and a.fingerprint() == b.fingerprint()
    assert a != BuildOptions(package="p", version="1.3")
    with pytest.raises(AttributeError):
        a.version = "2"  # type: ignore[misc]


@pytest.mark.parametrize(
    ("fields", "message"),
    [
        ({"package": "not-an-identifier"}, "not a Python identifier"),
        ({"package": "class"}, "not a Python identifier"),
        ({"package": "p", "version": "one"}, "not a version number"),
        ({"package": "p", "distribution": "-bad-"}, "not a valid project name"),
        ({"package": "p", "providers": ("openai", "opnai")}, "unknown provider(s) 'opnai'"),
        ({"package": "p", "providers": ()}, "name at least one"),
        (
            {"package": "p", "examples_budget": -1},
            "examples_in_descriptions must be a whole number",
        ),
        (
            {"package": "p", "examples_budget": True},
            "examples_in_descriptions must be a whole number",
        ),
    ],
)
def test_invalid_options_are_refused_on_construction(
    fields: dict[str, object], message: str
) -> None:
    with pytest.raises(ValueError, match=message.replace("(", r"\(").replace(")", r"\)")):
        BuildOptions(**fields)  # type: ignore[arg-type]


def test_every_provider_has_an_exporter() -> None:
    from toolgen.providers import TARGETS

    assert tuple(TARGETS) == PROVIDERS


def test_pyproject_settings_reach_the_options(tmp_path: Path) -> None:
    (tmp_path / "pyproject.toml").write_text(
        '[tool.toolgen]\npackage = "kit"\nversion = "2.1.0"\ndistribution = "acme-kit"\nproviders = ["mcp"]\n'
    )
    options = load_config(tmp_path).options()
    assert options == BuildOptions(
        package="kit", version="2.1.0", distribution="acme-kit", providers=("mcp",)
    )
    (tmp_path / "pyproject.toml").write_text("[tool.toolgen]\nversion = 2\n")
    with pytest.raises(ValueError, match="version must be a string"):
        load_config(tmp_path)


def test_a_build_carries_version_distribution_and_providers(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setenv("TOOLGEN_NO_CACHE", "1")
    result = build(
        SPECS,
        BuildOptions(
            package="weather",
            version="3.0.1",
            distribution="acme-weather",
            providers=("anthropic", "mcp"),
        ),
    )
    assert result.ok
    pyproject = result.files["pyproject.toml"]
    assert 'name = "acme-weather"' in pyproject and 'version = "3.0.1"' in pyproject
    facade = result.files["weather/__init__.py"]
    assert (
        '__version__ = "3.0.1"' in facade
        and 'PROVIDERS: tuple[str, ...] = ("anthropic", "mcp")' in facade
    )
    assert sorted(p for p in result.files if "/definitions/" in p) == [
        "weather/definitions/anthropic.json",
        "weather/definitions/mcp.json",
        "weather/definitions/search.json",
    ]


def test_examples_in_descriptions_reaches_the_definitions(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """`[tool.toolgen] examples_in_descriptions`: the build's option, its cache key, and the
    descriptions of the providers that have no field for examples."""
    import json

    monkeypatch.setenv("TOOLGEN_NO_CACHE", "1")
    (tmp_path / "pyproject.toml").write_text(
        '[tool.toolgen]\npackage = "catalog"\nexamples_in_descriptions = 200\n'
    )
    options = load_config(tmp_path).options()
    assert (
        options.examples_budget == 200
        and options.fingerprint() != BuildOptions(package="catalog").fingerprint()
    )
    specs = REPO / "tests" / "golden" / "cases" / "catalog" / "specs"
    folded, plain = build(specs, options), build(specs, BuildOptions(package="catalog"))

    def description(
        result: object, provider: str
    ) -> str:  # find_customer's, the tool with examples
        document = json.loads(result.files[f"catalog/definitions/{provider}.json"])  # type: ignore[attr-defined]
        bodies = [d.get("function") or d for d in document["variants"][0]["definitions"]]
        return str(next(b["description"] for b in bodies if b.get("name") == "find_customer"))

    assert description(folded, "openai").endswith(
        'Examples of valid arguments:\n{"query": "ada@example.com"}'
        '\n{"query": "Lovelace", "limit": 3}'
    )
    assert (
        description(plain, "openai")
        == description(folded, "anthropic")
        == description(plain, "anthropic")
    )


def test_a_project_shipping_to_one_provider_still_serves_over_mcp(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """`providers = ["openai"]` in [tool.toolgen]: lint reports on OpenAI's definitions only,
    and the package still serves its tools (MCP's definitions are always generated)."""
    import shutil
    import subprocess
    import sys

    import anyio
    from click.testing import CliRunner
    from mcp import Client, StdioServerParameters

    from tests.support.mcp_support import python_path
    from toolgen.cli import main

    monkeypatch.setenv("TOOLGEN_CACHE_DIR", str(tmp_path / "cache"))
    shutil.copytree(SPECS, tmp_path / "specs")
    (tmp_path / "pyproject.toml").write_text(
        '[tool.toolgen]\nspecs = "specs"\nout = "out"\npackage = "weather"\n'
        'providers = ["openai"]\n',
        "utf-8",
    )
    monkeypatch.chdir(tmp_path)
    linted = CliRunner().invoke(main, ["lint", "--notes"])
    assert linted.exit_code == 0, linted.output
    targets = {
        line.split("]: ", 1)[1].split(":")[0]
        for line in linted.output.splitlines()
        if "note[" in line
    }
    assert targets and all(t.startswith("openai") for t in targets), targets
    generated = CliRunner().invoke(main, ["generate"])
    assert generated.exit_code == 0, generated.output
    definitions = sorted(p.name for p in (tmp_path / "out" / "weather" / "definitions").iterdir())
    assert definitions == ["mcp.json", "openai.json", "search.json"]

    (tmp_path / "my_tools.py").write_text(
        "import weather\n"
        "from weather.tools.get_weather import GetWeatherResult, GetWeatherTool\n\n"
        "class GetWeather(GetWeatherTool):\n"
        "    def run(self, arguments):\n"
        "        return GetWeatherResult(temperature=21.5, conditions=None)\n\n"
        "registry = weather.build_registry(GetWeather())\n",
        "utf-8",
    )
    env = python_path(tmp_path / "out", tmp_path)
    server = StdioServerParameters(
        command=sys.executable,
        args=["-m", "weather", "serve", "--stdio", "--registry", "my_tools:registry"],
        env=env,
        cwd=str(tmp_path),
    )

    async def session() -> tuple[list[str], object]:
        async with Client(server, read_timeout_seconds=60) as client:
            listed = await client.list_tools()
            called = await client.call_tool("get_weather", {"location": "Paris"})
            return [t.name for t in listed.tools], called.structured_content

    names, result = anyio.run(session)
    assert names == ["get_weather"] and result == {"temperature": 21.5, "conditions": None}
    assert subprocess.run([sys.executable, "-c", "import weather"], env=env).returncode == 0


def test_the_wheel_table_ships_handwritten_packages_and_extras(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    (tmp_path / "impl").mkdir()
    (tmp_path / "impl" / "__init__.py").write_text("")
    (tmp_path / "pyproject.toml").write_text(
        '[tool.toolgen]\npackage = "kit"\nout = "build/out"\n'
        '[tool.toolgen.wheel]\npackages = ["impl"]\n'
        'extras = {pdf = ["pypdf>=5"], all = ["kit[server,pdf]"]}\n'
    )
    options = load_config(tmp_path).options()
    assert options.ships == (("../../impl", "impl"),)  # from the output folder
    assert options.extras == (("all", ("kit[server,pdf]",)), ("pdf", ("pypdf>=5",)))
    assert options.fingerprint() != replace(options, ships=()).fingerprint()
    monkeypatch.setenv("TOOLGEN_NO_CACHE", "1")
    pyproject = build(SPECS, options).files["pyproject.toml"]
    assert 'all = ["kit[server,pdf]"]\npdf = ["pypdf>=5"]\n' in pyproject
    assert '[tool.hatch.build.targets.wheel.force-include]\n"../../impl" = "impl"\n' in pyproject
    assert "force-include" not in build(SPECS, BuildOptions(package="kit")).files["pyproject.toml"]


def test_the_wheel_s_registry_is_the_entry_point_serve_defaults_to(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    (tmp_path / "impl").mkdir()
    (tmp_path / "impl" / "__init__.py").write_text("")
    (tmp_path / "pyproject.toml").write_text(
        '[tool.toolgen]\npackage = "kit"\n'
        '[tool.toolgen.wheel]\npackages = ["impl"]\nregistry = "impl.tools:registry"\n'
    )
    options = load_config(tmp_path).options()
    assert options.registry == "impl.tools:registry"
    assert options.fingerprint() != replace(options, registry=None).fingerprint()
    monkeypatch.setenv("TOOLGEN_NO_CACHE", "1")
    pyproject = tomllib.loads(build(SPECS, options).files["pyproject.toml"])
    assert pyproject["project"]["entry-points"] == {
        "toolgen.registries": {"kit": "impl.tools:registry"}
    }
    plain = tomllib.loads(build(SPECS, BuildOptions(package="kit")).files["pyproject.toml"])
    assert "entry-points" not in plain["project"]


@pytest.mark.parametrize(
    ("table", "message"),
    [
        ('packages = ["missing"]', "'missing' is not a package folder"),
        ("packages = 3", "packages must be a list of folders"),
        ('extras = {pdf = "pypdf"}', "extras must map names to lists"),
        ('extras = {server = ["x"]}', "'server' is an extra the generated package has already"),
        ('extras = {Big_One = ["x"]}', "'Big_One' is not an extra's name"),
        ("scripts = []", "takes three settings"),
        ('registry = "elsewhere:registry"', "of a registry in one of its packages"),
        ('registry = "impl"', "module:attribute"),
    ],
)
def test_a_wrong_wheel_table_is_refused(tmp_path: Path, table: str, message: str) -> None:
    (tmp_path / "pyproject.toml").write_text(
        f'[tool.toolgen]\npackage = "kit"\n[tool.toolgen.wheel]\n{table}\n'
    )
    with pytest.raises(ValueError, match=message):
        load_config(tmp_path).options()


def test_the_generated_extras_are_the_templates(monkeypatch: pytest.MonkeyPatch) -> None:
    """config.GENERATED_EXTRAS (the names a project's extra may not take) is what the template writes."""
    monkeypatch.setenv("TOOLGEN_NO_CACHE", "1")
    pyproject = tomllib.loads(build(SPECS, BuildOptions(package="kit")).files["pyproject.toml"])
    assert tuple(pyproject["project"]["optional-dependencies"]) == GENERATED_EXTRAS
