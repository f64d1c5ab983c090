"""The schema families benchmarks/validation.py adds to the tools of validation_tools.py.

The families the exact check used to walk: patterns pydantic-core reads otherwise (`\\d`, `\\w`),
a format (an annotation: nothing to check), uniqueItems, bounded numbers with multipleOf
(order); shared definitions (refs); unions (a tagged oneOf, an anyOf of types).
"""

from typing import Any

from validation_tools import ADDRESS, SHIPPING
from validation_tools import _tool as tool

ORDER_ITEM = {
    "type": "object",
    "required": ["sku", "quantity", "unit_price"],
    "properties": {
        "sku": {"type": "string", "pattern": "^[A-Z]{2}-\\d{4}$", "description": "SKU"},
        "quantity": {"type": "integer", "minimum": 1, "maximum": 100, "description": "How many"},
        "unit_price": {
            "type": "number",
            "exclusiveMinimum": 0,
            "maximum": 10000,
            "multipleOf": 0.01,
            "description": "Price per unit",
        },
    },
}
ORDER = {
    "spec": tool(
        "place_order",
        "Place an order.",
        {
            "customer": {
                "type": "object",
                "required": ["name", "email", "address"],
                "description": "Who orders",
                "properties": {
                    "name": {"type": "string", "minLength": 1, "description": "Full name"},
                    "email": {"type": "string", "format": "email", "description": "Email"},
                    "phone": {
                        "type": "string",
                        "pattern": "^\\+?\\d{7,15}$",
                        "description": "Phone",
                    },
                    "address": {
                        **ADDRESS,
                        "properties": {
                            **ADDRESS["properties"],  # type: ignore[dict-item]
                            "postal_code": {"type": "string", "pattern": "^[0-9]{5}$"},
                        },
                    },
                },
            },
            "items": {
                "type": "array",
                "minItems": 1,
                "maxItems": 50,
                "items": ORDER_ITEM,
                "description": "What to ship",
            },
            "tags": {
                "type": "array",
                "items": {"type": "string", "pattern": "^\\w+$"},
                "uniqueItems": True,
                "maxItems": 10,
                "description": "Labels",
            },
            "shipping": {"type": "string", "enum": SHIPPING, "description": "Speed"},
        },
        ["customer", "items"],
    ),
    "valid": {
        "customer": {
            "name": "Ada",
            "email": "ada@example.com",
            "phone": "+33123456789",
            "address": {"street": "1 Main St", "city": "Paris", "postal_code": "75001"},
        },
        "items": [
            {"sku": "AB-1234", "quantity": 1, "unit_price": 9.99},
            {"sku": "CD-5678", "quantity": 3, "unit_price": 120.5},
        ],
        "tags": ["gift", "priority"],
        "shipping": "express",
    },
    "invalid": {
        "customer": {"name": "Ada", "email": "ada@example.com", "address": {"street": "1"}},
        "items": [{"sku": "AB-12", "quantity": 1, "unit_price": 9.999}],
        "tags": ["gift", "gift"],
    },
}
_MONEY = {
    "type": "object",
    "required": ["amount", "currency"],
    "properties": {
        "amount": {"type": "number", "minimum": 0},
        "currency": {"type": "string", "enum": ["EUR", "USD", "GBP"]},
    },
}
REFS: dict[str, Any] = {
    "spec": {
        **tool(
            "send_invoice",
            "Send an invoice.",
            {
                "billing": {"$ref": "#/$defs/Address"},
                "shipping": {"$ref": "#/$defs/Address"},
                "total": {"$ref": "#/$defs/Money"},
                "tax": {"$ref": "#/$defs/Money"},
            },
            ["billing", "total"],
        ),
    },
    "valid": {
        "billing": {"street": "1 Main St", "city": "Paris", "country_code": "FR"},
        "shipping": {"street": "2 High St", "city": "London", "country_code": "GB"},
        "total": {"amount": 120.0, "currency": "EUR"},
        "tax": {"amount": 20.0, "currency": "EUR"},
    },
    "invalid": {
        "billing": {"street": "1 Main St", "country_code": "FR"},
        "total": {"amount": -1, "currency": "EUR"},
    },
}
REFS["spec"]["parameters"]["$defs"] = {"Address": ADDRESS, "Money": _MONEY}
UNION = {
    "spec": tool(
        "pay",
        "Pay an amount.",
        {
            "method": {
                "oneOf": [
                    {
                        "type": "object",
                        "required": ["kind", "number"],
                        "properties": {
                            "kind": {"const": "card"},
                            "number": {"type": "string", "minLength": 12, "maxLength": 19},
                        },
                    },
                    {
                        "type": "object",
                        "required": ["kind", "iban"],
                        "properties": {
                            "kind": {"const": "bank"},
                            "iban": {"type": "string", "minLength": 15},
                        },
                    },
                ],
                "description": "How to pay",
            },
            "amount": {
                "anyOf": [{"type": "integer"}, {"type": "string"}],
                "description": "How much",
            },
            "note": {"type": ["string", "null"], "description": "A note"},
        },
        ["method", "amount"],
    ),
    "valid": {"method": {"kind": "bank", "iban": "FR7630006000011234567890189"}, "amount": 120},
    "invalid": {"method": {"kind": "bank", "number": "4111111111111111"}, "amount": 1.5},
}

FAMILIES: dict[str, dict[str, Any]] = {"order": ORDER, "refs": REFS, "union": UNION}
