"""The exact JSON Schema 2020-12 checker (runtime/validation/exact/checker.py): the official test suite, a property
test against jsonschema, and the exact message of every issue code it adds."""

from __future__ import annotations

import json
import re
from typing import Any

import jsonschema
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tests.support.generation import REPO
from toolgen.runtime.errors import ArgumentIssue
from toolgen.runtime.validation.exact.checker import Checker, Unsupported
from toolgen.runtime.validation.exact.ecma import ecma_pattern

SUITE = REPO / "tests" / "data" / "json-schema-test-suite" / "draft2020-12"
OPTIONAL = [
    "bignum",
    "float-overflow",
    "ecmascript-regex",
    "non-bmp-regex",
    "no-schema",
    "unknownKeyword",
    "refOfUnknownKeyword",
]
FORMATS = [
    "date-time",
    "date",
    "time",
    "duration",
    "email",
    "hostname",
    "ipv4",
    "ipv6",
    "uri",
    "uri-reference",
    "uuid",
    "regex",
    "json-pointer",
    "relative-json-pointer",
]
# Format tests where the assertion disagrees with the suite: none today. An entry would be
# (file, group description, test description), each explained in docs/errors.md.
KNOWN_FORMAT_DISAGREEMENTS: set[tuple[str, str, str]] = set()

# The groups refused with Unsupported: each uses $dynamicRef/$dynamicAnchor, a remote or
# $id-relative URI, an anchor ("#name", which toolgen's bundler never writes) or a $schema
# other than 2020-12 (a custom vocabulary). Everything else compiles.
REFUSED = {
    ("anchor.json", "Location-independent identifier"): "anchor",
    ("anchor.json", "Location-independent identifier with absolute URI"): "URI",
    ("anchor.json", "Location-independent identifier with base URI change in subschema"): "URI",
    ("anchor.json", "same $anchor with different base uri"): "URI",
    ("defs.json", "validate definition against metaschema"): "URI",
    ("ref.json", "remote ref, containing refs itself"): "URI",
    ("ref.json", "Recursive references between schemas"): "URI",
    ("ref.json", "refs with relative uris and defs"): "URI",
    ("ref.json", "relative refs with absolute uris and defs"): "URI",
    ("ref.json", "$id must be resolved against nearest parent, not just immediate parent"): "URI",
    ("ref.json", "order of evaluation: $id and $ref"): "URI",
    ("ref.json", "order of evaluation: $id and $anchor and $ref"): "anchor",
    ("ref.json", "simple URN base URI with $ref via the URN"): "URI",
    ("ref.json", "URN base URI with URN and JSON pointer ref"): "URI",
    ("ref.json", "URN base URI with URN and anchor ref"): "URI",
    ("ref.json", "URN ref with nested pointer ref"): "URI",
    ("ref.json", "ref to if"): "URI",
    ("ref.json", "ref to then"): "URI",
    ("ref.json", "ref to else"): "URI",
    ("ref.json", "ref with absolute-path-reference"): "URI",
    ("unevaluatedItems.json", "unevaluatedItems with $dynamicRef"): "URI",
    ("unevaluatedProperties.json", "unevaluatedProperties with $dynamicRef"): "URI",
    ("optional/unknownKeyword.json", "$id inside an unknown keyword is not a real identifier"): (
        "URI"
    ),
    ("vocabulary.json", "ignore unrecognized optional vocabulary"): "$schema",
    ("vocabulary.json", "schema that uses custom metaschema with with no validation vocabulary"): (
        "$schema"
    ),
}
WHOLE_FILES_REFUSED = {"dynamicRef.json", "refRemote.json"}  # every group: dynamic or remote


def _groups(names: list[str]) -> list[tuple[str, dict[str, Any]]]:
    out = []
    for name in names:
        for group in json.loads((SUITE / name).read_text("utf-8")):
            out.append((name, group))
    return out


def _run(groups: list[tuple[str, dict[str, Any]]], formats: bool) -> dict[str, Any]:
    counts = {"groups": 0, "tests": 0, "agree": 0, "refused": []}
    disagree = []
    for name, group in groups:
        try:
            checker = Checker(group["schema"], formats=formats)
        except Unsupported as error:
            counts["refused"].append((name, group["description"], str(error)))
            continue
        counts["groups"] += 1
        for test in group["tests"]:
            counts["tests"] += 1
            data, valid = test["data"], test["valid"]
            verdict = checker.is_valid(data)
            issues = checker.issues(data)
            # Raw explanation: the keywords themselves report at least one issue (no fallback).
            explained = valid or bool(checker.explain(data))
            if verdict == valid and (issues == []) == valid and explained:
                counts["agree"] += 1
            else:
                disagree.append((name, group["description"], test["description"]))
    counts["disagree"] = disagree
    return counts


def test_the_official_suite() -> None:
    names = sorted(p.name for p in SUITE.glob("*.json"))
    names += [f"optional/{n}.json" for n in OPTIONAL]
    counts = _run(_groups(names), formats=False)
    print(
        f"\nsuite: {counts['groups']} groups compiled, {counts['tests']} tests, "
        f"{counts['agree']} agree, {len(counts['refused'])} groups refused"
    )
    assert counts["disagree"] == []
    assert counts["agree"] == counts["tests"] > 1200
    refused = {(name, description) for name, description, _ in counts["refused"]}
    expected = set(REFUSED) | {
        (name, group["description"]) for name, group in _groups(sorted(WHOLE_FILES_REFUSED))
    }
    assert refused == expected
    for name, description, message in counts["refused"]:
        if name not in WHOLE_FILES_REFUSED:
            kind = REFUSED[name, description]
            assert {"anchor": "names an anchor", "URI": "$", "$schema": "$schema"}[kind] in message


def test_the_format_suite_with_assertions() -> None:
    counts = _run(_groups([f"optional/format/{n}.json" for n in FORMATS]), formats=True)
    print(f"\nformats: {counts['tests']} tests, {counts['agree']} agree")
    assert set(counts["disagree"]) == KNOWN_FORMAT_DISAGREEMENTS
    assert counts["tests"] > 350 and not counts["refused"]


def test_formats_are_annotations_by_default_and_unknown_formats_always() -> None:
    assert Checker({"format": "date"}).is_valid("2020-02-30")
    assert not Checker({"format": "date"}, formats=True).is_valid("2020-02-30")
    assert Checker({"format": "idn-hostname"}, formats=True).is_valid("-")


# --- agreement with jsonschema on random schemas -----------------------------------------

KEYS = ["a", "b", "c"]
scalars = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(-3, 3),
    st.sampled_from([0.5, 1.0, 2.0, -1.5]),
    st.sampled_from(["", "a", "ab", "abc", "b"]),
)
instances = st.recursive(
    scalars,
    lambda inner: st.one_of(
        st.lists(inner, max_size=4), st.dictionaries(st.sampled_from(KEYS), inner, max_size=3)
    ),
    max_leaves=8,
)


def _leaf() -> st.SearchStrategy[Any]:
    return st.one_of(
        st.booleans(),
        st.fixed_dictionaries(
            {"type": st.sampled_from(["string", "integer", "number", "object", "array", "null"])}
        ),
        st.fixed_dictionaries(
            {"type": st.lists(st.sampled_from(["string", "integer", "boolean"]), min_size=1)}
        ),
        st.builds(lambda v: {"const": v}, scalars),
        st.builds(lambda v: {"enum": v}, st.lists(scalars, min_size=1, max_size=3)),
        st.builds(lambda n: {"minimum": n}, st.integers(-2, 2)),
        st.builds(lambda n: {"exclusiveMaximum": n}, st.sampled_from([0, 1.5, 2])),
        st.builds(lambda n: {"multipleOf": n}, st.sampled_from([0.5, 2, 1.5])),
        st.builds(lambda n: {"maxLength": n}, st.integers(0, 2)),
        st.builds(lambda n: {"minItems": n}, st.integers(0, 2)),
        st.builds(lambda n: {"maxProperties": n}, st.integers(0, 2)),
        st.builds(lambda k: {"required": k}, st.lists(st.sampled_from(KEYS), max_size=2)),
        st.just({"uniqueItems": True}),
        st.just({"pattern": "^a"}),
        st.builds(
            lambda k, d: {"dependentRequired": {k: d}},
            st.sampled_from(KEYS),
            st.lists(st.sampled_from(KEYS), max_size=2),
        ),
    )


def _compound(inner: st.SearchStrategy[Any]) -> st.SearchStrategy[Any]:
    subs = st.lists(inner, min_size=1, max_size=3)
    props = st.dictionaries(st.sampled_from(KEYS), inner, max_size=2)
    return st.one_of(
        st.builds(lambda s: {"allOf": s}, subs),
        st.builds(lambda s: {"anyOf": s}, subs),
        st.builds(lambda s: {"oneOf": s}, subs),
        st.builds(lambda s: {"not": s}, inner),
        st.builds(lambda i, t, e: {"if": i, "then": t, "else": e}, inner, inner, inner),
        st.builds(lambda p: {"properties": p}, props),
        st.builds(lambda p, a: {"properties": p, "additionalProperties": a}, props, inner),
        st.builds(lambda p: {"patternProperties": {"^b": p}}, inner),
        st.builds(lambda p: {"propertyNames": p}, inner),
        st.builds(lambda k, s: {"dependentSchemas": {k: s}}, st.sampled_from(KEYS), inner),
        st.builds(lambda s: {"items": s}, inner),
        st.builds(lambda p, s: {"prefixItems": p, "items": s}, subs, inner),
        st.builds(
            lambda s, lo, hi: {"contains": s, "minContains": lo, "maxContains": hi},
            inner,
            st.integers(0, 2),
            st.integers(1, 3),
        ),
        st.builds(lambda s: {"contains": s}, inner),
        st.builds(lambda a, u: {"allOf": a, "unevaluatedProperties": u}, subs, inner),
        st.builds(lambda a, u: {"anyOf": a, "unevaluatedItems": u}, subs, inner),
        st.builds(lambda p, u: {"prefixItems": p, "unevaluatedItems": u}, subs, inner),
        st.builds(
            lambda o: {**o, "$ref": "#/$defs/d"} if isinstance(o, dict) else {"$ref": "#/$defs/d"},
            inner,
        ),
        st.builds(
            lambda a, b: {**a, **b} if isinstance(a, dict) and isinstance(b, dict) else a,
            inner,
            inner,
        ),
    )


# `#/$defs/d` is the root's: every schema is wrapped in one holding it (a simple schema, so no
# reference loops in place).
schemas = st.builds(
    lambda s, d: {"$defs": {"d": d}, "allOf": [s]},
    st.recursive(_leaf(), _compound, max_leaves=6),
    _leaf(),
)


@settings(max_examples=400, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(schemas, st.lists(instances, min_size=1, max_size=5))
def test_agrees_with_jsonschema(schema: Any, values: list[Any]) -> None:
    checker = Checker(schema)
    reference = jsonschema.Draft202012Validator(schema)
    for value in values:
        expected = reference.is_valid(value)
        assert checker.is_valid(value) == expected, (schema, value)
        assert (checker.issues(value) == []) == expected
        assert expected or checker.explain(value)


# --- messages --------------------------------------------------------------------------


def _lines(schema: Any, value: Any, **options: Any) -> list[str]:
    return [i.line() for i in Checker(schema, **options).issues(value)]


def _one(schema: Any, value: Any) -> ArgumentIssue:
    issues = Checker(schema).issues(value)
    assert len(issues) == 1, issues
    return issues[0]


def test_message_unique() -> None:
    issue = _one({"properties": {"tags": {"uniqueItems": True}}}, {"tags": ["a", "b", "a"]})
    assert (issue.code, issue.path, issue.line()) == (
        "unique",
        "tags",
        "- tags: items 0 and 2 are equal, but items must be unique; remove item 2",
    )
    assert Checker({"uniqueItems": True}).is_valid([1, True, {"a": 1}, {"a": True}])
    assert not Checker({"uniqueItems": True}).is_valid([1, 1.0])
    assert not Checker({"uniqueItems": True}).is_valid([{"a": 1, "b": 2}, {"b": 2, "a": 1.0}])


def test_message_contains() -> None:
    schema = {"contains": {"type": "integer"}, "maxContains": 2}
    assert _lines(schema, ["a"]) == [
        "- arguments: expected at least 1 item that is an integer, got 0"
    ]
    assert _lines(schema, [1, 2, 3]) == [
        "- arguments: expected at most 2 items that is an integer, got 3"
    ]
    assert _one({"contains": {"minimum": 5}}, [1]).code == "contains"
    assert _lines({"contains": {"minimum": 5}}, [1]) == [
        '- arguments: expected at least 1 item that matches the "contains" schema, got 0'
    ]


def test_message_properties_count() -> None:
    assert _lines({"minProperties": 2}, {"a": 1}) == [
        "- arguments: expected at least 2 keys, got 1"
    ]
    issue = _one({"maxProperties": 1}, {"a": 1, "b": 2})
    assert (issue.code, issue.expected) == ("properties", "at most 1 key")


def test_message_dependency() -> None:
    schema = {"dependentRequired": {"a": ["b", "c"], "d": ["e"]}}
    assert _lines(schema, {"a": 1, "c": 1, "d": 2}) == [
        '- arguments: "b" is required when "a" is present',
        '- arguments: "e" is required when "d" is present',
    ]
    schema = {"dependentSchemas": {"card": {"required": ["billing"]}}}
    issue = _one(schema, {"card": 1})
    assert (issue.code, issue.message) == (
        "dependency",
        'since "card" is present, missing required key "billing"',
    )


def test_message_key() -> None:
    issue = _one({"propertyNames": {"maxLength": 3}}, {"ok": 1, "toolong": 2})
    assert (issue.code, issue.path, issue.value, issue.message) == (
        "key",
        "toolong",
        None,
        "key not allowed: expected at most 3 characters, got 7",
    )
    issue = _one({"propertyNames": {"pattern": "^[a-z]+$"}}, {"A": 1})
    assert (
        issue.message == 'key not allowed: expected a string matching the pattern ^[a-z]+$, got "A"'
    )


def test_message_not() -> None:
    assert _lines({"properties": {"x": {"not": {"type": "null"}}}}, {"x": None}) == [
        "- x: must not be null"
    ]
    assert _lines({"not": {"enum": [1, 2]}}, 2) == ["- arguments: must not be one of 1, 2"]
    assert _lines({"not": {"const": "x"}}, "x") == ['- arguments: must not be "x"']
    assert _lines({"not": {"minimum": 3}}, 4) == [
        '- arguments: must not match the schema under "not"'
    ]
    assert _lines({"not": {}}, 4) == ["- arguments: no value is allowed here"]
    assert _one({"not": {}}, 4).code == "not"


def test_message_condition() -> None:
    schema = {
        "if": {"properties": {"country": {"const": "US"}}, "required": ["country"]},
        "then": {"required": ["zip"]},
        "else": {"required": ["postcode"]},
    }
    assert _lines(schema, {"country": "US"}) == [
        '- arguments: since "country" is "US", missing required key "zip"'
    ]
    assert _lines(schema, {"country": "FR"}) == [
        '- arguments: since "country" is not "US", missing required key "postcode"'
    ]
    assert _one(schema, {}).code == "condition"
    generic = {"if": {"minimum": 3}, "then": {"multipleOf": 2}}
    assert _lines(generic, 5) == [
        '- arguments: since the value matches the "if" schema, expected a multiple of 2, got 5'
    ]


def test_message_one_of_and_any_of() -> None:
    schema = {
        "oneOf": [
            {"type": "object", "properties": {"card": {"type": "string"}}, "required": ["card"]},
            {"type": "object", "properties": {"iban": {"type": "string"}}, "required": ["iban"]},
        ]
    }
    assert _lines(schema, {"iban": 5}) == [
        "- arguments: matches none of the 2 allowed forms; the closest is form 2",
        "- iban: expected a string, got 5",
    ]
    assert [i.code for i in Checker(schema).issues({"iban": 5})] == ["one_of", "type"]
    assert _lines(schema, {"card": "x", "iban": "y"}) == [
        "- arguments: matches forms 1 and 2, but must match exactly one of the 2"
    ]
    assert _lines({"anyOf": [{"type": "string"}, {"type": "integer"}]}, [1, 2]) == [
        "- arguments: expected a string or an integer, got [1, 2]"
    ]
    assert _one({"anyOf": [{"type": "string"}, {"type": "integer"}]}, [1]).code == "any_of"
    assert _lines({"anyOf": [{"minimum": 5}, {"maximum": 1, "multipleOf": 2}]}, 3) == [
        "- arguments: matches none of the 2 allowed forms; the closest is form 1",
        "- arguments: expected at least 5, got 3",
    ]


def test_message_invalid_false_schema() -> None:
    issue = _one({"properties": {"old": False}}, {"old": 1})
    assert (issue.code, issue.line()) == (
        "invalid",
        "- old: no value is allowed here; remove this key",
    )
    assert _lines(False, 1) == ["- arguments: no value is allowed here"]


def test_messages_of_the_documented_codes() -> None:
    schema = {
        "type": "object",
        "properties": {
            "units": {"enum": ["celsius", "fahrenheit"]},
            "days": {"type": "integer", "maximum": 14},
            "zip": {"pattern": "^[0-9]{5}$"},
            "name": {"minLength": 1},
            "tags": {"maxItems": 1},
            "kind": {"const": "email"},
        },
        "required": ["location"],
        "additionalProperties": False,
    }
    value = {
        "units": "celcius",
        "days": 30,
        "zip": "0150",
        "name": "",
        "tags": [1, 2],
        "kind": "sms",
        "loction": "x",
    }
    assert sorted(_lines(schema, value)) == sorted(
        [
            '- units: expected one of "celsius", "fahrenheit", got "celcius"; did you mean "celsius"?',
            "- days: expected at most 14, got 30",
            '- zip: expected a string matching the pattern ^[0-9]{5}$, got "0150"',
            "- name: expected at least 1 character, got 0",
            "- tags: expected at most 1 item, got 2",
            '- kind: expected "email", got "sms"',
            '- arguments: missing required key "location"',
            '- loction: unknown key; did you mean "location"? It is required and missing',
        ]
    )
    assert _lines({"type": "integer"}, 1.5) == ["- arguments: expected an integer, got 1.5"]
    assert _lines({"format": "date"}, "x", formats=True) == [
        '- arguments: expected a string in the date format, got "x"'
    ]


def test_secrets_are_never_shown() -> None:
    schema = {
        "properties": {
            "token": {
                "x-secret": True,
                "type": "string",
                "pattern": "^sk-",
                "not": {"const": "sk-0"},
            },
            "vault": {"x-secret": True, "anyOf": [{"type": "integer"}, {"maxLength": 2}]},
        }
    }
    issues = Checker(schema).issues({"token": "hunter2", "vault": "abcdef"})
    issues += Checker(schema).issues({"token": "sk-0"})
    assert issues and all(i.value is None for i in issues)
    text = " ".join(i.line() for i in issues)
    assert "hunter2" not in text and "abcdef" not in text and "sk-0" not in text
    assert "got a secret value" in text


def test_limit_bounds_the_issues_and_nesting_is_safe() -> None:
    checker = Checker({"items": {"type": "string"}})
    assert len(checker.issues(list(range(100)), limit=5)) == 5
    assert checker.issues([], limit=5) == []
    deep: Any = {"type": "integer"}
    for _ in range(64):
        deep = {"type": "object", "properties": {"a": deep}, "required": ["a"]}
    value: Any = "x"
    for _ in range(64):
        value = {"a": value}
    checker = Checker(deep)
    assert not checker.is_valid(value)
    assert checker.issues(value)[0].location == ("a",) * 64
    # Branches of branches: the explanation is bounded, not exponential.
    wide: Any = {"type": "integer"}
    for _ in range(10):  # 2**10 branches as JSON text (the Python object shares them)
        wide = {"anyOf": [wide, {"allOf": [wide, {"minimum": 0}]}]}
    assert Checker(wide).issues("x")


def test_recursion_through_ref() -> None:
    tree = {
        "$defs": {
            "node": {
                "type": "object",
                "properties": {
                    "value": {"type": "integer"},
                    "children": {"items": {"$ref": "#/$defs/node"}},
                },
                "unevaluatedProperties": False,
            }
        },
        "$ref": "#/$defs/node",
    }
    checker = Checker(tree)
    assert checker.is_valid({"value": 1, "children": [{"value": 2, "children": []}]})
    issues = checker.issues({"value": 1, "children": [{"value": "2", "extra": 1}]})
    assert [(i.path, i.code) for i in issues] == [
        ("children[0].value", "type"),
        ("children[0].extra", "unknown_key"),
    ]
    assert Checker(
        {"$defs": {"a~b/c%d": {"type": "null"}}, "$ref": "#/$defs/a~0b~1c%25d"}
    ).is_valid(None)


@pytest.mark.parametrize(
    "schema",
    [
        {"$dynamicRef": "#x"},
        {"$ref": "other.json"},
        {"$ref": "#anchor"},
        {"$ref": "#/$defs/missing"},
        {"pattern": "(?P<x>a)"},
        {"pattern": "\\p{Script=Greek}"},
        {"$schema": "http://json-schema.org/draft-07/schema#"},
        {"type": "text"},
        {"properties": {"a": 5}},
    ],
)
def test_refused_schemas_name_the_place(schema: Any) -> None:
    with pytest.raises(Unsupported, match="#"):
        Checker({"properties": {"x": schema}})


def test_ecma_pattern() -> None:
    def search(pattern: str, text: str) -> bool:
        compiled = ecma_pattern(pattern)
        assert compiled is not None, pattern
        return compiled.search(text) is not None

    assert not search("^\\d$", "\u0661")  # Arabic-Indic one is not ECMA's \d
    assert not search("^\\w$", "é")
    assert search("^\\s$", "\ufeff") and search("^\\s$", "\u2003") and not search("^\\S$", "\u3000")
    assert not search("^a$", "a\n") and not search("^.$", "\n") and search("^.$", "\U0001f600")
    assert search("^\\p{L}+$", "Ωé") and not search("^\\p{Lu}$", "a") and search("^\\P{N}$", "a")
    assert search("^[\\p{Nd}_]+$", "٣_") and search("^\\p{Letter}$", "x")
    assert search("^(?<y>[0-9]{4})-\\k<y>$", "2020-2020")
    assert search("^\\u{1F600}\\uD83D\\uDE00$", "\U0001f600\U0001f600")
    assert search("^[^]$", "\n") and not search("[]", "a") and search("\\bfoo\\b", "a foo")
    assert search("^\\cJ$", "\n") and search("^[\\b]$", "\b") and search("^a{2}$", "aa")
    for bad in ["\\a", "a{", "}", "]", "(?i)a", "a{,2}", "[\\d-z]", "\\p{Greek}", "\\u{110000}"]:
        assert ecma_pattern(bad) is None, bad
    assert re.compile("x").pattern == "x"  # (the translation returns re patterns)


def test_negated_escapes_and_the_dot_match_exactly_what_their_class_leaves_out() -> None:
    """`\\D \\W \\S` and `.` are written as negated classes (hypothesis builds those at once):
    each matches a code point exactly when its class, or a line terminator, does not."""
    points = [*range(0x3100), *range(0xFEFE, 0xFF01), 0xD800, 0xDFFF, 0x10000, 0x1F600, 0x10FFFF]
    for lower in "dws":
        inside, outside = ecma_pattern(f"^\\{lower}$"), ecma_pattern(f"^\\{lower.upper()}$")
        assert inside is not None and outside is not None
        for cp in points:
            assert (inside.search(chr(cp)) is None) == (outside.search(chr(cp)) is not None), (
                lower,
                hex(cp),
            )
    dot = ecma_pattern("^.$")
    assert dot is not None
    for cp in points:
        assert (dot.search(chr(cp)) is None) == (chr(cp) in "\n\r\u2028\u2029"), hex(cp)


def test_patterns_of_other_engines_have_no_ecma_reading_and_rust_gets_only_its_own() -> None:
    """What pydantic-core's engine (Rust's regex) is trusted with: only patterns it reads as
    ECMA-262 does. The rest go to the exact check, or are refused (no ECMA reading)."""
    from toolgen.schema.patterns import pydantic_exact

    # A POSIX class (a lone `]` in ECMA-262), Python's \Z, a group never closed.
    for other in ("^[[:alpha:]]+$", "^a\\Z", "(", "x]", "a{2"):
        assert ecma_pattern(other) is None and not pydantic_exact(other), other
    # Python reads these as possessive quantifiers, or repeats a look-around: ECMA-262 refuses.
    for other in ("a++", "a*+", "a{2}+", "a+??", "(?=a)*", "(?<!a)+b"):
        assert ecma_pattern(other) is None, other
    assert ecma_pattern("^(?:a)+?(b)*(?<n>c){2}?$") is not None
    for plain in ("^[a-z]+$", "^(ab|cd){2,3}$", "^a\\.b-c$", "^[^ ]*$", "[é-ü]"):
        assert pydantic_exact(plain), plain
    # Valid ECMA-262 that Rust reads otherwise: set operators, empty classes.
    for other in ("^[a&&b]$", "^[a~~b]$", "^[]$", "^[^]$", "\\d", "."):
        assert ecma_pattern(other) is not None and not pydantic_exact(other), other
    assert ecma_pattern("^[a&&b]$").search("&")  # type: ignore[union-attr]
