"""A schema as the rows of a parameters table (catalog/params.py)."""

from __future__ import annotations

from toolgen.catalog.params import Field, constraints_of, fields, rows, type_of

SCHEMA = {
    "type": "object",
    "properties": {
        "query": {"type": "string", "minLength": 1, "description": "What to look for"},
        "limit": {"type": "integer", "minimum": 1, "default": 10},
        "address": {"$ref": "#/$defs/address"},
        "tags": {"type": "array", "items": {"type": "string"}},
        "tree": {"$ref": "#/$defs/node"},
    },
    "required": ["query"],
    "$defs": {
        "address": {
            "type": "object",
            "properties": {"city": {"type": "string", "description": "The city's name"}},
            "required": ["city"],
        },
        "node": {
            "type": "object",
            "properties": {"children": {"type": "array", "items": {"$ref": "#/$defs/node"}}},
        },
    },
}


def test_each_property_is_a_row_with_its_facts() -> None:
    query, limit, address, tags, tree = rows(SCHEMA)
    assert (query.name, query.type, query.required, query.default) == (
        "query",
        "string",
        True,
        None,
    )
    assert query.constraints == ("minLength: 1",) and query.description == "What to look for"
    assert (limit.required, limit.default, limit.constraints) == (False, "10", ("minimum: 1",))
    assert tags.type == "array of string" and tags.children == ()


def test_a_ref_is_followed_and_its_rows_nest() -> None:
    address = rows(SCHEMA)[2]
    assert address.ref == "address" and address.type == "object (address)"
    (city,) = address.children
    assert (city.name, city.required, city.description) == ("city", True, "The city's name")


def test_a_recursive_ref_is_expanded_once() -> None:
    tree = rows(SCHEMA)[4]
    (children,) = tree.children
    (item,) = children.children
    assert item.name == "[item]" and item.recursive and item.children == ()


def test_types_of_enums_unions_and_variants() -> None:
    assert type_of({"enum": ["a", 1]}, {}) == 'one of "a", 1'
    assert type_of({"type": ["string", "null"]}, {}) == "string | null"
    assert type_of({"anyOf": [{"type": "string"}, {"type": "integer"}]}, {}) == "string | integer"
    assert type_of(True, {}) == "any"
    variants = rows({"oneOf": [{"type": "object", "properties": {"a": {"type": "string"}}}]})
    assert [v.name for v in variants] == ["[variant] 1"] and variants[0].children[0].name == "a"


def test_constraints_in_a_fixed_order() -> None:
    schema = {
        "maxLength": 3,
        "pattern": "^a",
        "minLength": 1,
        "additionalProperties": False,
        "properties": {},
    }
    assert constraints_of(schema) == (
        "minLength: 1",
        "maxLength: 3",
        'pattern: "^a"',
        "no other keys",
    )


def test_the_playgrounds_fields_are_the_scalar_parameters() -> None:
    schema = {
        "type": "object",
        "properties": {
            "query": {"type": "string"},
            "limit": {"type": ["integer", "null"]},
            "ratio": {"$ref": "#/$defs/ratio"},
            "strict": {"type": "boolean"},
            "unit": {"enum": ["celsius", "fahrenheit", None]},
            "tags": {"type": "array", "items": {"type": "string"}},  # in the JSON only
            "either": {"type": ["string", "integer"]},
            "shape": {"enum": [{"x": 1}]},
        },
        "required": ["query", "unit"],
        "$defs": {"ratio": {"type": "number"}},
    }
    assert fields(schema) == (
        Field("query", "string", True),
        Field("limit", "integer", False),
        Field("ratio", "number", False),
        Field("strict", "boolean", False, ("true", "false")),
        Field("unit", "enum", True, ('"celsius"', '"fahrenheit"', "null")),
    )
    assert fields({"type": "object"}) == () and fields(True) == ()
