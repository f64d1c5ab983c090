"""Deterministic synthetic tool specs for the benchmarks.

`write_specs(folder, n, seed)` writes N one-tool YAML files (spread over a few category
folders) and returns the tools as dicts. Each tool has 3-8 parameters drawn from the
constructs real tool schemas use: strings with a pattern and length bounds, integers
with ranges and defaults, numbers with exclusive bounds, enums, arrays with item
constraints, formats, a nested closed object, optional and nullable fields, plus a
`returns` schema. Same (n, seed) -> same bytes, on any machine.

    python benchmarks/synthetic.py OUT_DIR N [--seed 7] [--json DIR]
"""

from __future__ import annotations

import argparse
import json
import random
from pathlib import Path
from typing import Any

import yaml

VERBS = (
    "get",
    "list",
    "create",
    "update",
    "delete",
    "search",
    "send",
    "fetch",
    "sync",
    "archive",
    "resolve",
    "schedule",
    "cancel",
    "export",
    "import",
    "validate",
    "render",
    "summarize",
)
NOUNS = (
    "issue",
    "invoice",
    "user",
    "order",
    "flight",
    "ticket",
    "repo",
    "file",
    "message",
    "event",
    "forecast",
    "customer",
    "payment",
    "report",
    "dataset",
    "document",
    "meeting",
    "shipment",
)
CATEGORIES = ("crm", "devtools", "billing", "travel", "files", "comms")
# Parameter names by kind, so that a `limit` is an integer and a `sort` an enum.
NAMES = {
    "string": (
        "query",
        "owner",
        "slug",
        "currency",
        "label",
        "color",
        "path",
        "cursor",
        "version",
        "folder",
    ),
    "integer": (
        "limit",
        "offset",
        "page",
        "quantity",
        "retries",
        "max_results",
        "priority",
        "timeout",
    ),
    "number": ("amount", "radius", "threshold", "temperature", "weight", "budget"),
    "enum": ("sort", "status", "order", "unit_system", "state", "format", "level"),
    "array": ("tags", "labels", "ids", "assignees", "fields", "recipients"),
    "format": ("due", "start", "end", "email", "url", "homepage", "request_id", "since"),
    "boolean": ("notify", "dry_run", "include_archived", "force", "verbose", "public"),
    "nullable": ("reason", "parent_id", "note", "region", "timezone", "language"),
    "object": ("address", "location", "billing_address", "destination", "origin"),
}
# pattern -> a value that matches it (and every length bound drawn below)
PATTERNS = {
    r"^[a-z0-9][a-z0-9-]{0,38}$": "acme-42",
    r"^[A-Z]{3}$": "EUR",
    r"^[A-Za-z0-9_.-]+$": "v1.2_b",
    r"^\d{4}-\d{2}-\d{2}$": "2026-11-21",
    r"^#[0-9a-fA-F]{6}$": "#a0b1c2",
    r"^[a-z]+(/[a-z0-9_-]+)*$": "docs/q3",
}
FORMAT_VALUES = {
    "date-time": "2026-11-21T10:00:00Z",
    "email": "ops@example.com",
    "uri": "https://example.com/x",
    "date": "2026-11-21",
    "uuid": "0b9d6a52-3c1e-4f7a-9a53-2f5c1d7e8a90",
}
ENUMS = (
    ["asc", "desc"],
    ["open", "closed", "all"],
    ["low", "normal", "high", "urgent"],
    ["metric", "imperial"],
    ["draft", "published", "archived"],
    ["json", "csv", "xml", "parquet"],
)
FORMATS = tuple(FORMAT_VALUES)
KINDS = ("string", "integer", "number", "enum", "array", "format", "boolean", "nullable", "object")


def _describe(rng: random.Random, name: str) -> str:
    return rng.choice(
        (
            f"The {name.replace('_', ' ')} to use.",
            f"Which {name.replace('_', ' ')}; see the docs.",
            f"{name.replace('_', ' ').capitalize()} of the request.",
        )
    )


def _property(rng: random.Random, kind: str, name: str) -> dict[str, Any]:
    out: dict[str, Any]
    if kind == "string":
        low = rng.randint(1, 3)
        out = {
            "type": "string",
            "minLength": low,
            "maxLength": rng.choice((40, 80, 200)),
            "pattern": rng.choice(list(PATTERNS)),
        }
    elif kind == "integer":
        low = rng.choice((0, 1))
        high = rng.choice((10, 100, 1000))
        out = {
            "type": "integer",
            "minimum": low,
            "maximum": high,
            "default": rng.randint(low, min(high, 50)),
        }
    elif kind == "number":
        out = {"type": "number", "exclusiveMinimum": 0, "maximum": rng.choice((1.0, 100.0, 1e6))}
    elif kind == "enum":
        values = rng.choice(ENUMS)
        out = {"type": "string", "enum": list(values)}
        if rng.random() < 0.5:
            out["default"] = values[0]
    elif kind == "array":
        item = rng.choice(
            ({"type": "string", "minLength": 1, "maxLength": 50}, {"type": "integer", "minimum": 0})
        )
        out = {
            "type": "array",
            "items": item,
            "minItems": rng.choice((0, 1)),
            "maxItems": rng.choice((10, 20, 100)),
        }
    elif kind == "format":
        out = {"type": "string", "format": rng.choice(FORMATS)}
    elif kind == "boolean":
        out = {"type": "boolean", "default": rng.random() < 0.5}
    elif kind == "nullable":
        inner = rng.choice(("string", "integer"))
        if rng.random() < 0.5:
            out = {"type": [inner, "null"]}
        else:
            out = {"anyOf": [{"type": inner}, {"type": "null"}]}
        if rng.random() < 0.5:
            out["default"] = None
    else:  # a nested closed object
        fields = rng.sample(
            ("street", "city", "country", "postal_code", "lat", "lon"), rng.randint(2, 4)
        )
        properties: dict[str, Any] = {}
        for field in fields:
            if field in ("lat", "lon"):
                properties[field] = {
                    "type": "number",
                    "minimum": -180,
                    "maximum": 180,
                    "description": _describe(rng, field),
                }
            else:
                properties[field] = {
                    "type": "string",
                    "maxLength": 100,
                    "description": _describe(rng, field),
                }
        out = {
            "type": "object",
            "properties": properties,
            "required": fields[:1],
            "additionalProperties": False,
        }
    return {"description": _describe(rng, name), **out}


def _returns(rng: random.Random) -> dict[str, Any]:
    if rng.random() < 0.25:
        return {"type": "array", "items": {"type": "string"}}
    return {
        "type": "object",
        "properties": {
            "id": {"type": "string"},
            "ok": {"type": "boolean"},
            "count": {"type": "integer", "minimum": 0},
            **(
                {
                    "items": {
                        "type": "array",
                        "items": {
                            "type": "object",
                            "properties": {"name": {"type": "string"}, "score": {"type": "number"}},
                        },
                    }
                }
                if rng.random() < 0.5
                else {}
            ),
        },
        "required": ["ok"],
    }


def make_tool(rng: random.Random, index: int) -> dict[str, Any]:
    verb, noun = rng.choice(VERBS), rng.choice(NOUNS)
    name = f"{verb}_{noun}_{index:04d}"
    count = rng.randint(3, 8)
    kinds = [rng.choice(KINDS) for _ in range(count)]
    if "object" not in kinds and rng.random() < 0.4:
        kinds[-1] = "object"
    names: list[str] = []
    for kind in kinds:
        free = [n for n in NAMES[kind] if n not in names]
        names.append(rng.choice(free) if free else f"{kind}_{len(names)}")
    properties = {n: _property(rng, k, n) for n, k in zip(names, kinds, strict=False)}
    required = [
        n
        for n, k in zip(names, kinds, strict=False)
        if k not in ("nullable", "boolean") and rng.random() < 0.4
    ]
    if not required:
        required = [names[0]]
    parameters = {
        "type": "object",
        "properties": properties,
        "required": required,
        "additionalProperties": False,
    }
    return {
        "name": name,
        "description": f"{verb.capitalize()} a {noun} ({index}). Use it when the user asks to {verb} {noun}s.",
        "category": CATEGORIES[index % len(CATEGORIES)],
        "parameters": parameters,
        "returns": _returns(rng),
    }


def example_value(schema: dict[str, Any]) -> Any:
    """A value valid for a schema made by `_property` (for timing a successful validation)."""
    if "enum" in schema:
        return schema["enum"][0]
    if "anyOf" in schema or isinstance(schema.get("type"), list):
        return None
    kind = schema["type"]
    if kind == "string":
        return PATTERNS.get(
            schema.get("pattern", ""), FORMAT_VALUES.get(schema.get("format", ""), "text")
        )
    if kind == "integer":
        return schema.get("minimum", 0) + 1
    if kind == "number":
        return 0.5
    if kind == "boolean":
        return True
    if kind == "array":
        return [example_value(schema["items"])] * max(1, schema.get("minItems", 0))
    return {
        k: example_value(v)
        for k, v in schema["properties"].items()
        if k in schema.get("required", [])
    }


def example_arguments(tool: dict[str, Any]) -> dict[str, Any]:
    """Valid arguments for a synthetic tool: every property, each with a valid value."""
    return {k: example_value(v) for k, v in tool["parameters"]["properties"].items()}


def make_tools(n: int, seed: int = 7) -> list[dict[str, Any]]:
    rng = random.Random(f"toolgen-bench-{seed}")
    return [make_tool(rng, i) for i in range(n)]


def write_specs(folder: Path, n: int, seed: int = 7) -> list[dict[str, Any]]:
    """N one-tool YAML files under folder/<category>/<name>.yaml."""
    tools = make_tools(n, seed)
    for tool in tools:
        target = folder / tool["category"] / f"{tool['name']}.yaml"
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_text(
            yaml.safe_dump(tool, sort_keys=False, allow_unicode=True, width=100), "utf-8"
        )
    return tools


def class_prefix(name: str) -> str:
    return "".join(part.capitalize() for part in name.split("_"))


def parameter_schema(tool: dict[str, Any]) -> dict[str, Any]:
    """The tool's parameters as a standalone schema for datamodel-code-generator."""
    return {"title": f"{class_prefix(tool['name'])}Arguments", **tool["parameters"]}


def write_parameter_schemas(folder: Path, tools: list[dict[str, Any]]) -> list[Path]:
    folder.mkdir(parents=True, exist_ok=True)
    paths = []
    for tool in tools:
        path = folder / f"{tool['name']}.json"
        path.write_text(json.dumps(parameter_schema(tool), indent=2) + "\n", "utf-8")
        paths.append(path)
    return paths


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("out", type=Path)
    parser.add_argument("n", type=int)
    parser.add_argument("--seed", type=int, default=7)
    parser.add_argument(
        "--json", type=Path, help="also write each tool's parameters as a JSON Schema file here"
    )
    args = parser.parse_args()
    tools = write_specs(args.out, args.n, args.seed)
    if args.json:
        write_parameter_schemas(args.json, tools)
    print(f"{len(tools)} tools -> {args.out}")


if __name__ == "__main__":
    main()
