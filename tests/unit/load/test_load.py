"""Loading spec files: YAML 1.2 semantics, the source map, limits, and JSON parsed two ways.

JSON text is YAML 1.2 flow syntax. The property tests check that for any JSON data,
its JSON dump read by `parse_json` and by `parse_yaml` gives the data back, and that
both source maps hold a position for every value and key, at its first character.
libyaml (a YAML 1.1 parser) disagrees with JSON on a few inputs; those are excluded
from the YAML side of the properties by `yaml_reads_like_json` and pinned one by one
in `test_where_libyaml_and_json_disagree`.
"""

from __future__ import annotations

import json
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from toolgen.load import yaml12
from toolgen.load.document import LoadError, load_file, parse_json, parse_yaml
from toolgen.load.source_map import MAX_DEPTH, MAX_FILE_BYTES, MAX_NODES, SourceMap
from toolgen.schema.pointer import child


def loaded(text: str) -> Any:
    return parse_yaml(text)[0]


def refused(parse: Callable[[Any], object], source: Any) -> LoadError:
    with pytest.raises(LoadError) as caught:
        parse(source)
    return caught.value


# --- YAML 1.2 core schema ------------------------------------------------------


# fmt: off
@pytest.mark.parametrize(("text", "value"), [
    ("no", "no"), ("yes", "yes"), ("on", "on"), ("off", "off"), ("y", "y"), ("NO", "NO"),  # 1.1 booleans
    ("true", True), ("True", True), ("FALSE", False), ("null", None), ("~", None), ("", None),
    ("0o10", 8), ("0x1f", 31), ("010", 10), ("+1", 1), ("-0", 0),  # 010 is octal only in YAML 1.1
    ("1e3", 1000.0), ("-1.5", -1.5), (".5", 0.5), ("1.", 1.0), ("1E-2", 0.01),
    ("1_000", "1_000"), ("0b11", "0b11"), ("1:20", "1:20"), ("2001-12-14", "2001-12-14"),  # 1.1-only forms
    ("'true'", "true"), ('"1"', "1"), ("!!str 1", "1"), ("! 1", "1"), ("!!int '7'", 7), ("!!float 1", 1.0),
])
# fmt: on
def test_scalars_follow_yaml_1_2(text: str, value: Any) -> None:
    got = loaded(f"a: {text}")["a"]
    assert (type(got), got) == (type(value), value)


@settings(max_examples=300)
@given(st.text(st.sampled_from(list("0123456789+-.eExXoabfinINFtrueTRUEnulNUL~_: ")), max_size=8))
def test_one_pattern_resolves_as_the_core_schema_in_order(text: str) -> None:
    """The combined pattern names the first of the core schema's tags whose pattern matches."""
    first = next((tag for tag, p in yaml12._CORE_PATTERNS.items() if p.fullmatch(text)), None)
    found = yaml12._RESOLVE.fullmatch(text)
    assert (yaml12._GROUPS[str(found.lastgroup)] if found else None) == first


def test_merge_keys_are_plain_keys_in_yaml_1_2() -> None:
    assert loaded("base: &b {x: 1}\nc:\n  <<: *b\n") == {"base": {"x": 1}, "c": {"<<": {"x": 1}}}


def test_keys_are_the_text_as_written() -> None:
    assert loaded("1: a\ntrue: b\nnull: c\n") == {"1": "a", "true": "b", "null": "c"}


# fmt: off
@pytest.mark.parametrize(("text", "position", "message"), [
    ("a: .inf", (1, 4), "'.inf' is not a JSON number"),
    ("a: -.Inf", (1, 4), "is not a JSON number"),
    ("a: .nan", (1, 4), "is not a JSON number"),
    ("a: 1" + "0" * 5000, (1, 4), "integer has too many digits"),
    ("a: !!int abc", (1, 4), "'abc' is not a valid int"),
    ("a: !!bool yes", (1, 4), "'yes' is not a valid bool"),
    ("a: !!binary aGk=", (1, 4), "unsupported YAML tag"),
    ("a: !!timestamp 2001-12-14", (1, 4), "unsupported YAML tag"),
    ("a: !!python/object:os.system {}", (1, 4), "unsupported YAML tag"),
    ("a: !custom [1]", (1, 4), "unsupported YAML tag '!custom'"),
    ("a: 1\n--- 2\n", (2, 1), "a single YAML document"),
    ("a: *nowhere", (1, 4), "alias *nowhere refers to no anchor"),
    ("a: &x [1, *x]", (1, 11), "refers to a node that contains it"),
    ("? [k]\n: v\n", (1, 3), "mapping keys must be strings"),
    ("a: 1\na: 2\n", (2, 1), "duplicate key 'a'"),
    ("a: [1\nb: 2\n", (2, 2), "invalid YAML"),
    ("a: \x7f", (1, 4), "character U+007F is not allowed"),
])
# fmt: on
def test_what_yaml_refuses_and_where(text: str, position: tuple[int, int], message: str) -> None:
    error = refused(parse_yaml, text)
    assert ((error.line, error.col), message in error.message) == (position, True), error.message


def test_empty_files_are_null() -> None:
    assert parse_yaml("# only a comment\n") == (None, SourceMap(values={"": (1, 1)}))


# --- the source map --------------------------------------------------------------

SAMPLE = """\
name: demo
parameters:
  type: object
  properties:
    a/b~c:
      enum: [x, "y"]
    list:
      - 1
      - {k: v}
"""


def test_yaml_positions_of_keys_and_values() -> None:
    source = parse_yaml(SAMPLE)[1]
    props = "/parameters/properties"
    assert source.position("/name") == (1, 7)
    assert source.position("/name", key=True) == (1, 1)
    assert source.position("/parameters") == (3, 3)  # a block mapping starts at its first key
    assert source.position(f"{props}/a~1b~0c", key=True) == (5, 5)
    assert source.position(f"{props}/a~1b~0c/enum/1") == (6, 17)
    assert source.position(f"{props}/list/1/k", key=True) == (9, 10)
    assert source.position(f"{props}/list/1/k") == (9, 13)
    # What is not there is reported at its nearest ancestor.
    assert source.position(f"{props}/list/1/missing", key=True) == (9, 9)
    assert source.position("/nowhere/deeper") == (1, 1)


def test_aliases_are_located_at_the_alias_and_their_content_at_the_anchor() -> None:
    data, source = parse_yaml("base: &b {type: string}\nx: *b\n")
    assert data == {"base": {"type": "string"}, "x": {"type": "string"}}
    assert data["x"] is not data["base"]  # expanded copies, not shared objects
    assert source.position("/x") == (2, 4)
    assert (source.position("/x/type", key=True), source.position("/x/type")) == ((1, 11), (1, 17))


def test_json_positions_are_computed_on_first_use() -> None:
    text = '{\n  "name": "demo",\n  "tags": [1, {"a/b": null}]\n}\n'
    data, source = parse_json(text)
    assert data == {"name": "demo", "tags": [1, {"a/b": None}]}
    assert not source.computed
    assert source.position("/tags/1/a~1b") == (3, 23)
    assert source.computed
    assert source.position("/tags/1/a~1b", key=True) == (3, 16)
    assert source.position("/name", key=True) == (2, 3)


# --- limits ------------------------------------------------------------------------


@pytest.mark.parametrize("parse", [parse_yaml, parse_json])
@pytest.mark.parametrize("inner", ["", "1"])
def test_depth_limit(parse: Any, inner: str) -> None:
    def nested(depth: int) -> str:  # the innermost value sits at `depth`
        n = depth if inner else depth + 1
        return "[" * n + inner + "]" * n

    parse(nested(MAX_DEPTH))
    error = refused(parse, nested(MAX_DEPTH + 1))
    assert (error.line, error.col, error.message) == (1, MAX_DEPTH + 2, f"nesting deeper than {MAX_DEPTH} levels")


def test_depth_limit_counts_what_aliases_expand_to() -> None:
    anchor = "[" * 40 + "]" * 40
    text = f"a: &a {anchor}\nb: {'[' * 30}*a{']' * 30}\n"
    error = refused(parse_yaml, text)
    assert (error.line, error.col) == (2, 34)


@pytest.mark.parametrize("extra", [0, 1])
def test_node_limit_counts_alias_expansion(extra: int) -> None:
    copies = 198
    # root + `a` (1 list + 999 items) + `b` (1 list + copies * 1000) + `c` (1 list + n items)
    n = MAX_NODES - (1 + 1000 + 1 + copies * 1000 + 1) + extra
    text = f"a: &a [{','.join(['0'] * 999)}]\nb: [{','.join(['*a'] * copies)}]\nc: [{','.join(['0'] * n)}]\n"
    if extra:
        assert "more than 200000 values" in refused(parse_yaml, text).message
    else:
        assert len(parse_yaml(text)[1].values) == MAX_NODES


def test_billion_laughs_fails_fast() -> None:
    lines = ['a: &a ["lol","lol","lol","lol","lol","lol","lol","lol","lol"]']
    for prev, name in zip("abcdefgh", "bcdefghi", strict=False):
        lines.append(f"{name}: &{name} [{','.join([f'*{prev}'] * 9)}]")
    started = time.monotonic()
    error = refused(parse_yaml, "\n".join(lines))
    assert time.monotonic() - started < 5
    assert "more than 200000 values" in error.message


def test_file_size_limit(tmp_path: Path) -> None:
    path = tmp_path / "big.yaml"
    body = "name: big\n"
    path.write_text(body + "#" * (MAX_FILE_BYTES - len(body) - 1) + "\n")
    assert load_file(path, "big.yaml").data == {"name": "big"}
    path.write_text(body + "#" * (MAX_FILE_BYTES - len(body)) + "\n")
    assert "larger than" in refused(lambda p: load_file(p, "big.yaml"), path).message


def test_files_may_start_with_a_bom_and_must_be_utf8(tmp_path: Path) -> None:
    for name, text in (("a.yaml", "name: x\n"), ("a.json", '{"name": "x"}')):
        (tmp_path / name).write_bytes(b"\xef\xbb\xbf" + text.encode())
        assert load_file(tmp_path / name, name).data == {"name": "x"}
    (tmp_path / "b.yaml").write_bytes("name: x\ndescription: caf\u00e9\n".encode("latin-1"))
    error = refused(lambda p: load_file(p, "b.yaml"), tmp_path / "b.yaml")
    assert (error.line, error.col, error.message) == (2, 17, "file is not UTF-8: byte 0xe9 cannot be decoded")


# --- JSON -----------------------------------------------------------------------------


# fmt: off
@pytest.mark.parametrize(("text", "position", "message"), [
    ('{"a": 1,\n "b": {"x": 1, "x": 2}}', (2, 16), "duplicate key 'x'"),
    ('{"a": {"x": 1}, "a": 2}', (1, 17), "duplicate key 'a'"),
    ('{"a": "NaN",\n "b": [1, NaN]}', (2, 11), "NaN is not a JSON number"),
    ("[true, -Infinity]", (1, 8), "-Infinity is not a JSON number"),
    ("[1e999]", (1, 2), "1e999 is not a finite number"),
    ('{"a": [1,]}', (1, 10), "Expecting value"),
    ("[" * 100_000 + "]" * 100_000, (1, MAX_DEPTH + 2), "nesting deeper than"),
])
# fmt: on
def test_what_json_refuses_and_where(text: str, position: tuple[int, int], message: str) -> None:
    error = refused(parse_json, text)
    assert ((error.line, error.col), message in error.message) == (position, True), error.message


def test_trailing_comma_has_a_hint() -> None:
    assert refused(parse_json, '{"a": 1,\n}').hint == "JSON allows no comma after the last item"


# --- JSON read as YAML, and as JSON: properties ----------------------------------------

# Characters YAML does not allow in a file (libyaml refuses them even inside quotes).
YAML_FORBIDDEN = {chr(c) for c in range(0x7F, 0xA0) if c != 0x85} | {"\ufffe", "\uffff"}
# Line breaks in YAML 1.1 (libyaml), not in JSON: NEL is folded to a space inside a
# string, and all three move every later position one line down.
YAML_11_BREAKS = {"\x85", "\u2028", "\u2029"}
# An implicit key is at most 1024 characters long, here: its JSON text, quotes included.
MAX_YAML_KEY = 1024

scalars = st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False, allow_infinity=False) | st.text()
documents = st.recursive(
    scalars, lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(), inner, max_size=4), max_leaves=25
)
dumps = st.fixed_dictionaries(
    {
        "indent": st.sampled_from([None, 2]),
        "ensure_ascii": st.booleans(),
        "separators": st.sampled_from([None, (",", ":")]),
    }
)


def nodes(value: Any, pointer: str = "", key: str | None = None) -> list[tuple[str, Any, str | None]]:
    """(pointer, value, key in its parent object or None) for every value in a document."""
    out = [(pointer, value, key)]
    if isinstance(value, dict):
        for name, item in value.items():
            out += nodes(item, child(pointer, name), name)
    elif isinstance(value, list):
        for i, item in enumerate(value):
            out += nodes(item, child(pointer, i))
    return out


def yaml_reads_like_json(data: Any, ensure_ascii: bool) -> bool:
    """False for the JSON texts that libyaml reads differently (each kind is pinned below)."""
    for _, value, key in nodes(data):
        for text in (value, key):
            if not isinstance(text, str):
                continue
            if ensure_ascii and any(ord(c) > 0xFFFF for c in text):  # written as a surrogate pair escape
                return False
            if not ensure_ascii and set(text) & (YAML_FORBIDDEN | YAML_11_BREAKS):
                return False
        if key is not None and len(json.dumps(key, ensure_ascii=ensure_ascii)) > MAX_YAML_KEY:
            return False
    return True


def at(text: str, position: tuple[int, int]) -> str:
    line, col = position
    return text.split("\n")[line - 1][col - 1 :]


def assert_located(text: str, data: Any, source: SourceMap, ensure_ascii: bool) -> None:
    """Every value and key has a position, and the text there starts with it."""
    for pointer, value, key in nodes(data):
        if isinstance(value, (dict, list)):
            start = "{" if isinstance(value, dict) else "["
        else:
            start = json.dumps(value, ensure_ascii=ensure_ascii)
        assert at(text, source.values[pointer]).startswith(start), pointer
        if key is not None:
            assert at(text, source.keys[pointer]).startswith(json.dumps(key, ensure_ascii=ensure_ascii)), pointer


def same(a: Any, b: Any) -> bool:
    """Equal with types: True is not 1, 1.0 is not 1, key order counts."""
    return json.dumps(a) == json.dumps(b)


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(documents, dumps)
def test_json_text_reads_back_the_same_as_json_and_as_yaml(data: Any, options: dict[str, Any]) -> None:
    text = json.dumps(data, **options)
    parsed, source = parse_json(text)
    assert same(parsed, data)
    assert_located(text, data, source, options["ensure_ascii"])
    if yaml_reads_like_json(data, options["ensure_ascii"]):
        parsed_yaml, yaml_source = parse_yaml(text)
        assert same(parsed_yaml, data)
        assert (yaml_source.values, yaml_source.keys) == (source.values, source.keys)


# fmt: off
@pytest.mark.parametrize(("text", "yaml_reads"), [
    pytest.param('["\\ud83d\\ude00"]', "refused", id="surrogate-pair-escape"),  # YAML writes \U0001F600
    pytest.param('["\x7f"]', "refused", id="raw-DEL"),
    pytest.param('["\x80"]', "refused", id="raw-C1-control"),
    pytest.param('["\ufffe"]', "refused", id="raw-U+FFFE"),
    pytest.param('{"' + "k" * (MAX_YAML_KEY - 1) + '": 1}', "refused", id="key-of-1025-characters"),
    pytest.param('["a\x85b"]', ["a b"], id="raw-NEL-folds"),
    pytest.param('{"a\x85": 1}', "refused", id="raw-NEL-in-key"),
    pytest.param('["\u2028", 1]', "shifted", id="raw-LS-is-a-line-break"),
    pytest.param('["\u2029", 1]', "shifted", id="raw-PS-is-a-line-break"),
])
# fmt: on
def test_where_libyaml_and_json_disagree(text: str, yaml_reads: Any) -> None:
    data, source = parse_json(text)
    escaped = "\\u" in text
    assert_located(text, data, source, ensure_ascii=escaped)  # the JSON side is exact
    assert not yaml_reads_like_json(data, ensure_ascii=escaped)
    if yaml_reads == "refused":
        refused(parse_yaml, text)
    elif yaml_reads == "shifted":
        got, yaml_source = parse_yaml(text)
        assert got == data and yaml_source.position("/1") == (2, 4) != source.position("/1")
    else:
        assert parse_yaml(text)[0] == yaml_reads != data


def test_keys_up_to_the_yaml_limit_agree() -> None:
    for key in ("k" * (MAX_YAML_KEY - 2), "\u00e9" * (MAX_YAML_KEY - 2)):
        text = json.dumps({key: 1}, ensure_ascii=False)
        assert yaml_reads_like_json({key: 1}, ensure_ascii=False)
        assert parse_yaml(text) == parse_json(text)[:1] + (parse_yaml(text)[1],)
