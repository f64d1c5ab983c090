"""Random specs never make toolgen raise: diagnostics are fine, tracebacks are not.

The strategy writes schema-valid-ish specs: random JSON Schema fragments with booleans
as subschemas, `$ref`s to booleans and along long chains, nested combinators, patterns
Python's `re` cannot compile (`\\p{L}`) or that only it can (look-arounds), huge numbers,
deep nesting and odd property names, with examples to check against them. Each goes
through lint and, for a part of them, a whole in-process build; when the build succeeds
the package must import.
"""

from __future__ import annotations

import hashlib
import json
import sys
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tests.support.generation import imported
from tests.support.mypy_support import mypy
from toolgen.config import BuildOptions
from toolgen.pipeline import build, check_specs

PATTERNS = (
    "^[a-z]+$",
    r"\p{L}+",
    r"^(?=.*\d)\w+$",
    r"(?<!x)y",
    "[",
    "a{2,1}",
    r"\d+(\.\d+)?",
    "",
    r"^\S+@\S+$",
    "(?i)abc",
    r"\u00e9",
    "(a+)+$",
    r"[\p{Lu}-]",
    "\\",
)
NAMES = (
    "x",
    "class",
    "self",
    "model_config",
    "__init__",
    "a b",
    "1x",
    "ünï",
    "a-b",
    "a_b",
    "",
    "$ref",
    "type",
    "validate",
    "x" * 300,
    "None",
    "tools",
    "\u2028",
    "A",
    "a",
)
NUMBERS = (0, 1, -1, 10**30, -(10**30), 1e300, 0.1, 2**63, 2**64 + 1, 1.5, 3)
TYPES = ("string", "integer", "number", "boolean", "object", "array", "null")
JSON = st.recursive(
    st.none() | st.booleans() | st.sampled_from(NUMBERS) | st.text(max_size=5),
    lambda inner: (
        st.lists(inner, max_size=3) | st.dictionaries(st.sampled_from(NAMES), inner, max_size=3)
    ),
    max_leaves=6,
)

leaf = st.one_of(
    st.booleans(),
    st.builds(dict),
    st.sampled_from(TYPES).map(lambda t: {"type": t}),
    st.lists(st.sampled_from(TYPES), min_size=1, max_size=3, unique=True).map(
        lambda ts: {"type": ts}
    ),
    st.sampled_from(PATTERNS).map(lambda p: {"type": "string", "pattern": p}),
    st.tuples(
        st.sampled_from(
            ("minimum", "maximum", "exclusiveMinimum", "multipleOf", "maxLength", "minItems")
        ),
        st.sampled_from(NUMBERS),
        st.sampled_from(("integer", "number", "string", "array")),
    ).map(lambda t: {"type": t[2], t[0]: t[1]}),
    st.lists(JSON, min_size=1, max_size=3).map(lambda values: {"enum": values}),
    JSON.map(lambda value: {"const": value}),
    st.sampled_from(("T", "F", "D", "Chain0", "Missing")).map(
        lambda name: {"$ref": f"#/$defs/{name}"}
    ),
    st.sampled_from(("date-time", "email", "uri", "uuid", "nope")).map(
        lambda f: {"type": "string", "format": f}
    ),
)


def _extend(inner: st.SearchStrategy[Any]) -> st.SearchStrategy[Any]:
    properties = st.dictionaries(st.sampled_from(NAMES), inner, max_size=4)
    return st.one_of(
        st.tuples(
            st.sampled_from(("anyOf", "oneOf", "allOf")), st.lists(inner, min_size=1, max_size=3)
        ).map(lambda t: {t[0]: t[1]}),
        inner.map(lambda s: {"not": s}),
        st.tuples(inner, st.booleans()).map(
            lambda t: {"type": "array", "items": t[0], "uniqueItems": t[1]}
        ),
        st.lists(inner, max_size=3).map(
            lambda items: {"type": "array", "prefixItems": items, "items": False}
        ),
        st.tuples(
            properties, inner | st.booleans(), st.lists(st.sampled_from(NAMES), max_size=3)
        ).map(
            lambda t: {
                "type": "object",
                "properties": t[0],
                "additionalProperties": t[1],
                "required": t[2],
            }
        ),
        st.tuples(st.sampled_from(PATTERNS), inner).map(
            lambda t: {"type": "object", "patternProperties": {t[0]: t[1]}}
        ),
        st.tuples(inner, inner, inner).map(lambda t: {"if": t[0], "then": t[1], "else": t[2]}),
        st.tuples(inner, JSON).map(
            lambda t: {**t[0], "default": t[1]} if isinstance(t[0], dict) else t[0]
        ),
        inner.map(
            lambda s: {
                "type": "object",
                "properties": {"n": s},
                "additionalProperties": False,
                "$comment": "nested",
            }
        ),
    )


SCHEMA = st.recursive(leaf, _extend, max_leaves=12)


def _nested(depth: int) -> Any:
    schema: Any = {"type": "string"}
    for _ in range(depth):
        schema = {"type": "object", "properties": {"n": schema}}
    return schema


@st.composite
def specs(draw: st.DrawFn) -> dict[str, Any]:
    chain = draw(st.sampled_from((1, 3, 40, 900)))
    defs: dict[str, Any] = {
        "T": True,
        "F": False,
        "D": draw(SCHEMA),
        "Chain0": {"$ref": "#/$defs/Chain1"},
    }
    for i in range(1, chain):
        defs[f"Chain{i}"] = {"$ref": f"#/$defs/Chain{i + 1}"}
    defs[f"Chain{chain}"] = draw(
        st.sampled_from(({"type": "integer"}, True, {"$ref": "#/$defs/Chain0"}))
    )
    parameters = {
        "type": "object",
        "properties": draw(st.dictionaries(st.sampled_from(NAMES), SCHEMA, min_size=1, max_size=4)),
        "required": draw(st.lists(st.sampled_from(NAMES), max_size=2, unique=True)),
        "additionalProperties": draw(st.booleans() | SCHEMA),
    }
    if draw(st.booleans()):
        parameters["properties"]["deep"] = _nested(draw(st.sampled_from((5, 20, 31))))
    tool: dict[str, Any] = {
        "name": draw(st.sampled_from(("t", "odd.name-1", "_x", "class", "T" * 64))),
        "description": draw(st.text(max_size=20)) or "d",
        "parameters": draw(
            st.sampled_from((parameters,) * 6 + (True, False, {"$ref": "#/$defs/D"}))
        ),
    }
    if draw(st.booleans()):
        tool["returns"] = draw(SCHEMA)
    if draw(st.booleans()):
        tool["examples"] = [
            {"arguments": draw(st.dictionaries(st.sampled_from(NAMES), JSON, max_size=3))}
        ]
    return {"$defs": defs, "tools": [tool]}


def _write(root: Path, spec: dict[str, Any]) -> Path:
    root.mkdir(parents=True, exist_ok=True)
    (root / "tool.json").write_text(json.dumps(spec), "utf-8")
    return root


def fuzz(examples: int) -> settings:
    return settings(
        max_examples=examples,
        derandomize=True,
        deadline=None,
        database=None,
        suppress_health_check=[
            HealthCheck.too_slow,
            HealthCheck.data_too_large,
            HealthCheck.function_scoped_fixture,
        ],
    )


@fuzz(600)
@given(spec=specs())
def test_lint_never_raises_on_random_specs(
    spec: dict[str, Any], tmp_path_factory: pytest.TempPathFactory
) -> None:
    root = _write(tmp_path_factory.mktemp("lint"), spec)
    diagnostics, _ = check_specs(root)
    assert all(d.file and d.line >= 1 and d.rule for d in diagnostics)


RUNTIME = "fuzzed/_runtime"


def _runtime_copy(base: Path, files: dict[str, str]) -> Path:
    """A folder holding these runtime files, written once for each different set: the packages
    built from random specs link to it, so their imports compile it once, not once a package."""
    digest = hashlib.sha256(json.dumps(files, sort_keys=True).encode()).hexdigest()[:16]
    folder = base / f"fuzzed-runtime-{digest}"
    if not folder.is_dir():
        for relative, text in files.items():
            target = folder / relative.removeprefix(f"{RUNTIME}/")
            target.parent.mkdir(parents=True, exist_ok=True)
            target.write_text(text, "utf-8")
    return folder


@fuzz(300)
@given(spec=specs())
def test_generate_never_raises_and_what_it_writes_imports(
    spec: dict[str, Any], tmp_path_factory: pytest.TempPathFactory, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("TOOLGEN_NO_CACHE", "1")
    folder = tmp_path_factory.mktemp("gen")
    result = build(_write(folder / "specs", spec), BuildOptions(package="fuzzed"))
    if not result.ok:
        assert result.diagnostics and not result.files
        return
    out = folder / "out"
    runtime = {path: text for path, text in result.files.items() if path.startswith(RUNTIME)}
    (out / RUNTIME).parent.mkdir(parents=True)
    (out / RUNTIME).symlink_to(_runtime_copy(tmp_path_factory.getbasetemp(), runtime))
    for relative, text in result.files.items():
        if relative not in runtime:
            (out / relative).parent.mkdir(parents=True, exist_ok=True)
            (out / relative).write_text(text, "utf-8")
    with imported(out, "fuzzed") as package:
        assert package.__name__ == "fuzzed"
    assert "fuzzed" not in sys.modules


def test_what_random_specs_generate_passes_mypy_strict(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A derandomized sample of random specs, each generated alone; those that build are then
    the spec files of one package (their tools renamed apart where two share a name), which must
    build too, and one mypy run checks it: one copy of the runtime to check, not one a spec."""
    monkeypatch.setenv("TOOLGEN_NO_CACHE", "1")
    built: list[dict[str, Any]] = []

    @fuzz(40)
    @given(spec=specs())
    def generate(spec: dict[str, Any]) -> None:
        folder = tmp_path / "alone" / str(len(built))
        if build(_write(folder, spec), BuildOptions(package="fuzzed")).ok:
            built.append(spec)

    generate()
    assert len(built) >= 8, built
    together = tmp_path / "specs"
    names: set[str] = set()
    for i, spec in enumerate(built):
        for tool in spec["tools"]:
            if tool["name"] in names:  # the same name again: a suffix (within 64 characters)
                tool["name"] = f"{tool['name'][: 63 - len(str(i))]}_{i}"
            names.add(tool["name"])
        together.mkdir(exist_ok=True)
        (together / f"spec{i}.json").write_text(json.dumps(spec), "utf-8")
    result = build(together, BuildOptions(package="fuzzed"))
    assert result.ok, [str(d) for d in result.diagnostics]
    out = tmp_path / "out"
    for relative, text in result.files.items():
        (out / relative).parent.mkdir(parents=True, exist_ok=True)
        (out / relative).write_text(text, "utf-8")
    checked = mypy("-p", "fuzzed", env={"MYPYPATH": str(out), "PATH": ""})
    assert checked.returncode == 0, checked.stdout[-3000:] + checked.stderr[-2000:]
    print(f"\n{len(built)} random specs, one package: {checked.stdout.strip()}")


def _tool(parameters: Any, defs: dict[str, Any] | None = None, **more: Any) -> dict[str, Any]:
    return {
        "$defs": defs or {},
        "tools": [{"name": "t", "description": "d", "parameters": parameters, **more}],
    }


OBJECT = {"type": "object", "properties": {"x": {"type": "string", "description": "x"}}}
FOUND = [  # each crashed once (traceback or RecursionError); now a located diagnostic
    (
        "a boolean property, optional (strict lowering)",
        _tool({**OBJECT, "properties": {"x": False}}),
        None,
    ),
    ("parameters: true", _tool(True), "parameters-not-object"),
    ("returns: true", _tool(OBJECT, returns=True), "json-schema"),
    ("returns: false", _tool(OBJECT, returns=False), None),
    (
        "parameters: $ref to false",
        _tool({"$ref": "#/$defs/F"}, {"F": False}),
        "parameters-not-object",
    ),
    (
        "a $ref cycle in place",
        _tool({"$ref": "#/$defs/D"}, {"D": {"$ref": "#/$defs/D"}}, examples=[{"arguments": {}}]),
        "ref-cycle",
    ),
    (
        "a cycle through anyOf",
        _tool(
            {**OBJECT, "properties": {"a": {"$ref": "#/$defs/A"}}},
            {
                "A": {"anyOf": [{"type": "string"}, {"not": {"$ref": "#/$defs/B"}}]},
                "B": {"allOf": [{"$ref": "#/$defs/A"}]},
            },
        ),
        "ref-cycle",
    ),
    (
        "a chain of 900 references",
        _tool(
            {**OBJECT, "properties": {"a": {"$ref": "#/$defs/C0"}}},
            {
                **{f"C{i}": {"$ref": f"#/$defs/C{i + 1}"} for i in range(900)},
                "C900": {"type": "integer"},
            },
        ),
        "schema-too-deep",
    ),
    (
        "a self reference with siblings",
        _tool(
            {"$ref": "#/$defs/D"},
            {
                "D": {
                    "type": "object",
                    "properties": {"n": {"not": {"$ref": "#/$defs/D", "default": {}}}},
                }
            },
        ),
        None,
    ),
    (
        "\\p{L} in an example's pattern",
        _tool(
            {
                **OBJECT,
                "properties": {"x": {"type": "string", "pattern": r"\p{L}+", "description": "x"}},
            },
            examples=[{"arguments": {"x": "1"}}],
        ),
        "example-invalid",
    ),
    (
        "\\p{Lu} in patternProperties",
        _tool(
            {
                **OBJECT,
                "properties": {
                    "m": {
                        "type": "object",
                        "patternProperties": {r"[\p{Lu}]": {"type": "integer"}},
                        "additionalProperties": False,
                        "description": "m",
                    }
                },
            },
            examples=[{"arguments": {"m": {"A": 1}}}],
        ),
        None,
    ),
    (
        "type: bool with a default",
        _tool(
            {**OBJECT, "properties": {"x": {"type": "bool", "default": True, "description": "x"}}}
        ),
        "unknown-type",
    ),
    (
        "maxLength 3.0 (the integer 3)",
        _tool(
            {
                **OBJECT,
                "properties": {"x": {"type": "string", "maxLength": 3.0, "description": "x"}},
            }
        ),
        None,
    ),
    (
        "a pattern with no exact ECMA-262 reading",
        _tool(
            {
                **OBJECT,
                "properties": {
                    "x": {"type": "string", "pattern": r"\N{EM DASH}", "description": "x"}
                },
            }
        ),
        "pattern-invalid",
    ),
]


@pytest.mark.parametrize(("what", "spec", "rule"), FOUND, ids=[f[0] for f in FOUND])
def test_what_the_fuzz_found_is_a_diagnostic(
    what: str,
    spec: dict[str, Any],
    rule: str | None,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setenv("TOOLGEN_NO_CACHE", "1")
    root = _write(tmp_path / "specs", spec)
    diagnostics, _ = check_specs(root)
    result = build(root, BuildOptions(package="found"))
    if rule is None:
        assert result.ok, [d.text() for d in diagnostics if d.is_error]
        out = tmp_path / "out"
        for relative, text in result.files.items():
            (out / relative).parent.mkdir(parents=True, exist_ok=True)
            (out / relative).write_text(text, "utf-8")
        with imported(out, "found") as package:  # and what it wrote imports
            assert package.tool_info("t").name == "t"
    else:
        assert rule in {d.rule for d in diagnostics}
        assert all(d.file == "tool.json" and d.line >= 1 for d in diagnostics)
