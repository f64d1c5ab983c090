"""The previous side from a generated package: its MCP definitions (`definitions/mcp.json`, what
`tools/list` told clients) read back as specs. They hold only names, descriptions,
`inputSchema`, `outputSchema` and annotations; the deprecation marks the providers put in
front of descriptions are read back as `deprecated` and `sunset` (`x-sunset` for a parameter).
"""

from __future__ import annotations

import os
import re
from pathlib import Path
from typing import Any

from toolgen.breaking.side import PACKAGE, Side, ToolEntry, Unreadable, version_from
from toolgen.load.document import LoadError, load_file
from toolgen.load.files import Limits
from toolgen.load.specs import ToolSource
from toolgen.providers.mcp import HINTS as MCP_HINTS

# MCP's hints -> the spec's annotations
HINTS = {hint: key for key, hint in MCP_HINTS.items()}
# What the providers put in front of a deprecated tool's or parameter's description.
_DEPRECATED_TOOL = re.compile(
    r"^Deprecated(?::(?P<why>.*?))?(?: \(sunset (?P<sunset>\d{4}-\d{2}-\d{2})\))?\.(?: |$)"
)
_DEPRECATED_PARAMETER = re.compile(
    r"^Deprecated(?: \(sunset (?P<sunset>\d{4}-\d{2}-\d{2})\))?\.(?: |$)"
)


def package(definitions: Path, ref: str) -> Side:
    """A generated package's MCP definitions as specs (what `tools/list` told clients)."""
    folder = definitions.parent.parent
    display = Path(os.path.relpath(definitions, ref)).as_posix()
    try:
        doc = load_file(definitions, display, limit=Limits.from_env().input_bytes)
    except LoadError as exc:
        raise Unreadable(
            f"cannot read {definitions}: {exc.line}:{exc.col}: {exc.message}"
        ) from None
    variants = doc.data.get("variants") if isinstance(doc.data, dict) else None
    if not (
        isinstance(variants, list)
        and variants
        and isinstance(variants[0], dict)
        and isinstance(variants[0].get("definitions"), list)
    ):
        raise Unreadable(f"{definitions} holds no MCP tool definitions (variants[0].definitions)")
    tools = []
    for i, definition in enumerate(variants[0]["definitions"]):
        if isinstance(definition, dict) and isinstance(definition.get("name"), str):
            source = ToolSource(doc, f"/variants/0/definitions/{i}", definition)
            tools.append(
                ToolEntry(
                    definition["name"],
                    _as_spec(definition),
                    source,
                    {"parameters": "inputSchema", "returns": "outputSchema"},
                )
            )
    side = Side(PACKAGE, ref.rstrip("/") + "/", tools, [])
    generated = folder.parent / "pyproject.toml"
    if generated.is_file():
        version_from(side, generated.read_text("utf-8"), generated.as_posix(), generated=True)
    return side


def _as_spec(definition: dict[str, Any]) -> dict[str, Any]:
    """An MCP definition read back as a spec: the deprecation marks of the descriptions as keys."""
    spec: dict[str, Any] = {"name": definition["name"]}
    description = definition.get("description")
    if isinstance(description, str):
        marked = _DEPRECATED_TOOL.match(description)
        if marked:
            description = description[marked.end() :]
            spec["deprecated"] = {"reason": (marked["why"] or "").strip()}
            if marked["sunset"]:
                spec["sunset"] = marked["sunset"]
        spec["description"] = description
    if isinstance(definition.get("title"), str):
        spec["title"] = definition["title"]
    if isinstance(definition.get("inputSchema"), dict):
        spec["parameters"] = _unmarked(definition["inputSchema"])
    if isinstance(definition.get("outputSchema"), dict):
        spec["returns"] = definition["outputSchema"]
    hints = definition.get("annotations")
    if isinstance(hints, dict):
        spec["annotations"] = {HINTS[k]: v for k, v in hints.items() if k in HINTS}
    return spec


def _unmarked(schema: dict[str, Any]) -> dict[str, Any]:
    """Parameters with "Deprecated (sunset D)." read back as `x-sunset: D` (one level: the root's properties)."""
    properties = schema.get("properties")
    if not isinstance(properties, dict):
        return schema
    out = dict(properties)
    for name, sub in properties.items():
        text = sub.get("description") if isinstance(sub, dict) else None
        marked = (
            _DEPRECATED_PARAMETER.match(text)
            if isinstance(text, str) and sub.get("deprecated") is True
            else None
        )
        if marked and isinstance(sub, dict):
            out[name] = {
                **sub,
                "description": text[marked.end() :] if isinstance(text, str) else text,
            }
            if marked["sunset"]:
                out[name]["x-sunset"] = marked["sunset"]
    return {**schema, "properties": out}
