"""Schema clean-up shared by exporters."""

from __future__ import annotations

from typing import Any

DATA_KEYWORDS = ("const", "enum", "default", "examples", "example")


def public(schema: Any) -> Any:
    """The schema a provider sees: toolgen's own `x-` keywords removed."""
    if isinstance(schema, list):
        return [public(s) for s in schema]
    if not isinstance(schema, dict):
        return schema
    return {
        k: (v if k in DATA_KEYWORDS else public(v))
        for k, v in schema.items()
        if not k.startswith("x-") and k != "$schema"
    }
