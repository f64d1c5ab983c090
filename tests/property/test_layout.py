"""Generated modules are in black's layout as rendered, so most skip black entirely.

The claim behind format.in_black_layout: whatever toolgen's templates emit, black leaves
it unchanged. Checked against black itself, on the layout helper and on whole packages.
"""

from __future__ import annotations

import ast
import keyword
import sys
import textwrap
from pathlib import Path
from typing import Any

import black
import pytest
import yaml
from hypothesis import given, settings
from hypothesis import strategies as st

import toolgen.format
from tests.support.generation import CASES, REPO, RUNTIME_COPIES
from toolgen.config import BuildOptions
from toolgen.format import in_black_layout, mode
from toolgen.literals import py_literal, py_string
from toolgen.pipeline import build
from toolgen.render import annotation
from toolgen.render.code import Call, Display, Node, _fit, flat, literal, statement
from toolgen.render.layout import bracketed, width

sys.path.insert(0, str(REPO / "benchmarks"))
import synthetic  # noqa: E402

MODE = mode()
words = st.text(st.sampled_from("abcdefghij _'\"\\é⺀"), max_size=60)  # ⺀ is two columns wide


@settings(max_examples=300, deadline=None)
@given(
    name=st.from_regex(r"[a-z][a-z_]{0,70}", fullmatch=True).filter(
        lambda n: not keyword.iskeyword(n)
    ),
    values=st.lists(words, max_size=6),
    indent=st.sampled_from([0, 4]),
    literal=st.booleans(),
)
def test_bracketed_is_what_black_writes(
    name: str, values: list[str], indent: int, literal: bool
) -> None:
    items = (
        [py_string(v) for v in values]
        if literal
        else [f"k{i}={py_string(v)}" for i, v in enumerate(values)]
    )
    head = f"{name} = " if literal else f"{name}: int = Field"
    code = bracketed(head, items, indent, "[]" if literal else "()", literal=literal) + "\n"
    source = f"class A:\n{code}" if indent else code
    if in_black_layout(source):  # otherwise the format step hands it to black: no claim
        assert black.format_str(source, mode=MODE) == source


def test_every_generated_file_is_black_stable(tmp_path: Path) -> None:
    """Synthetic tools with every construct the templates render, and the hard cases."""
    synthetic.write_specs(tmp_path / "specs", 60)
    result = build(tmp_path / "specs", BuildOptions(package="synth"))
    assert result.ok
    rendered = [
        p for p, text in result.files.items() if p.endswith(".py") and "/_runtime/" not in p
    ]
    skipped = [p for p in rendered if in_black_layout(result.files[p])]
    assert skipped == rendered  # the point: no rendered module needs a black pass
    for path, text in result.files.items():
        if path.endswith(".py") and not _verbatim_copy(path, text):
            assert black.format_str(text, mode=MODE) == text, path


def test_numbers_in_exponent_form_are_written_as_black_writes_them(tmp_path: Path) -> None:
    """A schema's `1e16` is `1e+16` to repr, and black rewrites that: models and strategies
    write numbers as black does."""
    specs = tmp_path / "specs"
    specs.mkdir()
    (specs / "t.yaml").write_text(
        "name: measure\ndescription: Measure a sample. Returns the reading.\nparameters:\n"
        "  type: object\n  properties:\n"
        "    level: {type: number, description: The level., maximum: 1.0e+16,"
        " exclusiveMinimum: -2.5e-10, multipleOf: 1.5e-07}\n"
        "    scale: {type: number, description: The scale., minimum: 1.0e+20, default: 1.0e+21}\n"
        "    steps: {type: integer, description: The steps., maximum: 1.0e+16}\n"
        "  required: [level]\n",
        "utf-8",
    )
    result = build(specs, BuildOptions(package="exponents"))
    assert result.ok, result.diagnostics
    modules = [text for path, text in result.files.items() if path.endswith("/measure.py")]
    assert len(modules) == 2  # the tool's module and its testing module
    assert all("1e16" in text and "e+" not in text for text in modules)
    for path, text in result.files.items():
        if path.endswith(".py") and not _verbatim_copy(path, text):
            assert black.format_str(text, mode=MODE) == text, path


SOURCES = REPO / "generator" / "toolgen"


def _verbatim_copy(path: str, text: str) -> bool:
    """A runtime copy that is its source byte for byte: tests/unit/runtime/test_runtime.py
    runs black on each source once (a copy rewritten in the generation, such as the testing
    support's link to the runtime, and the stamps are not: black checks them here)."""
    copy = RUNTIME_COPIES.match(path)
    if copy is None:
        return False
    source = SOURCES / ("runtime" if copy[1] == "_runtime" else "runtime_testing")
    source = source / path[copy.end() :]
    return source.is_file() and source.read_text("utf-8") == text


def _long_names(tools: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Every third tool with a long name (up to 60 characters) and long parameter names (up
    to 40): a nested class is named after both, so its name nears the line length."""
    for i, tool in enumerate(tools[::3]):
        size = 20 + (i * 7) % 41
        tool["name"] = (
            f"{tool['name']}_{'with_a_long_name' * 4}"[: size - 5].rstrip("_") + f"_{i:04d}"
        )
        parameters = tool["parameters"]
        renamed = {
            name: (
                f"{name}_{'and_a_long_parameter_name' * 2}"[: 10 + (i * 3 + j * 11) % 31]
            ).rstrip("_")
            if j % 2 == 0
            else name
            for j, name in enumerate(parameters["properties"])
        }
        parameters["properties"] = {renamed[k]: v for k, v in parameters["properties"].items()}
        parameters["required"] = [renamed[k] for k in parameters["required"]]
    return tools


def test_no_generated_file_goes_to_black(tmp_path: Path, monkeypatch: Any) -> None:
    """The renderer writes black's layout itself: building 300 synthetic tools (a third with
    long names) and every golden case hands black no file at all (it is the fallback for
    what the emitters do not lay out, and costs about 25 ms a file)."""
    formatted: list[str] = []
    black_pass = toolgen.format.format_python
    # One process: a build this large formats its tool modules in a forked child
    # (toolgen/parallel.py), whose calls of black this list would not see.
    monkeypatch.setenv("TOOLGEN_JOBS", "1")
    monkeypatch.setattr(
        toolgen.format,
        "format_python",
        lambda source: formatted.append(source) or black_pass(source),
    )
    tools = _long_names(synthetic.make_tools(300))
    for tool in tools:
        target = tmp_path / "specs" / tool["category"] / f"{tool['name']}.yaml"
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_text(yaml.safe_dump(tool, sort_keys=False, width=100), "utf-8")
    builds = [build(tmp_path / "specs", BuildOptions(package="synth"))]
    builds += [
        build(case / "specs", BuildOptions(package=case.name))
        for case in sorted(CASES.iterdir())
        if (case / "specs").is_dir()
    ]
    assert all(result.ok for result in builds)
    if formatted:  # say where: the first line black changed in each file
        changed = [
            next(
                a for a, b in zip(f.split("\n"), black_pass(f).split("\n"), strict=False) if a != b
            )
            for f in formatted
        ]
        pytest.fail(
            f"{len(formatted)} files went to black; the first line black changed: {changed}"
        )
    # What the long names changed is in black's layout: their tool modules (a third of their
    # test modules: those hold what the property tests below cover), and the client.
    long_named = {t["name"] for t in tools[::3]}  # module names: the names have only `_`
    sample = {t["name"] for t in tools[::9]}
    for path, text in builds[0].files.items():
        module = Path(path).stem
        if path == "synth/client.py" or (
            path.endswith(".py") and module in (long_named if "/testing/" not in path else sample)
        ):
            assert black.format_str(text, mode=MODE) == text, path


def test_golden_outputs_are_black_stable() -> None:
    for path in (REPO / "tests" / "golden" / "cases").glob("*/expected/**/*.py"):
        text = path.read_text("utf-8")
        assert black.format_str(text, mode=MODE) == text, path


@settings(max_examples=200, deadline=None)
@given(
    name=st.sampled_from(["DESCRIPTION", "X"]),
    text=st.text(st.sampled_from("ab '\"é"), min_size=80, max_size=110),
    indent=st.sampled_from([0, 4]),
)
def test_a_long_assigned_string_is_claimed_stable_only_when_black_leaves_it(
    name: str, text: str, indent: int
) -> None:
    """black wraps `NAME = "..."` in parentheses when that makes the string fit."""
    line = " " * indent + f"{name} = {py_string(text)}\n"
    source = f"class A:\n{line}" if indent else line
    assert in_black_layout(source) == (black.format_str(source, mode=MODE) == source)


@settings(max_examples=200, deadline=None)
@given(
    text=st.text(st.sampled_from("ab '\"#é⺀"), min_size=90, max_size=120),
    indent=st.sampled_from([0, 4]),
    prefix=st.sampled_from(["f", "", "r"]),
)
def test_long_comments_and_prefixed_strings_are_claimed_stable_only_when_black_leaves_them(
    text: str, indent: int, prefix: str
) -> None:
    pad = "    "  # inside a call's brackets; `indent` puts the call in a function
    for line in (
        f"{pad}# {text.rstrip()}",
        f"{pad}{prefix}{py_string(text)},",
        f"{pad}x={prefix}{py_string(text)},",
    ):
        call = f"g(\n{line}\n)"
        source = f"def f():\n{textwrap.indent(call, '    ')}\n" if indent else f"{call}\n"
        if in_black_layout(source):
            assert black.format_str(source, mode=MODE) == source


json_values = st.recursive(
    # floats without an exponent: black writes `1e+16` as `1e16`, which py_literal does not
    st.none()
    | st.booleans()
    | st.integers()
    | st.integers(-(10**6), 10**6).map(lambda i: i / 8)
    | words,
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(words, inner, max_size=3),
    max_leaves=10,
)


def _trees() -> st.SearchStrategy[Node]:
    leaves = st.one_of(
        words.map(py_string),
        st.sampled_from(["x", "st.none()", "True", "12345"]),
        json_values.map(literal),  # laid out from the value itself
    )
    return st.recursive(
        leaves,
        lambda inner: st.one_of(
            st.builds(
                lambda f, a, k: Call(f, tuple(a), tuple((f"k{i}", v) for i, v in enumerate(k))),
                st.sampled_from(["f", "_s.objects", "st.one_of"]),
                st.lists(inner, max_size=3),
                st.lists(inner, max_size=3),
            ),
            st.builds(lambda items: Display("[]", tuple(items)), st.lists(inner, max_size=4)),
            st.builds(lambda items: Display("()", tuple(items)), st.lists(inner, max_size=3)),
            st.builds(
                lambda kv: Display("{}", tuple((py_string(k), v) for k, v in kv)),
                st.lists(st.tuples(words, inner), max_size=3),
            ),
        ),
        max_leaves=12,
    )


@settings(max_examples=300, deadline=None)
@given(tree=_trees(), indent=st.sampled_from([0, 4]))
def test_laid_out_expressions_are_black_stable_and_mean_the_same(tree: Node, indent: int) -> None:
    code = statement(tree, indent, "return ")
    source = (
        f"def f():\n{code}\n"
        if indent
        else f"def f():\n    pass\n\n\n{code.replace('return ', 'x = ', 1)}\n"
    )
    assert ast.dump(ast.parse(flat(tree))) == ast.dump(
        ast.parse(code.strip().removeprefix("return "))
    )
    if in_black_layout(source):
        assert black.format_str(source, mode=MODE) == source


@settings(max_examples=300, deadline=None)
@given(tree=_trees(), room=st.integers(0, 120))
def test_a_node_is_written_flat_exactly_when_it_fits(tree: Node, room: int) -> None:
    text = flat(tree)
    assert _fit(tree, room) == (text if width(text) <= room else None)


@settings(max_examples=200, deadline=None)
@given(value=json_values, indent=st.sampled_from([0, 4]))
def test_a_json_value_is_written_as_its_literal(value: Any, indent: int) -> None:
    assert flat(literal(value)) == py_literal(value)
    code = statement(literal(value), indent)
    assert ast.literal_eval(code.strip()) == value


# The annotation emitters (render/annotation.py) against black: names of any length, and
# annotations of the shapes typemap writes (unions, subscripts, calls inside Annotated).
names = st.integers(1, 95).map(lambda n: ("Name" * 24)[:n])
leaves = st.one_of(names, st.sampled_from(["None", "int", "Any", "-1", '"thrée"', '"⺀"', "True"]))
annotations = st.recursive(
    leaves,
    lambda inner: st.one_of(
        st.lists(inner, min_size=2, max_size=4).map(" | ".join),
        st.builds(
            lambda head, items: f"{head}[{', '.join(items)}]",
            st.sampled_from(["list", "Annotated", "Literal", "dict", "Output"]),
            st.lists(inner, min_size=1, max_size=3),
        ),
        st.builds(
            lambda head, items: f"{head}({', '.join(items)})",
            st.sampled_from(["_types.OneOf", "Field"]),
            st.lists(leaves, min_size=1, max_size=3),
        ),
    ),
    max_leaves=8,
)
ARGUMENTS = ["default=None", "max_length=3", 'description="Mixed enum"', f'pattern="{"p" * 40}"']


def _claimed_stable(source: str) -> None:
    """What the format step would write as it is must be what black writes."""
    if in_black_layout(source):
        assert black.format_str(source, mode=MODE) == source


@settings(max_examples=300, deadline=None)
@given(returned=annotations, name=names, default=st.sampled_from(["None", '"x"']))
def test_a_signature_is_laid_out_as_black_does(returned: str, name: str, default: str) -> None:
    parameter = "\n".join(annotation.parameter("arguments", name, default, 8))
    _claimed_stable(
        f"class A:\n    def run(\n        self,\n{parameter}\n        /,\n"
        f"{annotation.returns(returned, 4)}\n        pass\n"
    )
    typed = "\n".join(annotation.parameter(name, returned, default, 4))
    _claimed_stable(f"def f(\n    self,\n{typed}\n) -> None:\n    pass\n")


@settings(max_examples=400, deadline=None)
@given(
    name=names,
    typed=annotations,
    kind=st.sampled_from(["bare", "value", "field"]),
    value=st.sampled_from(["None", "3", '"low"', f'"{"v" * 50}"', f'"{"v" * 95}"']),
    arguments=st.lists(st.sampled_from(ARGUMENTS), min_size=1, max_size=4, unique=True),
)
def test_a_field_is_laid_out_as_black_does(
    name: str, typed: str, kind: str, value: str, arguments: list[str]
) -> None:
    field = annotation.field(
        name, typed, value if kind == "value" else None, arguments if kind == "field" else ()
    )
    _claimed_stable(f"class A:\n    x: int = 1\n{field}\n")


@settings(max_examples=200, deadline=None)
@given(
    name=names, base=st.one_of(names, annotations), imported=st.lists(names, min_size=1, max_size=3)
)
def test_classes_imports_and_assignments_are_laid_out_as_black_does(
    name: str, base: str, imported: list[str]
) -> None:
    _claimed_stable(f"{annotation.class_line(name, base)}\n    x: int\n")
    _claimed_stable(f"{annotation.assignment(name, f'_tool.{imported[0]}')}\n")
    _claimed_stable(f"{annotation.import_from(f'.tools.{name}', imported)}\n")
