"""The tools and mistakes of benchmarks/validation.py, and the same tools as pydantic-ai functions."""

from typing import Annotated, Any, Literal

SHIPPING = ["standard", "express", "overnight"]
CABINS = ["economy", "premium", "business", "first"]


def _wide_properties() -> dict[str, Any]:
    properties: dict[str, Any] = {
        "origin": {
            "type": "string",
            "minLength": 3,
            "maxLength": 3,
            "description": "IATA code of the origin",
        },
        "destination": {
            "type": "string",
            "minLength": 3,
            "maxLength": 3,
            "description": "IATA code of the destination",
        },
        "departure_date": {"type": "string", "description": "Departure date, YYYY-MM-DD"},
        "return_date": {"type": "string", "description": "Return date, YYYY-MM-DD"},
        "adults": {
            "type": "integer",
            "minimum": 1,
            "maximum": 9,
            "description": "Adult passengers",
        },
        "children": {
            "type": "integer",
            "minimum": 0,
            "maximum": 9,
            "description": "Child passengers",
        },
        "infants": {
            "type": "integer",
            "minimum": 0,
            "maximum": 4,
            "description": "Infant passengers",
        },
        "cabin": {"type": "string", "enum": CABINS, "description": "Cabin class"},
        "nonstop": {"type": "boolean", "description": "Only nonstop flights"},
        "max_stops": {
            "type": "integer",
            "minimum": 0,
            "maximum": 3,
            "description": "At most this many stops",
        },
        "max_price": {"type": "number", "minimum": 0, "description": "Price ceiling"},
        "currency": {"type": "string", "enum": ["EUR", "USD", "GBP"], "description": "Currency"},
        "airlines": {
            "type": "array",
            "items": {"type": "string"},
            "description": "Only these airlines",
        },
        "exclude_airlines": {
            "type": "array",
            "items": {"type": "string"},
            "description": "Never these airlines",
        },
        "flexible_days": {
            "type": "integer",
            "minimum": 0,
            "maximum": 3,
            "description": "Search +- days",
        },
        "sort_by": {
            "type": "string",
            "enum": ["price", "duration", "departure"],
            "description": "Sort order",
        },
        "limit": {
            "type": "integer",
            "minimum": 1,
            "maximum": 100,
            "description": "Results to return",
        },
        "include_baggage": {"type": "boolean", "description": "Price checked baggage in"},
        "refundable_only": {"type": "boolean", "description": "Only refundable fares"},
        "alliance": {
            "type": "string",
            "enum": ["star", "oneworld", "skyteam"],
            "description": "Airline alliance",
        },
        "departure_after": {"type": "string", "description": "Earliest departure time, HH:MM"},
        "departure_before": {"type": "string", "description": "Latest departure time, HH:MM"},
        "max_duration_hours": {
            "type": "number",
            "minimum": 0,
            "description": "Longest acceptable trip",
        },
        "loyalty_program": {"type": "string", "description": "Frequent flyer program"},
    }
    return properties


def _tool(
    name: str, description: str, properties: dict[str, Any], required: list[str]
) -> dict[str, Any]:
    return {
        "name": name,
        "description": description,
        "parameters": {"type": "object", "properties": properties, "required": required},
    }


ADDRESS = {
    "type": "object",
    "description": "Where to ship",
    "required": ["street", "city"],
    "properties": {
        "street": {"type": "string", "description": "Street and number"},
        "city": {"type": "string", "description": "City"},
        "country_code": {
            "type": "string",
            "enum": ["FR", "DE", "US", "GB"],
            "description": "ISO country code",
        },
    },
}
ITEM = {
    "type": "object",
    "required": ["sku", "quantity"],
    "description": "One line",
    "properties": {
        "sku": {"type": "string", "description": "Stock keeping unit"},
        "quantity": {"type": "integer", "minimum": 1, "description": "How many"},
    },
}

TOOLS: dict[str, dict[str, Any]] = {
    "tiny": {
        "spec": _tool(
            "echo",
            "Repeat a text.",
            {"text": {"type": "string", "description": "The text"}},
            ["text"],
        ),
        "valid": {"text": "hello"},
        "invalid": {"txt": "hello"},
    },
    "typical": {
        "spec": _tool(
            "get_weather",
            "Get the weather forecast for a city.",
            {
                "location": {"type": "string", "description": "City and country"},
                "days": {
                    "type": "integer",
                    "minimum": 1,
                    "maximum": 14,
                    "description": "Forecast days",
                },
                "units": {
                    "type": "string",
                    "enum": ["celsius", "fahrenheit"],
                    "default": "celsius",
                    "description": "Units",
                },
            },
            ["location", "days"],
        ),
        "valid": {"location": "Paris", "days": 3, "units": "celsius"},
        "invalid": {"loction": "Paris", "days": 3},
    },
    "wide": {
        "spec": _tool(
            "search_flights",
            "Search flights.",
            _wide_properties(),
            ["origin", "destination", "departure_date"],
        ),
        "valid": {
            "origin": "CDG",
            "destination": "JFK",
            "departure_date": "2026-12-01",
            "return_date": "2026-12-09",
            "adults": 2,
            "children": 1,
            "cabin": "economy",
            "nonstop": True,
            "max_price": 900.0,
            "currency": "EUR",
            "airlines": ["AF", "DL"],
            "sort_by": "price",
            "limit": 20,
            "include_baggage": True,
            "alliance": "skyteam",
            "departure_after": "08:00",
        },
        "invalid": {
            "origin": "CDG",
            "destination": "JFK",
            "departure_date": "2026-12-01",
            "adults": 2,
            "cabin": "bussiness",
            "nonstop": True,
            "max_price": 900.0,
            "sort": "price",
            "limit": 20,
        },
    },
    "nested": {
        "spec": _tool(
            "create_order",
            "Create an order.",
            {
                "customer": {
                    "type": "object",
                    "description": "Who orders",
                    "required": ["name", "address"],
                    "properties": {
                        "name": {"type": "string", "description": "Full name"},
                        "email": {"type": "string", "description": "Email address"},
                        "address": ADDRESS,
                    },
                },
                "items": {
                    "type": "array",
                    "minItems": 1,
                    "items": ITEM,
                    "description": "What to ship",
                },
                "shipping": {
                    "type": "string",
                    "enum": SHIPPING,
                    "default": "standard",
                    "description": "Speed",
                },
                "gift_wrap": {"type": "boolean", "default": False, "description": "Wrap the items"},
            },
            ["customer", "items"],
        ),
        "valid": {
            "customer": {
                "name": "Ada",
                "email": "ada@example.com",
                "address": {"street": "1 Main St", "city": "Paris", "country_code": "FR"},
            },
            "items": [{"sku": "A1", "quantity": 1}, {"sku": "B2", "quantity": 3}],
            "shipping": "express",
        },
        "invalid": {
            "customer": {"name": "Ada", "address": {"street": "1 Main St"}},
            "items": [{"sku": "A1", "quantity": 1}, {"sku": "B2", "quantity": "3"}],
        },
    },
}

# The catalogue's mistakes that the peers can be shown (agent-frameworks.md §2 uses get_weather).
MISTAKES: list[dict[str, Any]] = [
    {
        "title": "A misspelled required key",
        "tool": "typical",
        "arguments": {"loction": "Paris", "days": 3},
    },
    {
        "title": "A misspelled optional key (silently dropped by langchain and openai-agents)",
        "tool": "typical",
        "arguments": {"location": "Paris", "days": 3, "unit": "celsius"},
    },
    {
        "title": "A number as a string",
        "tool": "typical",
        "arguments": {"location": "Paris", "days": "three"},
    },
    {
        "title": "An enum typo",
        "tool": "typical",
        "arguments": {"location": "Paris", "days": 3, "units": "celcius"},
    },
    {"title": "Every required key missing", "tool": "typical", "arguments": {}},
    {
        "title": "A missing nested key and a wrong item in an array",
        "tool": "nested",
        "arguments": TOOLS["nested"]["invalid"],
    },
    {
        "title": "camelCase for snake_case, an enum typo, a misspelled optional key",
        "tool": "wide",
        "arguments": {
            "origin": "CDG",
            "destination": "JFK",
            "departureDate": "2026-12-01",
            "cabin": "bussiness",
            "sort": "price",
        },
    },
]


def pydantic_ai_functions() -> dict[str, Any]:
    """The four tools as pydantic-ai writes tools: typed Python functions."""
    from pydantic import BaseModel, ConfigDict, Field

    closed = ConfigDict(extra="forbid")

    class Address(BaseModel):
        model_config = closed
        street: str
        city: str
        country_code: Literal["FR", "DE", "US", "GB"] | None = None

    class Customer(BaseModel):
        model_config = closed
        name: str
        email: str | None = None
        address: Address

    class Item(BaseModel):
        model_config = closed
        sku: str
        quantity: Annotated[int, Field(ge=1)]

    def echo(text: str) -> str:
        """Repeat a text."""
        return text

    def get_weather(
        location: str,
        days: Annotated[int, Field(ge=1, le=14)],
        units: Literal["celsius", "fahrenheit"] = "celsius",
    ) -> str:
        """Get the weather forecast for a city."""
        return location

    def create_order(
        customer: Customer,
        items: Annotated[list[Item], Field(min_length=1)],
        shipping: Literal["standard", "express", "overnight"] = "standard",
        gift_wrap: bool = False,
    ) -> str:
        """Create an order."""
        return customer.name

    return {"tiny": echo, "typical": get_weather, "wide": _wide_function(), "nested": create_order}


def _wide_function() -> Any:
    """search_flights with the wide tool's 24 parameters, written out as a signature."""
    kinds = {
        "string": "str",
        "integer": "int",
        "number": "float",
        "boolean": "bool",
        "array": "list[str]",
    }
    properties = _wide_properties()
    required = {"origin", "destination", "departure_date"}
    params = []
    for name, prop in properties.items():
        kind = f"Literal{prop['enum']!r}" if "enum" in prop else kinds[prop["type"]]
        params.append(f"{name}: {kind}" if name in required else f"{name}: {kind} | None = None")
    params.sort(key=lambda p: "=" in p)
    source = f"def search_flights({', '.join(params)}) -> str:\n    '''Search flights.'''\n    return ''\n"
    namespace: dict[str, Any] = {"Literal": Literal}
    exec(source, namespace)  # noqa: S102 - our own constant source
    return namespace["search_flights"]
