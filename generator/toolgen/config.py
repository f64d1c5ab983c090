"""Settings from `[tool.toolgen]` in pyproject.toml (found upwards from the working directory),
and `BuildOptions`: everything besides the specs that a build's output depends on."""

from __future__ import annotations

import keyword
import os
import re
import sys
import tomllib
import unicodedata
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

from toolgen.leaves import kinds

DEFAULTS: dict[str, Any] = {
    "specs": "schemas",
    "out": "generated",
    "package": "tools",
    "implementations": None,
    "templates": None,
    "version": "0.1.0",
    "distribution": None,
    "providers": None,
    "lint": None,
    "breaking": None,
    "examples_in_descriptions": 0,
    "wheel": None,
}
# PEP 440 public versions and PEP 508 distribution names.
_VERSION = re.compile(r"(\d+!)?\d+(\.\d+)*((a|b|rc)\d+)?(\.post\d+)?(\.dev\d+)?")
_DISTRIBUTION = re.compile(r"[A-Za-z0-9]([A-Za-z0-9._-]*[A-Za-z0-9])?")
# The extras every generated distribution declares (templates/pyproject.toml.jinja), and what
# an extra of [tool.toolgen.wheel] may be called (PEP 685's normalized names).
GENERATED_EXTRAS = (
    "testing",
    "server",
    "redis",
    "client",
    "openai-agents",
    "pydantic-ai",
    "langchain",
)
_EXTRA = re.compile(r"[a-z0-9]+(-[a-z0-9]+)*")
# What a generated package imports (its dependencies and its extras'): a package of one of these
# names would shadow it, and so would a standard-library module (sys.stdlib_module_names).
DEPENDENCIES: tuple[str, ...] = (
    "pydantic",
    "pydantic_core",
    "typing_extensions",
    "annotated_types",
    "hypothesis",
    "jsonschema",
)


def package_name_problem(name: str) -> str | None:
    """Why `name` cannot be the import name of a generated package, or None when it can."""
    if not name.isidentifier() or keyword.iskeyword(name):
        return f"package name {name!r} is not a Python identifier"
    if unicodedata.normalize("NFKC", name) != name:
        normal = unicodedata.normalize("NFKC", name)
        return (
            f"package name {name!r} is not in normal form: Python imports it as {normal!r}; "
            f"use {normal!r} (or ASCII letters)"
        )
    shadowed = (
        "the standard library"
        if name in sys.stdlib_module_names
        else ("a dependency of the generated package" if name in DEPENDENCIES else None)
    )
    if shadowed:
        return f"package name {name!r} would shadow the module {name!r} of {shadowed}: choose another name"
    return None


def targets(providers: Iterable[str]) -> tuple[str, ...]:
    """The providers a package carries definitions for, in the canonical order: the chosen ones,
    and MCP's always (the package serves its tools over MCP and its client reads them)."""
    wanted = {*providers, kinds.MCP}
    return tuple(p for p in kinds.PROVIDERS if p in wanted)


@dataclass(frozen=True)
class BuildOptions:
    """What a build makes of the specs: validated once, here; frozen and hashable, so the
    build cache keys on the whole object and no stage re-validates a piece of it."""

    package: str  # import name of the generated package
    version: str = "0.1.0"  # of the generated distribution
    distribution: str = ""  # its name on an index; "" means the package name with `-` for `_`
    templates: Path | None = None  # a folder of template overrides
    providers: tuple[str, ...] = kinds.PROVIDERS
    # Characters of spec examples written into descriptions for providers with no field for
    # them (all but Anthropic's `input_examples`); 0: none.
    examples_budget: int = 0
    # [tool.toolgen.wheel]: handwritten packages the distribution's wheel carries beside the
    # generated one (the folder relative to the output directory, the import name), and extras
    # besides the generated package's own (name, requirements).
    ships: tuple[tuple[str, str], ...] = ()
    extras: tuple[tuple[str, tuple[str, ...]], ...] = ()
    # [tool.toolgen.wheel] registry: the "module:attribute" of the registry a shipped package
    # holds, what `python -m <package> serve` serves without --registry (an entry point).
    registry: str | None = None

    def __post_init__(self) -> None:
        problem = package_name_problem(self.package)
        if problem:
            raise ValueError(problem)
        if not _VERSION.fullmatch(self.version):
            raise ValueError(
                f"version {self.version!r} is not a version number (PEP 440), such as 1.2.0"
            )
        distribution = self.distribution or self.package.replace("_", "-")
        if not _DISTRIBUTION.fullmatch(distribution):
            raise ValueError(
                f"distribution name {distribution!r} is not a valid project name (PEP 508)"
            )
        object.__setattr__(self, "distribution", distribution)
        unknown = [p for p in self.providers if p not in kinds.PROVIDERS]
        if unknown or not self.providers:
            raise ValueError(
                f"unknown provider(s) {', '.join(map(repr, unknown))}; known: {', '.join(kinds.PROVIDERS)}"
                if unknown
                else "providers: name at least one"
            )
        object.__setattr__(self, "providers", targets(self.providers))
        if self.templates is not None:
            object.__setattr__(self, "templates", Path(self.templates).resolve())
        if type(self.examples_budget) is not int or self.examples_budget < 0:
            raise ValueError(
                f"examples_in_descriptions must be a whole number of characters (0: none), "
                f"not {self.examples_budget!r}"
            )
        for name, _ in self.extras:
            if not _EXTRA.fullmatch(name) or name in GENERATED_EXTRAS:
                raise ValueError(
                    f"[tool.toolgen.wheel] extras: {name!r} "
                    + (
                        "is an extra the generated package has already"
                        if name in GENERATED_EXTRAS
                        else "is not an extra's name (lowercase letters, digits and -)"
                    )
                )

    def fingerprint(self) -> str:
        """Every field, as text: what the build cache hashes."""
        return repr(
            (
                self.package,
                self.version,
                self.distribution,
                str(self.templates),
                self.providers,
                self.examples_budget,
                self.ships,
                self.extras,
                self.registry,
            )
        )


@dataclass(frozen=True)
class Config:
    specs: Path
    out: Path
    package: str
    implementations: str | None  # "module:attribute" of a Registry or a function returning one
    templates: Path | None
    root: Path  # where paths are relative to: the pyproject's folder, or the working directory
    version: str = "0.1.0"  # of the generated distribution
    distribution: str | None = None  # its name; None: the package name with `-` for `_`
    providers: tuple[str, ...] | None = None  # None: every provider
    lint_disable: tuple[
        str, ...
    ] = ()  # [tool.toolgen.lint] disable: rule IDs whose warnings are left out
    # [tool.toolgen.breaking] as written (toolgen.breaking.settings reads and checks it)
    breaking: Mapping[str, Any] = field(default_factory=dict)
    # whether [tool.toolgen] states `version` (`toolgen breaking` checks a stated version's bump)
    version_declared: bool = False
    examples_budget: int = 0  # [tool.toolgen] examples_in_descriptions
    # [tool.toolgen.wheel] packages: folders of handwritten packages (relative to `root`) that
    # the generated wheel carries too; extras: name -> requirements
    wheel_packages: tuple[str, ...] = ()
    wheel_extras: tuple[tuple[str, tuple[str, ...]], ...] = ()
    wheel_registry: str | None = None  # [tool.toolgen.wheel] registry: "module:attribute"

    def override(self, **flags: Any) -> Config:
        given = {k: v for k, v in flags.items() if v is not None}
        for key in ("specs", "out", "templates"):
            if key in given:
                given[key] = Path(given[key]).resolve()
        return replace(self, **given)

    def options(self) -> BuildOptions:
        """The build options these settings describe; ValueError when one is invalid."""
        return BuildOptions(
            package=self.package,
            version=self.version,
            distribution=self.distribution or "",
            templates=self.templates,
            providers=self.providers or kinds.PROVIDERS,
            examples_budget=self.examples_budget,
            ships=tuple(
                (Path(os.path.relpath(self.root / folder, self.out)).as_posix(), Path(folder).name)
                for folder in self.wheel_packages
            ),
            extras=self.wheel_extras,
            registry=self.wheel_registry,
        )


def find_pyproject(start: Path) -> Path | None:
    for folder in (start, *start.parents):
        candidate = folder / "pyproject.toml"
        if candidate.is_file():
            return candidate
    return None


def load_config(start: Path | None = None) -> Config:
    start = (start or Path.cwd()).resolve()
    pyproject = find_pyproject(start)
    table: dict[str, Any] = {}
    root = start
    if pyproject is not None:
        with pyproject.open("rb") as handle:
            section = tomllib.load(handle).get("tool", {}).get("toolgen")
        if isinstance(section, dict):
            table, root = section, pyproject.parent
    unknown = sorted(set(table) - set(DEFAULTS))
    if unknown:
        raise ValueError(f"unknown setting(s) in [tool.toolgen]: {', '.join(unknown)}")
    merged = {**DEFAULTS, **table}
    for key in ("version", "distribution"):
        if merged[key] is not None and not isinstance(merged[key], str):
            raise ValueError(f"[tool.toolgen] {key} must be a string")
    providers = merged["providers"]
    if providers is not None and not (
        isinstance(providers, list) and all(isinstance(p, str) for p in providers)
    ):
        raise ValueError("[tool.toolgen] providers must be a list of provider names")
    return Config(
        specs=(root / merged["specs"]).resolve(),
        out=(root / merged["out"]).resolve(),
        package=merged["package"],
        implementations=merged["implementations"],
        templates=(root / merged["templates"]).resolve() if merged["templates"] else None,
        root=root,
        version=merged["version"],
        distribution=merged["distribution"],
        providers=tuple(providers) if providers is not None else None,
        lint_disable=_lint_disable(table.get("lint")),
        breaking=_breaking(table.get("breaking")),
        version_declared="version" in table,
        examples_budget=merged["examples_in_descriptions"],
        **_wheel(table.get("wheel"), root),
    )


def _wheel(table: Any, root: Path) -> dict[str, Any]:
    """`[tool.toolgen.wheel]`: `packages = ["folder", ...]` (handwritten packages, relative to
    the pyproject's folder), `extras = {name = ["requirement", ...]}` and `registry =
    "module:attribute"` (a registry of one of those packages: `serve`'s default)."""
    if table is None:
        return {}
    if not isinstance(table, dict) or set(table) - {"packages", "extras", "registry"}:
        raise ValueError("[tool.toolgen.wheel] takes three settings: packages, extras, registry")
    packages, extras = table.get("packages", []), table.get("extras", {})
    if not isinstance(packages, list) or not all(isinstance(p, str) for p in packages):
        raise ValueError("[tool.toolgen.wheel] packages must be a list of folders")
    for folder in packages:
        if not (root / folder / "__init__.py").is_file():
            raise ValueError(f"[tool.toolgen.wheel] packages: {folder!r} is not a package folder")
    if not isinstance(extras, dict) or not all(
        isinstance(r, list) and all(isinstance(x, str) for x in r) for r in extras.values()
    ):
        raise ValueError("[tool.toolgen.wheel] extras must map names to lists of requirements")
    registry = table.get("registry")
    shipped = {Path(folder).name for folder in packages}
    if registry is not None and (
        not isinstance(registry, str)
        or not _REGISTRY.fullmatch(registry)
        or registry.partition(":")[0].partition(".")[0] not in shipped
    ):
        raise ValueError(
            '[tool.toolgen.wheel] registry is the "module:attribute" of a registry in one of '
            f"its packages ({', '.join(sorted(shipped)) or 'none listed'}), not {registry!r}"
        )
    return {
        "wheel_packages": tuple(packages),
        "wheel_extras": tuple((name, tuple(extras[name])) for name in sorted(extras)),
        "wheel_registry": registry,
    }


_REGISTRY = re.compile(r"[A-Za-z_][\w.]*:[A-Za-z_]\w*")


def _breaking(table: Any) -> Mapping[str, Any]:
    """`[tool.toolgen.breaking]`, a table (its keys and values are checked where they are used)."""
    if table is None:
        return {}
    if not isinstance(table, dict):
        raise ValueError("[tool.toolgen.breaking] must be a table")
    return table


def _lint_disable(lint: Any) -> tuple[str, ...]:
    """`[tool.toolgen.lint] disable = ["rule-id", ...]`, as written (check/catalogue.py checks the IDs)."""
    if lint is None:
        return ()
    if not isinstance(lint, dict) or set(lint) - {"disable"}:
        raise ValueError('[tool.toolgen.lint] takes one setting: disable = ["rule-id", ...]')
    disable = lint.get("disable", [])
    if not isinstance(disable, list) or not all(isinstance(rule, str) for rule in disable):
        raise ValueError("[tool.toolgen.lint] disable must be a list of rule IDs (strings)")
    return tuple(disable)
