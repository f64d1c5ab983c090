"""Any property name, tool name and spec text works: generated, imported and used.

Each case generates a package from a spec, imports it, and checks the name on the wire
(what a model sends) and in Python (where the value is reachable).
"""

from __future__ import annotations

import functools
import importlib
import inspect
import json
import keyword
import re
import tempfile
import unicodedata
from collections.abc import Iterator
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest
from hypothesis import HealthCheck, assume, example, given, settings
from hypothesis import strategies as st
from pydantic import BaseModel

from tests.support._generated import (
    build_specs,
    package,
    python_name,
    shared,
    spec,
    tool_module,
)
from tests.support.generation import RUNTIME_COPIES
from toolgen.naming import (
    PROVIDER_NAME,
    _camel_words,
    _class_name,
    _ends_with_interface_word,
    class_name,
    field_name,
    module_name,
    provider_name,
    tool_classes,
    unique,
)
from toolgen.providers.base import trim

HARD_PROPERTY_NAMES = [
    # Python keywords and soft keywords
    "from",
    "class",
    "def",
    "import",
    "None",
    "True",
    "match",
    "_",
    # builtins and the names generated modules use in class bodies
    "type",
    "id",
    "list",
    "str",
    "int",
    "dict",
    "float",
    "bool",
    "object",
    "self",
    "Field",
    "Literal",
    "Annotated",
    "Any",
    "ClassVar",
    "ToolInfo",
    "abc",
    # pydantic's own attributes
    "model_config",
    "model_dump",
    "model_fields",
    "model_x",
    "schema",
    "json",
    "copy",
    "validate",
    "root",
    "construct",
    "fields",
    "__fields__",
    "__init__",
    "__class__",
    "__dict__",
    # underscores, separators, digits, non-ASCII, JSON pointer and JSON Schema look-alikes
    "_private",
    "__dunder__",
    "my-name",
    "my.name",
    "with space",
    " padded ",
    "1st",
    "123",
    "año_vehiculo",
    "ﬁle",
    "日本語",
    "😀",
    "৴",
    "Content-Type",
    "a/b",
    "~0~1",
    "$ref",
    "properties",
    "@type",
    "",
    "x" * 200,
]


def _witnesses() -> dict[str, Any]:
    """Properties after the hard one whose annotations use every name a class body needs."""
    return {
        "zz_list": {"type": "array", "items": {"type": "integer"}, "description": "list[int]"},
        "zz_bounded": {"type": "string", "maxLength": 5, "description": "Annotated, Field"},
        "zz_enum": {"enum": ["a", "b"], "description": "Literal"},
        "zz_any": {"description": "Any"},
        "zz_map": {
            "type": "object",
            "additionalProperties": {"type": "number"},
            "description": "dict, float",
        },
        "zz_flag": {"type": "boolean", "description": "bool"},
    }


def _field_is_safe(model: type[BaseModel], attribute: str) -> None:
    assert attribute.isidentifier() and not keyword.iskeyword(attribute)
    assert not attribute.startswith("_")
    assert attribute not in dir(BaseModel), f"{attribute!r} shadows pydantic"


def _hard_property_tool(index: int, wire: str) -> dict[str, Any]:
    """Tool `t<index>`: the hard name, the witnesses, and the name again in a nested class."""
    properties = {
        wire: {"type": "string", "description": f"the {wire} property"},
        **_witnesses(),
        "outer": {
            "type": "object",
            "description": "nested",
            "properties": {wire: {"type": "integer"}},
        },
    }
    return spec(f"t{index}", properties, required=[wire])


@pytest.fixture(scope="module")
def hard_properties() -> Iterator[ModuleType]:
    """One package, a tool for each hard name (each tool's classes are its own module's):
    generated and imported once, not once a name."""
    tools = [_hard_property_tool(i, wire) for i, wire in enumerate(HARD_PROPERTY_NAMES)]
    with shared("names_hard_properties", tools) as p:
        yield p


@pytest.mark.parametrize("wire", HARD_PROPERTY_NAMES, ids=repr)
def test_hard_property_name(wire: str, hard_properties: ModuleType) -> None:
    p, t = hard_properties, f"t{HARD_PROPERTY_NAMES.index(wire)}"
    arguments = {wire: "v", "zz_list": [1], "outer": {wire: 7}}
    model = p.validate_arguments(t, arguments)
    cls = type(model)
    attribute = python_name(cls, wire)
    _field_is_safe(cls, attribute)
    assert getattr(model, attribute) == "v"
    assert getattr(model.outer, python_name(type(model.outer), wire)) == 7
    assert model.model_dump(by_alias=True, exclude_unset=True) == arguments
    assert json.loads(model.model_dump_json(by_alias=True, exclude_unset=True)) == arguments
    assert p.validate_arguments(t, json.dumps(arguments)) == model
    assert p.validate_arguments(t, model.model_dump(by_alias=True)) == model  # a round trip
    assert cls.model_fields[attribute].description == f"the {wire} property"

    # Refusals name the wire name: unknown keys, the Python name, wrong types, absence.
    with pytest.raises(p.ToolArgumentsError) as caught:
        p.validate_arguments(t, {**arguments, wire + "x": "v"})
    assert [(i.path, i.code) for i in caught.value.issues] == [(wire + "x", "unknown_key")]
    if attribute != wire:
        with pytest.raises(p.ToolArgumentsError) as caught:
            p.validate_arguments(t, {**arguments, attribute: "v"})
        assert [(i.path, i.code) for i in caught.value.issues] == [(attribute, "unknown_key")]
    with pytest.raises(p.ToolArgumentsError) as caught:
        p.validate_arguments(t, {**arguments, wire: 5})
    assert [(i.path, i.code) for i in caught.value.issues] == [(wire, "type")]
    with pytest.raises(p.ToolArgumentsError) as caught:
        p.validate_arguments(t, {"outer": {wire: 7}})
    assert [i.code for i in caught.value.issues] == ["missing"]
    assert json.dumps(wire, ensure_ascii=False) in str(caught.value)  # keys are quoted as JSON

    # The provider definition carries the wire name, untouched.
    (definition,) = [d for d in p.tool_definitions("openai") if d["function"]["name"] == t]
    assert (
        wire in json.dumps(definition, ensure_ascii=False)
        and wire in definition["function"]["parameters"]["properties"]
    )


def test_open_objects_take_python_names_as_undeclared_keys(tmp_path: Path) -> None:
    """In an object that allows more keys, `from_` is one of them, not the field `from`."""
    open_object = {
        "type": "object",
        "properties": {"from": {"type": "string"}},
        "additionalProperties": True,
    }
    with package(tmp_path, spec("t", {"o": open_object})) as p:
        model = p.validate_arguments("t", {"o": {"from": "wire", "from_": "extra"}})
        assert model.o.model_extra == {"from_": "extra"}
        assert type(model.o).model_fields["from_"].validation_alias == "from"
        assert p.validate_arguments("t", {"o": {"from_": "extra"}}).o.model_extra == {
            "from_": "extra"
        }


NAME_GROUPS = {
    "case": ["Name", "name", "NAME"],
    "nfkc": ["ﬁle", "file", "𝔣ile"],
    "separators": ["a-b", "a_b", "a b", "a.b", "a__b", "_a_b_"],
    "suffix": ["from", "from_", "from_2"],
    "dunder": ["dunder", "__dunder__", "dunder_2"],
    "reserved_suffix": ["model_config", "model_config_", "json", "json_"],
    "class_name": ["TArgumentsOuter", "outer", "TArgumentsOuter_2"],
    "shadowed_type": ["int", "count", "str", "label"],
    "empty_and_underscores": ["", "_", "__", "field"],
}
GROUP_SCHEMAS: dict[str, Any] = {
    "outer": {"type": "object", "properties": {"x": {"type": "integer"}}},
    "count": {"type": "integer"},
    "int": {"type": "integer"},
}


@pytest.mark.parametrize("names", NAME_GROUPS.values(), ids=NAME_GROUPS.keys())
def test_names_that_meet_in_python(names: list[str], tmp_path: Path) -> None:
    """Names that differ only in case, spelling or NFKC form stay distinct, each with its own value."""
    properties = {n: GROUP_SCHEMAS.get(n, {"type": "string"}) for n in names}
    values = {
        n: {"x": i} if n == "outer" else i if n in ("count", "int") else f"value {i}"
        for i, n in enumerate(names)
    }
    with package(tmp_path, spec("t", properties, required=names)) as p:
        model = p.validate_arguments("t", values)
        cls = type(model)
        attributes = [python_name(cls, n) for n in names]
        assert len(set(attributes)) == len(names)
        for wire, attribute in zip(names, attributes, strict=True):
            _field_is_safe(cls, attribute)
            value = getattr(model, attribute)
            assert (value.model_dump() if isinstance(value, BaseModel) else value) == values[wire]
        assert model.model_dump(by_alias=True) == values


HARD_TOOL_NAMES = [
    "math.factorial",
    "my-tool",
    "import",
    "class",
    "None",
    "1st_tool",
    "123",
    "__get_all_user_list",
    "sum",
    "help",
    "print",
    "abc",
    "typing",
    "pydantic",
    "tools",
    "a.b-c_d",
    "_",
    "Tool.V2",
    "x" * 128,
    "tool",
    "search_tool",
    "search_tool_tool",
    "None_tool",
]


@pytest.mark.parametrize("name", HARD_TOOL_NAMES)
def test_hard_tool_name(name: str, tmp_path: Path) -> None:
    with package(
        tmp_path, [spec(name, {"x": {"type": "integer"}}), spec("other", {"y": {"type": "string"}})]
    ) as p:
        info = p.tool_info(name)
        assert info.name == name and name in p.TOOL_NAMES
        assert PROVIDER_NAME.match(info.provider_name)
        assert p.tool_info(info.provider_name) is info
        for lookup in {name, info.provider_name}:
            assert p.validate_arguments(lookup, {"x": 1}).x == 1
            with pytest.raises(p.ToolArgumentsError):
                p.validate_arguments(lookup, {"x": 1, "y": "from the other tool"})
        names = {d["function"]["name"] for d in p.tool_definitions("openai")}
        assert names == {info.provider_name, "other"}

        # A registry dispatches by either name to a subclass of the generated interface.
        module = tool_module(info)
        (interface,) = [
            c
            for c in vars(module).values()
            if inspect.isclass(c) and c.__dict__.get("info") is info
        ]

        class Impl(interface):  # type: ignore[misc, valid-type]
            def run(self, arguments: Any) -> Any:
                return arguments.x * 2

        registry = p.build_registry(Impl())
        for lookup in {name, info.provider_name}:
            assert lookup in registry
            result = registry.call(lookup, {"x": 21})
            assert (
                result.ok and result.tool == name and result.to_dict() == {"ok": True, "result": 42}
            )


def test_provider_names_stay_distinct_when_shortened() -> None:
    long_a, long_b = "a" * 100 + ".x", "a" * 100 + ".y"
    assert provider_name(long_a) != provider_name(long_b)
    assert all(PROVIDER_NAME.match(provider_name(n)) for n in (long_a, long_b, "1x", "a.b", "-x"))


@pytest.mark.parametrize(
    "arguments, expected",
    [({"x[0]": "v"}, ("x[0]", "unknown_key")), ({"a[0]": 5}, ("a[0]", "type"))],
    ids=["unknown", "declared"],
)
def test_keys_with_brackets(
    arguments: dict[str, Any], expected: tuple[str, str], tmp_path: Path
) -> None:
    with package(tmp_path, spec("t", {"a[0]": {"type": "string"}})) as p:
        with pytest.raises(p.ToolArgumentsError) as caught:
            p.validate_arguments("t", arguments)
        assert [(i.path, i.code) for i in caught.value.issues] == [expected]


def test_lone_surrogate_in_a_name_is_a_diagnostic_not_a_broken_module(tmp_path: Path) -> None:
    """JSON escapes can carry `\\ud800` in a key; no model can send it back (not UTF-8). Lint must say so."""
    result = build_specs(
        tmp_path, [spec("t", {"a\ud800": {"type": "string", "description": "x"}})], "surrogate"
    )
    assert not result.ok
    assert any("/parameters/properties/" in d.pointer for d in result.diagnostics if d.is_error)


# --- text ------------------------------------------------------------------------

TEXTS = {
    "single_quote": "it's",
    "double_quote": 'say "hi"',
    "triple_double": 'a """ b',
    "triple_single": "a ''' b",
    "starts_and_ends_with_quotes": '"quoted"',
    "python_code": '"""; import os; os.system("echo pwned"); """',
    "backslash_end": "ends with a backslash \\",
    "backslashes": "C:\\new\\table \\x00 \\u1234 \\N{EM DASH} \\",
    "jinja": "{{ tool.name }} {% if x %}y{% endif %} {# comment #} {%- raw %}",
    "format_braces": "{0} {name} %s %(x)s {{}}",
    "control": "".join(chr(i) for i in range(32)) + "\x7f",
    "line_separators": "a\u2028b\u2029c\x85d\r\ne\x0bf\x0c",
    "lone_surrogates": "x\ud800y\udfffz",
    "long": ("word " * 800)[:4000],
    "non_ascii": "año 日本語 😀 ﬁle \u202erlt\u202c \ufeff zero\u200bwidth",
    "code_fence": "```python\nimport os\nos.system('rm -rf /')\n```",
    "comment_close": "*/ <!-- --> # not a comment */",
    "whitespace": "  \n\t padded text \t\n  ",
    "multiline_indented": "Summary.\n\n    indented block\n  less\nnone",
    "empty": "",
}


def _text_spec(text: str, name: str = "t") -> dict[str, Any]:
    """`text` in every place a spec can carry arbitrary text, in tool `name`."""
    pattern = (
        "^" + re.sub(r"([\\^$.*+?()\[\]{}|/])", r"\\\1", text) + "$"
    )  # ECMA-262: syntax characters escaped
    return spec(
        name,
        {
            "described": {"type": "string", "description": text},
            "choice": {"enum": [text, "other"], "description": text},
            "defaulted": {"type": "string", "default": text},
            "mapped": {"type": "object", "default": {text: [text, 1]}},
            "fixed": {"const": text},
            "patterned": {"type": "string", "pattern": pattern},
            "nested": {
                "type": "object",
                "description": text,
                "properties": {"x": {"type": "string", "description": text}},
            },
        },
        description=text
        if text.strip()
        else "A tool whose texts are empty.",  # lint: a tool needs a description
    )


@pytest.fixture(scope="module")
def texts() -> Iterator[ModuleType]:
    """One package, a tool for each text (`t<index>`, in a module of its own), generated and
    imported once, not once a text; what every tool shares (the package's index, its
    definitions, client and server) then carries all the texts at once."""
    tools = [_text_spec(text, f"t{i}") for i, text in enumerate(TEXTS.values())]
    with shared("names_texts", tools) as p:
        yield p


@pytest.mark.parametrize("text", TEXTS.values(), ids=TEXTS.keys())
def test_spec_text_is_inert(text: str, texts: ModuleType) -> None:
    p, t = texts, f"t{list(TEXTS.values()).index(text)}"
    info = p.tool_info(t)
    module = tool_module(info)
    description = module.DESCRIPTION
    assert (
        description
        == info.description
        == (text if text.strip() else "A tool whose texts are empty.")
    )
    (definition,) = [d for d in p.tool_definitions("mcp") if d["name"] == t]
    assert definition["description"] == description
    (definition,) = [  # cut at OpenAI's limit
        d for d in p.tool_definitions("openai") if d["function"]["name"] == t
    ]
    assert definition["function"]["description"] == trim(description, 1024)[0]
    fields = info.arguments.model_fields
    assert fields["described"].description == text
    assert fields["choice"].description == text

    surrogates = re.search("[\ud800-\udfff]", text) is not None
    sent = {"choice": text, "fixed": text, "patterned": text, "nested": {"x": text}}
    if surrogates:  # pydantic-core refuses lone surrogates in any `str` (a JSON text cannot carry them to it either)
        sent = {"choice": text, "fixed": text}
    model = p.validate_arguments(t, sent)
    assert model.model_dump(by_alias=True, exclude_unset=True) == sent
    assert model.defaulted == text and model.mapped == {text: [text, 1]}
    assert (
        type(model).model_fields["nested"].annotation.__args__[0].model_fields["x"].description
        == text
    )
    # A model docstring is documentation: black re-indents it; pydantic needs it to be UTF-8.
    docstring = inspect.getdoc(type(model).model_fields["nested"].annotation.__args__[0]) or ""
    expected = (
        inspect.cleandoc(re.sub("[\ud800-\udfff]", "\ufffd", text).strip())
        if text
        else f"Part of the {t} tool's schema."
    )
    assert [line.rstrip() for line in docstring.splitlines()] == [
        line.rstrip() for line in expected.splitlines()
    ]

    # Short wrong values: the runtime's suggestion search is quadratic in long strings (reported).
    for bad in ({"choice": "!"}, {"fixed": "!"}, {"patterned": "!" + text}):
        with pytest.raises(p.ToolArgumentsError) as caught:
            p.validate_arguments(t, bad)
        assert [i.path for i in caught.value.issues] == list(bad)


# --- naming.py units ------------------------------------------------------------------


def test_field_name_examples() -> None:
    assert field_name("from") == "from_"
    assert field_name("Content-Type") == "Content_Type"
    assert field_name("model_config") == "model_config_"
    assert field_name("1st") == "field_1st"
    assert field_name("ﬁle") == "file"
    assert field_name("") == "field"
    assert unique(["a", "a", "a_2"]) == ["a", "a_2", "a_2_2"]


def test_module_and_class_names() -> None:
    assert module_name("math.factorial") == "math_factorial"
    assert module_name("import") == "import_"
    assert class_name("get_weather", "Arguments") == "GetWeatherArguments"
    assert class_name("1st") == "T1St"


@pytest.mark.parametrize(
    ("tool", "prefix", "interface", "implementation"),
    [
        ("get_weather", "GetWeather", "GetWeatherTool", "GetWeather"),
        ("search_tool", "SearchTool", "SearchTool", "SearchToolImpl"),  # not SearchToolTool
        ("SearchTool", "SearchTool", "SearchTool", "SearchToolImpl"),
        ("search-TOOL", "SearchTOOL", "SearchTOOL", "SearchTOOLImpl"),
        ("search_tool_tool", "SearchToolTool", "SearchToolTool", "SearchToolToolImpl"),
        ("tool", "Tool", "Tool", "ToolImpl"),  # not ToolTool; the stub may not shadow the interface
        ("tools", "Tools", "ToolsTool", "Tools"),  # only the word `tool` counts
        ("toolbox", "Toolbox", "ToolboxTool", "Toolbox"),
        ("none", "None", "NoneTool", "NoneImpl"),
        ("exception", "Exception", "ExceptionTool", "ExceptionImpl"),
    ],
)
def test_tool_class_names(tool: str, prefix: str, interface: str, implementation: str) -> None:
    classes = tool_classes(tool)
    assert (classes.prefix, classes.interface, classes.implementation) == (
        prefix,
        interface,
        implementation,
    )
    assert (classes.arguments, classes.result, classes.injected) == (
        f"{prefix}Arguments",
        f"{prefix}Result",
        f"{prefix}Injected",
    )


@given(st.text(min_size=1, max_size=40))
@settings(max_examples=300, derandomize=True)
def test_a_tools_class_names_are_distinct_and_never_double_a_word(tool: str) -> None:
    classes = tool_classes(tool)
    names = [classes.arguments, classes.result, classes.injected, classes.interface]
    assert len(set(names)) == 4 and all(n.isidentifier() for n in [*names, classes.implementation])
    assert classes.implementation not in names
    # The interface adds the word Tool only where the name does not already end in it.
    assert classes.interface in (classes.prefix, classes.prefix + "Tool")
    assert not (classes.interface.endswith("ToolTool") and not classes.prefix.endswith("ToolTool"))
    assert classes.prefix == class_name(tool)


_PIECES = st.sampled_from(["tool", "Tool", "TOOL", "tOoL", "s", "box", "_", "-", "1", "é", "Ｔ"])


@given(st.lists(_PIECES, max_size=6).map("".join) | st.text(max_size=20))
@settings(max_examples=300, derandomize=True)
def test_the_interface_word_is_found_as_the_words_find_it(text: str) -> None:
    """`_ends_with_interface_word` skips splitting an ASCII name without `tool` in it."""
    for name in (text, class_name(text)):
        words = _camel_words(name)
        found = bool(words) and unicodedata.normalize("NFKC", words[-1]).casefold() == "tool"
        assert _ends_with_interface_word(name) is found


_CAMEL_PARTS = st.lists(st.sampled_from(["A", "Ab", "ABC", "x", "1", "20", "Tool", "é", "_"])).map(
    "".join
)
_PARTS = _CAMEL_PARTS | st.text(max_size=12) | st.text(max_size=12).map(class_name)


@given(st.lists(_PARTS, min_size=1, max_size=3), st.sampled_from(["", "Item", "Value", "_2"]))
@settings(max_examples=400, derandomize=True)
def test_a_class_name_part_taken_whole_is_its_words(parts: list[str], suffix: str) -> None:
    """`class_name` takes a CamelCase part as it is: the same as splitting it into words."""
    parts = [*parts[:-1], parts[-1] + suffix]
    assert class_name(*parts) == _class_name(_camel_words(*parts))


def test_reserved_names_cover_installed_pydantic() -> None:
    """A field named like a public BaseModel attribute would shadow it: naming.py must rename it."""
    public = [n for n in dir(BaseModel) if not n.startswith("_")]
    assert [n for n in public if field_name(n) == n] == []


@pytest.mark.parametrize(
    "codepoint",
    [
        0x9F4,
        0xB72,
        0x2E2F,
        0x00B2,
        0x2160,
        0x1D53F,
        0xFB01,
        0x0301,
        0x3000,
        0xD800,
        0xE000,
        0x378,
        0x10FFFF,
    ],
)
def test_any_character_gives_a_python_name(codepoint: int) -> None:
    """Characters `\\w` matches but identifiers cannot hold, and ones NFKC changes (exhaustively: below)."""
    for text in (chr(codepoint), "a" + chr(codepoint), chr(codepoint) + "a"):
        for name in (field_name(text), class_name("T", text), module_name("t" + text)):
            assert name.isidentifier() and not keyword.iskeyword(name)
            assert __import__("unicodedata").is_normalized("NFKC", name), (
                "Python would read another name"
            )


@pytest.mark.slow
def test_every_code_point_gives_a_python_name() -> None:
    import sys
    import unicodedata

    bad = []
    for codepoint in range(sys.maxunicode + 1):
        char = chr(codepoint)
        if unicodedata.category(char) in ("Cn", "Co", "Cs"):  # unassigned, private use, surrogates:
            continue  # never in an identifier, so all take the same path (the parametrized test covers it)
        for name in (
            field_name(char),
            field_name("a" + char),
            class_name("T", char),
            class_name(char + "a"),
        ):
            if not (
                name.isidentifier() and unicodedata.is_normalized("NFKC", name)
            ) or keyword.iskeyword(name):
                bad.append((hex(codepoint), name))
    assert bad == []


# --- property test: arbitrary names and text through the whole pipeline ------------------------


@functools.cache
def black_stable(text: str) -> bool:
    """black leaves `text` as it is. Cached: most of a package (its runtime copy) is the same
    text in every example, and black's answer for the same text is the same."""
    import black

    from toolgen.format import mode

    return black.format_str(text, mode=mode()) == text


# Arbitrary characters, with the troublesome ones made common: quotes, escapes, controls, lone
# surrogates, separators, NFKC-changed letters, non-identifier numerics, case pairs.
characters = st.one_of(
    st.characters(codec=None),
    st.sampled_from([*"'\"\\\x00\n\r\x85\u2028\ud800\udfff-._ {}%[]ﬁ𝔣৴\u0301Aa1٣😀"]),
)
words = st.one_of(
    st.text(characters, max_size=10),
    st.sampled_from(["from", "model_config", "json", "Field", "int", "_"]),
)
names_strategy = st.lists(words, min_size=1, max_size=5, unique=True)
text_strategy = st.lists(
    st.one_of(characters, st.sampled_from(['"""', "'''", "{{", "{%", "*/"])), max_size=40
).map("".join)


@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    names=names_strategy,
    descriptions=st.lists(text_strategy, min_size=6, max_size=6),
    value=text_strategy,
)
@example(
    names=["from", "from_", "Name", "name"],
    descriptions=['"""', "\\", "{{ x }}", "\x00", "  ", "'''"],
    value="v",
)
def test_arbitrary_names_and_text_generate_working_packages(
    names: list[str], descriptions: list[str], value: str
) -> None:
    assume(not any("[" in n for n in names))  # a runtime bug, pinned by test_keys_with_brackets
    assume(
        not any(re.search("[\ud800-\udfff]", n) for n in names)
    )  # pinned by test_lone_surrogate_in_a_name
    properties: dict[str, Any] = {
        n: {"type": "string", "description": d}
        for n, d in zip(names, descriptions * 2, strict=False)
    }
    properties[names[0]] = {
        "type": "object",
        "description": descriptions[-1],
        "properties": {n: {"type": "string", "description": descriptions[1]} for n in names},
    }
    tool = spec("t", properties, description="T. " + descriptions[0])
    if re.search("[\ud800-\udfff]", value):
        value = "v"  # pydantic-core refuses lone surrogates in any str
    with tempfile.TemporaryDirectory() as folder, package(Path(folder), tool) as p:
        out = Path(folder) / "out"
        rendered = [  # not the verbatim copies, the same whatever the names: test_runtime.py's
            path
            for path in out.rglob("*.py")
            if not RUNTIME_COPIES.match(path.relative_to(out).as_posix())
        ]
        assert any(path.name == "t.py" for path in rendered), rendered
        for path in rendered:
            assert black_stable(path.read_text("utf-8")), f"{path.name} is not black-stable"
        assert tool_module(p.tool_info("t")).DESCRIPTION == tool["description"]
        arguments: dict[str, Any] = {n: value for n in names[1:]}
        arguments[names[0]] = {n: value for n in names}
        model = p.validate_arguments("t", arguments)
        assert model.model_dump(by_alias=True, exclude_unset=True) == arguments
        for wire in names[1:]:
            assert getattr(model, python_name(type(model), wire)) == value
        nested = getattr(model, python_name(type(model), names[0]))
        for wire in names:
            assert getattr(nested, python_name(type(nested), wire)) == value
        for wire in names:
            misspelled = wire + "x" if wire + "x" not in names else wire + "xx"
            with pytest.raises(p.ToolArgumentsError) as caught:
                p.validate_arguments("t", {**arguments, misspelled: value})
            assert [(i.path, i.code) for i in caught.value.issues] == [(misspelled, "unknown_key")]


@settings(max_examples=8, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    names=names_strategy,
    descriptions=st.lists(text_strategy, min_size=3, max_size=3),
    data=st.data(),
)
def test_arbitrary_names_and_text_give_working_strategies(
    names: list[str], descriptions: list[str], data: st.DataObject
) -> None:
    """The generated testing module compiles, and draws valid arguments, whatever the names."""
    assume(not any("[" in n or re.search("[\ud800-\udfff]", n) for n in names))  # as above
    properties = {
        n: {"type": "string", "description": d}
        for n, d in zip(names, descriptions * 2, strict=False)
    }
    tool = spec("t", properties, description="T. " + descriptions[0])
    with tempfile.TemporaryDirectory() as folder, package(Path(folder), tool) as p:
        testing = importlib.import_module(f"{p.__name__}.testing.tools.t")
        drawn = data.draw(testing.arguments_json(**{names[-1]: st.just("v")}))
        p.validate_arguments("t", drawn)
        assert drawn.get(names[-1], "v") == "v"
